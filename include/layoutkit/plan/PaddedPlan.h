//===- PaddedPlan.h - Converting layouts of non-power-of-two shapes -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Conversion plans between two padded layouts (linear/Padded.h) of one
/// logical shape. The plan is the planner's plan (Plan.h) for the padded
/// linear layouts, executed with every element access predicated on the
/// element being valid (coordinate < logical extent on every dim):
///
///  * a source register, lane or warp holding only padding never issues a
///    store or a send; a destination one never issues a load, a receive or
///    a copy; an instruction whose every lane is predicated off is not
///    issued at all;
///  * shared-memory offsets whose element (by the plan's memory layout,
///    offset -> logical) is padding are never written or read;
///  * ldmatrix / stmatrix move whole rows and cannot skip an element, so a
///    padded pair is planned with PlanOptions::matrixInstructions off.
///
/// simulatePadded runs the plan in the simulator's masked mode
/// (Simulator.h, SimulationMask), which reports every access that touches
/// padding as an error and checks that every valid element arrives.
///
/// The waste is reported per side (Waste of each layout) and for the
/// buffer: the offsets of the memory layout (over every iteration and CTA)
/// holding padding, and the buffer slots that hold padding in every
/// iteration (never touched; bytes that a compacted buffer would save).
///
/// Example (tests/plan/PaddedPlanTest.cpp): f32 over [48], from
/// {register: [(1)], lane: [(2),(4),(8),(16),(32)]} (element 2l + r) to
/// {register: [(32)], lane: [(1),(2),(4),(8),(16)]} (element 32r + l):
/// source lanes 24..31 are fully masked and never store; in the
/// destination, register 1 of lanes 16..31 holds padding and is never
/// loaded. Through shared memory: 2 stores and 2 loads, 16 element
/// accesses masked on each side, 48 valid registers arrive.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_PADDEDPLAN_H
#define LAYOUTKIT_PLAN_PADDEDPLAN_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/Padded.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lk::plan {

struct PaddedPlan {
  /// The plan over the padded layouts.
  Plan plan;
  std::vector<int64_t> logicalShape;
  linear::Waste srcWaste, dstWaste;
  /// SharedMemory plans: offsets of the memory layout (all iterations and
  /// CTAs) and those holding padding (never written or read); buffer slots
  /// (per CTA) that hold padding in every iteration, and their bytes.
  int64_t smemOffsets = 0, maskedSmemOffsets = 0;
  int64_t bufferSlots = 0, unusedBufferSlots = 0, unusedBufferBytes = 0;
  /// Lines: the strategy, each side's waste, the buffer's.
  std::string describe() const;
};

/// Plans the conversion of `src` to `dst` (see the file comment). Fails
/// when the logical shapes differ, when the planner fails, or when a
/// side's mask would visit more than 2^24 inputs.
Expected<PaddedPlan> planPaddedConversion(const linear::PaddedLayout &src,
                                          const linear::PaddedLayout &dst,
                                          int64_t elementBits,
                                          PlanOptions options = {});

/// The padded-plan account of a plan already made over padded layouts of
/// `logical` (its aligned layouts' out-dims must be the padded shape).
/// Plan such a pair with PlanOptions::matrixInstructions off.
Expected<PaddedPlan> maskPlan(Plan plan, std::span<const int64_t> logical);

/// simulate(p.plan, arch) masked by p.logicalShape.
Expected<SimulationResult> simulatePadded(const PaddedPlan &p,
                                          hw::Arch arch = hw::Arch::Sm90);

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_PADDEDPLAN_H
