//===- Plan.h - Layout-conversion planner ------------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The conversion planner of the linear-layouts paper (§5.4, §9.2): given
/// the distributed layout A a tensor is held in and the distributed layout B
/// it must be moved to (both register/lane/warp/block -> dim0..), choose the
/// cheapest correct way to move the data.
///
/// ## Strategies, cheapest first
///
///  * NoOp. A and B are the same map once their dims are aligned (same
///    output dims in the same order, missing input dims added with size 1,
///    lane/warp/block sizes padded). Kinds do not matter: a blocked layout
///    that equals a slice of an mma layout converts for free.
///  * RegisterPermutation. A and B have identical lane, warp and block
///    columns and every register column of B lies in the span of A's
///    register columns. Then every element a thread needs is already in its
///    own registers: dst register r = src register perm[r] with
///    perm[r] = A_reg^+(B(r)) (A_reg^+ the minimum-norm right inverse of A
///    restricted to registers, so broadcast data is read from the lowest
///    register).
///  * WarpShuffle or SharedMemory, whichever the cost model (`Cost`,
///    `estimatedCycles`) rates cheaper; a tie goes to WarpShuffle (no
///    barrier, no buffer).
///  * WarpShuffle. A and B have identical warp and block columns (no
///    element changes warp): the round-optimal `__shfl_sync` exchange of the
///    paper's §5.4 (planWarpShuffle, below).
///  * SharedMemory. Any pair of distributed layouts: each thread stores its
///    elements to a swizzled shared buffer, a barrier, each thread loads
///    what B needs, with stmatrix / ldmatrix sides where they take fewer
///    instructions (MatrixAccess.h; PlanOptions turns them off) and, with
///    a PlanOptions budget, repetition through a smaller buffer. Layouts
///    over several CTAs are planned per CTA when A and B have identical
///    block columns (the block bits become the highest offset bits, one
///    buffer per CTA); otherwise data would move between CTAs, which is
///    refused.
///
/// ## The shared-memory plan
///
/// The buffer's memory layout M (offset -> logical) is the ordered basis
/// [Vec | Sub | BankWord | Idx]: Vec, the logical bits both layouts hold in
/// registers (at most 16 bytes per access), are the lowest offset bits;
/// Sub the rest of a 32-bit word; BankWord the bank slots of a 128-byte
/// row; Idx the row, chosen from span(Z) + span{x_j ^ y_j} (Lemma 9.5) so
/// that no lane group of the store or the load conflicts. Each plan reports
/// its predicted wavefronts, their lower bound over every layout and Lemma
/// 9.4's k; under the hw layer's counting model the vector plan reaches the
/// bound for every pair. The derivation and the proofs are in docs/plan.md
/// ("The optimal swizzle").
///
/// Example (tests/plan/PlanTest.cpp). f32 16x16, one warp, from
///   A = blocked([1,4], [8,4], [1,1], order [1,0]):
///       register [(0,1),(0,2),(8,0)], lane [(0,4),(0,8),(1,0),(2,0),(4,0)]
/// to its column-major twin
///   B = blocked([4,1], [4,8], [1,1], order [0,1]):
///       register [(1,0),(2,0),(0,8)], lane [(4,0),(8,0),(0,1),(0,2),(0,4)].
/// No logical bit is a register bit of both, so Vec = {} and w = 4 B:
/// BankWord has 5 bits, Idx 3. Writing rK / cK for the logical bits of
/// row K / column K: G_A = {c4, c8, r1, r2, r4}, G_B = {r4, r8, c1, c2, c4},
/// C = {c4, r4}, X = {r1, r2, c8}, Y = {r8, c1, c2}, Z = {}; Idx takes the
/// three pairs r1^r8, r2^c1, c8^c2 and BankWord = G_A. The planned layout is
///   {offset: [(1,0),(2,0),(4,0),(0,4),(0,8),(9,0),(2,1),(0,10)]}
/// and each of the 8 stores and 8 loads takes 1 wavefront (the bound), where
/// the unswizzled row-major buffer costs 4 per store and 4 per load.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_PLAN_H
#define LAYOUTKIT_PLAN_PLAN_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/plan/MatrixAccess.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lk::plan {

/// How the data moves. Ordered by cost: a cheaper strategy is always
/// chosen when it is correct.
enum class Strategy { NoOp, RegisterPermutation, WarpShuffle, SharedMemory };
std::string_view strategyName(Strategy s);

/// A source and a destination layout over the same dims: input dims exactly
/// [register, lane, warp, block] (lane/warp/block of equal sizes), output
/// dims equal and in the same order. Registers may differ in number.
struct AlignedPair {
  linear::LinearLayout src, dst;
};
/// The largest layouts the planners take. They tabulate every register of a
/// thread and every lane of a warp (a plan of 2^40 lanes or registers would
/// run for hours), so each side may have at most 2^kMaxRegisterBits
/// registers per thread, 2^kMaxLaneBits lanes per warp (a wave64 warp),
/// 2^kMaxThreadBits threads (lanes x warps, a CTA) and 2^kMaxBlockBits
/// blocks (a cluster).
inline constexpr int kMaxRegisterBits = 16;
inline constexpr int kMaxLaneBits = 6;
inline constexpr int kMaxThreadBits = 10;
inline constexpr int kMaxBlockBits = 4;

/// Checks both layouts against the limits above, on log2 sizes (so a dim of
/// 63 or 64 bits is measured exactly), before any work. The diagnostic names
/// the side, its size and the limit, e.g. "SRC has 2^39 lanes per warp;
/// plans are made for at most 64". alignLayouts calls it, so every planner
/// that aligns its pair (planConversion, planWarpShuffle, planSharedMemory,
/// planSharedMemoryWith) is bounded by it.
Status checkPlanSize(const linear::LinearLayout &src,
                     const linear::LinearLayout &dst);

/// Aligns two layouts of the same logical tensor. Fails when a layout is
/// larger than checkPlanSize allows, when an input dim is not one of
/// register/lane/warp/block, when the output dims differ (names or sizes),
/// or when the lane/warp/block counts differ (different CTAs).
Expected<AlignedPair> alignLayouts(const linear::LinearLayout &src,
                                   const linear::LinearLayout &dst);

/// One side of the shared-memory step: the store of the source (A's
/// registers and lanes) or the load of the destination (B's).
struct SharedSide {
  /// For each vec bit of the plan, the register bit of the side that holds
  /// it.
  std::vector<int> vecRegBits;
  /// Warp instructions over the CTA (the store skips broadcast registers
  /// and warps; the load reads every distinct destination register once).
  int64_t instructions = 0;
  /// Lemma 9.4 exponent k of the planned layout for the side's lanes.
  int lemmaBits = 0;
  /// Predicted wavefronts over the CTA, and their lower bound over every
  /// memory layout with this vectorization (per instruction
  /// max(minWavefronts(w), 2^max(0, |Thr| - bankBits)), times
  /// instructions).
  int64_t wavefronts = 0, lowerBound = 0;
  /// The side uses its matrix instruction instead of st.shared / ld.shared
  /// (16-bit elements; docs/plan.md, MatrixAccess.h): the store
  /// `stmatrix.sync.aligned.m8n8.x<matrixCount>[.trans].shared.b16`
  /// (sm_90+), the load `ldmatrix...` (sm_75+); `trans` adds `.trans`.
  bool matrixInstruction = false, trans = false;
  /// The register roles of a matrix side (halfRegBit -1 when the side uses
  /// st.shared / ld.shared): register bits of the aligned source (store) /
  /// destination (load). Lane l of an instruction with base register
  /// `base` (half and matrix bits 0) gives the address of the element at
  /// matrixRowStart(matrix, base, l) (a register and lane of the side, same
  /// warp and block), i.e. byte address
  /// elementBytes * (memory^-1(element) mod (bytes / elementBytes)); its
  /// 32-bit register j holds element registers
  /// matrixElementRegister(.., base, j, 0) (low half) and (.., j, 1) (high).
  MatrixAccess matrix;
};

/// The shared-memory step of a plan.
struct SharedMemoryPlan {
  /// offset -> logical (dims of the aligned pair), invertible, every column
  /// one or two logical bits (a memory layout, Definition 4.14).
  linear::LinearLayout memory;
  int64_t elementBytes = 0;
  /// Logical bits of the vector (the lowest offset bits, in order).
  std::vector<int> vecBits;
  int64_t vectorElements = 1; ///< 2^|vecBits|
  int64_t accessBytes = 0;    ///< elementBytes * vectorElements
  int subBits = 0, bankBits = 0, idxBits = 0;
  /// The store of the source and the load of the destination.
  SharedSide store, load;
  /// Register copies after the load for destination registers that
  /// duplicate another (zero register columns of B).
  int64_t registerCopies = 0;
  /// Buffer size in bytes: one CTA, one iteration (the whole CTA tile when
  /// `iterations` is 1).
  int64_t bytes = 0;
  /// Matrices per matrix instruction (1, 2 or 4); 0 when neither side uses
  /// them. Both matrix sides use this count.
  int matrixCount = 0;
  /// Logical bits of the 16-byte rows of the matrix side(s): the three
  /// lowest offset bits (empty without matrices).
  std::vector<int> rowBits;

  /// Repetition through a smaller buffer (PlanOptions::smemBudgetBytes).
  /// Iteration i (0 <= i < iterations = 2^|iterationBits|) moves exactly the
  /// elements x with bit iterationBits[k] of x equal to bit k of i: every
  /// warp stores the registers holding them, a barrier, every warp loads
  /// its registers holding them, and a barrier before the next iteration's
  /// stores (2 * iterations - 1 barriers). The iteration bits are register
  /// or warp bits of both layouts, never lane, vector or matrix bits, so
  /// every instruction belongs to one iteration; they are the offset bits
  /// just below the CTA bits, so an element's buffer offset is
  /// memory^-1(x) mod (bytes / elementBytes).
  int64_t iterations = 1;
  std::vector<int> iterationBits;
  /// Logical bits held by the block dim (identical in both layouts: the
  /// conversion is CTA-local). They are the highest offset bits; each CTA
  /// has its own buffer of `bytes` bytes.
  std::vector<int> ctaBits;
  /// Barriers per CTA: 2 * iterations - 1.
  int64_t barriers = 1;
};

/// Planner options. Default-constructed options give the plans of the
/// three-argument functions.
///
/// Example: f32 128x128 from blocked([1,4],[4,8],[4,1]) to
/// blocked([4,1],[8,4],[1,4], order [0,1]) needs a 64 KiB buffer; with
/// smemBudgetBytes = 16384 the plan runs 4 iterations through 16 KiB
/// (iterations 4, barriers 7, the same accesses and wavefronts).
struct PlanOptions {
  /// Shared memory available to one CTA for the conversion buffer, in
  /// bytes; 0 means unlimited. When the buffer of the whole CTA tile is
  /// larger, the plan repeats through a buffer of bytes / 2^k
  /// (SharedMemoryPlan::iterations); fails when even the smallest legal
  /// buffer (the tile divided by every iterable bit, and never below one
  /// 128-byte line) exceeds the budget.
  int64_t smemBudgetBytes = 0;
  /// Use ldmatrix / stmatrix where they apply and reduce the instruction
  /// count without adding wavefronts (16-bit elements, 32 lanes). On by
  /// default; false gives the vector-only plan (st.shared / ld.shared on
  /// both sides), e.g. to compare with it: docs/hardware.md marks the matrix
  /// instructions' wavefront model UNVERIFIED.
  bool matrixInstructions = true;
  /// Build the swizzle of every matrix candidate instead of skipping those
  /// whose wavefront lower bound rules them out and stopping at the first
  /// instruction count above the best plan's (planSharedMemory). The plan
  /// is the same, only slower: this exists so that tests can check that
  /// claim.
  bool exhaustiveMatrixSearch = false;
  /// The GPU the plan is for. It decides which matrix instructions exist
  /// (hw::Machine: ldmatrix on every target here, stmatrix from sm_90), so
  /// an sm_80 plan never stores with stmatrix; the shared-memory model is
  /// the same on every target (docs/hardware.md §1). Simulate a plan for the
  /// same target (simulate(plan, arch)).
  hw::Arch arch = hw::Arch::Sm90;
};

/// What a plan costs, per CTA (every warp of it counted).
///
/// The planner compares strategies by one number, `cycles`
/// (`estimatedCycles`): issue cycles of one streaming multiprocessor, each
/// kind of work charged at the inverse of its public per-SM throughput
/// (NVIDIA CUDA C++ Programming Guide, "Arithmetic Instructions" throughput
/// table, compute capability 8.0-9.0; and its shared-memory section):
///
///     cycles = 0.5 * (registerMoves + selects)  // 32-bit integer / logic /
///                                               // select: 64 lanes/clk/SM
///            + 1.0 * shuffles                   // shfl.sync: 32 lanes/clk/SM
///            + 1.0 * wavefronts                 // 32 banks x 4 B per clock
///            + 20  * barriers                   // model assumption, below
///
/// A shared-memory instruction is charged through its wavefronts (at least
/// one each). A barrier has no published throughput; it is charged 20
/// cycles, the order of the shared-memory latency a store -> barrier ->
/// load sequence exposes (a model assumption, UNVERIFIED like the hw
/// layer's 8/16-byte lane groups). Address arithmetic, latency hiding by
/// other warps and register pressure are not modelled.
///
/// Example: the 16x16 f32 pair of this file's header in one warp. Shared
/// memory: 8 + 8 wavefronts and 1 barrier = 36 cycles. Warp shuffles
/// (planWarpShuffle): 8 shuffles and 48 selects = 8 + 24 = 32 cycles, so
/// planConversion picks the shuffles.
struct Cost {
  int64_t instructions = 0;  ///< warp instructions of every kind
  int64_t registerMoves = 0; ///< moves, packs and unpacks (32-bit ALU)
  int64_t selects = 0;       ///< lane-dependent register selects (selp)
  int64_t shuffles = 0;      ///< 32-bit shfl.sync instructions
  int64_t barriers = 0;
  int64_t wavefronts = 0; ///< shared-memory wavefronts, store + load
  int64_t smemBytes = 0;
  double cycles = 0; ///< estimatedCycles of the fields above
};

/// The cost model's constants, in SM issue cycles (sources: see Cost).
struct CostModel {
  /// Per register move, pack, unpack or select: 32 lanes at 64/clock/SM.
  static constexpr double kMoveCycles = 0.5;
  /// Per 32-bit shfl.sync: 32 lanes at 32/clock/SM.
  static constexpr double kShuffleCycles = 1.0;
  /// Per shared-memory wavefront: 128 bytes per clock per SM.
  static constexpr double kWavefrontCycles = 1.0;
  /// Per __syncthreads: a model assumption (UNVERIFIED), see Cost.
  static constexpr double kBarrierCycles = 20.0;
};
/// The cycles of `c` by the formula of Cost (c.cycles itself is ignored).
/// Example: 8 shuffles and 48 selects give 8 + 24 = 32.
double estimatedCycles(const Cost &c);
/// The one-line summary of `c` that `layoutkit plan` and the tileas
/// conversion remark print, cycles with one decimal. Example:
/// "40 instructions (32 register moves, 0 selects, 0 shuffles), 16
/// wavefronts, 1 barrier, 1024 B of shared memory, 52.0 estimated cycles".
std::string costText(const Cost &c);

/// One round of a warp-shuffle plan. In a round every lane of every warp
/// sends one vector of `WarpShufflePlan::vectorElements` elements and
/// receives one; each warp runs the same rounds on its own registers.
///
///  * sendRegisters[l][j] (lanes x vectorElements): the source register
///    (of the aligned source layout A) holding element j of the vector lane
///    l sends. The vector is packed little-endian: element j occupies bits
///    [j * elementBits, (j + 1) * elementBits) of a value of
///    32 * wordsPerVector bits, and word k is bits [32k, 32k + 32).
///  * srcLane[l]: the lane whose vector lane l receives. A round is
///    `wordsPerVector` instructions `w'_k = __shfl_sync(0xffffffff, w_k,
///    srcLane[l])`, one per word, all with the same srcLane (none when the
///    round is lane-local, below).
///  * dstRegisters[l][j]: the destination register (of the aligned
///    destination layout B) that receives element j of the vector lane l
///    receives (unpacked from the words the same way).
/// The registers a lane sends and receives may depend on the lane (which is
/// what the selects of Cost pay for); the element index j is the same
/// logical offset on both sides (the vector bits of WarpShufflePlan).
///
/// A round in which every lane reads itself (srcLane[l] == l, laneLocal)
/// issues no shuffle: each lane moves its sent vector straight into the
/// received registers (a register move per element and 32-bit word).
///
/// Example: A = {register: [x0], lane: [x1, x2, x3, x4, x5]} to
/// B = {register: [x1], lane: [x0, x2, x3, x4, x5]} (xK: logical bit K, 64
/// f32 elements, one warp) takes 2 rounds t = 0, 1 with
/// srcLane[l] = l ^ t, sendRegisters[l] = {(l ^ t) & 1},
/// dstRegisters[l] = {(l & 1) ^ t}. Round 0 is lane-local: lane l keeps
/// its register l & 1; round 1 shuffles the other one in.
struct ShuffleRound {
  std::vector<std::vector<int64_t>> sendRegisters;
  std::vector<int64_t> srcLane;
  std::vector<std::vector<int64_t>> dstRegisters;
  /// srcLane[l] == l for every lane.
  bool laneLocal() const;
};

/// The per-plan data of a warp-shuffle plan besides its rounds.
///
/// Example (ShuffleVectorized in tests/plan/ShuffleTest.cpp): f16,
/// A = {register: [x0, x1, x2], lane: [x3..x7]} to
/// B = {register: [x0, x1, x3], lane: [x2, x4..x7]}: vectorElements 2,
/// wordsPerVector 1, vecBits {0}, srcVecRegBits {0}, dstVecRegBits {0}
/// (each lane sends registers {s, s + 1} packed in one word), 4 rounds,
/// no copies, sendSelectBits = receiveSelectBits = 1.
struct WarpShufflePlan {
  /// Elements per vector: 2^|V|, V the common register bits used (at most
  /// 32 bits per vector: 4 for f8, 2 for f16, 1 for f32 and f64).
  int64_t vectorElements = 1;
  /// 32-bit words per vector, i.e. shuffles per round that is not
  /// lane-local: 2 for f64, 1 otherwise.
  int64_t wordsPerVector = 1;
  /// The vector's logical bits (V, in order: element j has bit k of j as
  /// its offset along vecBits[k]) and the register bits of A and B that
  /// hold them: element j of a vector with base register s (of A) is
  /// register s ^ sum_k bit_k(j) << srcVecRegBits[k]; likewise for B.
  std::vector<int> vecBits, srcVecRegBits, dstVecRegBits;
  /// After the rounds, in order: destination register `to` = destination
  /// register `from` in every lane (B's zero register columns: registers
  /// that duplicate another).
  struct RegisterCopy {
    int64_t to = 0, from = 0;
  };
  std::vector<RegisterCopy> registerCopies;
  /// Number of lane bits on which the register a lane sends (receives)
  /// depends: d_s (d_r). Cost: (d_s + d_r) selects per word shuffled.
  int sendSelectBits = 0, receiveSelectBits = 0;
};

struct Plan {
  Strategy strategy = Strategy::NoOp;
  AlignedPair layouts;
  int64_t elementBits = 0;
  /// RegisterPermutation: destination register r takes source register
  /// registerSource[r] (in every lane and warp).
  std::vector<int64_t> registerSource;
  std::optional<SharedMemoryPlan> smem;
  /// WarpShuffle: the rounds, in order, and the rest of the plan.
  std::vector<ShuffleRound> rounds;
  std::optional<WarpShufflePlan> shuffle;
  Cost cost;
  /// A one-paragraph summary ("shared memory, 4 x f16 vectors, ...").
  std::string describe() const;
};

/// Chooses the cheapest correct strategy: NoOp, else RegisterPermutation,
/// else the cheaper of WarpShuffle (when no element changes warp) and
/// SharedMemory by Cost::cycles (a tie goes to WarpShuffle); the chosen
/// plan's cost.cycles is filled. A register permutation is taken whenever
/// it applies, without comparing cycles: its moves are compile-time
/// register renames, which the register allocator mostly removes, although
/// the model charges each (so for a heavily broadcast layout with hundreds
/// of registers the model can rate shared memory lower). elementBits is 8, 16,
/// 32 or 64. Fails on layouts that cannot be aligned, on a layout that does
/// not hold every element of its tensor (checked before any strategy, equal
/// layouts too: "the source layout holds 128 of its tensor's 256 elements
/// ..."), and when neither WarpShuffle nor SharedMemory applies (the
/// shared-memory diagnostic is returned).
Expected<Plan> planConversion(const linear::LinearLayout &src,
                              const linear::LinearLayout &dst,
                              int64_t elementBits);
/// The same with options (smaller buffer, matrix instructions); the
/// options only affect a SharedMemory plan.
Expected<Plan> planConversion(const linear::LinearLayout &src,
                              const linear::LinearLayout &dst,
                              int64_t elementBits, const PlanOptions &options);

/// The round-optimal warp-shuffle plan of the paper's §5.4, for pairs of
/// distributed layouts with identical warp and block columns (no element
/// changes warp): V, the logical bits both hold in registers, packs up to
/// 32 bits of elements per shuffle; there is one round per combination of
/// R, B's other non-zero register bits (2^|R| rounds, the minimum: a lane
/// receives one vector per round); each of B's lane bits that A holds in a
/// register is paired with one of A's lane bits that B holds in a register
/// (or with a zero lane column of A), so that in every round each lane
/// sends exactly one vector; B's zero register columns are filled by
/// register copies. The steps, the proof of minimality and the cost
/// formula are in docs/plan.md ("Warp shuffles", "The cost model").
///
/// Cost per warp with W = rounds * wordsPerVector and W' = W minus the
/// words of lane-local rounds: W' shuffles, (d_s + d_r) * W selects, and
/// the pack / unpack / copy moves of docs/plan.md.
///
/// Example (ShuffleRound's): A = {register: [x0], lane: [x1..x5]} to
/// B = {register: [x1], lane: [x0, x2..x5]}: V = {}, R = {x1}, I = {x2..x5},
/// E = {x1}, F = {x0}: 2 rounds, srcLane[l] = l ^ t, 2 selects per round,
/// 1 shuffle in all and 1 move (round 0 is lane-local).
///
/// Fails (with the reason) when a warp or block column differs, a layout
/// is not distributed or does not cover the tensor, or has more than 2^16
/// registers per thread.
Expected<Plan> planWarpShuffle(const linear::LinearLayout &src,
                               const linear::LinearLayout &dst,
                               int64_t elementBits);

/// The cheaper of two candidate plans of one pair by estimatedCycles (a tie
/// goes to `first`), with cost.cycles filled; a failed candidate is
/// skipped, and when both failed the result is `second`'s diagnostic.
/// planConversion calls it as cheaperPlan(planWarpShuffle(..),
/// planSharedMemory(..)).
/// Example: for the 16x16 f32 pair of the Cost example, shuffles (32
/// cycles) win over shared memory (36 cycles).
Expected<Plan> cheaperPlan(Expected<Plan> first, Expected<Plan> second);

/// The shared-memory plan alone (also for pairs a cheaper strategy handles),
/// with default options.
Expected<Plan> planSharedMemory(const linear::LinearLayout &src,
                                const linear::LinearLayout &dst,
                                int64_t elementBits);
/// The same with options. The vector plan (steps 1-4 above) comes first.
/// With matrixInstructions (the default), every candidate row set of a
/// matrix side (ldmatrix on the load, stmatrix on the store, plain or
/// .trans; rows from a register bit and lane bits 0, 1, or from lane bits
/// 2-4, of either layout), with each side by its matrix instruction (where
/// the rows fit it and options.arch has it) or by vectors, at least one
/// side by matrices, is a candidate; the candidate with the fewest
/// instructions wins if it has fewer than the vector plan and no more
/// wavefronts, the fewest wavefronts breaking ties, then the row order.
/// Each candidate's instruction count is known before its swizzle (the
/// row bits lowest, Idx by Lemma 9.5 against both sides' conflict groups)
/// is built, so swizzles are built in instruction order and the search
/// stops at the first count above the best (the same plan as building
/// every candidate: PlanOptions::exhaustiveMatrixSearch). Multi-CTA layouts
/// are planned per CTA when their block columns are identical; otherwise
/// the error names the first differing block basis (data would move
/// between CTAs).
Expected<Plan> planSharedMemory(const linear::LinearLayout &src,
                                const linear::LinearLayout &dst,
                                int64_t elementBits,
                                const PlanOptions &options);

/// The same with a caller-given memory layout (offset -> logical dims of the
/// aligned pair) and vector bits (logical bits that must be the lowest
/// offset bits, register bits of both): used to compare swizzles. No
/// matrix instructions, no iterations; for multi-CTA layouts the highest
/// offset bits must be the logical bits of the block columns, in order.
Expected<Plan> planSharedMemoryWith(const linear::LinearLayout &src,
                                    const linear::LinearLayout &dst,
                                    int64_t elementBits,
                                    const linear::LinearLayout &memory,
                                    std::span<const int> vecBits);

/// Lemma 9.4's k = dim(span(vecAndIdx) & span(threads)) for bit-vectors
/// given as packed logical words.
int intersectionDim(std::span<const uint64_t> a, std::span<const uint64_t> b);

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_PLAN_H
