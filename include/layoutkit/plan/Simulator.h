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
///       - warp-shuffle rounds (Plan.h, ShuffleRound): per round and warp,
///         every lane offers the packed vector of its sendRegisters, then
///         lane l receives lane srcLane[l]'s into its dstRegisters, counted
///         as wordsPerVector 32-bit shuffles (none in a lane-local round,
///         ShuffleRound::laneLocal); selects and pack / unpack moves are
///         counted as Cost describes; a round with a lane, a
///         register or a vector size out of range is an error;
///       - st.shared / ld.shared of `accessBytes` per lane at the offsets of
///         the plan's memory layout (which the simulator inverts itself; a
///         vector that is not contiguous and aligned is an error), counting
///         wavefronts with hw::machine(arch).smem.wavefronts (the lane-group
///         rules of the hw layer); lanes that only duplicate data (free lane
///         bits of the source) are inactive on the store, warps that do so
///         skip it;
///       - stmatrix / ldmatrix .x1/.x2/.x4 [.trans] (SharedMemoryPlan,
///         MatrixAccess.h): lane 8j + i supplies the row address the plan
///         describes (16-byte aligned, else an error), and lane l's 32-bit
///         register j, half h moves, with g = l >> 2, q = l & 3, row g
///         element 2q + h of matrix j (.trans: row 2q + h element g), as
///         docs/hardware.md §3.1 / §3.2 state; wavefronts by
///         hw::machine(arch).smem.ldmatrixWavefronts; stmatrix needs sm_90;
///       - barriers; a plan with `iterations` > 1 runs store, barrier, load,
///         barrier per iteration on a buffer of the plan's (smaller) size,
///         each instruction in the iteration of its elements (an
///         instruction whose lanes span iterations is an error);
///  3. checks that warp w, lane l, register r of the destination holds
///     dst(r, l, w) + 1 for every r, l, w.
///
/// Layouts over several CTAs: every CTA runs (warp index = block *
/// warpsPerCTA + warp, each CTA with its own buffer); every count covers
/// all CTAs (a plan's own counts are per CTA: the simulator's are
/// #CTAs times them).
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
#include <vector>

namespace lk::plan {

struct SimulationResult {
  bool correct = false;
  int64_t checked = 0;    ///< destination registers checked (all lanes, warps)
  int64_t mismatches = 0; ///< registers with the wrong (or no) element
  std::string firstMismatch; ///< "warp 0 lane 3 register 1: holds 17, wants 5"
  int64_t instructions = 0;  ///< warp instructions of every kind
  int64_t registerMoves = 0;
  int64_t shuffles = 0; ///< 32-bit shfl.sync instructions
  /// Lane-dependent register selects of a WarpShuffle plan (Plan.h, Cost).
  int64_t selects = 0;
  int64_t storeInstructions = 0, loadInstructions = 0;
  int64_t storeWavefronts = 0, loadWavefronts = 0;
  int64_t barriers = 0;
  /// Masked runs (SimulationMask): element accesses predicated off because
  /// the element is padding; lane vectors moved with some (not all) of
  /// their elements predicated off; and accesses that touched padding
  /// anyway (each an error: a source register holding padding read, a
  /// shared-memory offset holding padding by the memory layout written or
  /// read, a destination register of padding written, a matrix instruction
  /// over padding). `checked` then counts only valid destination registers.
  int64_t maskedAccesses = 0;
  int64_t partialVectors = 0;
  int64_t maskViolations = 0;
  std::string firstViolation;
};

/// The padding of a masked run: the logical extent of every out-dim of the
/// plan's aligned layouts (linear/Padded.h); empty means nothing is masked.
///
/// A masked run predicates every element access on the element it is for
/// (the source register's element for stores and sends, the destination
/// register's for loads, receives and copies): an access for padding is
/// skipped, and an instruction whose every lane is skipped is not issued
/// (not counted, no wavefronts). Source registers holding padding start
/// with a poison value; destination registers of padding must stay
/// unwritten. The result is correct when every valid destination register
/// holds its element and nothing touched padding.
///
/// Example: blocked [2] x 32 lanes over [48] (padded 64) to its
/// register-high twin, through shared memory: lanes 24..31 of the source
/// never store; 16 element accesses are masked on each side.
struct SimulationMask {
  std::vector<int64_t> logicalExtents;
};

/// Runs `plan` (see the file comment). Fails (rather than reporting a
/// mismatch) when the plan is malformed: a memory layout that is not
/// invertible, a vector that is not contiguous, an access width the
/// hardware lacks.
Expected<SimulationResult> simulate(const Plan &plan,
                                    hw::Arch arch = hw::Arch::Sm90);
/// A masked run (SimulationMask). Fails as above, and when the mask has
/// not one extent per out-dim.
Expected<SimulationResult> simulate(const Plan &plan, hw::Arch arch,
                                    const SimulationMask &mask);

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_SIMULATOR_H
