//===- Gather.h - Plans for a gather along one axis -------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The gather planner of the linear-layouts paper (§5.5). A gather along
/// `axis` reads, for every element of an index tensor, one element of a
/// source tensor:
///
///     out[c] = src[c with c[axis] replaced by index[c]]
///
/// `index` and `out` have the same shape and the same distributed layout I;
/// `src` has layout S and the same shape except possibly along `axis`. Both
/// layouts map (register, lane, warp, block) to the tensor dims. The index
/// values are only known at run time, so a plan is data-independent: it
/// says, for every output register, which instructions run and how each
/// lane turns its runtime index value into the place it reads from.
///
/// ## Where the wanted element lives
///
/// Write N(x) for the off-axis part of I(x) (the coordinates of the output
/// element at hardware location x, with the axis coordinate cleared) and
/// e_v for "axis coordinate v". The wanted element is N(x) + e_v. The
/// planner looks for a linear map D (index location -> source location)
/// with S(D(x)) = N(x) that keeps the warp and block of x, and a linear map
/// P (axis value -> source register and lane) with S(P(v)) = e_v. Then
///
///     wanted source location = D(x) ^ P(v)                             (1)
///
/// is held by the reading thread's own warp, with the register and the lane
/// given by the register and lane bits of (1). Both maps are built column by
/// column (bit by bit of x and of v), which gives the exact condition.
///
/// ## The warp-local condition (checked on the columns)
///
/// With span_RL = the span of S's register and lane columns, and off(c) a
/// column of I with its axis bits cleared (re-packed into S's output dims):
///
///  (a) every bit of S's axis is in span_RL (no axis bit only on warps or
///      blocks);
///  (b) for every register or lane column c of I: off(c) is in span_RL;
///  (c) for every warp (block) bit q: off(I's column q) ^ (S's column q) is
///      in span_RL.
///
/// For distributed layouts (each column one logical bit or zero), (a) says
/// S has no warp/block column on the axis, and (b)-(c) say S and I put the
/// off-axis coordinates on the same warps and blocks (a warp column of S
/// may also differ from I's where S holds that bit in a register or lane
/// too, i.e. broadcast). When (a)-(c) hold the gather never leaves a warp
/// and the plan uses warp shuffles (or nothing but register selects when
/// every wanted element is in the reading thread); otherwise it goes through
/// shared memory. The conditions are also necessary for a warp-local plan:
/// if one fails, some thread needs an element no location of its warp holds.
///
/// Where S holds a logical bit more than once (broadcast), D and P have
/// several solutions, and the choice decides the cost. The planner first
/// looks for a thread-local one (axis bits from registers, each lane of I
/// matched by the same lane of S corrected by registers); failing that it
/// takes lane columns of S before register columns everywhere except in
/// D(register r) (a compile-time constant): a lane costs nothing, a
/// register part doubles the rounds (next section).
///
/// ## Rounds (the paper's count, derived)
///
/// Split (1) into its register part and lane part. For output register r of
/// lane l in warp w with runtime index v:
///
///     src register = Dreg(r) ^ Dreg(l) ^ Dreg(w) ^ Preg(v)
///     src lane     = Dlane(r) ^ Dlane(l) ^ Dlane(w) ^ Plane(v)
///
/// `__shfl_sync(mask, value, srcLane)` takes a runtime source lane, so the
/// lane part costs nothing: every lane computes its own partner. But every
/// lane *sends* the same register in one shuffle, and which register holds
/// the wanted element depends on v. So for output register r the plan runs
/// one shuffle round per possible source register, i.e. per element of
///     Dreg(r) ^ span(Preg(axis bits), Dreg(lane bits), Dreg(warp bits)),
/// and lane l keeps the value received in the round whose register equals
/// its wanted src register (exactly one round matches). When S and I place
/// the off-axis coordinates on the same lanes and warps (Dreg vanishes on
/// lanes and warps, the case of the paper), the span is that of the axis
/// bits S holds in registers, Reg_axis, and with Lane_axis the axis bits in
/// lanes:
///
///     rounds per output register = 2^|Reg_axis|
///
/// (a warp holds 2^(|Reg_axis| + |Lane_axis|) positions of each column along
/// the axis: the lane is picked at run time by the shuffle, the register by
/// the rounds). Each round is one `shfl` per 32-bit word of the element (two
/// for 64-bit elements) and one select; a register with a single candidate
/// needs no select. When the wanted lane is always the reading lane
/// (Lane_axis empty and S, I agree on lanes) no shuffle is needed: the
/// plan is ThreadLocal, 2^|Reg_axis| register selects per output register.
///
/// ## Shared memory
///
/// Otherwise: every thread stores its source registers to a plain row-major
/// buffer of the source tensor (element at row-major position p at byte
/// p * elementBytes; duplicated registers, lanes and warps of S skipped as
/// in the conversion planner), one barrier, and every output register is
/// one scalar load at the runtime address of src[N(x) + e_v]. Bank
/// conflicts of the loads depend on the index values; simulateGather counts
/// them. Only one CTA (block size 1) is supported on this path.
///
/// Example (tests/plan/GatherTest.cpp, GatherHandDerived). f32 8x8, one warp,
/// S = I = {register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),(4,0)]}
/// (each lane holds two adjacent columns of one row), axis 1. No warp bits:
/// warp-local. Column bits: c1 is a register bit, c2 and c4 lane bits, so
/// |Reg_axis| = 1, |Lane_axis| = 2 and each output register takes
/// 2^1 = 2 rounds: round 0 every lane sends register 0, round 1 register 1;
/// lane l (row l >> 2) asks lane (l & ~3) | ((v >> 1) & 3) and keeps round
/// v & 1. Cost: 2 registers x 2 rounds = 4 shuffles and 4 selects.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_GATHER_H
#define LAYOUTKIT_PLAN_GATHER_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lk::plan {

/// How a gather moves data, cheapest first.
enum class GatherStrategy { ThreadLocal, WarpShuffle, SharedMemory };
std::string_view gatherStrategyName(GatherStrategy s);

/// A register and lane of the source layout, as a term of equation (1):
/// terms are combined by XOR.
struct SourceLocation {
  int64_t reg = 0;
  int64_t lane = 0;
  bool operator==(const SourceLocation &) const = default;
};

/// The steps of one output register (ThreadLocal / WarpShuffle).
struct GatherRegisterSteps {
  int64_t outRegister = 0;
  /// D(r): the term of the output register itself.
  SourceLocation base;
  /// The rounds, in order: round t sends source register sendRegisters[t]
  /// (ascending). A lane keeps round t's value iff its wanted source
  /// register equals sendRegisters[t].
  std::vector<int64_t> sendRegisters;
};

/// Instruction counts over one CTA.
struct GatherCost {
  int64_t shuffles = 0; ///< `shfl` instructions (2 per round for 64 bits)
  int64_t selects = 0;  ///< conditional moves keeping one round's value
  int64_t sharedStores = 0, sharedLoads = 0; ///< warp instructions
  int64_t barriers = 0;
  int64_t smemBytes = 0;
};

struct GatherPlan {
  GatherStrategy strategy = GatherStrategy::SharedMemory;
  /// The layouts aligned: input dims exactly [register, lane, warp, block],
  /// the index layout's output dims in the source's order.
  linear::LinearLayout src, index;
  int axis = 0;
  int64_t elementBits = 0;
  /// Equation (1): the wanted location of output register r in lane l of
  /// warp w (warp bits then block bits) for runtime index v is
  ///   steps[r].base ^ XOR_{i: bit i of v} fromIndex[i]
  ///                 ^ XOR_{j: bit j of l} fromLane[j]
  ///                 ^ XOR_{k: bit k of (w, block)} fromWarp[k].
  /// Empty for SharedMemory.
  std::vector<SourceLocation> fromIndex, fromLane, fromWarp;
  std::vector<GatherRegisterSteps> steps;
  /// Rounds per output register (the same for every register): 2^|Reg_axis|
  /// when S and I agree on lanes and warps. 0 for SharedMemory.
  int64_t roundsPerRegister = 0;
  GatherCost cost;
  /// "warp shuffle: 2 rounds per output register, 4 shfl, 4 selects".
  std::string describe() const;
};

/// Plans `out = gather(src, index, axis)` for elements of `elementBits`
/// (8, 16, 32 or 64). Fails on: an axis outside [0, rank); layouts with
/// input dims other than register/lane/warp/block; different output dims
/// (names, or sizes off the axis); different lane/warp/block counts; more
/// than 32 lanes; a layout that does not hold every element of its tensor;
/// a plan that would list more than 2^24 rounds (output registers x rounds
/// per register); and, on the shared-memory path, more than one CTA.
Expected<GatherPlan> planGather(const linear::LinearLayout &src,
                                const linear::LinearLayout &index, int axis,
                                int64_t elementBits);

struct GatherSimulation {
  bool correct = false;
  int64_t checked = 0; ///< output registers checked (all lanes, warps)
  int64_t mismatches = 0;
  std::string firstMismatch; ///< "warp 0 lane 3 register 1: holds 17, wants 5"
  int64_t shuffles = 0, selects = 0;
  int64_t sharedStores = 0, sharedLoads = 0, barriers = 0;
  int64_t storeWavefronts = 0, loadWavefronts = 0;
};

/// Runs `plan` on a simulated grid: source element at row-major position p
/// holds p + 1; `indexValues` holds one value per element of the index
/// tensor in row-major order (the source's dim order, last dim fastest).
/// Shuffles run as `__shfl_sync` does: every lane of the warp offers the
/// round's register, then every lane reads from the partner lane it computed
/// from its own index value, keeping the value iff its wanted register is
/// the one sent. Shared-memory accesses are counted in wavefronts with
/// hw::machine(arch).smem. Every output register is then compared with
/// src[N(x) + e_v] computed from the layouts alone. Fails on a wrong number
/// of index values, an index value outside [0, size of the source axis), a
/// layout of more than 2^24 locations or elements, or a malformed plan (a
/// round register or a partner lane out of range, a thread-local plan that
/// reads another lane).
Expected<GatherSimulation> simulateGather(const GatherPlan &plan,
                                          std::span<const int64_t> indexValues,
                                          hw::Arch arch = hw::Arch::Sm90);

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_GATHER_H
