//===- Reduce.h - Reductions along one axis of a distributed layout -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plans and simulates a reduction (sum, max, ...) along one logical axis of
/// a tensor held in a distributed layout L (linear-layouts paper §5.1,
/// Table 3). Each column of L is one logical bit or zero; a column whose bit
/// lies in the axis is an *axis bit*, a zero column a *broadcast bit*
/// (duplicated data). The plan has up to three steps:
///
///  1. in-thread: the registers that differ only in axis register bits are
///     combined: (2^|Ra| - 1) combines per result register;
///  2. intra-warp: one butterfly round per axis lane bit b: every lane
///     combines its value with `shfl.xor(value, 1 << b)`;
///  3. inter-warp, when warp bits lie on the axis: every warp stores its
///     partial of each result element at slot (element, warp-axis index) of
///     a shared buffer, one barrier, then every thread loads the 2^|Wa|
///     partials of each of its elements and combines them in index order.
///
/// Broadcast bits are never combined (each element is counted once). The
/// result layout is L with the axis removed: axis register bits dropped,
/// axis lane and warp bits become broadcast bits.
///
/// Duplicate elimination on the store (step 3): a store is skipped when
/// it only repeats another one, i.e. for result registers, lanes or warps
/// with a set broadcast bit of the *result* layout (free variables; lanes
/// include the butterfly's axis lanes, whose values are equal after step
/// 2). Without elimination every register of every lane of every warp
/// stores (copies of one value to one slot). Result registers that
/// duplicate another (broadcast register bits) are computed once and
/// copied.
///
/// The result keeps the axis as a dim of size 1 (a reduction with kept
/// dims), so a 1-D tensor reduces to {dim0: 1}.
///
/// Worked example: blocked([1,4],[8,4],[2,1],[1,0]) on 16x16, axis 1:
/// register bases (0,1), (0,2) and lanes (0,4), (0,8) are axis bits, lanes
/// (1,0), (2,0), (4,0) and warp (8,0) are not: 3 combines per thread, 2
/// butterfly rounds, no shared memory; the result is {lane: [0, 0, 1, 2, 4],
/// warp: [8]} -> {dim0: 16, dim1: 1}. Along axis 0 instead: 3 rounds over
/// lanes r1, r2, r4 and, as warp r8 is an axis bit, 4 registers stored per
/// warp; after the butterfly lanes 4..31 repeat lanes 0..3, so with
/// elimination 4 lanes per warp store (32 thread stores per CTA instead of
/// 256; 8 warp instructions either way), then 2 loads per register.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_REDUCE_H
#define LAYOUTKIT_PLAN_REDUCE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lk::plan {

/// Counts of one plan over one CTA (warp instructions unless named lanes).
struct ReduceCounts {
  int64_t combines = 0;          ///< in-thread and butterfly combines
  int64_t shuffles = 0;          ///< 32-bit shfl.xor (two per 64-bit element)
  int64_t storeInstructions = 0; ///< st.shared issued by some lane
  int64_t storeLanes = 0;        ///< lanes that store (thread stores)
  int64_t loadInstructions = 0;
  int64_t registerCopies = 0;
  int64_t barriers = 0;
  int64_t bytes = 0; ///< shared buffer
};

struct ReducePlan {
  /// The source, its input dims made [register, lane, warp, block].
  linear::LinearLayout src;
  /// Source with the axis removed (file comment).
  linear::LinearLayout result;
  int axis = 0;
  int64_t elementBits = 32;
  bool eliminateDuplicates = true;
  std::vector<int> registerAxisBits, laneAxisBits, warpAxisBits;
  /// Result registers computed (ascending) and the copies (to, from) that
  /// fill the others.
  std::vector<int64_t> computedRegisters;
  struct Copy {
    int64_t to = 0, from = 0;
  };
  std::vector<Copy> copies;
  /// Step 3 stores iff (register & storeRegisterSkip) == 0, (lane &
  /// storeLaneSkip) == 0 and (warp & storeWarpSkip) == 0 (result's input
  /// coordinates; all zero without elimination).
  uint64_t storeRegisterSkip = 0, storeLaneSkip = 0, storeWarpSkip = 0;
  ReduceCounts counts;
  /// "in-thread 3 combines, 2 butterfly rounds, shared memory: ..."
  std::string describe() const;
};

/// Plans the reduction of `layout` (distributed; input dims among register,
/// lane, warp, block with one block; at most 2^20 hardware locations) along
/// output dim `axis`, for elements of `elementBits` (8..64). Fails with the
/// reason on other layouts.
Expected<ReducePlan> planReduction(const linear::LinearLayout &layout, int axis,
                                   int64_t elementBits,
                                   bool eliminateDuplicates = true);

struct ReduceSimulation {
  bool correct = false;
  int64_t checked = 0, mismatches = 0;
  std::string firstMismatch;
  ReduceCounts counts; ///< counted while executing
};

/// Executes `plan` with a distinct value per logical element, a partial
/// being the multiset of elements combined into it: every result register
/// must hold exactly the elements of its fiber along the axis, each once.
/// Reports the counts it executed. Fails on a malformed plan (a bit or
/// register out of range, two different partials stored to one slot, a
/// load of a slot no one stored) and, before any work, when result
/// locations x fiber length exceed 2^26 element ids.
Expected<ReduceSimulation> simulateReduction(const ReducePlan &plan);

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_REDUCE_H
