//===- DescribeResultsTest.cpp - Records of the tile and access results ---===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The records of api/Describe.h for evaluation, owners, holding, bank view,
// conflicts and access: the JSON text of each, with the values derived by
// hand beside them.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Describe.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

#include <limits>

using namespace lk;

namespace {

tile::SwizzledTileLayout tileOf(std::string_view text) {
  api::ParseOptions o;
  o.syntax = api::Syntax::TileText;
  auto l = api::parseLayout(text, o);
  EXPECT_TRUE(l) << text;
  return *l->tile();
}

const char *kFragment = "S[(8,4,2):(4@laneid,1@laneid,1)]";

} // namespace

TEST(DescribeResults, EvaluationAndItsSteps) {
  // x = 9 over (8,4,2) (last fastest): digits (1,0,1); laneid += 4 * 1,
  // laneid += 1 * 0, m += 1 * 1.
  const int64_t shape[] = {8, 8};
  api::Evaluation e =
      *api::evaluation(tileOf(kFragment), api::tileElement(shape, 9), 16);
  EXPECT_EQ(api::toJson(api::describe(e)),
            R"j({"layout":"S[(8,4,2):(4@laneid,1@laneid,1)]","shape":[8,8],)j"
            R"j("coord":[1,1],"x":9,"points":[{"laneid":4,"m":1}],"total":1,)j"
            R"j("steps":[{"kind":"shard","iter":0,"extent":8,"stride":4,)j"
            R"j("axis":"laneid","component":1,"added":4,"swizzle":null,)j"
            R"j("from":null,"to":null},{"kind":"shard","iter":1,"extent":4,)j"
            R"j("stride":1,"axis":"laneid","component":0,"added":0,)j"
            R"j("swizzle":null,"from":null,"to":null},{"kind":"shard",)j"
            R"j("iter":2,"extent":2,"stride":1,"axis":"m","component":1,)j"
            R"j("added":1,"swizzle":null,"from":null,"to":null}]})j");
}

TEST(DescribeResults, OffsetReplicaAndSwizzleStepsHaveEveryKey) {
  // Offset 3 on warpid; the replica iter R[2:16@laneid] adds 0 or 16.
  tile::SwizzledTileLayout l =
      tileOf("S[8:1@laneid] + R[2:16@laneid] + 3@warpid");
  const int64_t shape[] = {8};
  api::Record r =
      api::describe(*api::evaluation(l, api::tileElement(shape, 5), 1));
  EXPECT_EQ(api::toJson(*r.find("points")), R"j([{"laneid":5,"warpid":3}])j");
  EXPECT_EQ(r.find("total")->asInt(), 2); // the first of 2 points
  const api::Value::List &steps = r.find("steps")->asList();
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(api::toJson(steps[1]),
            R"j({"kind":"offset","iter":null,"extent":null,"stride":null,)j"
            R"j("axis":"warpid","component":null,"added":3,"swizzle":null,)j"
            R"j("from":null,"to":null})j");
  EXPECT_EQ(api::toJson(steps[2]),
            R"j({"kind":"replica","iter":0,"extent":2,"stride":16,)j"
            R"j("axis":"laneid","component":null,"added":null,)j"
            R"j("swizzle":null,"from":null,"to":null})j");
  // Swizzle(3,3,3): m = 192 = 0b11000000, bits 6-8 (3) xor into bits 3-5:
  // 192 ^ 24 = 216.
  tile::SwizzledTileLayout sw =
      tileOf("Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]");
  const int64_t shape2[] = {8, 64};
  api::Record s =
      api::describe(*api::evaluation(sw, api::tileElement(shape2, 192), 1));
  EXPECT_EQ(api::toJson(s.find("steps")->asList().back()),
            R"j({"kind":"swizzle","iter":null,"extent":null,"stride":null,)j"
            R"j("axis":"m","component":null,"added":null,)j"
            R"j("swizzle":"Swizzle(M=3,B=3,S=3)","from":192,"to":216})j");
}

TEST(DescribeResults, OwnersAndHolding) {
  // (1,1) = x 9: lane 4 at m 1, on both warps of the replica.
  tile::SwizzledTileLayout l =
      tileOf("S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]");
  const int64_t shape[] = {8, 8};
  EXPECT_EQ(api::toJson(api::describe(
                *api::ownerList(l, api::tileElement(shape, 9), 1))),
            R"j({"layout":"S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]",)j"
            R"j("shape":[8,8],"coord":[1,1],"x":9,"owners":[{"owner":)j"
            R"j({"laneid":4,"warpid":0},"at":{"m":1}}],"total":2})j");
  // laneid 4 is digits (1,0) of (8,4): x = 8 + m for m in {0,1}; listing
  // one of them still counts both.
  auto h =
      api::holding(tileOf(kFragment), {8, 8}, {{tile::Axis::laneid(), 4}}, 1);
  ASSERT_TRUE(h);
  EXPECT_EQ(api::toJson(api::describe(*h)),
            R"j({"layout":"S[(8,4,2):(4@laneid,1@laneid,1)]","shape":[8,8],)j"
            R"j("where":{"laneid":4},"elements":[8],"coords":[[1,0]],)j"
            R"j("total":2})j");
}

TEST(DescribeResults, BankViewAndConflicts) {
  auto memory = tile::MemoryLayout::of(tileOf("S[(8,64):(64,1)]"));
  ASSERT_TRUE(memory);
  // f16 row-major rows of 128 bytes: line i holds row i; bank b's word
  // holds elements 2b and 2b + 1 of the row.
  auto map = api::bankMap(*memory, 16, 4096);
  ASSERT_TRUE(map);
  api::Record v = api::describe(*map);
  EXPECT_EQ(v.find("first_line")->asInt(), 0);
  EXPECT_EQ(v.find("line_count")->asInt(), 8);
  EXPECT_EQ(api::toJson(v.find("lines")->asList()[3].asList()[5]),
            "[202,203]"); // row 3 starts at 192: 192 + 2 * 5 and + 1
  // Column 0 read by 8 lanes: lane i reads 64 i, word 32 i, all in bank 0.
  api::ColumnRead read{8, 64, 0, std::nullopt, 1, 0};
  auto c = api::columnConflictReport(*memory, 16, read);
  ASSERT_TRUE(c);
  api::Record r = api::describe(*c);
  EXPECT_EQ(api::toJson(*r.find("read")),
            R"j({"rows":8,"cols":64,"column":0,"lanes":8,"vector":1,)j"
            R"j("first_row":0})j");
  EXPECT_EQ(api::toJson(*r.find("elements")),
            "[[0],[64],[128],[192],[256],[320],[384],[448]]");
  EXPECT_EQ(r.find("ways")->asInt(), 8);
  EXPECT_FALSE(r.find("conflict_free")->asBool());
  EXPECT_EQ(r.find("banks")->asList().size(), 32u);
  EXPECT_EQ(
      api::toJson(
          r.find("banks")->asList()[0].asRecord().find("words")->asList()[7]),
      R"j({"word":224,"lanes":[7]})j");
  // An access given element by element has no read.
  auto e = api::conflictReport(*memory, 16, {{0}, {1}});
  ASSERT_TRUE(e);
  EXPECT_TRUE(api::describe(*e).find("read")->isNull());
}

TEST(DescribeResults, Access) {
  // Lane i (of 8) holds row i of an (8,16) f32 row-major tile: element
  // (i, j) at byte 64 i + 4 j, so registers [4k, 4k + 4) are 16 aligned
  // bytes: 16-byte vectors, 16 / 4 = 4 instructions. Each touches one
  // 32-byte sector per lane (64 i + 16 k, 8 lanes): 32 sectors for
  // 4 x 8 x 16 = 512 requested bytes, efficiency 512 / (32 x 32).
  tile::SwizzledTileLayout d = tileOf("S[(8,16):(1@laneid,1@m)]");
  auto memory = tile::MemoryLayout::of(tileOf("S[(8,16):(16,1)]"));
  ASSERT_TRUE(memory);
  auto a = api::analyseAccess(d, *memory, 32, std::nullopt, hw::Arch::Sm90);
  ASSERT_TRUE(a) << a.error().message;
  api::Record r = api::describe(*a);
  EXPECT_EQ(r.find("vector_bytes")->asInt(), 16);
  EXPECT_EQ(r.find("access_bytes")->asInt(), 16);
  EXPECT_EQ(r.find("instructions")->asInt(), 4);
  EXPECT_EQ(r.find("arch")->asString(), "sm_90");
  const api::Record &g = r.find("global_memory")->asRecord();
  EXPECT_EQ(g.find("sectors")->asInt(), 32);
  EXPECT_EQ(g.find("requested_bytes")->asInt(), 4 * 8 * 16);
  EXPECT_DOUBLE_EQ(g.find("efficiency")->asDouble(), 512.0 / (32 * 32));
  EXPECT_EQ(api::toJson(*r.find("replication")->asRecord().find("replicated")),
            "[]");
  // A swizzled distributed layout is refused with the reason.
  auto bad = api::analyseAccess(
      tileOf("Swizzle(M=3,B=3,S=3) o S[(8,64):(1@laneid,1@m)]"), *memory, 32,
      std::nullopt, hw::Arch::Sm90);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("has a swizzle"), std::string::npos);
  // An access width neither memory takes is named as a width of both, not
  // of shared memory only (global_access reads this analysis too).
  for (int64_t width : {0, 3, 32})
    EXPECT_EQ(api::analyseAccess(d, *memory, 32, width, hw::Arch::Sm90)
                  .error()
                  .message,
              "access width " + std::to_string(width) +
                  " B is not supported (allowed: 1, 2, 4, 8, 16)");
}

namespace {

TEST(ApiDescribeLinear, LayoutRecord) {
  // register bit 0 -> 1, lane bits 0, 1 -> 2, 0 over one 4-element dim.
  auto l = linear::parseLinearLayout(
      "{register: [(1)], lane: [(2), (0)]} -> {dim0: 4}");
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_EQ(api::toJson(api::describe(*l)),
            R"({"text":"{register: [(1)], lane: [(2), (0)]} -> {dim0: 4}",)"
            R"("bases":{"register":[[1]],"lane":[[2],[0]]},)"
            R"("out_dims":[["dim0",4]]})");
}

TEST(ApiDescribeLinear, WasteRecordRunsOfMaskedValues) {
  linear::Waste w;
  w.elements = 64;
  w.validElements = 48;
  w.paddedElements = 16;
  w.fraction = 0.25;
  w.slots = 64;
  w.maskedSlots = 16;
  // lane values 24..31 and 40 masked: runs [24,31] and [40,40]; no
  // register masked: [].
  w.masked = {{linear::dims::kRegister, 4, {}},
              {linear::dims::kLane, 64, {24, 25, 26, 27, 28, 29, 30, 31, 40}}};
  EXPECT_EQ(api::toJson(api::describe(w)),
            R"({"elements":64,"valid_elements":48,"padded_elements":16,)"
            R"("fraction":0.25,"slots":64,"masked_slots":16,)"
            R"("masked":{"register":[],"lane":[[24,31],[40,40]]}})");
}

} // namespace

namespace {

// mma.m16n8k16 C: 16 x 8 accumulators, 32 threads x 4 values (sm_80).
TEST(ApiDescribeAtom, CatalogEntry) {
  lk::Expected<const lk::hw::Atom *> a = lk::hw::findAtom("mma.m16n8k16.f16.C");
  ASSERT_TRUE(a.hasValue()) << a.error().message;
  lk::api::Record r = lk::api::describe(**a);
  ASSERT_NE(r.find("shape"), nullptr);
  EXPECT_EQ(lk::api::toJson(*r.find("shape")), "[16,8]");
  EXPECT_EQ(lk::api::toJson(*r.find("threads")), "32");
  EXPECT_EQ(lk::api::toJson(*r.find("values")), "4");
  EXPECT_EQ(lk::api::toJson(*r.find("operand")), R"("C")");
  std::vector<std::string> keys;
  for (size_t i = 0; i < r.size(); ++i)
    keys.push_back(r.key(i));
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "arch", "instruction",
                                            "operand", "shape", "threads",
                                            "values", "unverified"}));
}

} // namespace

namespace {

TEST(ApiAxisRecord, NamesEachAxisWithItsValueInOrder) {
  const lk::tile::Axis axes[] = {lk::tile::Axis::laneid(), lk::tile::Axis::m()};
  const int64_t values[] = {4, 1};
  EXPECT_EQ(lk::api::toJson(lk::api::axisRecord(axes, values)),
            R"({"laneid":4,"m":1})");
  const lk::tile::AxisValue pairs[] = {{lk::tile::Axis::warpid(), 2},
                                       {lk::tile::Axis::laneid(), 0}};
  EXPECT_EQ(lk::api::toJson(lk::api::axisRecord(pairs)),
            R"({"warpid":2,"laneid":0})");
  EXPECT_EQ(lk::api::toJson(lk::api::axisRecord({}, {})), "{}");
}

} // namespace

namespace {

// One listing bound for every front end: a listing builds at most
// kMaxListAll items and counts the rest, whatever the replica count.
TEST(ApiListLimit, ListingsStreamTheFirstItemsAndCountTheRest) {
  EXPECT_EQ(*api::listLimit("owners", std::nullopt), api::kMaxListAll);
  EXPECT_EQ(*api::listLimit("owners", 1), 1);
  EXPECT_EQ(*api::listLimit("owners", api::kMaxListAll), api::kMaxListAll);
  for (int64_t bad : {int64_t(0), int64_t(-1), api::kMaxListAll + 1,
                      std::numeric_limits<int64_t>::max()}) {
    Expected<int64_t> r = api::listLimit("owners", bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().message,
              "owners: limit must be between 1 and 65536 (got " +
                  std::to_string(bad) + ")");
  }
  // 2^40 replicas on warpid: element 1 is m = 1 on every warp; replica w
  // adds w, so the first owners are warps 0, 1, ... in order.
  tile::SwizzledTileLayout l = tileOf("S[4:1] + R[1099511627776:1@warpid]");
  const int64_t shape[] = {4};
  Expected<api::OwnerList> all =
      api::ownerList(l, api::tileElement(shape, 1), std::nullopt);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->total, int64_t(1) << 40);
  ASSERT_EQ(int64_t(all->owners.size()), api::kMaxListAll);
  EXPECT_EQ(all->owners.back().owner[0].value, api::kMaxListAll - 1);
  Expected<api::Evaluation> three =
      api::evaluation(l, api::tileElement(shape, 1), 3);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->points.points.size(), 3u);
  EXPECT_EQ(three->points.total, int64_t(1) << 40);
  Expected<api::Evaluation> huge = api::evaluation(
      l, api::tileElement(shape, 1), int64_t(1) << 40); // refused, not run
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message.find("evaluation: limit must be between 1"),
            std::string::npos);
  EXPECT_FALSE(api::holding(l, {4}, {{tile::Axis::warpid(), 0}}, 0));
}

} // namespace
