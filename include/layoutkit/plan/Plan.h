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
///  * SharedMemory. Everything else (distributed layouts only): each thread
///    stores its elements to a swizzled shared buffer, a barrier, each
///    thread loads what B needs.
///  * WarpShuffle. Not chosen by planConversion yet; planWarpShuffle builds
///    a simple (not round-optimal) shuffle plan on request (docs/plan.md).
///
/// ## The optimal swizzle (paper §5.4 / §9.2)
///
/// All layouts here are distributed, so every non-zero column is a distinct
/// unit vector of the n-bit logical index space F2^n (n = log2 #elements):
/// the spaces below are spanned by logical bits.
///
///  1. Vec: the logical bits that are register bits of both A and B, at most
///     log2(128 / elementBits) of them (128-bit accesses). Vector width
///     w = elementBytes * 2^|Vec| bytes.
///  2. The memory layout M: offset -> logical is built from an ordered basis
///     [Vec | Sub | BankWord | Idx]: the Vec bits are the lowest offset bits
///     (so each thread's vector is contiguous), Sub are the bits inside one
///     32-bit word when w < 4 (s = 2 - log2(elementBytes) - |Vec|), BankWord
///     are the 32 / (w/4) bank slots of a 128-byte row (5, 4 or 3 bits),
///     Idx the row.
///  3. Two lanes of one hardware lane group conflict iff their elements
///     differ by a vector of span(Vec+Sub+Idx) outside span(Vec+Sub). Let
///     G_A (G_B) be the logical bits of A's (B's) lanes in one group (lane
///     bits 0..log2(lanesPerGroup(w))-1). Conflict-free store and load need
///     Idx to meet span(G_A) and span(G_B) only in 0 (modulo Vec+Sub).
///     With C = G_A & G_B, X = G_A \ G_B, Y = G_B \ G_A and Z the other
///     bits, the subspace span(Z) + span{x_j ^ y_j} avoids both (Lemma 9.5)
///     and has dimension >= |Idx|, so Idx is picked from it: first plain Z
///     bits, then the XOR pairs (the swizzle). BankWord completes the basis.
///
/// Lemma 9.4: a warp access of vector width >= 4 bytes through M takes at
/// least 2^k wavefronts, k = dim(span(Vec + Idx) & span(Thr)) with Thr the
/// non-zero lane columns. The plan reports that k for the store and the load
/// and, per instruction, the bound over all layouts
///     max(active lane groups, 2^max(0, |Thr| - |Sub| - |BankWord|))
/// (the hw layer serves each active lane group in >= 1 wavefront; on the
/// store, groups holding only duplicated data are inactive). Under the hw
/// layer's counting model the planned layout reaches it for every pair of
/// distributed layouts (step 3 always finds a conflict-free Idx), which the
/// tests check with the simulator and by brute force.
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
#include "layoutkit/linear/LinearLayout.h"

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
/// Aligns two layouts of the same logical tensor. Fails when an input dim is
/// not one of register/lane/warp/block, when the output dims differ (names
/// or sizes), or when the lane/warp/block counts differ (different CTAs).
Expected<AlignedPair> alignLayouts(const linear::LinearLayout &src,
                                   const linear::LinearLayout &dst);

/// The shared-memory step of a plan.
struct SharedMemoryPlan {
  /// offset -> logical (dims of the aligned pair), invertible, every column
  /// one or two logical bits (a memory layout, Definition 4.14).
  linear::LinearLayout memory;
  int64_t elementBytes = 0;
  /// Logical bits of the vector (the lowest offset bits, in order).
  std::vector<int> vecBits;
  /// For each vec bit, the register bit of the source / destination that
  /// holds it.
  std::vector<int> srcVecRegBits, dstVecRegBits;
  int64_t vectorElements = 1; ///< 2^|vecBits|
  int64_t accessBytes = 0;    ///< elementBytes * vectorElements
  int subBits = 0, bankBits = 0, idxBits = 0;
  /// Warp instructions over the CTA (broadcast registers/warps skipped on
  /// the store; the load reads every distinct destination register once).
  int64_t storeInstructions = 0, loadInstructions = 0;
  /// Register copies after the load for destination registers that
  /// duplicate another (zero register columns of B).
  int64_t registerCopies = 0;
  /// Lemma 9.4 exponent k of the planned layout for the store (A's lanes)
  /// and the load (B's lanes).
  int storeLemmaBits = 0, loadLemmaBits = 0;
  /// Predicted wavefronts over the CTA (store and load), and the lower bound
  /// over every memory layout with this vectorization (per instruction
  /// max(minWavefronts(w), 2^max(0, |Thr| - bankBits)), times instructions).
  int64_t storeWavefronts = 0, loadWavefronts = 0;
  int64_t storeLowerBound = 0, loadLowerBound = 0;
  int64_t bytes = 0; ///< buffer size
};

struct Cost {
  int64_t instructions = 0; ///< warp instructions (moves, loads, stores)
  int64_t registerMoves = 0;
  int64_t shuffles = 0;
  int64_t barriers = 0;
  int64_t wavefronts = 0; ///< shared-memory wavefronts, store + load
  int64_t smemBytes = 0;
};

/// One warp-shuffle round (`__shfl_sync(mask, value, srcLane[l])`): every
/// lane offers its register `sendRegister`; lane l reads the value of lane
/// srcLane[l] and keeps it in destination register `dstRegister` iff
/// keep[l]. Every warp runs the same rounds.
struct ShuffleRound {
  int64_t dstRegister = 0;
  int64_t sendRegister = 0;
  std::vector<int64_t> srcLane;
  std::vector<bool> keep;
};

struct Plan {
  Strategy strategy = Strategy::NoOp;
  AlignedPair layouts;
  int64_t elementBits = 0;
  /// RegisterPermutation: destination register r takes source register
  /// registerSource[r] (in every lane and warp).
  std::vector<int64_t> registerSource;
  std::optional<SharedMemoryPlan> smem;
  /// WarpShuffle: the rounds, in order.
  std::vector<ShuffleRound> rounds;
  Cost cost;
  /// A one-paragraph summary ("shared memory, 4 x f16 vectors, ...").
  std::string describe() const;
};

/// Chooses the cheapest correct strategy (NoOp < RegisterPermutation <
/// SharedMemory). elementBits is 8, 16, 32 or 64. Fails on layouts that
/// cannot be aligned, and for SharedMemory on layouts that are not
/// distributed or span several CTAs.
Expected<Plan> planConversion(const linear::LinearLayout &src,
                              const linear::LinearLayout &dst,
                              int64_t elementBits);

/// A warp-shuffle plan (NOT the paper's optimal one; planConversion never
/// picks it yet): when A and B have identical warp and block columns, every
/// element a lane needs is in its own warp. With C = B.invertAndCompose(A)
/// (destination location -> source location of the same element), lane l's
/// destination register r comes from source lane lane(C(r, l)), register
/// reg(C(r, l)); for each r there is one round per distinct source register,
/// 2^rank(register part of C restricted to lanes) rounds. Fails when data
/// crosses warps.
Expected<Plan> planWarpShuffle(const linear::LinearLayout &src,
                               const linear::LinearLayout &dst,
                               int64_t elementBits);

/// The shared-memory plan alone (also for pairs a cheaper strategy handles).
Expected<Plan> planSharedMemory(const linear::LinearLayout &src,
                                const linear::LinearLayout &dst,
                                int64_t elementBits);

/// The same with a caller-given memory layout (offset -> logical dims of the
/// aligned pair) and vector bits (logical bits that must be the lowest
/// offset bits, register bits of both): used to compare swizzles.
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
