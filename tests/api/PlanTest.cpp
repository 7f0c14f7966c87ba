//===- PlanTest.cpp - Distributed layouts, memory forms, plans ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Plan.h"

#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

namespace lk::api {
namespace {

using linear::LinearLayout;

ParseOptions withShape(std::string_view shape) {
  ParseOptions o;
  o.shape = *cute::parseIntTuple(shape);
  return o;
}

const cute::ElementType kF16{"f16", 16};

/// The mma.m16n8k16 accumulator as a cute TV layout, over (16,8) colex:
/// thread (4,8):(32,1), value (2,2):(16,8).
constexpr const char *kMmaTv = "((4,8),(2,2)):((32,1),(16,8))";
constexpr const char *kMmaTile = "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]";

TEST(ApiPlan, TvLayoutSplitsThreadsIntoLanesAndWarps) {
  Expected<LinearLayout> l = parseDistributed(kMmaTv, withShape("(16,8)"));
  ASSERT_TRUE(l.hasValue()) << l.error().message;
  // Index i is (i mod 16, i div 16). Thread bits 0,1: strides 32, 64 ->
  // (0,2), (0,4); bits 2-4: strides 1, 2, 4 -> (1,0), (2,0), (4,0). Value
  // bits: strides 16, 8 -> (0,1), (8,0). 32 threads: no warp.
  EXPECT_EQ(*l, *linear::parseLinearLayout(
                    "{lane: [(0,2), (0,4), (1,0), (2,0), (4,0)], register: "
                    "[(0,1), (8,0)]} -> {dim0: 16, dim1: 8}"));
  // The same layout written as a tile layout.
  Expected<LinearLayout> t = parseDistributed(kMmaTile, withShape("(16,8)"));
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  auto bases = [](const LinearLayout &x, linear::DimId d) {
    return x.bases(x.inDimIndex(d));
  };
  for (linear::DimId d : {linear::dims::kRegister, linear::dims::kLane})
    EXPECT_EQ(bases(*l, d), bases(*t, d));

  // 64 threads: thread bit 5 (stride 64 -> index 128 -> dim0 128 ... over
  // (256)) is the warp's bit 0.
  Expected<LinearLayout> w =
      tvToLinear(*cute::parseLayout("(64,4):(4,1)"), std::vector<int64_t>{256});
  ASSERT_TRUE(w.hasValue()) << w.error().message;
  EXPECT_EQ(w->inDimSize(linear::dims::kLane), 32);
  EXPECT_EQ(w->inDimSize(linear::dims::kWarp), 2);
  EXPECT_EQ(w->basis(linear::dims::kWarp, 0, linear::dims::dim(0)), 128);
  EXPECT_EQ(w->basis(linear::dims::kLane, 4, linear::dims::dim(0)), 64);
  EXPECT_EQ(w->basis(linear::dims::kRegister, 1, linear::dims::dim(0)), 2);
}

TEST(ApiPlan, DistributedRefusals) {
  Expected<LinearLayout> rank =
      tvToLinear(*cute::parseLayout("128:1"), std::vector<int64_t>{128});
  ASSERT_FALSE(rank.hasValue());
  EXPECT_NE(rank.error().message.find("2 top-level modes"), std::string::npos);
  Expected<LinearLayout> noShape =
      tvToLinear(*cute::parseLayout(kMmaTv), {}, "--shape");
  ASSERT_FALSE(noShape.hasValue());
  EXPECT_EQ(noShape.error().message.rfind("a cute TV layout needs --shape", 0),
            0u);

  // A linear layout of 16x8 against the shape (16,16).
  Expected<LinearLayout> shape = parseDistributed(
      "{register: [(0,1)]} -> {dim0: 1, dim1: 2}", withShape("(16,16)"));
  ASSERT_FALSE(shape.hasValue());
  EXPECT_NE(shape.error().message.find("logical dims have extents (1,2)"),
            std::string::npos);
  EXPECT_EQ(shape.error().notes.back().rfind("read as a linear layout", 0), 0u);

  // The bridge refuses extent 3; the note names the tile grammar.
  Expected<LinearLayout> tile =
      parseDistributed("S[(8,3):(1,8)]", withShape("(16,8)"));
  ASSERT_FALSE(tile.hasValue());
  EXPECT_NE(tile.error().message.find("not a power of two"), std::string::npos);
  EXPECT_EQ(tile.error().notes.back().rfind("read as a tile layout", 0), 0u);

  // A swizzle belongs to memory, not to registers.
  EXPECT_FALSE(parseDistributed("Sw<1,1,1> o (4,8):(8,1)", withShape("(32)"))
                   .hasValue());
}

// The thread hierarchy is bounded before planning: 2^39 lanes used to
// exhaust memory (the planner tabulates per lane). Each layout here maps
// register bit 0 and lane bits to consecutive offsets, transposed between
// SRC and DST so that a plan needs shared memory.
LinearLayout lanes(int laneBits, bool swapped, const char *extra = "") {
  std::string reg = swapped ? "(2)" : "(1)", lane = swapped ? "(1)" : "(2)";
  for (int i = 2; i <= laneBits; ++i)
    lane += ", (" + std::to_string(int64_t(1) << i) + ")";
  return *linear::parseLinearLayout(
      "{register: [" + reg + "], lane: [" + lane + "]" + extra +
      "} -> {dim0: " + std::to_string(int64_t(1) << (laneBits + 1)) + "}");
}

TEST(ApiPlan, ThreadHierarchyIsBounded) {
  auto many = planConversion(lanes(39, false), lanes(39, true), kF16);
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().message,
            "SRC has 2^39 lanes per warp; plans are made for at most 64");
  // 64 lanes (wave64): planned.
  EXPECT_TRUE(planConversion(lanes(6, false), lanes(6, true), kF16));
  auto wide = planConversion(lanes(7, false), lanes(7, true), kF16);
  ASSERT_FALSE(wide);
  EXPECT_NE(wide.error().message.find("2^7 lanes"), std::string::npos);
}

TEST(ApiPlan, NoOpBetweenTwoSpellingsOfOneLayout) {
  ParseOptions o = withShape("(16,8)");
  LinearLayout src = *parseDistributed(kMmaTile, o);
  LinearLayout dst = *parseDistributed(kMmaTv, o);
  Expected<PlanReport> r = planConversion(src, dst, kF16);
  ASSERT_TRUE(r.hasValue()) << r.error().message;
  EXPECT_EQ(r->plan.strategy, plan::Strategy::NoOp);
  EXPECT_FALSE(r->memory.cute.has_value());
  EXPECT_TRUE(r->storeInstruction.empty());
}

TEST(ApiPlan, NegativeBudgetRefusedWhateverTheStrategy) {
  // A no-op pair never reaches shared memory, yet -1 bytes is refused.
  ParseOptions o = withShape("(16,8)");
  LinearLayout src = *parseDistributed(kMmaTile, o);
  LinearLayout dst = *parseDistributed(kMmaTv, o);
  plan::PlanOptions neg;
  neg.smemBudgetBytes = -1;
  Expected<PlanReport> r = planConversion(src, dst, kF16, neg);
  ASSERT_FALSE(r.hasValue());
  EXPECT_NE(r.error().message.find("budget -1"), std::string::npos)
      << r.error().message;
}

// Without a budget the api plans within the target's shared memory per
// CTA: an f32 256x256 transpose over 8 warps is a 262144 B tile, over
// sm_90's 232448 B, so it repeats twice through 131072 B (3 barriers);
// the plan layer alone (no budget) takes the whole tile in one pass. A
// budget over the target's is refused, named on smem_budget.
TEST(ApiPlan, DefaultBudgetIsTheTargetsSharedMemoryPerCta) {
  const int64_t shape[] = {256, 256};
  const unsigned s18[] = {1, 8}, t321[] = {32, 1}, w81[] = {8, 1};
  const unsigned s81[] = {8, 1}, t132[] = {1, 32}, w18[] = {1, 8};
  const unsigned o10[] = {1, 0}, o01[] = {0, 1};
  LinearLayout rows = *linear::blockedLayout(s18, t321, w81, o10, shape);
  LinearLayout cols = *linear::blockedLayout(s81, t132, w18, o01, shape);
  const cute::ElementType f32{"f32", 32};
  Expected<PlanReport> r = planConversion(rows, cols, f32);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->plan.smem);
  EXPECT_EQ(r->plan.smem->iterations, 2);
  EXPECT_EQ(r->plan.smem->bytes, 131072);
  EXPECT_EQ(r->plan.smem->barriers, 3);
  Expected<plan::Plan> whole = plan::planConversion(rows, cols, 32);
  ASSERT_TRUE(whole && whole->smem);
  EXPECT_EQ(whole->smem->bytes, 262144);
  EXPECT_EQ(whole->smem->iterations, 1);
  plan::PlanOptions over;
  over.smemBudgetBytes = 232449;
  Expected<PlanReport> refused = planConversion(rows, cols, f32, over);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "shared-memory budget 232449 bytes is more than the 232448 bytes "
            "sm_90 gives one CTA");
  EXPECT_EQ(refused.error().parameter, "smem_budget");
}

/// The 16x16 f16 transpose across two warps of docs/cli.md: blocked
/// [1,4] x [8,4] x [2,1] (order 1,0) to [4,1] x [4,8] x [1,2] (order 0,1).
std::pair<LinearLayout, LinearLayout> transpose16() {
  const int64_t shape[] = {16, 16};
  const unsigned s14[] = {1, 4}, t84[] = {8, 4}, w21[] = {2, 1}, o10[] = {1, 0};
  const unsigned s41[] = {4, 1}, t48[] = {4, 8}, w12[] = {1, 2}, o01[] = {0, 1};
  return {*linear::blockedLayout(s14, t84, w21, o10, shape),
          *linear::blockedLayout(s41, t48, w12, o01, shape)};
}

// The 16x16 transpose below over a 12x12 tensor padded to 16x16: the same
// pair planned without matrix instructions (the unpadded plan stores with
// stmatrix), 256 - 144 = 112 elements of each side padding, and the masked
// run moves every one of the 144 valid registers without touching padding.
TEST(ApiPlan, PaddedTensorPlansWithoutMatrixInstructions) {
  const auto [src, dst] = transpose16();
  const std::vector<int64_t> logical{12, 12};
  Expected<PaddedPlanReport> r = planPaddedConversion(src, dst, kF16, logical);
  ASSERT_TRUE(r.hasValue()) << r.error().message;
  ASSERT_EQ(r->report.plan.strategy, plan::Strategy::SharedMemory);
  EXPECT_EQ(r->report.storeInstruction, "st.shared");
  EXPECT_EQ(r->report.loadInstruction, "ld.shared");
  EXPECT_EQ(r->padded.logicalShape, logical);
  EXPECT_EQ(r->padded.srcWaste.paddedElements, 112);
  EXPECT_EQ(r->padded.dstWaste.paddedElements, 112);
  Expected<plan::SimulationResult> sim = plan::simulatePadded(r->padded);
  ASSERT_TRUE(sim.hasValue()) << sim.error().message;
  EXPECT_TRUE(sim->correct) << sim->firstMismatch << sim->firstViolation;
  EXPECT_EQ(sim->checked, 144);
  // A logical shape that does not fit the layouts is refused.
  Expected<PaddedPlanReport> bad =
      planPaddedConversion(src, dst, kF16, std::vector<int64_t>{12, 17});
  EXPECT_FALSE(bad.hasValue());
  Expected<PaddedPlanReport> rank =
      planPaddedConversion(src, dst, kF16, std::vector<int64_t>{12});
  EXPECT_FALSE(rank.hasValue());
  // The padded shape itself pads nothing: the plan may use stmatrix (the
  // unpadded plan of this pair does).
  Expected<PaddedPlanReport> whole =
      planPaddedConversion(src, dst, kF16, std::vector<int64_t>{16, 16});
  ASSERT_TRUE(whole.hasValue()) << whole.error().message;
  EXPECT_EQ(whole->report.storeInstruction, "stmatrix.x2.trans");
}

// planTensorConversion dispatches on the logical shape: none gives the
// plain plan (stmatrix, as the unpadded pair stores), 12x12 the padded one
// (st.shared, 112 padding elements a side, as the test above derives).
TEST(ApiPlan, TensorPlanDispatchesOnTheLogicalShape) {
  const auto [src, dst] = transpose16();
  Expected<TensorPlanReport> plain =
      planTensorConversion(src, dst, kF16, std::vector<int64_t>{});
  ASSERT_TRUE(plain.hasValue()) << plain.error().message;
  EXPECT_FALSE(plain->padded.has_value());
  EXPECT_EQ(plain->report.storeInstruction, "stmatrix.x2.trans");
  Expected<TensorPlanReport> padded =
      planTensorConversion(src, dst, kF16, std::vector<int64_t>{12, 12});
  ASSERT_TRUE(padded.hasValue()) << padded.error().message;
  ASSERT_TRUE(padded->padded.has_value());
  EXPECT_EQ(padded->report.storeInstruction, "st.shared");
  EXPECT_EQ(padded->padded->srcWaste.paddedElements, 112);
  // Both paths refuse a negative budget (planConversion's check).
  plan::PlanOptions negative;
  negative.smemBudgetBytes = -1;
  EXPECT_FALSE(planTensorConversion(src, dst, kF16,
                                    std::vector<int64_t>{12, 12}, negative)
                   .hasValue());
  EXPECT_FALSE(
      planTensorConversion(src, dst, kF16, std::vector<int64_t>{}, negative)
          .hasValue());
}

TEST(ApiPlan, SharedMemoryTransposeReportsFormsAndInstructions) {
  const auto [src, dst] = transpose16();
  Expected<PlanReport> r = planConversion(src, dst, kF16);
  ASSERT_TRUE(r.hasValue()) << r.error().message;
  ASSERT_EQ(r->plan.strategy, plan::Strategy::SharedMemory);
  EXPECT_EQ(r->storeInstruction, "stmatrix.x2.trans");
  EXPECT_EQ(r->loadInstruction, "ld.shared");
  ASSERT_TRUE(r->memory.cute && r->memory.tile);
  // Both forms agree with the linear memory layout (offset -> logical) on
  // every element: cute maps (dim0, dim1) colex to the offset, tile maps the
  // row-major index dim0 * 16 + dim1 to the address.
  const LinearLayout &memory = r->plan.smem->memory;
  for (uint64_t off = 0; off < 256; ++off) {
    std::vector<int64_t> c = memory.unpackOut(memory.applyFlat(off));
    int64_t colex = c[0] + 16 * c[1], rowMajor = c[0] * 16 + c[1];
    const cute::ComposedLayout &k = *r->memory.cute;
    EXPECT_EQ(k.swizzle(cute::evaluate(k.layout, colex)), int64_t(off));
    EXPECT_EQ(r->memory.tile->addressAt(rowMajor), int64_t(off));
  }
  // Without matrix instructions both sides are plain.
  plan::PlanOptions vectors;
  vectors.matrixInstructions = false;
  Expected<PlanReport> v = planConversion(src, dst, kF16, vectors);
  ASSERT_TRUE(v.hasValue()) << v.error().message;
  EXPECT_EQ(v->storeInstruction, "st.shared");
  EXPECT_EQ(v->loadInstruction, "ld.shared");
}

TEST(ApiPlan, MemoryFormsOnRequest) {
  // The same transpose without the memory forms: the same plan and
  // instructions, `memory` empty, and memoryForms() gives the forms the
  // default report carries.
  const int64_t shape[] = {16, 16};
  const unsigned s14[] = {1, 4}, t84[] = {8, 4}, w21[] = {2, 1}, o10[] = {1, 0};
  const unsigned s41[] = {4, 1}, t48[] = {4, 8}, w12[] = {1, 2}, o01[] = {0, 1};
  LinearLayout src = *linear::blockedLayout(s14, t84, w21, o10, shape);
  LinearLayout dst = *linear::blockedLayout(s41, t48, w12, o01, shape);
  Expected<PlanReport> full = planConversion(src, dst, kF16);
  ReportOptions lean;
  lean.memoryForms = false;
  Expected<PlanReport> r = planConversion(src, dst, kF16, {}, lean);
  ASSERT_TRUE(full.hasValue() && r.hasValue());
  EXPECT_EQ(r->plan.strategy, plan::Strategy::SharedMemory);
  EXPECT_EQ(r->plan.cost.cycles, full->plan.cost.cycles);
  EXPECT_EQ(r->plan.smem->memory, full->plan.smem->memory);
  EXPECT_EQ(r->storeInstruction, "stmatrix.x2.trans");
  EXPECT_FALSE(r->memory.cute.has_value() || r->memory.tile.has_value());
  MemoryForms later = memoryForms(r->plan.smem->memory);
  ASSERT_TRUE(later.cute && later.tile && full->memory.cute &&
              full->memory.tile);
  EXPECT_EQ(*later.cute, *full->memory.cute);
  EXPECT_EQ(*later.tile, *full->memory.tile);
}

TEST(ApiPlan, PlannerFailureNamesTheElementType) {
  LinearLayout a = *parseDistributed(kMmaTv, withShape("(16,8)"));
  Expected<PlanReport> r = planConversion(a, a, cute::ElementType{"nvfp4", 4});
  ASSERT_FALSE(r.hasValue());
  EXPECT_EQ(r.error().notes.back(),
            "planning SRC -> DST for nvfp4 (4-bit elements)");
}

} // namespace
} // namespace lk::api
