//===- LinearLayout.h - Linear layouts over F2 -------------------*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A linear layout is a linear map between two labeled vector spaces over
/// F2 (the field {0, 1} where addition is XOR). This is the layout model of
/// Triton (docs/design.md §2.3; the linear-layouts paper, document 001).
///
/// ## The model
///
/// The *input* side is a list of named dims such as `register`, `lane`,
/// `warp`, `block` (or `offset` for a memory layout); the *output* side is a
/// list of named dims such as `dim0`, `dim1` (the logical tensor
/// coordinates). Every dim has a size that is a power of two, so an index in
/// a dim of size 2^k is a k-bit vector, and the whole input is the
/// concatenation of those bit vectors (in dim order, low bits first).
///
/// The layout stores one *basis* per input bit: the output (one value per
/// output dim) that the input with only that bit set maps to. Linearity over
/// F2 gives everything else:
///
///     L(x) = XOR of basis(i) over the set bits i of x.
///
/// Worked example. The layout
///
///     {register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]}
///         -> {dim0: 8, dim1: 8}
///
/// has 1 register bit and 5 lane bits (32 lanes). Lane 5 = 0b00101 sets lane
/// bits 0 and 2, so L(register 1, lane 5) = (0,1) ^ (0,2) ^ (1,0) = (1,3):
/// register 1 of lane 5 holds element [1][3]. This is the first 8x8 quarter
/// of the mma.sync accumulator: each lane holds two adjacent columns.
///
/// A zero basis means "this input bit does not change the output": the data
/// is broadcast (duplicated) along it. Two input coordinates that differ only
/// in such bits hold the same element.
///
/// Building layouts by products. The product A * B is the direct sum with A
/// minor: on a shared output dim, B's values are shifted above A's size.
///
///     identity1D(2, register, dim1)      {register: [(1)]} -> {dim1: 2}
///   * identity1D(4, lane, dim1)          lane bits continue dim1: 2, 4
///   * identity1D(8, lane, dim0)          then rows: 1, 2, 4
///   = {register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]}
///     (after ordering the output dims as dim0, dim1): the layout above.
///
/// Moving data between layouts. With A (registers -> tensor) the layout data
/// is in and B the one it must go to, C = A.invertAndCompose(B) maps each
/// hardware location of A to the location of B that needs the same element
/// (B(C(x)) = A(x)). If A and B differ only in how registers are numbered,
/// C maps every lane and warp to itself: the conversion is a register
/// permutation, no shuffles, no shared memory.
///
/// ## Representation
///
/// Dim names are interned to small integer ids (`DimId`); the common names
/// have constant ids (`dims::kRegister`, `dims::dim(0)`, ...). The bases are
/// packed into machine words: column j (input bit j of the flattened input)
/// is one uint64_t whose bits are the flattened output, output dim k
/// occupying bits [outShift(k), outShift(k) + outLog2(k)). At most 64 input
/// bits and 64 output bits in total, at most kMaxDims dims on each side. All
/// of it lives inline, so copying, applying, composing, inverting and
/// eliminating never allocate.
///
/// ## Operations (each documented below with its math and an example)
///
///  * apply / applyFlat               L(x)
///  * compose                         (A.compose(B))(x) = B(A(x))
///  * product (operator*)             direct sum; the left operand is minor
///  * divideLeft / divideRight        inverse of the product
///  * invert / pseudoinvert / invertAndCompose
///  * sublayout / sublayoutIsZero, transpose / reshape / flatten / squeeze /
///    concat / rename of dims, resize
///  * freeVariableMasks, zeroColumnMasks, rank, injective / surjective
///  * str() (the text form of Text.h, which round-trips) and toString()
///    (a readable list of bases).
///
/// Every fallible operation returns lk::Expected; nothing throws.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_LINEARLAYOUT_H
#define LAYOUTKIT_LINEAR_LINEARLAYOUT_H

#include "layoutkit/core/Bits.h"
#include "layoutkit/core/Expected.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lk::linear {

//===----------------------------------------------------------------------===//
// Dim names
//===----------------------------------------------------------------------===//

/// An interned dim name. Equal names have equal ids for the life of the
/// process.
using DimId = uint16_t;

/// Interns `name` (thread-safe). Names are [A-Za-z_][A-Za-z0-9_]*; the
/// parser enforces that, this function accepts any string. A process holds
/// at most 65535 distinct names (ids are 16-bit); once the table is full a
/// new name gets dims::kNoDim, over which no layout can be built (the
/// constructors refuse it with a diagnostic, the text parser at the name).
DimId internDim(std::string_view name);
/// The name of an interned id. @pre id came from internDim or dims::
std::string_view dimName(DimId id);
/// `name` interned (internDim) when it is a dim name the text form reads
/// back, [A-Za-z_][A-Za-z0-9_]*; otherwise a diagnostic that quotes it. For
/// names that do not come from the parser (the bindings' arguments).
/// Example: dimNamed("lane") == dims::kLane; dimNamed("re g") fails.
Expected<DimId> dimNamed(std::string_view name);

/// Ids fixed at start-up (no lookup needed).
namespace dims {
inline constexpr DimId kRegister = 0;
inline constexpr DimId kLane = 1;
inline constexpr DimId kWarp = 2;
inline constexpr DimId kBlock = 3;
inline constexpr DimId kOffset = 4;
inline constexpr DimId kIteration = 5;
/// "dim0" ... "dim15".
inline constexpr DimId kDim0 = 6;
/// What internDim gives a new name once the table is full.
inline constexpr DimId kNoDim = 0xFFFF;
inline constexpr int kNumStandardOutDims = 16;
constexpr DimId dim(int i) { return DimId(kDim0 + i); }
} // namespace dims

/// A dim with its size as log2.
struct DimSize {
  DimId id = 0;
  int log2 = 0;
  /// 2^log2 (a layout's dims have at most LinearLayout::kMaxDimBits bits;
  /// saturated at INT64_MAX for a log2 of 63 or 64, pow2Saturated).
  int64_t size() const { return pow2Saturated(log2); }
  bool operator==(const DimSize &) const = default;
};

/// One input dim with its bases, one basis per input bit (bit 0 first);
/// each basis lists its value on every output dim, in output-dim order.
struct InDimBases {
  DimId dim;
  std::vector<std::vector<int64_t>> bases;
};

/// One input dim with its bases as a flat row-major table: `count` bases,
/// each one value per output dim (`values` holds count * numOutDims values).
struct InDimTable {
  DimId dim;
  int count;
  const int64_t *values;
};

/// An output dim given by name and size (a power of two).
struct OutDim {
  DimId dim;
  int64_t size;
};

class LinearLayout;

/// The product (direct sum) `inner * outer`: input dims are the union, in
/// Triton's supremum order of both lists (a merge keeping both relative
/// orders, inner's dim first where either may come next: sup([a, b], [c, b])
/// = [a, c, b]; common dims must appear in the same relative order), output
/// dims likewise; for a common input dim, inner's bases come first; for a
/// common output dim, outer's values are shifted above inner's.
/// Example: identity1D(4, register, dim0) * identity1D(2, register, dim0) is
/// identity1D(8, register, dim0); identity1D(4, lane, dim0) *
/// identity1D(2, register, dim1) maps lane bits to dim0 and the register bit
/// to dim1. `op` names the operation in a fault ("join: input dim
/// 'register' would have 63 bits; ..."), for a caller whose user asked
/// for another operation built on the product.
Expected<LinearLayout> product(const LinearLayout &inner,
                               const LinearLayout &outer,
                               const char *op = "product");

class LinearLayout {
public:
  static constexpr int kMaxDims = 16;
  /// Most bits of all input (output) dims together.
  static constexpr int kMaxBits = 64;
  /// Most bits of one dim of a layout that construction, shape operations
  /// and products accept: its size, at most 2^62, is an exact positive
  /// int64_t (2^63 is not), as printed, compared and read back. (The
  /// internal flattenIns / flattenOuts may join dims past it.)
  static constexpr int kMaxDimBits = 62;

  /// The empty layout: no input dims, no output dims; maps 0 to 0.
  /// (User-provided, so that value-initialization, e.g. an Expected built
  /// in place, does not zero the ~650 bytes of inline storage first.)
  LinearLayout() noexcept {}
  /// Copies only the dims and columns in use (a layout is ~650 bytes of
  /// inline storage; a typical one uses ~150).
  LinearLayout(const LinearLayout &o) noexcept { copyFrom(o); }
  LinearLayout &operator=(const LinearLayout &o) noexcept {
    if (this != &o)
      copyFrom(o);
    return *this;
  }
  static LinearLayout empty() { return LinearLayout(); }

  //===--------------------------------------------------------------------===//
  // Construction
  //===--------------------------------------------------------------------===//

  /// The identity x -> x from `in` (size `size`, a power of two) to `out`.
  /// identity1D(8, register, dim0) has bases [1, 2, 4]. Size 1 gives a layout
  /// with both dims of size 1 (no bases).
  static Expected<LinearLayout> identity1D(int64_t size, DimId in, DimId out);
  /// The zero map from `in` (size `size`) to `out` (size 1): every basis 0
  /// (broadcast). zeros1D(4, lane, dim0) has bases [0, 0].
  static Expected<LinearLayout> zeros1D(int64_t size, DimId in, DimId out);

  /// Builds from bases and output dims with explicit sizes. Checks that
  /// every size is a power of two, every basis has one value per output dim,
  /// values are in [0, size), names are distinct, and the totals fit
  /// (64 input bits, 64 output bits, kMaxDims dims). With
  /// `requireSurjective`, also that every output is reached.
  static Expected<LinearLayout> make(std::span<const InDimBases> ins,
                                     std::span<const OutDim> outs,
                                     bool requireSurjective = false);
  static Expected<LinearLayout> make(std::initializer_list<InDimBases> ins,
                                     std::initializer_list<OutDim> outs,
                                     bool requireSurjective = false) {
    return make(std::span(ins.begin(), ins.size()),
                std::span(outs.begin(), outs.size()), requireSurjective);
  }
  /// The same from flat basis tables (no nested containers to walk).
  /// Example: int64_t lane[] = {0,2, 0,4, 1,0}; make({{kLane, 3, lane}},
  /// {{dim(0), 2}, {dim(1), 8}}).
  static Expected<LinearLayout> make(std::span<const InDimTable> ins,
                                     std::span<const OutDim> outs,
                                     bool requireSurjective = false);
  /// Builds from bases and output dim names; each output size is inferred as
  /// the smallest power of two above every basis value on that dim (as
  /// Triton's LinearLayout(bases, outDimNames) does), and the result must be
  /// surjective.
  static Expected<LinearLayout> make(std::span<const InDimBases> ins,
                                     std::span<const DimId> outNames);
  static Expected<LinearLayout> make(std::initializer_list<InDimBases> ins,
                                     std::initializer_list<DimId> outNames) {
    return make(std::span(ins.begin(), ins.size()),
                std::span(outNames.begin(), outNames.size()));
  }
  /// The fast path: dims with log2 sizes and packed columns (one per input
  /// bit, flattened output bits as described in the file comment). Checks
  /// limits, distinct names, and that no column has a bit outside the output.
  static Expected<LinearLayout> fromColumns(std::span<const DimSize> ins,
                                            std::span<const DimSize> outs,
                                            std::span<const uint64_t> columns);

  //===--------------------------------------------------------------------===//
  // Dims
  //===--------------------------------------------------------------------===//

  int numInDims() const { return nIn_; }
  int numOutDims() const { return nOut_; }
  DimSize inDim(int i) const { return {in_[i].id, in_[i].log2}; }
  DimSize outDim(int i) const { return {out_[i].id, out_[i].log2}; }
  /// Index of a dim, or -1 when absent.
  int inDimIndex(DimId id) const;
  int outDimIndex(DimId id) const;
  /// Index of the in-dim (out-dim) named `name`, for a name a user gave;
  /// fails when there is none, listing the layout's dims: findInDim("nope")
  /// -> "the layout has no in-dim 'nope' (its in-dims: register, lane)".
  Expected<int> findInDim(std::string_view name) const;
  Expected<int> findOutDim(std::string_view name) const;
  /// Whether the layout has an in-dim (out-dim) of this name: false for any
  /// other string, which is not interned (a lookup adds no name to the
  /// process's table of at most 65535).
  bool hasInDimNamed(std::string_view name) const {
    return findInDim(name).hasValue();
  }
  bool hasOutDimNamed(std::string_view name) const {
    return findOutDim(name).hasValue();
  }
  bool hasInDim(DimId id) const { return inDimIndex(id) >= 0; }
  bool hasOutDim(DimId id) const { return outDimIndex(id) >= 0; }
  /// Size of a dim (1 when absent, as for an empty dimension): 2^log2,
  /// exact (a dim has at most kMaxDimBits bits).
  int64_t inDimSize(DimId id) const;
  int64_t outDimSize(DimId id) const;
  int inDimLog2(DimId id) const;
  int outDimLog2(DimId id) const;
  /// First flattened bit of input dim i / output dim i.
  int inShift(int i) const { return in_[i].shift; }
  int outShift(int i) const { return out_[i].shift; }
  /// Sum of input / output log2 sizes (number of columns / rows).
  int totalInBits() const { return inBits_; }
  int totalOutBits() const { return outBits_; }
  /// The number of inputs (outputs), 2^totalInBits() (2^totalOutBits()),
  /// saturated at INT64_MAX when that does not fit an int64_t: a layout of
  /// 63 or 64 bits has more inputs than any int64_t counts, and INT64_MAX
  /// is above every bound on work or memory, so a caller that checks one
  /// before enumerating or allocating refuses it. Exact sizes (to print or
  /// compare) come from totalInBits() (pow2Saturated).
  /// Example: 10 input bits give 1024; 63 and 64 give INT64_MAX.
  int64_t totalInSize() const { return pow2Saturated(inBits_); }
  int64_t totalOutSize() const { return pow2Saturated(outBits_); }

  //===--------------------------------------------------------------------===//
  // Bases
  //===--------------------------------------------------------------------===//

  /// Packed column j (the image of flattened input bit j).
  uint64_t column(int j) const { return cols_[j]; }
  std::span<const uint64_t> columns() const { return {cols_, size_t(inBits_)}; }
  /// The value of basis `bit` of input dim `in` on output dim `out` (0 when
  /// `out` is absent). @pre the input dim exists and bit < its log2
  int64_t basis(DimId in, int bit, DimId out) const;
  /// The bases of input dim index i, as per-output-dim values.
  std::vector<std::vector<int64_t>> bases(int i) const;
  /// All input dims with their bases (the inverse of make()).
  std::vector<InDimBases> allBases() const;
  std::vector<OutDim> outDims() const;

  //===--------------------------------------------------------------------===//
  // Evaluation
  //===--------------------------------------------------------------------===//

  /// L(x) on the flattened input (input dim i in bits [inShift(i), ...)):
  /// the XOR of the columns of the set bits. Bits above totalInBits() are
  /// ignored.
  uint64_t applyFlat(uint64_t x) const {
    uint64_t r = 0;
    x &= inMask();
    while (x) {
      r ^= cols_[__builtin_ctzll(x)];
      x &= x - 1;
    }
    return r;
  }
  /// applyFlat for a front end's input: fails when x is not below
  /// 2^totalInBits() ("flat input 16 is outside [0, 16), the layout's 4
  /// input bits") instead of dropping the high bits. Every uint64_t is in
  /// range of a 64-bit layout.
  Expected<uint64_t> applyFlatChecked(uint64_t x) const;
  /// Ok when v is a value of in-dim i (0 <= v < its size); else "value 9
  /// is outside in-dim 'lane' of size 4", the one wording of every front end.
  /// @pre 0 <= i < numInDims()
  Status checkInValue(int i, int64_t v) const;
  /// L at one value per input dim, in input-dim order; one value per output
  /// dim. Fails when a value does not fit its dim (checkInValue).
  /// Example (the file comment's layout): apply({1, 5}) == {1, 3}.
  Expected<std::vector<int64_t>> apply(std::span<const int64_t> in) const;
  Expected<std::vector<int64_t>>
  apply(std::initializer_list<int64_t> in) const {
    return apply(std::span(in.begin(), in.size()));
  }
  /// Packs one value per input (output) dim into a flattened word and back.
  uint64_t packIn(std::span<const int64_t> in) const;
  std::vector<int64_t> unpackOut(uint64_t flat) const;
  std::vector<int64_t> unpackIn(uint64_t flat) const;

  //===--------------------------------------------------------------------===//
  // Algebra
  //===--------------------------------------------------------------------===//

  /// The composition x -> outer(this(x)) (Triton's `compose`): this's output
  /// dims must be outer's input dims (any order) with outSize <= outer's
  /// inSize. The result has this's input dims and outer's output dims.
  /// Example: identity1D(4, lane, dim0).compose(L') where L' maps dim0 bits
  /// [1, 2] to dim1 bits [2, 1] gives lane -> dim1 with bases [2, 1].
  [[nodiscard]] Expected<LinearLayout> compose(const LinearLayout &outer) const;

  /// The inverse of a bijective layout (as many input as output bits, rank
  /// full). Result: this's output dims -> this's input dims.
  /// Example: a lane->dim0 layout with bases [2, 1] inverts to [2, 1].
  [[nodiscard]] Expected<LinearLayout> invert() const;

  /// The minimum-norm right inverse of a surjective layout: R with
  /// this(R(y)) = y for every y, choosing for each y the numerically smallest
  /// preimage (free variables are the input bits whose column depends on
  /// earlier columns; they are set to zero). So data broadcast along a bit
  /// resolves to the lowest index. Example: {lane: [1, 0, 2]} -> {dim0: 4}
  /// has pseudoinverse {dim0: [1, 4]} -> {lane: 8}: dim0=2 -> lane 4, not 6.
  [[nodiscard]] Expected<LinearLayout> pseudoinvert() const;

  /// C such that this(x) = outer(C(x)) for every x (C: this's input dims ->
  /// outer's input dims). The typical use: C maps the source hardware
  /// location of an element to the destination location holding it.
  ///
  /// Precondition (exact): both have the same output dim names (any order)
  /// and every basis of this lies in the span of outer's bases (the image of
  /// this is inside the image of outer; outer need not be surjective, and a
  /// dim of this may be larger than outer's if its bases stay in range).
  /// Anything else is a diagnostic naming the first basis outside the image.
  ///
  /// Choice among the solutions (as Triton): an input dim both layouts have
  /// with the same bases (broadcast zeros included) maps to itself; the
  /// other bases take the minimum-norm preimage over outer's other input
  /// bits (dependent bits left zero), and use the identity dims' bits only
  /// where those cannot reach them. So L.invertAndCompose(L) is the
  /// identity. Example: this = outer = {lane: [1, 0]} -> {dim0: 2} gives
  /// {lane: [1, 2]} -> {lane: 4}, not lane 2 -> lane 0.
  [[nodiscard]] Expected<LinearLayout>
  invertAndCompose(const LinearLayout &outer) const;

  /// The restriction to the given input and output dims (kept in this's
  /// order; unknown names fail).
  [[nodiscard]] Expected<LinearLayout>
  sublayout(std::span<const DimId> ins, std::span<const DimId> outs) const;
  /// True when every basis of the given input dims is zero on the given
  /// output dims: sublayout(ins, outs) maps everything to 0. A dim the
  /// layout lacks fails, as in sublayout. Example (the file comment's layout):
  /// sublayoutIsZero({register}, {dim0}) is true (its basis (0,1) has no
  /// dim0 bit), sublayoutIsZero({lane}, {dim0}) false.
  [[nodiscard]] Expected<bool>
  sublayoutIsZero(std::span<const DimId> ins,
                  std::span<const DimId> outs) const;

  //===--------------------------------------------------------------------===//
  // Reshaping dims
  //===--------------------------------------------------------------------===//

  /// Reorders input (output) dims; `order` must be a permutation of the
  /// existing names. The map is unchanged.
  [[nodiscard]] Expected<LinearLayout>
  transposeIns(std::span<const DimId> order) const;
  [[nodiscard]] Expected<LinearLayout>
  transposeOuts(std::span<const DimId> order) const;
  /// Replaces the input (output) dims by new ones of the same total size:
  /// the flattened bits are re-split (first new dim lowest).
  /// Example: {offset0: 4, offset1: 2} reshaped to {offset: 8}.
  [[nodiscard]] Expected<LinearLayout>
  reshapeIns(std::span<const OutDim> dims) const;
  [[nodiscard]] Expected<LinearLayout>
  reshapeOuts(std::span<const OutDim> dims) const;
  /// One input (output) dim named like the first one, of the total size.
  [[nodiscard]] LinearLayout flattenIns() const;
  [[nodiscard]] LinearLayout flattenOuts() const;
  /// Drops input and output dims of size 1.
  [[nodiscard]] LinearLayout squeeze() const;
  /// Appends other's input dims (output dims must be equal, same order) /
  /// other's output dims (input dims must be equal, same order).
  [[nodiscard]] Expected<LinearLayout> concatIns(const LinearLayout &o) const;
  [[nodiscard]] Expected<LinearLayout> concatOuts(const LinearLayout &o) const;
  /// Renames one input (output) dim; fails on a clash or an absent name.
  [[nodiscard]] Expected<LinearLayout> renameIn(DimId from, DimId to) const;
  [[nodiscard]] Expected<LinearLayout> renameOut(DimId from, DimId to) const;
  /// Grows input dim `in` to `newSize` (>= current, power of two) with zero
  /// bases. Example: resize(register, 8) of [1] gives [1, 0, 0].
  [[nodiscard]] Expected<LinearLayout> resize(DimId in, int64_t newSize) const;
  /// Replaces output dim `out`'s size (power of two, >= every value).
  [[nodiscard]] Expected<LinearLayout> resizeOut(DimId out,
                                                 int64_t newSize) const;
  /// Sets one column (flattened input bit j) to `value` (a packed output).
  /// @pre j < totalInBits(), value < totalOutSize()
  void setColumn(int j, uint64_t value) { cols_[j] = value; }
  /// Permutes the bases of input dim `in`: new basis i = old basis perm[i].
  [[nodiscard]] Expected<LinearLayout>
  permuteBases(DimId in, std::span<const int> perm) const;

  //===--------------------------------------------------------------------===//
  // Properties
  //===--------------------------------------------------------------------===//

  /// Rank of the map over F2 (number of linearly independent columns).
  int rank() const;
  /// Injective: rank == totalInBits. Surjective: rank == totalOutBits.
  bool isInjective() const { return rank() == inBits_; }
  bool isSurjective() const;
  bool isInvertible() const { return inBits_ == outBits_ && isSurjective(); }
  /// Per input dim (in input order), a bit mask of its free variables:
  /// bits whose column is a combination of earlier columns (Triton's
  /// getFreeVariableMasks). Flipping a free bit (and compensating with
  /// earlier bits) reaches the same element, so the data is held more than
  /// once along it. Example: {lane: [(1), (0), (2), (1)]} -> {dim0: 4} has
  /// lane mask 0b1010 (bit 1 is zero, bit 3 repeats bit 0).
  std::array<uint64_t, kMaxDims> freeVariableMasks() const;
  /// The flattened form of freeVariableMasks.
  uint64_t freeVariableMaskFlat() const;
  /// Per input dim, a mask of its zero bases (pure broadcast bits).
  std::array<uint64_t, kMaxDims> zeroColumnMasks() const;
  uint64_t zeroColumnMaskFlat() const;
  /// Mask of the flattened input bits (totalInBits ones).
  uint64_t inMask() const {
    return inBits_ == 64 ? ~uint64_t(0) : (uint64_t(1) << inBits_) - 1;
  }
  uint64_t outMask() const {
    return outBits_ == 64 ? ~uint64_t(0) : (uint64_t(1) << outBits_) - 1;
  }

  /// Same dims (names, order, sizes) and same bases.
  bool operator==(const LinearLayout &o) const;
  bool operator!=(const LinearLayout &o) const { return !(*this == o); }
  size_t hash() const;

  /// The text form (Text.h), e.g.
  /// "{register: [(1)], lane: [(2), (4)]} -> {dim0: 8}". Round-trips through
  /// parseLinearLayout.
  std::string str() const;
  /// A readable multi-line form:
  ///   " - register=1 -> (0, 1)\n   register=2 -> (8, 0)\n - lane ...\n
  ///    where out dims are: [dim0 (size 16), dim1 (size 16)]"
  std::string toString() const;

  // Building blocks for the implementation and for fast constructors.
  struct Dim {
    DimId id;
    uint8_t log2;
    uint8_t shift;
    bool operator==(const Dim &) const = default;
  };
  /// Appends an input dim with its (already packed) columns. Fails past the
  /// limits or on a duplicate name.
  Status appendIn(DimId id, int log2, const uint64_t *cols);
  /// Appends an output dim (its bits go above the existing ones).
  Status appendOut(DimId id, int log2);

private:
  friend Expected<LinearLayout> product(const LinearLayout &,
                                        const LinearLayout &, const char *);
  /// Recomputes every dim's first bit (shift) and the bit totals from the
  /// dims' log2 sizes.
  void recomputeShifts();
  template <class Src>
  static Expected<LinearLayout> makeFrom(const Src &ins,
                                         std::span<const OutDim> outs,
                                         bool requireSurjective);
  void copyFrom(const LinearLayout &o) noexcept {
    // The header (counts and both dim tables) in one block, then the
    // columns in use.
    std::memcpy(static_cast<void *>(&nIn_), &o.nIn_, kHeaderBytes);
    std::memcpy(cols_, o.cols_, size_t(o.inBits_) * sizeof(uint64_t));
  }

  uint8_t nIn_ = 0;
  uint8_t nOut_ = 0;
  uint8_t inBits_ = 0;
  uint8_t outBits_ = 0;
  // Entries past nIn_ / nOut_ / inBits_ are never read (left uninitialized
  // so that building and copying a layout touches only what it uses).
  Dim in_[kMaxDims];
  Dim out_[kMaxDims];
  uint64_t cols_[kMaxBits];
  static constexpr size_t kHeaderBytes = 4 + 2 * kMaxDims * sizeof(Dim);
};

inline Expected<LinearLayout> operator*(const LinearLayout &a,
                                        const LinearLayout &b) {
  return product(a, b);
}

/// The quotient C with A == product(B, C) (B is the minor part), or an error
/// when A does not start with B. For each input dim, A's first log2(B) bases
/// must equal B's bases and its remaining bases must have zero low bits on
/// every output dim (below B's size there); C's bases are those bases shifted
/// down. C keeps A's input and output dims (sizes divided).
/// Example: divideLeft(identity1D(32, register, dim0), identity1D(4, register,
/// dim0)) == identity1D(8, register, dim0).
Expected<LinearLayout> divideLeft(const LinearLayout &A, const LinearLayout &B);
/// The quotient B with A == product(B, C) (C is the major part).
Expected<LinearLayout> divideRight(const LinearLayout &A,
                                   const LinearLayout &C);

/// A left division that first permutes the bases of input dim `dim`
/// (usually `register`) of A when that makes it possible: `perm` (new basis
/// i = old basis perm[i]) moves the bases equal to B's to the front, the rest
/// keep their order. Triton's regPermForDivide + divideLeft.
struct PermutedQuotient {
  std::vector<int> perm;
  LinearLayout quotient;
};
Expected<PermutedQuotient>
divideLeftWithPermutation(const LinearLayout &A, const LinearLayout &B,
                          DimId dim = dims::kRegister);

} // namespace lk::linear

template <> struct std::hash<lk::linear::LinearLayout> {
  size_t operator()(const lk::linear::LinearLayout &l) const {
    return l.hash();
  }
};

#endif // LAYOUTKIT_LINEAR_LINEARLAYOUT_H
