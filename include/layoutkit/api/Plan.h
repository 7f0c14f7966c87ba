//===- Plan.h - Distributed layouts and conversion plans ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What a front end needs to plan a conversion between two layouts written
/// in any model (docs/plan.md):
///
///  * distributedLayout(): an AnyLayout as the hardware -> logical linear
///    layout the planner takes (in-dims register, lane, warp, block; out-dims
///    dim0.. of the tensor shape):
///      linear   itself (its out-dim extents must equal the shape's, when
///               a shape is given);
///      tile     bridge::tileToLinear over the shape: m -> register,
///               laneid -> lane, warpid -> warp, cta -> block (without a
///               shape: one out-dim `index`); refused with a swizzle;
///      cute     a TV layout (thread, value) -> element index, CuTe's
///               convention: tvToLinear() below; refused with a swizzle;
///  * tvToLinear(tv, shape): the two top-level modes of tv are thread and
///    value; the index is split colex over `shape` (dim0 the first, fastest
///    coordinate); the thread bits become lane (low 5) and warp (the rest,
///    hw/LaneWarp.h); the value bits the register:
///      result(register r, lane l, warp w) = colex(tv(l + 32 w, r));
///  * memoryForms(memory): a shared-memory layout offset -> logical in the
///    other two models: cute `Sw o L` over the coordinate (dim0, dim1, ..),
///    colex, to the element offset; tile `Swizzle(..) o S[..]` from the
///    row-major flat index (the last dim fastest) to the address on m
///    (both through swizzledForm, api/Convert.h);
///  * planConversion(): plan::planConversion plus the memory forms and the
///    instruction names of the shared-memory sides;
///  * planPaddedConversion(): the same for a tensor whose logical shape is
///    not all powers of two, over its padded shape (plan/PaddedPlan.h);
///  * reduce() and gather(): the reduction and gather planners with the
///    axis checked (the reduction simulated too).
///
/// Example (the mma.m16n8k16 accumulator, two spellings of one layout):
///   ParseOptions o; o.shape = (16,8);
///   src = parseDistributed("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", o)
///   dst = parseDistributed("((4,8),(2,2)):((32,1),(16,8))", o)
///   planConversion(src, dst, {"f16", 16})->plan.strategy == NoOp
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_PLAN_H
#define LAYOUTKIT_API_PLAN_H

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/plan/Gather.h"
#include "layoutkit/plan/PaddedPlan.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Reduce.h"

#include <optional>
#include <span>
#include <string>

namespace lk::api {

/// The TV layout `tv` as register/lane/warp -> dim0.. (see the file
/// comment). Fails when tv has not 2 top-level modes, when `shape` is
/// empty, or when the bridge refuses tv (a non-power-of-two extent, ...).
/// `shapeName` names the shape in the diagnostic (e.g. "--shape").
Expected<linear::LinearLayout>
tvToLinear(const cute::Layout &tv, std::span<const int64_t> shape,
           std::string_view shapeName = "a shape");

/// The hardware -> logical layout of `l` over the leaves of options.shape
/// (see the file comment).
Expected<linear::LinearLayout> distributedLayout(const AnyLayout &l,
                                                 const ParseOptions &options);

/// parseLayout + distributedLayout; a failure of either carries the note
/// "read as <grammar> (...)".
Expected<linear::LinearLayout> parseDistributed(std::string_view text,
                                                const ParseOptions &options);

/// The element type of an operation on layouts whose texts may name one
/// (elementTypeOf): `given` (the front end's dtype option) when set, else
/// the type the layouts name, else `fallback`. Refused: layouts naming
/// different types, a given type other than a named one, none of the
/// three. `dtypeName` names the option in diagnostics.
/// Example: (nullopt, {f32}, f16) -> f32; (f16, {f32}, _) -> error "--dtype
/// f16 and the tensor type's element type f32 disagree".
Expected<cute::ElementType>
callElementType(const std::optional<cute::ElementType> &given,
                std::span<const std::optional<cute::ElementType>> named,
                const std::optional<cute::ElementType> &fallback,
                std::string_view dtypeName = "--dtype");

/// The element type of a conversion src -> dst: `given` (the front end's
/// dtype option) when set, else the one the layouts' texts name
/// (elementTypeOf: Triton's tensor types name theirs). Refused: sides
/// naming different types (a conversion keeps its elements), a given type
/// other than a named one, none given or named. `dtypeName` names the
/// option in diagnostics.
/// Example: (nullopt, f32, f32) -> f32; (f16, f32, nullopt) -> error
/// "--dtype f16 and the tensor type's element type f32 disagree".
Expected<cute::ElementType>
conversionElementType(const std::optional<cute::ElementType> &given,
                      const std::optional<cute::ElementType> &src,
                      const std::optional<cute::ElementType> &dst,
                      std::string_view dtypeName = "--dtype");

/// A shared-memory layout in the cute and tile models, where representable.
struct MemoryForms {
  std::optional<cute::ComposedLayout> cute;
  std::optional<tile::SwizzledTileLayout> tile;
};
/// `memory` maps offset -> logical (plan::SharedMemoryPlan::memory).
MemoryForms memoryForms(const linear::LinearLayout &memory);

/// A reduction of a distributed layout along one output dim, planned and
/// simulated (`layoutkit paper reduce`, layoutkit.reduce, the demo's reduce).
struct ReductionReport {
  plan::ReducePlan plan;
  /// plan::simulateReduction(plan): every output register checked.
  plan::ReduceSimulation simulation;
};

/// The most registers per thread a reduction is planned for. Planning and
/// simulating grow faster than the register count (one axis of 2^15
/// registers: 0.6 s, 2^16: 2.1 s on the 2-core development VM, 20x that in
/// the browser); real reductions hold at most a few hundred.
inline constexpr int64_t kMaxReduceRegisters = int64_t(1) << 14;

/// Plans the reduction of `layout` along output dim `axis` for elements of
/// `type` (plan::planReduction; `eliminateDuplicates` false: every lane,
/// register and warp stores) and simulates it. Fails, before planning, on
/// an axis outside [0, rank of the layout's output dims) and on more than
/// kMaxReduceRegisters registers per thread, and as the planner does (a
/// simulation that disagrees is a result, not a failure: simulation.correct is
/// false).
Expected<ReductionReport> reduce(const linear::LinearLayout &layout,
                                 int64_t axis, const cute::ElementType &type,
                                 bool eliminateDuplicates = true);

/// Plans out = gather(src, index, axis) for elements of `type`
/// (plan::planGather). Fails, before planning, on an axis outside
/// [0, rank of src's output dims), and as the planner does.
Expected<plan::GatherPlan> gather(const linear::LinearLayout &src,
                                  const linear::LinearLayout &index,
                                  int64_t axis, const cute::ElementType &type);

/// Most registers per thread (size of the register dim of SRC or DST)
/// planConversion() accepts: 2^16. More is refused before planning, by the
/// planner itself (plan::checkPlanSize).
inline constexpr int64_t kMaxPlanRegisters = int64_t(1)
                                             << plan::kMaxRegisterBits;
/// The thread hierarchy planConversion() accepts, refused before planning
/// beyond it (the planner tabulates per lane and warp): at most 64 lanes
/// (a wave64 warp), 1024 threads (lanes x warps, a CTA) and 16 blocks (a
/// cluster).
inline constexpr int64_t kMaxPlanLanes = int64_t(1) << plan::kMaxLaneBits;
inline constexpr int64_t kMaxPlanThreads = int64_t(1) << plan::kMaxThreadBits;
inline constexpr int64_t kMaxPlanBlocks = int64_t(1) << plan::kMaxBlockBits;

/// A plan with what front ends print beside it.
struct PlanReport {
  plan::Plan plan;
  /// The forms of plan.smem->memory (empty without shared memory).
  MemoryForms memory;
  /// "st.shared" or e.g. "stmatrix.x2.trans"; empty without shared memory.
  std::string storeInstruction;
  /// "ld.shared" or e.g. "ldmatrix.x4"; empty without shared memory.
  std::string loadInstruction;
  /// The element type's name (e.g. "f16") and the target planned for.
  std::string dtype;
  hw::Arch arch = hw::Arch::Sm90;
};

/// What planConversion computes beside the plan.
struct ReportOptions {
  /// PlanReport::memory: the swizzled-form search over the shared-memory
  /// layout, which can cost several times the planning itself (about 88 us
  /// against 9 us for f16 blocked-row8 -> mma, 128x128, 8 warps). Without
  /// it `memory` stays empty; memoryForms(plan.smem->memory) gives the same
  /// forms later, when a front end shows them.
  bool memoryForms = true;
};

/// Plans src -> dst for elements of `type`. A planner failure carries the
/// note "planning SRC -> DST for NAME (B-bit elements)". The shared-memory
/// budget is options.smemBudgetBytes, else (0) all that options.arch gives
/// one CTA (hw::Machine::sharedBytesPerCta: 232448 B on sm_90), so a plan
/// runs on its target: a larger buffer repeats through a smaller one. A
/// negative budget, or one above the target's, is refused before planning.
/// (The plan layer's own default, 0, is unlimited.)
Expected<PlanReport> planConversion(const linear::LinearLayout &src,
                                    const linear::LinearLayout &dst,
                                    const cute::ElementType &type,
                                    const plan::PlanOptions &options = {},
                                    const ReportOptions &report = {});

/// A plan of a padded tensor: the report, and the padded account of its
/// plan (padded.plan is a copy of report.plan).
struct PaddedPlanReport {
  PlanReport report;
  plan::PaddedPlan padded;
};

/// planConversion for a tensor of logical shape `logical` whose layouts
/// src and dst cover its padded shape (each extent rounded up to a power
/// of two): when any extent is padded, planned without ldmatrix /
/// stmatrix, which move whole rows and cannot skip padding; then accounted
/// by plan::maskPlan (each side's waste, the buffer's). Run masked by
/// plan::simulatePadded, emitted masked by plan::emitCuda(padded). Fails,
/// before planning, when `logical` does not fit the layouts (one extent
/// per out-dim, each rounding up to that out-dim's size, as
/// linear::PaddedLayout::make checks), and as planConversion does.
/// Example: src, dst over (16,32) with logical (12,24): a shared-memory
/// plan whose 224 padded elements of 512 are never read or written.
Expected<PaddedPlanReport> planPaddedConversion(
    const linear::LinearLayout &src, const linear::LinearLayout &dst,
    const cute::ElementType &type, std::span<const int64_t> logical,
    plan::PlanOptions options = {}, const ReportOptions &report = {});

/// A plan of a tensor whose logical shape may be padded: `padded` is set
/// when a logical shape was given.
struct TensorPlanReport {
  PlanReport report;
  std::optional<plan::PaddedPlan> padded;
};

/// The plan front ends ask for: planConversion when `logical` is empty
/// (the layouts' shape is the tensor's), planPaddedConversion over
/// `logical` otherwise (the CLI's --logical, Python's logical=).
/// Example: logical {} -> padded empty; logical {12, 24} over (16,32)
/// layouts -> padded->logicalShape == {12, 24}.
Expected<TensorPlanReport> planTensorConversion(
    const linear::LinearLayout &src, const linear::LinearLayout &dst,
    const cute::ElementType &type, std::span<const int64_t> logical,
    const plan::PlanOptions &options = {}, const ReportOptions &report = {});

} // namespace lk::api

#endif // LAYOUTKIT_API_PLAN_H
