//===- Simulator.h - Executes a conversion plan on a simulated CTA -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A reference executor for plan::Plan. Every logical element x of the
/// tensor gets the distinct value x + 1 (0 means "never written"). The
/// simulator
///
///  1. fills the source registers: warp w, lane l, register r holds
///     src(r, l, w) + 1;
///  2. runs the plan's steps on per-warp register files and a byte-addressed
///     shared memory (32 banks x 4 B), warp instruction by warp instruction:
///       - register moves (NoOp / RegisterPermutation, duplicate copies),
///       - st.shared / ld.shared of `accessBytes` per lane at the offsets of
///         the plan's memory layout (which the simulator inverts itself; a
///         vector that is not contiguous and aligned is an error), counting
///         wavefronts with hw::machine(arch).smem.wavefronts (the lane-group
///         rules of the hw layer); lanes that only duplicate data (free lane
///         bits of the source) are inactive on the store, warps that do so
///         skip it;
///       - barriers;
///  3. checks that warp w, lane l, register r of the destination holds
///     dst(r, l, w) + 1 for every r, l, w.
///
/// Example: a shared-memory plan for f32 16x16 with one warp from a
/// row-of-lanes blocked layout to its transpose stores 8 vectors of 4 B
/// per lane, 1 wavefront each; result.correct, storeWavefronts == 8.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_SIMULATOR_H
#define LAYOUTKIT_PLAN_SIMULATOR_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/plan/Plan.h"

#include <cstdint>
#include <string>

namespace lk::plan {

struct SimulationResult {
  bool correct = false;
  int64_t checked = 0;    ///< destination registers checked (all lanes, warps)
  int64_t mismatches = 0; ///< registers with the wrong (or no) element
  std::string firstMismatch; ///< "warp 0 lane 3 register 1: holds 17, wants 5"
  int64_t instructions = 0; ///< warp instructions of every kind
  int64_t registerMoves = 0;
  int64_t shuffles = 0;
  int64_t storeInstructions = 0, loadInstructions = 0;
  int64_t storeWavefronts = 0, loadWavefronts = 0;
  int64_t barriers = 0;
};

/// Runs `plan` (see the file comment). Fails (rather than reporting a
/// mismatch) when the plan is malformed: a memory layout that is not
/// invertible, a vector that is not contiguous, an access width the
/// hardware lacks.
Expected<SimulationResult> simulate(const Plan &plan,
                                    hw::Arch arch = hw::Arch::Sm90);

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_SIMULATOR_H
