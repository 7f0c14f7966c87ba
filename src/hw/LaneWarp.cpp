//===- LaneWarp.cpp - A thread index as (lane, warp) ----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/LaneWarp.h"

#include <algorithm>
#include <string>
#include <vector>

namespace lk::hw {

Expected<LaneWarp> laneWarpExtents(int64_t threads) {
  if (threads < 1)
    return Diagnostic::error("a thread count is positive, got " +
                             std::to_string(threads));
  int64_t lanes = std::min(threads, kWarpLanes);
  if (threads % lanes != 0)
    return Diagnostic::error(std::to_string(threads) +
                             " threads are not a whole number of 32-lane "
                             "warps");
  return LaneWarp{lanes, threads / lanes};
}

Expected<ThreadModeAxis> threadModeAxis(int64_t extent, int64_t weight) {
  if (extent < 1 || weight < 1)
    return Diagnostic::error("a thread mode has a positive extent and weight");
  if (weight <= kWarpLanes / extent)
    return ThreadModeAxis{false, weight};
  if (weight % kWarpLanes == 0)
    return ThreadModeAxis{true, weight / kWarpLanes};
  return Diagnostic::error("a thread mode of extent " + std::to_string(extent) +
                           " and weight " + std::to_string(weight) +
                           " straddles the lane/warp boundary");
}

Expected<linear::LinearLayout> splitThreadDim(const linear::LinearLayout &l,
                                              linear::DimId thread) {
  if (!l.hasInDim(thread))
    return Diagnostic::error("the layout has no input dim '" +
                             std::string(linear::dimName(thread)) + "'");
  std::vector<linear::InDimBases> ins;
  for (linear::InDimBases &in : l.allBases()) {
    if (in.dim != thread) {
      ins.push_back(std::move(in));
      continue;
    }
    size_t laneBits = std::min<size_t>(in.bases.size(), kLaneBits);
    linear::InDimBases lane{linear::dims::kLane, {}},
        warp{linear::dims::kWarp, {}};
    lane.bases.assign(in.bases.begin(), in.bases.begin() + long(laneBits));
    warp.bases.assign(in.bases.begin() + long(laneBits), in.bases.end());
    ins.push_back(std::move(lane));
    if (!warp.bases.empty())
      ins.push_back(std::move(warp));
  }
  std::vector<linear::OutDim> outs = l.outDims();
  return linear::LinearLayout::make(std::span<const linear::InDimBases>(ins),
                                    std::span<const linear::OutDim>(outs));
}

} // namespace lk::hw
