//===- Query.h - Evaluate, owners, banks -------------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The questions front ends ask of a parsed layout, with their small input
/// grammars, as plain values any front end prints:
///
///  * cute: evaluate(L, coord) = Sw(k + L(coord)) (a codomain tuple for
///    basis strides); tabulate(L) = the rows x cols table `show` draws
///    (rank 2: cell (r, c) = L((r, c)); rank 1 and 0: one row; rank > 2
///    refused with a note suggesting group_modes);
///  * tile: tileShape / tileIndex read a logical shape and a coordinate
///    against a layout; owners(L, x) = L(x) split into the owner axes
///    (thread and device kinds) and the others (where the owner holds it);
///    holders(L, where) = the flat indices a partial hardware coordinate
///    holds (parseAxisValues reads "laneid=3,warpid=5");
///  * banks: memoryLayout applies a named swizzle mode (--swizzle 128B) to a
///    tile memory layout; columnConflicts counts the conflicts of lanes
///    reading one column of a row-major tile;
///  * linear: parseDimValues reads "lane=5,register=1" (dims left out are
///    0) for LinearLayout::apply; a dim given twice ("lane=1,lane=2") is
///    refused with a caret at the second, a value past int64 as one that
///    does not fit in 64 bits, one outside [0, size of the dim) at the
///    value.
///
/// Edge cases: a coordinate given as one integer on a rank > 1 shape is
/// the row-major flat index; a shape is a flat tuple (or one integer) the
/// layout admits; holders refuses a swizzled layout (the swizzle only moves
/// m; invert the tile alone).
///
/// Example:
///   L = Sw<3,4,3> o (8,64):(64,1);  evaluate(L, (2,0)) = Sw(128) = 144
///   T = S[(8,4,2):(4@laneid,1@laneid,1)]; owners(T, 9) ->
///       {owner {laneid=4}, at {m=1}}
///   parseAxisValues("laneid=3, warpid=1") -> {laneid 3, warpid 1}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_QUERY_H
#define LAYOUTKIT_API_QUERY_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/hw/Analysis.h"
#include "layoutkit/hw/Atom.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/tile/Bank.h"
#include "layoutkit/tile/SwizzleLayout.h"
#include "layoutkit/tile/TileLayout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lk::api {

/// A whole integer (optional sign, surrounding blanks), decimal or 0x hex
/// as Lexer::readInt reads it, e.g. " -12 " -> -12, "0x40" -> 64; "12x"
/// -> error "unexpected character after integer" at the 'x'; out of 64
/// bits -> error.
Expected<int64_t> parseInteger(std::string_view text);

//===----------------------------------------------------------------------===//
// cute
//===----------------------------------------------------------------------===//

/// Sw(k + L(coord)) for a swizzled layout, L(coord) otherwise; the codomain
/// tuple (crd2offset) for a basis-stride layout (refused with a swizzle or
/// an offset). Example: Sw<3,4,3> o (8,64):(64,1) at (2,0): Sw(128) = 144.
Expected<IntTuple> evaluate(const cute::ComposedLayout &layout,
                            const IntTuple &coord);

/// CuTe's idx2crd(idx, shape, stride): c = (idx / d) % s at each leaf of
/// (shape, stride), C++ division (truncating toward zero); an index tuple
/// goes mode by mode, an integer index is used for every mode. Refused:
/// idx, shape and stride not congruent, a zero stride or a shape below 1,
/// INT64_MIN / -1. Example: idx2crd(13, (4,8), (1,4)) = (13 % 4,
/// (13 / 4) % 8) = (1, 3).
Expected<IntTuple> idx2crd(const IntTuple &idx, const IntTuple &shape,
                           const IntTuple &stride);

/// Sw(off + L(i)) for every i < size(L), in order; refused for basis
/// strides and above kMaxArrayValues (defined below) values before any
/// work. Example: (2,2):(2,1) -> {0, 2, 1, 3}.
Expected<std::vector<int64_t>> offsets(const cute::ComposedLayout &layout);

/// One argument of a vectorized evaluation: `values` (one per element) and
/// the layout they index (a top mode of L, or L itself for flat indices).
struct EvalColumn {
  const int64_t *values = nullptr;
  cute::Layout layout;
};
/// Where a vectorized evaluation failed: the element (flat index into the
/// columns) and why.
struct ColumnFailure {
  int64_t element = 0;
  Diagnostic why;
};
/// out[e] = sum_k L_k(values_k[e]) for every e < out.size(), each L_k(x)
/// as crd2idx (an x outside [0, size) wraps as CuTe's idx2crd does); with
/// `composed`, then Sw(off + that) of its swizzle and offset. Every sum is
/// overflow checked; a column whose sum over leaves of (s-1)|d| fits in
/// int64 takes the unchecked evaluation for in-range x. Returns the first
/// failing element, nothing when all succeed. @pre the layouts have
/// integer strides and every values array holds out.size() values.
/// Example: columns {0,1,2,3} over 4:2 and {1,1,1,1} over 2:8 -> {8, 10,
/// 12, 14}.
std::optional<ColumnFailure>
evaluateColumns(std::span<const EvalColumn> columns, std::span<int64_t> out,
                const cute::ComposedLayout *composed = nullptr);

/// The largest number of cells tabulate() fills.
inline constexpr int64_t kMaxTableCells = int64_t(1) << 16;
/// The largest number of values (cells x values per cell; a basis-stride
/// cell holds one value per codomain coordinate) tabulate() fills: 2^17,
/// which keeps a drawing (text, JSON and SVG of up to 20-digit values)
/// under 10 MB.
inline constexpr int64_t kMaxTableValues = int64_t(1) << 17;

/// The offsets of a layout laid out as rows x cols cells.
struct OffsetTable {
  /// The layout's text (cuteText).
  std::string title;
  int64_t rows = 0;
  int64_t cols = 0;
  /// rows * cols offsets, row-major. A leaf for integer strides, a tuple
  /// for basis strides.
  std::vector<IntTuple> cells;
  /// tabulateGrouped() of a rank r > 2 layout: "modes 1..r-1 grouped
  /// across (mode 1 fastest)"; empty otherwise.
  std::string grouping;
  const IntTuple &at(int64_t r, int64_t c) const {
    return cells[size_t(r * cols + c)];
  }
};
/// Every cell of `layout` (see the file comment); at most kMaxTableCells.
Expected<OffsetTable> tabulate(const cute::ComposedLayout &layout);
/// tabulate() of a layout of any rank: one of rank r > 2 as a 2-D table of
/// group_modes(L, 1, r) (the same function): mode 0 down, modes 1..r-1
/// across with their coordinates colexicographic (column c = c1 + s1 c2 +
/// s1 s2 c3 ...), `grouping` saying so. Example: (2,2,2):(1,2,4) is 2 x 4
/// with cell (r, c) = r + 2c.
Expected<OffsetTable> tabulateGrouped(const cute::ComposedLayout &layout);

//===----------------------------------------------------------------------===//
// tile
//===----------------------------------------------------------------------===//

/// A logical shape: one integer or a non-empty flat tuple of extents, each
/// at least 1, their product within int64 (TileLayout::checkExtents);
/// errors are about "shape". Example: (8,16) -> [8, 16]; ((2,4),8) and
/// (0,8) are refused.
Expected<std::vector<int64_t>> logicalShape(const IntTuple &shape);
/// A logical shape for `layout`: logicalShape(shape) that the layout
/// admits (TileLayout::admits).
Expected<std::vector<int64_t>> tileShape(const IntTuple &shape,
                                         const tile::TileLayout &layout);
/// The row-major flat index of `coord` in `shape`: a flat tuple of the
/// shape's rank, or one integer (the flat index itself, checked against
/// the layout's size) when the shape's rank is above 1.
Expected<int64_t> tileIndex(const IntTuple &coord,
                            const tile::TileLayout &layout,
                            std::span<const int64_t> shape);

//===----------------------------------------------------------------------===//
// Bounds on work and output
//===----------------------------------------------------------------------===//

/// Items a listing shows unless the caller asks for all of them (front
/// ends print the first kListLimit and a line "... N more").
inline constexpr int64_t kListLimit = 1000;
/// Largest memory tile (logical elements) bankView() walks: 2^16. Every
/// element is listed once in a bank view, so this bounds its output too
/// (a 256 x 256 tile; 1024 x 1024 b1 elements are refused, not printed).
inline constexpr int64_t kMaxBankViewElements = int64_t(1) << 16;
/// Most lanes a column read may have: 1024, the threads of a CTA.
inline constexpr int64_t kMaxReadLanes = 1024;
/// Most candidates holders() visits: 2^22 (so at most 2^22 results).
inline constexpr int64_t kMaxHolderVisits = int64_t(1) << 22;

/// Most points (elements x replicas) one call enumerates: 2^16. Every
/// front end checks tilePointBound before enumerating points of a tile
/// layout (tile show's cells, a conformance tile_eval, Python's eval,
/// owners and holds, the wasm demo); each point is drawn or answered, so
/// this bounds the output (a few MB) as well as the work.
inline constexpr int64_t kMaxTilePoints = int64_t(1) << 16;
/// Most items one listing returns: 2^16. A listing (evaluation, ownerList,
/// holding) builds only the items it returns and reports their total, so
/// a layout of any replica count can be listed; front ends show the rest
/// as a count ("... N more", `total`).
inline constexpr int64_t kMaxListAll = int64_t(1) << 16;

/// The number of items a listing returns when `requested` are asked for:
/// `requested` itself, or kMaxListAll when absent (every front end's
/// "all"). Refused outside [1, kMaxListAll], before any work:
///   listLimit("owners", 0) ->
///     "owners: limit must be between 1 and 65536 (got 0)"
Expected<int64_t> listLimit(std::string_view what,
                            std::optional<int64_t> requested);

/// The points L takes on `elements` elements: elements x the replica count
/// (the product of the extents of every replica iter, each nested or
/// repeated iter counted), overflow-checked. Refused before any work, with
/// `what` and the bound named, when it exceeds kMaxTilePoints:
///   tilePointBound(S[4:1] + R[1000000:1@warpid], 4, "tile show") ->
///   "tile show would enumerate 4000000 points (4 elements x 1000000
///   replicas); the limit is 65536 points (kMaxTilePoints)".
/// @pre elements >= 0
Expected<int64_t> tilePointBound(const tile::TileLayout &layout,
                                 int64_t elements, std::string_view what);

/// Most values a front end returns as one array (Python's offsets(),
/// addresses(), outputs()): 2^24, 128 MB of int64.
inline constexpr int64_t kMaxArrayValues = int64_t(1) << 24;
/// Most cells a picture draws (Python's draw_*): kMaxTableCells, as `show`.
inline constexpr int64_t kMaxDrawCells = kMaxTableCells;

/// Refuses, before any work, a request of `elements` x `perElement`
/// values above `limit` (the product overflow-checked): "offsets: 2^28
/// elements x 1 values exceed the limit of 16777216 values". Both factors
/// must be >= 0.
Status checkWork(std::string_view what, int64_t elements, int64_t perElement,
                 int64_t limit);

/// One (thread, value) pair of a cute TV layout.
struct TvPair {
  int64_t thread = 0, value = 0;
  bool operator==(const TvPair &) const = default;
};
/// The logical tile of a TV layout, as every front end draws it.
struct TvGrid {
  int64_t rows = 0, cols = 0;
  /// The sizes of tv's modes 0 and 1 (1 for a layout of rank 1).
  int64_t threads = 0, values = 0;
  /// Per cell r * cols + c: the pairs (t, v) with tv(t, v) = r + rows * c,
  /// ordered by thread, then value (the first is the one a picture labels).
  std::vector<std::vector<TvPair>> holders;
};
/// The cells of the tile `shape` ({rows} or {rows, cols}) that the TV
/// layout `tv` (thread, value) -> index reaches; index i is the cell
/// (i mod rows, i div rows), CuTe's colexicographic codomain. Refused
/// before any work: a shape of rank other than 1 or 2 or an extent below
/// 1, more than kMaxDrawCells cells, tv of rank above 2, with basis
/// strides or of more than kMaxTableValues pairs; then an index outside
/// the tile, naming its pair.
/// Example: (2,2):(1,2) over (2,2): cell (r, c) holds {thread r, value c};
/// (2,2):(1,0) over (2) : cell r holds {r, 0} and {r, 1}.
Expected<TvGrid> tvGrid(const cute::Layout &tv, std::span<const int64_t> shape);

/// The logical tile of a hardware atom, as `layoutkit hw atom` and Python's
/// draw_mma_atom draw it: rows = the product of every extent of
/// a.logicalShape() but the last (those coordinates flattened row-major),
/// cols = the last extent; cell (row, col) holds the pairs (t, v) with
/// a.eval(t, v) = that coordinate, by thread, then value. Refused before
/// any work above kMaxDrawCells cells.
/// Example: mma.m16n8k16.f16.C (16 x 8): 16 rows, 8 columns; cell (0, 0)
/// holds {thread 0, value 0}.
Expected<TvGrid> atomGrid(const hw::Atom &a);

/// The element grid of a linear layout with one or two output dims, as
/// `linear show` and Python's draw_layout / draw_plan draw it: rows = the
/// size of the first output dim (1 with one output dim), cols = the size
/// of the last; holders[r * cols + c]: the flat inputs x with L(x) =
/// (r, c) ((c) with one output dim), ascending (the first is the one a
/// picture labels). Refused before any work: other than one or two
/// output dims, more than kMaxDrawCells cells, more than `maxInputs`
/// inputs.
/// Example: {register: [(0,1)], lane: [(1,0)]} -> {dim0: 2, dim1: 2}:
/// 2 x 2 cells; cell (1, 0) holds x = 2 (lane 1, register 0).
struct LinearGrid {
  int64_t rows = 0, cols = 0;
  std::vector<std::vector<int64_t>> holders;
};
Expected<LinearGrid> linearGrid(const linear::LinearLayout &l,
                                int64_t maxInputs);

/// The thread number of input `in` of a distributed linear layout (one
/// value per in-dim, as unpackIn gives them), warps of 32 lanes:
///   thread = lane + 32 warp + 32 x (the warp count) x block
/// An in-dim the layout lacks counts 0. Example: lane 3, warp 1 -> 35;
/// block 1 of a 4-warp layout -> 128. Fails when the layout has another
/// in-dim of size > 1 (e.g. offset: no thread number describes its inputs)
/// and when the sum overflows int64.
Expected<int64_t> linearThread(const linear::LinearLayout &l,
                               std::span<const int64_t> in);

/// The first points of L(flat) and how many there are in all (the
/// replica count). Example: S[4:1] + R[1000000:1@warpid] at 0 with limit
/// 2 -> points {m=0 warpid=0}, {m=0 warpid=1}; total 1000000.
struct TilePoints {
  tile::CoordSet points;
  int64_t total = 0;
};
/// L(flat), at most `limit` points, work bounded by `limit`.
/// @pre 0 <= flat < size, limit >= 1
TilePoints evaluate(const tile::SwizzledTileLayout &layout, int64_t flat,
                    int64_t limit);

/// One term of L(x) = D(x) + O + R, for a step-by-step view:
///  * Shard: shard iter `index` (extent:stride@axis) takes the component
///    c = `component` of x (x split over the shard extents, the last iter
///    fastest) and adds c * stride = `added` on its axis;
///  * Offset: the offset adds `added` on `axis`;
///  * Replica: replica iter `index` adds r * stride for each r in
///    [0, extent) (one point per combination; `added` is 0);
///  * Swizzle: the swizzle maps m from `component` to `added`.
/// Example: S[(8,4,2):(4@laneid,1@laneid,1)] at x = 9: components
/// (1,0,1): laneid += 4, laneid += 0, m += 1.
struct EvalStep {
  enum class Kind { Shard, Offset, Replica, Swizzle };
  Kind kind = Kind::Shard;
  size_t index = 0;
  tile::Iter iter;
  int64_t component = 0;
  int64_t added = 0;
};
/// The terms of L(flat) in the order they apply (shard iters, offsets,
/// replica iters, the swizzle). @pre 0 <= flat < size
std::vector<EvalStep> evaluationSteps(const tile::SwizzledTileLayout &layout,
                                      int64_t flat);

/// Owners are the thread and device axes (laneid, warpid, cta, ...).
bool isOwnerAxis(tile::Axis a);

/// The weight of axis `a` in threadIndex(): laneid, tid and tid_in_wg 1,
/// warpid 32 (lanes per warp), wgid 128 (4 warps per warpgroup), every
/// other axis 0 (cta and pid number CTAs and devices, not threads).
int64_t threadWeight(tile::Axis a);

/// The thread number of an owner within its CTA, the sum of value x
/// threadWeight(axis):
///   thread = laneid + 32 warpid + 128 wgid + tid + tid_in_wg
/// An axis the owner lacks counts 0. Examples: {laneid 4, warpid 2} -> 68;
/// {tid_in_wg 5, wgid 1} -> 133; {cta 3, m 7} -> 0. Fails when the sum
/// overflows int64 (or a value is negative).
Expected<int64_t> threadIndex(std::span<const tile::AxisValue> owner);
/// threadIndex's sum over `axes` as text, the terms of the axes that
/// count, in their order: "32 warpid + laneid" for (warpid, laneid, m);
/// empty when no axis numbers threads (a legend says "colour: thread = "
/// this).
std::string threadFormula(std::span<const tile::Axis> axes);

/// Every element of a tile layout with all its points, as the pictures
/// draw it (`tile show`, the demo's tile view): element k is the layout's
/// flat index k (row-major over the logical shape).
/// Example: S[(2,2):(1@warpid,1@laneid)] -> axes (warpid, laneid), 1
/// replica, coords 0 0 | 0 1 | 1 0 | 1 1, threads 0 1 32 33.
struct TileMap {
  std::vector<tile::Axis> axes;
  int64_t replicas = 0;
  /// coords[(k * replicas + r) * axes.size() + a]: axis a of point r of
  /// element k.
  std::vector<int64_t> coords;
  /// threads[k]: threadIndex of element k's first point (0 when no axis
  /// numbers threads, threadFormula empty).
  std::vector<int64_t> threads;
  /// Point r of element k, one value per axis.
  std::span<const int64_t> point(int64_t k, int64_t r) const {
    return {coords.data() + (k * replicas + r) * int64_t(axes.size()),
            axes.size()};
  }
};
/// Refused before any work when elements x replicas exceeds `maxPoints`
/// (checkWork, named `what`); fails when a thread number overflows.
Expected<TileMap> tileMap(const tile::SwizzledTileLayout &layout,
                          int64_t maxPoints, std::string_view what);

/// One point of L(x): the owner's axes and where it holds the element.
struct Owner {
  std::vector<tile::AxisValue> owner;
  std::vector<tile::AxisValue> at;
};
/// L(flat) split per point (see isOwnerAxis). @pre 0 <= flat < size
std::vector<Owner> owners(const tile::SwizzledTileLayout &layout, int64_t flat);
/// The first `limit` points of owners(layout, flat); their total is
/// layout.tile().replicaCount(). @pre limit >= 1
std::vector<Owner> owners(const tile::SwizzledTileLayout &layout, int64_t flat,
                          int64_t limit);

/// "axis=value[, axis=value...]", e.g. "laneid=3,warpid=5" (blanks
/// allowed; each axis once; values are non-negative integers).
Expected<std::vector<tile::AxisValue>> parseAxisValues(std::string_view text);

/// The flat indices the hardware coordinate `where` holds (axes left out
/// range freely). Refused when the layout is swizzled, when it has more
/// than kMaxHolderVisits replicas (each starts the search once), and when
/// the search would visit more than kMaxHolderVisits candidates (the error
/// names the limit).
Expected<std::vector<int64_t>> holders(const tile::SwizzledTileLayout &layout,
                                       std::span<const tile::AxisValue> where);

/// `layout` composed with the swizzle of `swizzleMode` ("none", "32B",
/// "64B", "128B") for `dtypeBits`-bit elements; refused when the layout
/// already has a swizzle (and the mode is not "none"). Example: 128B for
/// 16-bit elements is Swizzle(M=3,B=3,S=3).
Expected<tile::SwizzledTileLayout>
withSwizzleMode(const tile::SwizzledTileLayout &layout, int64_t dtypeBits,
                std::string_view swizzleMode);
/// `layout` as a shared-memory layout for `dtypeBits`-bit elements; with
/// `swizzleMode` (e.g. "128B", tile::swizzleModeByName) the mode's swizzle
/// for that width is applied (refused when the layout already has one).
Expected<tile::MemoryLayout>
memoryLayout(const tile::SwizzledTileLayout &layout, int64_t dtypeBits,
             std::optional<std::string_view> swizzleMode = std::nullopt);

/// tile::bankView of `memory`, refused before any work when the tile has
/// more than kMaxBankViewElements elements (the error names the limit).
Expected<tile::BankView> bankView(const tile::MemoryLayout &memory,
                                  int64_t dtypeBits, int64_t maxLines);

/// Lanes reading one column of a row-major (rows, cols) tile.
struct ColumnRead {
  int64_t rows = 0, cols = 0;
  int64_t column = 0;
  /// Absent: min(rows, 32), one warp's lanes.
  std::optional<int64_t> lanes;
  int64_t vector = 1;
  int64_t firstRow = 0;
};
/// The read's lanes, ColumnRead::lanes or its default.
int64_t laneCount(const ColumnRead &read);
/// The bank conflicts of the read (tile::columnAccess, tile::bankConflicts);
/// refused when the tile does not admit the shape (rows, cols)
/// (TileLayout::admits), or the read has no lane or more than
/// kMaxReadLanes lanes.
Expected<tile::BankConflicts> columnConflicts(const tile::MemoryLayout &memory,
                                              int64_t dtypeBits,
                                              const ColumnRead &read);

//===----------------------------------------------------------------------===//
// Results described as records (api/Describe.h)
//===----------------------------------------------------------------------===//

/// A logical element of a tile layout: the logical shape, the element's
/// coordinate over it and the layout's flat index x of the element (for a
/// tile layout read row-major, coord = unflatten(shape, x)).
struct TileElement {
  std::vector<int64_t> shape;
  std::vector<int64_t> coord;
  int64_t x = 0;
};
/// The element of flat index x over `shape`, its coordinate row-major.
TileElement tileElement(std::span<const int64_t> shape, int64_t x);

/// L(x) with its derivation: the first `limit` points (of `total`) and the
/// evaluationSteps.
struct Evaluation {
  tile::SwizzledTileLayout layout;
  TileElement element;
  TilePoints points;
  std::vector<EvalStep> steps;
};
/// evaluate() and evaluationSteps() of one element, the first
/// listLimit("evaluation", limit) points. @pre 0 <= x < size
Expected<Evaluation> evaluation(const tile::SwizzledTileLayout &layout,
                                TileElement element,
                                std::optional<int64_t> limit);

/// The first `limit` owners of an element (of `total`, the replica count).
struct OwnerList {
  tile::SwizzledTileLayout layout;
  TileElement element;
  std::vector<Owner> owners;
  int64_t total = 0;
};
/// owners() of one element, the first listLimit("owners", limit) of them.
/// @pre 0 <= x < size
Expected<OwnerList> ownerList(const tile::SwizzledTileLayout &layout,
                              TileElement element,
                              std::optional<int64_t> limit);

/// The elements a partial hardware coordinate holds: their flat indices
/// over `shape` (ascending, all of them) and how many to list.
struct Holding {
  std::string layout;
  std::vector<int64_t> shape;
  std::vector<tile::AxisValue> where;
  std::vector<int64_t> elements;
  /// How many of `elements` a listing shows (the rest are counted).
  int64_t shown = 0;
};
/// holders() of `where`, sorted, `shown` = min(listLimit("holding",
/// limit), their number).
Expected<Holding> holding(const tile::SwizzledTileLayout &layout,
                          std::vector<int64_t> shape,
                          std::vector<tile::AxisValue> where,
                          std::optional<int64_t> limit);

/// A bank view with what it is of: the memory layout's text and the
/// element width.
struct BankMap {
  std::string layout;
  int64_t dtypeBits = 0;
  tile::BankView view;
};
/// bankView() of `memory`, as a BankMap.
Expected<BankMap> bankMap(const tile::MemoryLayout &memory, int64_t dtypeBits,
                          int64_t maxLines);

/// The bank conflicts of one warp access: access[lane] = the elements the
/// lane reads; `read` is the column read it came from (absent for an
/// access given element by element).
struct ConflictReport {
  std::string layout;
  int64_t dtypeBits = 0;
  std::optional<ColumnRead> read;
  tile::BankAccess access;
  tile::BankConflicts conflicts;
};
/// columnConflicts() with the read and the elements each lane reads.
Expected<ConflictReport> columnConflictReport(const tile::MemoryLayout &memory,
                                              int64_t dtypeBits,
                                              const ColumnRead &read);
/// tile::bankConflicts of an access given element by element.
Expected<ConflictReport> conflictReport(const tile::MemoryLayout &memory,
                                        int64_t dtypeBits,
                                        tile::BankAccess access);

/// What one warp's access costs (hw/Analysis.h): the widest vector every
/// lane can use, the access width analysed (accessBytes, default the
/// widest), its shared-memory wavefronts, its global-memory sectors and
/// the elements held twice.
struct AccessAnalysis {
  std::string distributed;
  std::string memory;
  int64_t dtypeBits = 0;
  hw::Arch arch = hw::Arch::Sm90;
  int64_t vectorBytes = 0;
  int64_t accessBytes = 0;
  hw::SharedAccessReport shared;
  hw::GlobalAccessReport global;
  hw::ReplicationReport replication;
};
/// hw::vectorBytes, sharedAccess, globalAccess and replication of one
/// warp's access; refused (with the reason of the first that fails) when
/// the distributed layout is swizzled or any analysis fails.
Expected<AccessAnalysis>
analyseAccess(const tile::SwizzledTileLayout &distributed,
              const tile::MemoryLayout &memory, int64_t dtypeBits,
              std::optional<int64_t> accessBytes, hw::Arch arch);

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

/// "dim=value" pairs, comma separated, one per in-dim of `l` in any order;
/// in-dims left out are 0. Returns one value per in-dim of `l`, in order.
/// Example on {register: .., lane: ..}: "lane=5" -> {0, 5}.
Expected<std::vector<int64_t>> parseDimValues(std::string_view text,
                                              const linear::LinearLayout &l);

/// One value per in-dim of `l`, in order, from (name, value) pairs given
/// in any order (Python's apply); in-dims left out are 0. Fails on a name
/// the layout lacks (its in-dims listed) or given twice; names are looked
/// up, not interned. Values are not range-checked here (apply does that).
/// Example on {register: .., lane: ..}: {("lane", 5)} -> {0, 5}; {("lane", 5),
/// ("lane", 6)} fails.
Expected<std::vector<int64_t>>
inputsByName(const linear::LinearLayout &l,
             std::span<const std::pair<std::string, int64_t>> given);

/// L at every packed input x < 2^(total in bits) (the first in-dim lowest):
/// out[x * k + j] = out-dim j of L(x), k = the number of out-dims. Refused
/// before any work above 62 input bits or kMaxArrayValues values (2^in x
/// max(k, 1)). Example: {register: [(1)], lane: [(2), (0)]} -> {dim0: 4}
/// -> {0, 1, 2, 3, 0, 1, 2, 3}.
Expected<std::vector<int64_t>> linearOutputs(const linear::LinearLayout &l);

} // namespace lk::api

#endif // LAYOUTKIT_API_QUERY_H
