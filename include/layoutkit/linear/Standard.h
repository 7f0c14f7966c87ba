//===- Standard.h - Triton's standard GPU layouts as linear layouts -*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Constructors that produce, for the same parameters, exactly the bases
/// Triton's `toLinearLayout` produces (LinearLayoutConversions.cpp); the
/// transcribed expectations of tests/data/linear-public.jsonl pin
/// them. Register layouts have input dims [register, lane, warp, block];
/// memory layouts [offset, block]; output dims are dim0, dim1, ... (dim0 the
/// most major tensor dimension, as in Triton).
///
/// An *order* lists tensor dims from the fastest-varying to the slowest
/// (Triton's `order`). `shape` is the logical tensor shape; every
/// constructor ends with the tensor-shape handling of combineCtaCgaWithShape:
/// a layout smaller than the tensor repeats its registers (offsets) to cover
/// it, a larger one broadcasts: its largest bases are zeroed.
///
/// Worked example: blocked(sizePerThread [2], threadsPerWarp [4],
/// warpsPerCTA [1], order [0]) on shape [32]: the CTA tile covers 8 elements
/// (register [1], lane [2, 4]); the tensor is 4x larger, so two register
/// bits are added above: register [1, 8, 16], lane [2, 4].
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_STANDARD_H
#define LAYOUTKIT_LINEAR_STANDARD_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace lk::linear {

/// How the CTAs of a cluster (CGA) split the tensor (Triton's CTALayoutAttr).
struct CTALayout {
  std::vector<unsigned> ctasPerCGA, ctaSplitNum, ctaOrder;
  /// Triton's newer spelling `CGALayout = [[..], ..]`: block bit i moves to
  /// the CTA tile at blockBases[i] (one entry per tensor dim, dim0 first, in
  /// units of CTA tiles; a zero basis is a broadcast CTA). When set it
  /// replaces the three lists above; output sizes are the smallest that fit.
  std::optional<std::vector<std::vector<int64_t>>> blockBases;
  /// One CTA: all ones, order [rank-1, ..., 0].
  static CTALayout single(size_t rank);
};

enum class EncodingKind {
  Blocked,
  NvidiaMma,        ///< versionMajor 2 (mma.sync) or 3 (wgmma) accumulator
  AmdMfma,          ///< AMD MFMA accumulator (mDim = nDim = 16 or 32)
  AmdWmma,          ///< AMD WMMA accumulator (version 1 or 2)
  IntelDpas,        ///< Intel Xe matrix engine (DPAS) accumulator
  DotOperand,       ///< operand opIdx of a dot whose accumulator is `parent`
  Slice,            ///< `parent` with dim `dim` removed
  SwizzledShared,   ///< shared memory, vec/perPhase/maxPhase swizzle
  NvmmaShared,      ///< shared memory for (w)gmma: 0/32/64/128-byte swizzle
  ShmemForRegToReg, ///< the scratch layout of a register-to-register conversion
  Linear,           ///< an explicit linear layout (`#ttg.linear<{...}>`)
};

/// A Triton layout attribute: the fields of `kind` are used, the others
/// ignored. Names follow Triton's attribute parameters.
struct Encoding {
  EncodingKind kind = EncodingKind::Blocked;
  std::vector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  int versionMajor = 2, versionMinor = 0;
  std::vector<unsigned> instrShape;
  int mDim = 32, nDim = 32;
  bool isTransposed = false;
  int version = 1; ///< wmma
  /// intel_dpas (Intel's DpasEncodingAttr): the instruction computes
  /// C[repeatCount x executionSize] += A[repeatCount x systolicDepth *
  /// opsPerChannel] * B[systolicDepth * opsPerChannel x executionSize];
  /// the sub-group size is the single entry of `threadsPerWarp` (8, 16 or
  /// 32); repCluster (rank entries) clusters repetitions of the tile.
  int repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChannel = 2;
  std::vector<unsigned> repCluster;
  int opIdx = 0, kWidth = 0;
  int dim = 0; ///< slice
  std::shared_ptr<const Encoding> parent;
  int vec = 1, perPhase = 1, maxPhase = 1;
  int swizzleSizeInBytes = 128, elementBitWidth = 16;
  bool transposed = false, fp4Padded = false;
  std::vector<unsigned> tensorShape, repShape; ///< shmem_for_reg_to_reg
  /// Linear: the layout, output dims dim0..dim{rank-1}, sizes inferred from
  /// the bases; a tensor shape repeats its registers to cover a larger
  /// tensor and drops (not zeroes) register bases of a smaller one, as
  /// Triton's LinearEncodingAttr does.
  std::shared_ptr<const LinearLayout> linear;
  CTALayout cta;
  /// Where a reader found each field: its name and [offset, offset +
  /// length) in the reader's text (makeEncoding fills it; empty for an
  /// encoding built in code). placeAtField uses it to point a later
  /// failure that names a field there.
  struct FieldPlace {
    std::string name;
    size_t offset = 0, length = 0;
  };
  std::vector<FieldPlace> places;
  /// Where the reader found the kind (makeEncoding's kindOffset; npos for
  /// an encoding built in code): a failure about a field the text leaves
  /// out points there.
  size_t kindOffset = std::string_view::npos;
};

/// The most elements a tensor shape may have: 2^62 (its element count and
/// every offset fit in int64).
inline constexpr int kMaxTensorBits = 62;

/// Checks a tensor shape as toLinearLayout() takes it: 1 to 16 dims, each
/// a power of two, at most 2^kMaxTensorBits elements; a failure is about
/// the parameter "shape". Example: (0) -> "every tensor dim must be a
/// power of two (got 0)"; (2^62,64) -> "the tensor's element count, the
/// product of its shape (4611686018427387904,64), is 2^68; at most 2^62".
Status checkTensorShape(std::span<const int64_t> shape);

/// The linear layout of `enc` applied to a tensor of `shape`. Fails with a
/// diagnostic on parameters Triton rejects (ranks that disagree, sizes that
/// are not powers of two, an unsupported combination).
Expected<LinearLayout> toLinearLayout(const Encoding &enc,
                                      std::span<const int64_t> shape);

//===----------------------------------------------------------------------===//
// Direct constructors (thin wrappers over toLinearLayout)
//===----------------------------------------------------------------------===//

Expected<LinearLayout> blockedLayout(std::span<const unsigned> sizePerThread,
                                     std::span<const unsigned> threadsPerWarp,
                                     std::span<const unsigned> warpsPerCTA,
                                     std::span<const unsigned> order,
                                     std::span<const int64_t> shape,
                                     const CTALayout *cta = nullptr);
/// versionMajor 2: instrShape is the [m, n] (or [1, m, n]) tile; 3: [m, n, k].
Expected<LinearLayout> nvidiaMmaLayout(int versionMajor,
                                       std::span<const unsigned> instrShape,
                                       std::span<const unsigned> warpsPerCTA,
                                       std::span<const int64_t> shape,
                                       const CTALayout *cta = nullptr);

/// Intel DPAS: the layout of operand `opIdx` (0 = A, 1 = B, 2 = the
/// accumulator C / D) of the DPAS encoding `dpas` on a 2-D or 3-D `shape`
/// (Intel's DPAStoLinearLayout). With S the sub-group size, E
/// executionSize, D systolicDepth, O opsPerChannel, R repeatCount, one
/// instruction's tile is (rows = dim rank-2, cols = dim rank-1):
///   A, R x D*O: lanes walk a row (two k per lane, in a register, when
///      O = 4: packed 16-bit pairs), the lanes left over take the next rows,
///      registers the remaining rows;
///   B, D*O x E: lanes walk the E columns; each lane holds O consecutive k
///      in registers (VNNI), the lanes beyond E take the next O-row groups;
///   C, R x E: lanes walk the E columns, the lanes beyond E the next rows,
///      registers the remaining rows.
/// Then registers repeat the tile repCluster times (A: along M, B: along N,
/// C: along N, then M), warps split the non-K dims (broadcast along K for
/// A and B; the lowest warp bits go along dim rank-1), registers repeat it
/// over the tensor (K first, then the other dim, then the batch), and the
/// tensor-shape handling of combineCtaCgaWithShape follows.
/// Example: R = 8, D = 8, E = 16, O = 2, S = 16, one warp, A on (8,16):
/// {register: [(1,0),(2,0),(4,0)], lane: [(0,1),(0,2),(0,4),(0,8)]}: lane
/// l register r holds A[r][l].
/// Fails with a diagnostic on parameters Intel's verifier rejects
/// (repeatCount outside 1..8, opsPerChannel not 1/2/4, systolicDepth not
/// 8), sizes that are not powers of two, a sub-group size that is not 8, 16
/// or 32 or too small (or too large) for the tile, or several CTAs.
Expected<LinearLayout> intelDpasLayout(const Encoding &dpas, int opIdx,
                                       std::span<const int64_t> shape);

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix
//===----------------------------------------------------------------------===//

/// The register layout ldmatrix produces for dot operand `dot` (an
/// NvidiaMma parent) of `shape` with elements of `elemBitWidth`, with or
/// without .trans (Triton's chooseLdMatrixLayout).
Expected<LinearLayout> ldmatrixLayout(const Encoding &dot,
                                      std::span<const int64_t> shape,
                                      bool trans, int elemBitWidth);
/// The shared-memory layout stmatrix writes an mma accumulator `mma` of a
/// 2-D `shape` with (swizzleByteSize 0) or without a leading offset
/// (32/64/128): input dims register, lane, warp, block; output dims offset,
/// iteration (Triton's chooseStMatrixLayout).
Expected<LinearLayout> stmatrixLayout(const Encoding &mma,
                                      std::span<const int64_t> shape,
                                      int swizzleByteSize);

//===----------------------------------------------------------------------===//
// Building blocks (Triton's LayoutUtils)
//===----------------------------------------------------------------------===//

/// identity1D products over `order` (fastest first) into dim0..dim{rank-1}:
/// the 1-D identity of size prod(shape) reshaped to the permuted shape.
Expected<LinearLayout> identityStandardND(DimId in,
                                          std::span<const unsigned> shape,
                                          std::span<const unsigned> order);
/// For each output dim (in the layout's order) smaller than `shape[dim k]`
/// (k = its dim number), repeats the first input dim (register / offset).
/// `shape` is indexed by the standard dim number of each output dim.
Expected<LinearLayout>
ensureLayoutNotSmallerThan(const LinearLayout &l,
                           std::span<const int64_t> shape);
/// For each output dim larger than the shape, zeroes its largest bases (in
/// decreasing value; ties in input order) until it fits; with
/// broadcastRegisters false, register bases are removed instead of zeroed.
/// Output sizes are then inferred from the bases.
Expected<LinearLayout>
ensureLayoutNotLargerThan(const LinearLayout &l, std::span<const int64_t> shape,
                          bool broadcastRegisters = true);
/// Triton's combineCtaCgaWithShape.
Expected<LinearLayout> combineCtaCgaWithShape(const LinearLayout &ctaLayout,
                                              const CTALayout &cta,
                                              std::span<const int64_t> shape);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_STANDARD_H
