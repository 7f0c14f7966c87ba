//===- LaneWarp.h - A thread index as (lane, warp) ---------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one place that splits a CTA's thread index into its lane and warp
/// (docs/hardware.md: a warp is 32 lanes on every architecture modelled):
///
///   lane = t mod 32,   warp = t div 32,   t = lane + 32 * warp.
///
/// Four views of the same fact:
///  * laneWarpOf(t): one thread index;
///  * laneWarpExtents(n): n threads as (lanes, warps) = (min(n, 32), n /
///  lanes);
///  * threadModeAxis(extent, weight): a strided mode of thread indices
///    {weight * i | i < extent} (a mode of a cute TV layout's thread shape)
///    lies on the lane axis when weight * extent <= 32 (weight kept), on the
///    warp axis when 32 divides weight (weight / 32), and straddles both
///    otherwise (refused: no single tile iter holds it);
///  * splitThreadDim(l, thread): a linear layout's in-dim `thread` replaced,
///    in place, by `lane` (its low 5 bits; always present) and `warp` (the
///    remaining bits; only when there are more than 32 threads).
///
/// Examples:
///   laneWarpOf(70)              -> {lane 6, warp 2}
///   laneWarpExtents(128)        -> {lanes 32, warps 4}
///   laneWarpExtents(8)          -> {lanes 8, warps 1}
///   laneWarpExtents(48)         -> error (48 threads are not whole warps)
///   threadModeAxis(4, 8)        -> lane, weight 8      (8 * 4 <= 32)
///   threadModeAxis(2, 64)       -> warp, weight 2
///   threadModeAxis(4, 16)       -> error (lanes 0, 16 and warps 0, 1)
///   splitThreadDim({thread: [(1),(2),(4),(8),(16),(32)], register: [(64)]})
///       -> {lane: [(1),(2),(4),(8),(16)], warp: [(32)], register: [(64)]}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_LANEWARP_H
#define LAYOUTKIT_HW_LANEWARP_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>

namespace lk::hw {

/// Lanes per warp.
inline constexpr int64_t kWarpLanes = 32;
/// log2(kWarpLanes): the thread-index bits that are the lane.
inline constexpr int kLaneBits = 5;

/// A thread's lane and warp, or (lanes, warps) counts.
struct LaneWarp {
  int64_t lane = 0;
  int64_t warp = 0;
  bool operator==(const LaneWarp &) const = default;
};

/// (t mod 32, t div 32). @pre t >= 0
constexpr LaneWarp laneWarpOf(int64_t thread) {
  return {thread % kWarpLanes, thread / kWarpLanes};
}

/// `threads` threads as {lanes, warps}: lanes = min(threads, 32),
/// warps = threads / lanes. Fails for threads < 1, and for more than 32
/// threads that are not a whole number of warps.
Expected<LaneWarp> laneWarpExtents(int64_t threads);

/// The axis a strided thread mode lies on (see the file comment).
struct ThreadModeAxis {
  bool warp = false; ///< false: the lane axis
  int64_t weight = 1;
  bool operator==(const ThreadModeAxis &) const = default;
};
/// @pre extent >= 1, weight >= 1
Expected<ThreadModeAxis> threadModeAxis(int64_t extent, int64_t weight);

/// `l` with its in-dim `thread` split into `lane` and `warp` in place (see
/// the file comment). Fails when `l` has no in-dim `thread`.
Expected<linear::LinearLayout> splitThreadDim(const linear::LinearLayout &l,
                                              linear::DimId thread);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_LANEWARP_H
