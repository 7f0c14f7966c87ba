//===- DescribePlanTest.cpp - Plan, reduction and gather records ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/DescribePlan.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

using namespace lk;
using api::Record;
using api::Value;

namespace {

linear::LinearLayout parse(const char *text) {
  Expected<linear::LinearLayout> l = linear::parseLinearLayout(text);
  EXPECT_TRUE(l) << l.error().render();
  return *l;
}

const cute::ElementType kF32{"f32", 32};

/// One warp over 8x8, each lane holding two adjacent columns of one row
/// (plan/Gather.h's hand example): lane bits 0, 1 are column bits 1, 2;
/// lane bits 2..4 are the row bits.
const char *kRow8 = "{register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),"
                    "(4,0)]} -> {dim0: 8, dim1: 8}";

std::vector<std::string> keys(const Record &r) {
  std::vector<std::string> k;
  for (size_t i = 0; i < r.size(); ++i)
    k.push_back(r.key(i));
  return k;
}

} // namespace

// The same layout on both sides: a no-op; every field a no-op plan lacks
// is null, and the record has the keys of every plan.
TEST(DescribePlan, NoOpPlanHasEveryKeyWithNulls) {
  linear::LinearLayout l = parse(kRow8);
  Expected<api::PlanReport> r = api::planConversion(l, l, kF32);
  ASSERT_TRUE(r) << r.error().render();
  Record rec = api::describe(*r);
  EXPECT_EQ(keys(rec), (std::vector<std::string>{
                           "strategy", "dtype", "element_bits", "arch", "src",
                           "dst", "register_sources", "shuffle",
                           "shared_memory", "cost", "padding"}));
  EXPECT_EQ(rec.find("strategy")->asString(), "no-op");
  EXPECT_EQ(rec.find("dtype")->asString(), "f32");
  EXPECT_EQ(rec.find("arch")->asString(), "sm_90");
  for (const char *k :
       {"register_sources", "shuffle", "shared_memory", "padding"})
    EXPECT_TRUE(rec.find(k)->isNull()) << k;
  EXPECT_EQ(rec.find("cost")->asRecord().find("instructions")->asInt(), 0);
}

// Rows to columns in one warp: the 3 row bits move from lanes to
// registers and lanes, so the plan shuffles; every round lists 32 lanes.
TEST(DescribePlan, ShufflePlanListsItsRounds) {
  linear::LinearLayout a = parse(kRow8);
  linear::LinearLayout b = parse("{register: [(1,0)], lane: [(0,2),(0,4),"
                                 "(0,1),(2,0),(4,0)]} -> {dim0: 8, dim1: 8}");
  Expected<api::PlanReport> r = api::planConversion(a, b, kF32);
  ASSERT_TRUE(r) << r.error().render();
  ASSERT_EQ(r->plan.strategy, plan::Strategy::WarpShuffle);
  Record rec = api::describe(*r);
  const Record &sh = rec.find("shuffle")->asRecord();
  const Value::List &rounds = sh.find("rounds")->asList();
  EXPECT_EQ(rounds.size(), r->plan.rounds.size());
  ASSERT_FALSE(rounds.empty());
  EXPECT_EQ(rounds[0].asRecord().find("src_lane")->asList().size(), 32u);
  EXPECT_EQ(sh.find("vector_elements")->asInt(), 1); // f32: 1 per 32 bits
}

// plan/Gather.h's example: axis 1 has one register bit and two lane bits,
// so 2^1 rounds per output register, 2 registers x 2 rounds = 4 shuffles
// and 4 selects.
TEST(DescribePlan, GatherRecordOfTheHandExample) {
  linear::LinearLayout l = parse(kRow8);
  Expected<plan::GatherPlan> p = api::gather(l, l, 1, kF32);
  ASSERT_TRUE(p) << p.error().render();
  Record rec = api::describe(*p);
  EXPECT_EQ(rec.find("strategy")->asString(), "warp shuffle");
  EXPECT_EQ(rec.find("axis")->asInt(), 1);
  EXPECT_EQ(rec.find("rounds_per_register")->asInt(), 2);
  const Record &c = rec.find("cost")->asRecord();
  EXPECT_EQ(c.find("shuffles")->asInt(), 4);
  EXPECT_EQ(c.find("selects")->asInt(), 4);
  EXPECT_EQ(c.find("smem_bytes")->asInt(), 0);
}

// Reducing the rows of kRow8: the 3 row bits are lane bits 2..4, so 3
// butterfly rounds of one shuffle and one combine for each of the 2
// registers (6 each), no shared memory; the simulation checks all 64
// registers of the warp.
TEST(DescribePlan, ReductionRecordOfTheRows) {
  Expected<api::ReductionReport> r = api::reduce(parse(kRow8), 0, kF32);
  ASSERT_TRUE(r) << r.error().render();
  Record rec = api::describe(*r);
  EXPECT_EQ(api::toJson(*rec.find("lane_axis_bits")), "[2,3,4]");
  EXPECT_EQ(api::toJson(*rec.find("register_axis_bits")), "[]");
  const Record &c = rec.find("counts")->asRecord();
  EXPECT_EQ(c.find("shuffles")->asInt(), 6);
  EXPECT_EQ(c.find("combines")->asInt(), 6);
  EXPECT_EQ(c.find("barriers")->asInt(), 0);
  EXPECT_TRUE(rec.find("correct")->asBool());
  EXPECT_EQ(rec.find("checked")->asInt(), 64);
  EXPECT_TRUE(rec.find("first_mismatch")->isNull());
}

// An axis is checked as an int64 before it is narrowed: 2^32 + 1 must not
// become axis 1.
TEST(DescribePlan, AxisOutsideTheOutputDimsIsRefused) {
  linear::LinearLayout l = parse(kRow8);
  const int64_t wrapped = (int64_t(1) << 32) + 1;
  for (int64_t axis : {int64_t(-1), int64_t(2), wrapped}) {
    Expected<api::ReductionReport> r = api::reduce(l, axis, kF32);
    ASSERT_FALSE(r) << axis;
    EXPECT_NE(r.error().message.find("expected 0 to 1"), std::string::npos)
        << r.error().message;
    Expected<plan::GatherPlan> g = api::gather(l, l, axis, kF32);
    ASSERT_FALSE(g) << axis;
    EXPECT_NE(g.error().message.find("the layout has 2 output dims"),
              std::string::npos)
        << g.error().message;
  }
}

// A reduction over more than kMaxReduceRegisters (2^14) registers per
// thread is refused before planning; 2^14 itself is planned.
TEST(DescribePlan, ReductionOverTooManyRegistersIsRefused) {
  auto oneAxis = [](int bits) {
    std::string t = "{register: [";
    for (int i = 0; i < bits; ++i)
      t += (i ? ", (" : "(") + std::to_string(int64_t(1) << i) + ")";
    return t + "]} -> {dim0: " + std::to_string(int64_t(1) << bits) + "}";
  };
  Expected<api::ReductionReport> over =
      api::reduce(parse(oneAxis(15).c_str()), 0, kF32);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().message, "a reduction over 2^15 registers per "
                                  "thread; at most 16384 (2^14) are planned");
  Expected<api::ReductionReport> at =
      api::reduce(parse(oneAxis(14).c_str()), 0, kF32);
  ASSERT_TRUE(at) << at.error().message;
  EXPECT_TRUE(at->simulation.correct);
}
