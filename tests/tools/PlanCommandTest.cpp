//===- PlanCommandTest.cpp - `layoutkit plan SRC DST` ---------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected strategies and counts are derived by hand in the comments (bits
// written rK / cK for the logical bit of row K / column K). Every plan the
// command prints is re-planned from the aligned layouts of its --json output
// and executed by plan::simulate, which must find it correct and count the
// same instructions and wavefronts as the command reports.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include "layoutkit/api/Plan.h"
#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"
#include "layoutkit/tile/SwizzleLayout.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

using lk::cli::testing::CliRun;
using lk::cli::testing::runCli;

namespace {

namespace dims = lk::linear::dims;

// blocked([1,2], [8,4], [1,1], order [1,0]): on 16x8 register [(0,1),(8,0)],
// lanes [(0,2),(0,4),(1,0),(2,0),(4,0)], the mma.sync 16x8 accumulator of
// one warp (paper Fig. 1).
const std::string kBlocked12 =
    R"({"kind":"blocked","sizePerThread":[1,2],"threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]})";
const std::string kMma =
    R"({"kind":"nvidia_mma","versionMajor":2,"versionMinor":0,"instrShape":[16,8],"warpsPerCTA":[1,1]})";
// The same 16x8 accumulator in the three other models:
//  * linear: the bases above;
//  * tile (hw/Atom.h, mma.m16n8k16 C, row-major 16x8 so flat = 8 row + col;
//    the last iter is fastest): 2:1 -> c1 on register, 4:1@laneid -> c2, c4
//    on lanes 0-1, 8:4@laneid -> r1, r2, r4 on lanes 2-4, 2:2 -> r8 on
//    register bit 1;
//  * cute TV ((4,8),(2,2)):((32,1),(16,8)) onto colex (16,8), index m + 16n:
//    thread bits 0-1 (stride 32, 64) -> n 2, 4; thread bits 2-4 (1, 2, 4)
//    -> m 1, 2, 4; value bits (16, 8) -> n 1, m 8.
const std::string kMmaLinear =
    "{register: [(0,1),(8,0)], lane: [(0,2),(0,4),(1,0),(2,0),(4,0)]} -> "
    "{dim0: 16, dim1: 8}";
const std::string kMmaTile = "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]";
const std::string kMmaCute = "((4,8),(2,2)):((32,1),(16,8))";

// The cross-warp transpose: f32 16x16, two warps.
//   A = blocked([1,4], [8,4], [2,1], order [1,0]): register c1, c2; lanes
//       c4, c8, r1, r2, r4; warp r8.
//   B = blocked([4,1], [4,8], [1,2], order [0,1]): register r1, r2; lanes
//       r4, r8, c1, c2, c4; warp c8.
// Data crosses warps (r8 vs c8), so only shared memory can move it.
const std::string kRowsTwoWarps =
    R"({"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[8,4],"warpsPerCTA":[2,1],"order":[1,0]})";
const std::string kColsTwoWarps =
    R"({"kind":"blocked","sizePerThread":[4,1],"threadsPerWarp":[4,8],"warpsPerCTA":[1,2],"order":[0,1]})";

/// Runs `plan ... --json`, re-plans the aligned pair it prints, simulates
/// it and checks the printed counts against the simulation.
nlohmann::json checkedPlanJson(std::vector<std::string> args) {
  args.insert(args.begin(), "plan");
  args.push_back("--json");
  CliRun r = runCli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  if (r.status != 0)
    return {};
  nlohmann::json j = r.json()["result"];
  auto src = lk::linear::parseLinearLayout(j["src"].get<std::string>());
  auto dst = lk::linear::parseLinearLayout(j["dst"].get<std::string>());
  EXPECT_TRUE(src && dst);
  if (!src || !dst)
    return j;
  // The planner options the command was given.
  lk::plan::PlanOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--no-matrix")
      options.matrixInstructions = false;
    if (args[i] == "--arch" && i + 1 < args.size())
      options.arch = *lk::hw::parseArch(args[i + 1]);
    if (args[i] == "--smem-budget" && i + 1 < args.size())
      options.smemBudgetBytes = std::stoll(args[i + 1]);
  }
  // Planned again through the api, as the command plans (its defaults).
  const int64_t bits = j["element_bits"].get<int64_t>();
  auto report = lk::api::planConversion(
      *src, *dst, lk::cute::ElementType{j["dtype"].get<std::string>(), bits},
      options);
  EXPECT_TRUE(report.hasValue());
  if (!report)
    return j;
  const lk::plan::Plan *p = &report->plan;
  auto s = lk::plan::simulate(*p, options.arch);
  EXPECT_TRUE(s.hasValue());
  if (!s)
    return j;
  EXPECT_TRUE(s->correct) << s->firstMismatch;
  EXPECT_EQ(std::string(lk::plan::strategyName(p->strategy)), j["strategy"]);
  EXPECT_EQ(s->instructions, j["cost"]["instructions"].get<int64_t>());
  EXPECT_EQ(s->barriers, j["cost"]["barriers"].get<int64_t>());
  EXPECT_EQ(s->shuffles, j["cost"]["shuffles"].get<int64_t>());
  if (!j["shared_memory"].is_null()) {
    EXPECT_EQ(s->storeWavefronts,
              j["shared_memory"]["store"]["wavefronts"].get<int64_t>());
    EXPECT_EQ(s->loadWavefronts,
              j["shared_memory"]["load"]["wavefronts"].get<int64_t>());
  }
  return j;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(PlanCommand, BlockedEqualToMmaIsNoOp) {
  CliRun r =
      runCli({"plan", kBlocked12, kMma, "--shape", "(16,8)", "--dtype", "f16"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "strategy: no-op\n"
                   "cost: 0 instructions (0 register moves, 0 selects, 0 "
                   "shuffles), 0 wavefronts, 0 barriers, 0 B of shared "
                   "memory, 0.0 estimated cycles\n");
  nlohmann::json j = checkedPlanJson(
      {kBlocked12, kMma, "--shape", "(16,8)", "--dtype", "f16"});
  EXPECT_EQ(j["strategy"], "no-op");
  EXPECT_TRUE(j["shared_memory"].is_null());
}

TEST(PlanCommand, AShapeTheEncodingsCannotTakeIsTheShapeOptions) {
  // Triton's dims are powers of two: 12 is --shape's fault, though the
  // reader meets it while building SRC from its parameters.
  CliRun r = runCli(
      {"plan", kBlocked12, kMma, "--shape", "(16,12)", "--dtype", "f16"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(
      r.err, "error: every tensor dim must be a power of two (got 12)"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "note: in option --shape of 'plan'")) << r.err;
  EXPECT_FALSE(contains(r.err, "argument SRC")) << r.err;
  // So is a rank the encodings, both of rank 2, do not have.
  CliRun rank = runCli(
      {"plan", kBlocked12, kMma, "--shape", "(16,8,2)", "--dtype", "f16"});
  EXPECT_EQ(rank.status, 1);
  EXPECT_TRUE(contains(rank.err, "error: the layout has rank 2 (order has 2 "
                                 "entries) but the tensor shape has 3 dims"))
      << rank.err;
  EXPECT_TRUE(contains(rank.err, "note: in option --shape of 'plan'"))
      << rank.err;
  EXPECT_FALSE(contains(rank.err, "argument SRC")) << rank.err;
  // An mma's one field of its rank is warpsPerCTA; a linear layout has its
  // own extents, which --shape must match.
  const std::string lin = "{register: [(0,1),(0,2)], lane: [(0,4),(1,0),"
                          "(2,0),(4,0)]} -> {dim0: 8, dim1: 8}";
  for (const auto &[a, shape, fault] :
       {std::tuple{kMma, "(16,8,2)",
                   "the layout has rank 2 (warpsPerCTA has "
                   "2 entries) but the tensor shape has 3"},
        std::tuple{lin, "(8,8,1)",
                   "the layout's logical dims have extents "
                   "(8,8), not the --shape given, (8,8,1)"}}) {
    CliRun r = runCli({"plan", a, a, "--shape", shape, "--dtype", "f16"});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(contains(r.err, fault)) << r.err;
    EXPECT_TRUE(contains(r.err, "note: in option --shape of 'plan'")) << r.err;
  }
}

TEST(PlanCommand, EveryInputModelGivesTheSameLayout) {
  // All four texts are the mma 16x8 accumulator (derivations above), so
  // every pair converts for free.
  const std::vector<std::string> texts = {kMma, kMmaLinear, kMmaTile, kMmaCute};
  for (const std::string &a : texts)
    for (const std::string &b : texts) {
      nlohmann::json j =
          checkedPlanJson({a, b, "--shape", "(16,8)", "--dtype", "f16"});
      EXPECT_EQ(j["strategy"], "no-op") << a << " -> " << b;
      EXPECT_EQ(j["src"], j["dst"]) << a << " -> " << b;
    }
  // Without --shape a tile layout and a linear layout over `index` agree too:
  // the tile view flattens row-major (index = 8 row + col).
  nlohmann::json j = checkedPlanJson(
      {kMmaTile,
       "{register: [(1),(64)], lane: [(2),(4),(8),(16),(32)]} -> {index: 128}",
       "--dtype", "f16"});
  EXPECT_EQ(j["strategy"], "no-op");
}

TEST(PlanCommand, RegisterPermutation) {
  // On 16x16 blocked([1,2],[8,4]) repeats its registers along dim1 first:
  // register [(0,1),(0,8),(8,0)]; the mma accumulator repeats rows first:
  // [(0,1),(8,0),(0,8)]. Same lanes, so dst register r = src register r
  // with bits 1 and 2 swapped: 0 1 4 5 2 3 6 7, 4 registers move, at 0.5
  // cycles each in the cost model (Plan.h, Cost): 2 cycles.
  CliRun r = runCli(
      {"plan", kBlocked12, kMma, "--shape", "(16,16)", "--dtype", "f16"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "strategy: register permutation\n"
                   "register sources: 0 1 4 5 2 3 6 7\n"
                   "cost: 4 instructions (4 register moves, 0 selects, 0 "
                   "shuffles), 0 wavefronts, 0 barriers, 0 B of shared "
                   "memory, 2.0 estimated cycles\n");
  nlohmann::json j = checkedPlanJson(
      {kBlocked12, kMma, "--shape", "(16,16)", "--dtype", "f16"});
  EXPECT_EQ(j["register_sources"], nlohmann::json::parse("[0,1,4,5,2,3,6,7]"));
  EXPECT_EQ(j["cost"]["register_moves"], 4);
}

TEST(PlanCommand, CrossWarpTransposeThroughSharedMemory) {
  // kRowsTwoWarps -> kColsTwoWarps, f32 (derivation at the layouts). No
  // logical bit is a register bit of both: scalar 4-byte accesses, one lane
  // group of 32 lanes. Store: 4 registers x 2 warps = 8 instructions, load
  // the same. Lower bound per instruction: max(1 group, 2^max(0, 5 lane
  // bits - 5 bank bits)) = 1, so 8 wavefronts each way, and the planned
  // swizzle reaches it. (The row-major buffer, offset 16 r + c, has bank
  // bits c1 c2 c4 c8 r1: A's lanes vary r2 and r4 outside them, 4 words per
  // bank, 4 wavefronts per store.) Buffer: 256 x 4 B = 1024 B. Cost model
  // (Plan.h, Cost): 16 wavefronts x 1 + 1 barrier x 20 = 36 cycles.
  CliRun r = runCli({"plan", kRowsTwoWarps, kColsTwoWarps, "--shape", "(16,16)",
                     "--dtype", "f32"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("strategy: shared memory\n"
                        "vector: 1 x f32 (4 B per access)\n"
                        "memory layout: {offset: [",
                        0),
            0u)
      << r.out;
  EXPECT_TRUE(contains(r.out,
                       "store: 8 instructions, 8 wavefronts (lower bound 8)\n"
                       "load: 8 instructions, 8 wavefronts (lower bound 8)\n"
                       "cost: 16 instructions (0 register moves, 0 "
                       "selects, 0 shuffles), 16 wavefronts, 1 "
                       "barrier, 1024 B of shared memory, 36.0 "
                       "estimated cycles\n"))
      << r.out;

  nlohmann::json j = checkedPlanJson(
      {kRowsTwoWarps, kColsTwoWarps, "--shape", "(16,16)", "--dtype", "f32"});
  ASSERT_FALSE(j["shared_memory"].is_null());
  const nlohmann::json &sm = j["shared_memory"];
  EXPECT_EQ(sm["vector_elements"], 1);
  EXPECT_EQ(sm["access_bytes"], 4);
  EXPECT_EQ(sm["store"]["instructions"], 8);
  EXPECT_EQ(sm["store"]["lower_bound"], 8);
  EXPECT_EQ(sm["load"]["wavefronts"], 8);
  EXPECT_EQ(sm["bytes"], 1024);
  EXPECT_EQ(j["cost"]["smem_bytes"], 1024);
  EXPECT_EQ(j["cost"]["wavefronts"], 16);
  EXPECT_EQ(j["cost"]["cycles"], 36.0);
  EXPECT_EQ(sm["store_instruction"], "st.shared");
  EXPECT_EQ(sm["iterations"], 1);
  // f16 with vectors only (--no-matrix): still scalar (2 B) accesses and
  // 32-lane groups; one Sub bit inside the 4-byte word, 5 bank bits: bound
  // per instruction max(1, 2^max(0, 5 - 1 - 5)) = 1, so 8 + 8 wavefronts
  // again, and 256 x 2 B = 512 B. The cute form printed for its layout is
  // the inverse of the memory layout (cute maps (row, col) -> offset), and
  // so is the tile form (row-major flat index 16 row + col -> address on m).
  nlohmann::json h =
      checkedPlanJson({kRowsTwoWarps, kColsTwoWarps, "--shape", "(16,16)",
                       "--dtype", "f16", "--no-matrix"});
  ASSERT_FALSE(h["shared_memory"].is_null());
  EXPECT_EQ(h["shared_memory"]["access_bytes"], 2);
  EXPECT_EQ(h["shared_memory"]["store_instruction"], "st.shared");
  EXPECT_EQ(h["shared_memory"]["store"]["wavefronts"], 8);
  EXPECT_EQ(h["shared_memory"]["load"]["wavefronts"], 8);
  EXPECT_EQ(h["cost"]["smem_bytes"], 512);
  EXPECT_EQ(h["cost"]["cycles"], 36.0);
  // f16 by default: the rows r1 r2 r4 are A's lane bits 2-4, so A stores
  // with stmatrix.trans (half c1, matrix bit c2: x2, one instruction per
  // warp, 2 matrices = 2 wavefronts each). On those rows B holds r1, r2 in
  // registers: 4 x f16 = 8-byte loads, one per thread, 2 lane groups of 16
  // and bound max(2, 2^(5 lane bits - (6 row bits - 2))) = 2 each. Total
  // 2 + 2 instructions, 4 + 4 wavefronts, 1 barrier: 8 + 20 = 28 cycles.
  nlohmann::json d = checkedPlanJson(
      {kRowsTwoWarps, kColsTwoWarps, "--shape", "(16,16)", "--dtype", "f16"});
  ASSERT_FALSE(d["shared_memory"].is_null());
  EXPECT_EQ(d["shared_memory"]["store_instruction"], "stmatrix.x2.trans");
  EXPECT_EQ(d["shared_memory"]["load_instruction"], "ld.shared");
  EXPECT_EQ(d["shared_memory"]["access_bytes"], 8);
  EXPECT_EQ(d["shared_memory"]["store"]["instructions"], 2);
  EXPECT_EQ(d["shared_memory"]["load"]["instructions"], 2);
  EXPECT_EQ(d["shared_memory"]["store"]["wavefronts"], 4);
  EXPECT_EQ(d["shared_memory"]["load"]["wavefronts"], 4);
  EXPECT_EQ(d["cost"]["barriers"], 1);
  EXPECT_EQ(d["cost"]["cycles"], 28.0);
  EXPECT_EQ(d["arch"], "sm_90");
  // sm_80 has no stmatrix, but ldmatrix: the mirror image. The rows c1 c2
  // c4 are B's lane bits 2-4, so B loads with ldmatrix.x2.trans (half r1,
  // matrix bit r2); on those rows A holds c1, c2 in registers: 8-byte
  // stores. Again 2 + 2 instructions, 4 + 4 wavefronts, 28 cycles.
  nlohmann::json s80 =
      checkedPlanJson({kRowsTwoWarps, kColsTwoWarps, "--shape", "(16,16)",
                       "--dtype", "f16", "--arch", "sm_80"});
  ASSERT_FALSE(s80["shared_memory"].is_null());
  EXPECT_EQ(s80["arch"], "sm_80");
  EXPECT_EQ(s80["shared_memory"]["store_instruction"], "st.shared");
  EXPECT_EQ(s80["shared_memory"]["load_instruction"], "ldmatrix.x2.trans");
  EXPECT_EQ(s80["shared_memory"]["access_bytes"], 8);
  EXPECT_EQ(s80["shared_memory"]["store"]["wavefronts"], 4);
  EXPECT_EQ(s80["shared_memory"]["load"]["wavefronts"], 4);
  EXPECT_EQ(s80["cost"]["cycles"], 28.0);
  CliRun bad = runCli({"plan", kRowsTwoWarps, kColsTwoWarps, "--shape",
                       "(16,16)", "--dtype", "f16", "--arch", "sm_70"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_TRUE(contains(bad.err, "--arch: unknown architecture 'sm_70'"))
      << bad.err;
  for (const nlohmann::json &x : {sm, h["shared_memory"]}) {
    auto memory =
        lk::linear::parseLinearLayout(x["memory_layout"].get<std::string>());
    ASSERT_TRUE(memory.hasValue());
    auto inverse = memory->invert();
    ASSERT_TRUE(inverse.hasValue());
    if (x["memory_layout_tile"].is_string()) {
      std::string text = x["memory_layout_tile"].get<std::string>();
      auto composed = lk::tile::parseSwizzledTileLayout(text);
      auto plain = lk::tile::parseTileLayout(text);
      ASSERT_TRUE(composed || plain) << text;
      for (int64_t row = 0; row < 16; ++row)
        for (int64_t col = 0; col < 16; ++col) {
          int64_t flat = 16 * row + col;
          int64_t address =
              composed ? composed->addressAt(flat) : plain->addressAt(flat);
          auto offset = inverse->apply(std::vector<int64_t>{row, col});
          ASSERT_TRUE(offset.hasValue());
          EXPECT_EQ(address, (*offset)[0])
              << text << " at " << row << "," << col;
        }
    }
    if (x["memory_layout_cute"].is_null())
      continue;
    auto c = lk::cute::parseComposedLayout(
        x["memory_layout_cute"].get<std::string>());
    ASSERT_TRUE(c.hasValue());
    lk::bridge::CuteToLinearDims d;
    d.inDims = {dims::dim(0), dims::dim(1)};
    d.outDims = {{dims::kOffset, 256}};
    auto asLinear = lk::bridge::cuteToLinear(*c, d);
    ASSERT_TRUE(asLinear.hasValue()) << asLinear.error().message;
    EXPECT_EQ(*asLinear, *inverse) << x["memory_layout_cute"];
  }
  // The f16 layout has both forms, so the checks above ran at least once.
  EXPECT_TRUE(h["shared_memory"]["memory_layout_cute"].is_string())
      << h["shared_memory"]["memory_layout"];
  EXPECT_TRUE(h["shared_memory"]["memory_layout_tile"].is_string())
      << h["shared_memory"]["memory_layout"];
}

TEST(PlanCommand, IntraWarpTransposeUsesWarpShuffles) {
  // The one-warp twin of the pair above is the worked example of Plan.h:
  // f32 16x16, blocked([1,4],[8,4]) -> blocked([4,1],[4,8], order [0,1]).
  // Shared memory costs 8 + 8 wavefronts and a barrier: 16 + 20 = 36
  // cycles; the shuffles 8 rounds and 48 selects: 8 + 0.5 * 48 = 32 cycles
  // (Plan.h, Cost), so the shuffles win and nothing touches shared memory.
  const std::string a =
      R"({"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]})";
  const std::string b =
      R"({"kind":"blocked","sizePerThread":[4,1],"threadsPerWarp":[4,8],"warpsPerCTA":[1,1],"order":[0,1]})";
  nlohmann::json j =
      checkedPlanJson({a, b, "--shape", "(16,16)", "--dtype", "f32"});
  EXPECT_EQ(j["strategy"], "warp shuffle");
  // The 8 rounds, each naming for every one of the 32 lanes the lane it
  // reads and the registers it sends and receives (f32: one element per
  // shuffled vector).
  ASSERT_TRUE(j["shuffle"].is_object());
  EXPECT_EQ(j["shuffle"]["vector_elements"], 1);
  ASSERT_EQ(j["shuffle"]["rounds"].size(), 8u);
  for (const nlohmann::json &round : j["shuffle"]["rounds"]) {
    EXPECT_EQ(round["src_lane"].size(), 32u);
    EXPECT_EQ(round["send_registers"].size(), 32u);
    EXPECT_EQ(round["dst_registers"].size(), 32u);
  }
  EXPECT_TRUE(j["register_sources"].is_null());
  EXPECT_TRUE(j["padding"].is_null());
  EXPECT_EQ(j["cost"]["shuffles"], 8);
  EXPECT_EQ(j["cost"]["selects"], 48);
  EXPECT_EQ(j["cost"]["cycles"], 32.0);
  EXPECT_EQ(j["cost"]["barriers"], 0);
  EXPECT_TRUE(j["shared_memory"].is_null());
  CliRun r = runCli({"plan", a, b, "--shape", "(16,16)", "--dtype", "f32"});
  EXPECT_EQ(r.out.rfind("strategy: warp shuffle\nshuffle rounds: 8 (1 x f32 "
                        "per shuffled vector)\n",
                        0),
            0u)
      << r.out;
}

// mma v2 accumulator with [2,2] warps -> blocked-row8 ([1,8], [4,8], [4,1]),
// 64x64 f16: 4096 elements over 128 threads, 32 per thread; the whole CTA
// tile is 64 x 64 x 2 B = 8192 B.
const std::string kMma22 =
    R"({"kind":"nvidia_mma","versionMajor":2,"versionMinor":0,"instrShape":[16,8],"warpsPerCTA":[2,2]})";
const std::string kRow8 =
    R"({"kind":"blocked","sizePerThread":[1,8],"threadsPerWarp":[4,8],"warpsPerCTA":[4,1],"order":[1,0]})";

TEST(PlanCommand, SharedMemoryBudgetRepeatsThroughASmallerBuffer) {
  // A 4096-byte budget is half the 8192-byte tile: 2 iterations through a
  // 4096 B buffer, 2 * 2 - 1 = 3 barriers (Plan.h, SharedMemoryPlan).
  CliRun r = runCli({"plan", kMma22, kRow8, "--shape", "(64,64)", "--dtype",
                     "f16", "--smem-budget", "4096"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "iterations: 2 through a 4096 B buffer\n"))
      << r.out;
  nlohmann::json j =
      checkedPlanJson({kMma22, kRow8, "--shape", "(64,64)", "--dtype", "f16",
                       "--smem-budget", "4096"});
  EXPECT_EQ(j["shared_memory"]["iterations"], 2);
  EXPECT_EQ(j["cost"]["barriers"], 3);
  EXPECT_EQ(j["cost"]["smem_bytes"], 4096);
  // Far below one 128-byte row: refused with the planner's reason.
  CliRun tiny = runCli({"plan", kMma22, kRow8, "--shape", "(64,64)", "--dtype",
                        "f16", "--smem-budget", "100"});
  EXPECT_EQ(tiny.status, 1);
  EXPECT_TRUE(contains(tiny.err, "budget of 100 bytes")) << tiny.err;
  CliRun negative = runCli({"plan", kMma22, kRow8, "--shape", "(64,64)",
                            "--dtype", "f16", "--smem-budget", "-1"});
  EXPECT_EQ(negative.status, 1);
  // The api layer's diagnostic, the one Python's plan() raises too.
  EXPECT_TRUE(contains(negative.err, "shared-memory budget -1 bytes; "
                                     "expected >= 0"))
      << negative.err;
  EXPECT_TRUE(contains(negative.err, "note: in option --smem-budget of 'plan'"))
      << negative.err;
}

// Without --smem-budget the buffer stays within what --arch gives one CTA
// (docs/hardware.md §1.2a: 232448 B on sm_90, 166912 B on sm_80). An f32
// 256x256 transpose over 8 warps is a 262144 B tile: over either, so it
// repeats twice through 131072 B (3 barriers); a budget over the target's
// is refused.
TEST(PlanCommand, DefaultBudgetIsTheTargetsSharedMemory) {
  const std::string rows = "{register: [(0,1),(0,2),(0,4),(0,8),(0,16),(0,32),"
                           "(0,64),(0,128)], lane: [(1,0),(2,0),(4,0),(8,0),"
                           "(16,0)], warp: [(32,0),(64,0),(128,0)]} -> "
                           "{dim0: 256, dim1: 256}";
  const std::string cols = "{register: [(1,0),(2,0),(4,0),(8,0),(16,0),(32,0),"
                           "(64,0),(128,0)], lane: [(0,1),(0,2),(0,4),(0,8),"
                           "(0,16)], warp: [(0,32),(0,64),(0,128)]} -> "
                           "{dim0: 256, dim1: 256}";
  for (const char *arch : {"sm_80", "sm_90", "sm_100"}) {
    nlohmann::json j =
        checkedPlanJson({rows, cols, "--dtype", "f32", "--arch", arch});
    EXPECT_EQ(j["shared_memory"]["iterations"], 2) << arch;
    EXPECT_EQ(j["cost"]["smem_bytes"], 131072) << arch;
    EXPECT_EQ(j["cost"]["barriers"], 3) << arch;
  }
  // A 128x256 tile (131072 B) fits every target: one pass.
  CliRun fits = runCli({"plan", kMma22, kRow8, "--shape", "(128,256)",
                        "--dtype", "f32", "--arch", "sm_80"});
  ASSERT_EQ(fits.status, 0) << fits.err;
  EXPECT_FALSE(contains(fits.out, "iterations:")) << fits.out;
  CliRun over = runCli({"plan", rows, cols, "--dtype", "f32", "--arch", "sm_80",
                        "--smem-budget", "200000"});
  EXPECT_EQ(over.status, 1);
  EXPECT_TRUE(contains(over.err, "shared-memory budget 200000 bytes is more "
                                 "than the 166912 bytes sm_80 gives one CTA"))
      << over.err;
}

TEST(PlanCommand, MatrixInstructions) {
  // The f16 mma accumulator fragment is the stmatrix fragment (lane l holds
  // row l/4 of an 8x8 matrix, columns 2(l%4) and 2(l%4)+1 in one 32-bit
  // register; docs/hardware.md §3). 32 elements per thread = 16 32-bit
  // registers; one stmatrix.x4 stores 4 of them (4 matrices): 4 per warp, 16 in
  // the CTA. The blocked-row8 side loads 16-byte vectors: 32 / 8 = 4 per
  // thread, 16 ld.shared in the CTA, each at least 4 wavefronts (8-lane
  // groups for 16 B): 64.
  nlohmann::json j =
      checkedPlanJson({kMma22, kRow8, "--shape", "(64,64)", "--dtype", "f16"});
  const nlohmann::json &sm = j["shared_memory"];
  ASSERT_FALSE(sm.is_null());
  EXPECT_EQ(sm["store_instruction"], "stmatrix.x4");
  EXPECT_EQ(sm["load_instruction"], "ld.shared");
  EXPECT_EQ(sm["store"]["instructions"], 16);
  EXPECT_EQ(sm["load"]["instructions"], 16);
  EXPECT_EQ(sm["load"]["wavefronts"], 64);
  CliRun r =
      runCli({"plan", kMma22, kRow8, "--shape", "(64,64)", "--dtype", "f16"});
  EXPECT_TRUE(contains(r.out, "matrix instructions: store stmatrix.x4, load "
                              "ld.shared\n"))
      << r.out;
  // --no-matrix: st.shared on both sides. The register bits of both
  // layouts are c1 and r32 (mma registers c1 r8 c16 c32 r32, blocked-row8
  // registers c1 c2 c4 r16 r32): 4 x f16 = 8-byte vectors, 32 / 4 = 8
  // accesses per thread on each side, 32 + 32 in the CTA.
  nlohmann::json v = checkedPlanJson(
      {kMma22, kRow8, "--shape", "(64,64)", "--dtype", "f16", "--no-matrix"});
  EXPECT_EQ(v["shared_memory"]["store_instruction"], "st.shared");
  EXPECT_EQ(v["shared_memory"]["access_bytes"], 8);
  EXPECT_EQ(v["shared_memory"]["store"]["instructions"], 32);
  EXPECT_EQ(v["shared_memory"]["load"]["instructions"], 32);
}

TEST(PlanCommand, EmitCuda) {
  std::vector<std::string> args = {"plan",    kRowsTwoWarps, kColsTwoWarps,
                                   "--shape", "(16,16)",     "--dtype",
                                   "f32",     "--emit",      "cuda"};
  CliRun r = runCli(args);
  ASSERT_EQ(r.status, 0) << r.err;
  // The summary, then the code of emitCuda (device function lk_convert).
  EXPECT_EQ(r.out.rfind("strategy: shared memory\n", 0), 0u);
  EXPECT_TRUE(contains(r.out, "lk_convert")) << r.out;
  std::string path = ::testing::TempDir() + "/lk_plan_emit.cu";
  std::vector<std::string> toFile = args;
  toFile.insert(toFile.end(), {"--out", path, "--host-main"});
  CliRun w = runCli(toFile);
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_TRUE(contains(w.out, "CUDA C++ written to " + path)) << w.out;
  std::ifstream f(path);
  std::stringstream code;
  code << f.rdbuf();
  EXPECT_TRUE(contains(code.str(), "lk_convert"));
  EXPECT_TRUE(contains(code.str(), "main(")) << "--host-main adds main()";
  std::remove(path.c_str());
  // --out - is stdout (the code alone), not a file named "-".
  std::vector<std::string> toStdout = args;
  toStdout.insert(toStdout.end(), {"--out", "-"});
  CliRun s = runCli(toStdout);
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(s.out.rfind("// Generated by LayoutKit (plan::emitCuda)", 0), 0u)
      << s.out;
  EXPECT_FALSE(contains(s.out, "strategy:")) << s.out;
  EXPECT_FALSE(std::ifstream("-").good());
  // --out without --emit is refused rather than ignored: a usage error.
  CliRun bad = runCli({"plan", kBlocked12, kMma, "--shape", "(16,8)", "--dtype",
                       "f16", "--out", path});
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(contains(bad.err, "--out requires --emit")) << bad.err;
}

// --logical with --emit cuda emits the masked plan (plan/EmitCuda.h,
// "Masked plans"): a 12x8 f16 tile of the 16x8 accumulator moved to the
// mma layout. Both are the same layout (a no-op), whose registers of
// padding (rows 12..15) are neither read nor written.
TEST(PlanCommand, EmitCudaMasked) {
  CliRun r = runCli({"plan", kBlocked12, kMma, "--shape", "(16,8)", "--logical",
                     "(12,8)", "--dtype", "f16", "--emit", "cuda", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json v = r.json();
  EXPECT_EQ(v["result"]["strategy"], "no-op");
  const std::string code = v["result"]["cuda"];
  EXPECT_TRUE(contains(code, "// Masked to the logical shape (12,8)")) << code;
  EXPECT_TRUE(contains(code, "__device__ __forceinline__ bool "
                             "lk_convert_valid(uint64_t y)"))
      << code;
  EXPECT_TRUE(contains(code, "  if (dv[0]) dst[0] = src[0];\n")) << code;
  EXPECT_EQ(v["result"]["padding"]["simulation"]["correct"], true) << r.out;
}

// A logical shape the layouts cannot take is --logical's fault: 17 pads to
// 32, but SRC's dim1 has 16 (the shape is 16x16 for --shape (16,16));
// one extent for two dims is a rank fault.
TEST(PlanCommand, ALogicalShapeFaultIsTheLogicalOptions) {
  for (const char *logical : {"(16,17)", "(9)", "(0,16)"}) {
    CliRun r = runCli({"plan", kBlocked12, kMma, "--shape", "(16,16)",
                       "--logical", logical, "--dtype", "f16"});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(contains(r.err, "note: in option --logical of 'plan'"))
        << r.err;
  }
  CliRun size = runCli({"plan", kBlocked12, kMma, "--shape", "(16,16)",
                        "--logical", "(16,17)", "--dtype", "f16"});
  EXPECT_TRUE(contains(size.err,
                       "error: the logical extent 17 of dim1 pads to 32, but "
                       "the layout's dim1 has size 16 (an extent pads to the "
                       "next power of two, so dim1's must be in 9..16)"))
      << size.err;
}

// An option's text that does not parse is shown with a caret under the
// fault and noted in the option.
TEST(PlanCommand, AnOptionThatDoesNotParseIsShownWithACaret) {
  for (const char *option : {"--shape", "--logical"}) {
    std::vector<std::string> args = {"plan", kBlocked12, kMma,   "--dtype",
                                     "f16",  option,     "(16,8"};
    if (std::string(option) == "--logical")
      args.insert(args.end(), {"--shape", "(16,8)"});
    CliRun r = runCli(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(contains(r.err, "error: expected ',' or ')' in int-tuple but "
                                "found end of input at column 6\n  (16,8\n"
                                "       ^\n"))
        << r.err;
    EXPECT_TRUE(contains(r.err, std::string("note: in option ") + option +
                                    " of 'plan'"))
        << r.err;
  }
}

TEST(PlanCommand, BadDtype) {
  CliRun missing = runCli({"plan", kBlocked12, kMma, "--shape", "(16,8)"});
  // Neither --dtype nor a tensor type names the element type.
  EXPECT_EQ(missing.status, 1);
  EXPECT_TRUE(contains(missing.err, "--dtype is required")) << missing.err;
  // A tensor type names its element type; one whose shape the encoding
  // cannot take (12 is not a power of two) says so, not that --dtype is
  // missing.
  const std::string typed =
      "tensor<12x16xf32, #ttg.blocked<{sizePerThread = [1, 4], "
      "threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>>";
  CliRun odd = runCli({"plan", typed, typed});
  EXPECT_EQ(odd.status, 1);
  EXPECT_TRUE(contains(odd.err, "every tensor dim must be a power of two"))
      << odd.err;
  EXPECT_FALSE(contains(odd.err, "--dtype")) << odd.err;
  CliRun unknown =
      runCli({"plan", kBlocked12, kMma, "--shape", "(16,8)", "--dtype", "f17"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_TRUE(contains(unknown.err, "unknown element type 'f17'"))
      << unknown.err;
  EXPECT_TRUE(contains(unknown.err, "in option --dtype of 'plan'"))
      << unknown.err;
  // A known type whose width the planner does not move (4 bits).
  CliRun narrow = runCli(
      {"plan", kBlocked12, kMma, "--shape", "(16,8)", "--dtype", "nvfp4"});
  EXPECT_EQ(narrow.status, 1);
  EXPECT_TRUE(contains(narrow.err, "element width 4 bits is not supported"))
      << narrow.err;
}

TEST(PlanCommand, TensorTypesNameTheElementType) {
  const std::string bl = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp "
                         "= [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
  auto type = [&](const std::string &elem) {
    return "tensor<64x64x" + elem + ", " + bl + ">";
  };
  // f32 from the types: the same plan as --dtype f32.
  CliRun named = runCli({"plan", type("f32"), type("f32"), "--json"});
  ASSERT_EQ(named.status, 0) << named.err;
  CliRun given =
      runCli({"plan", type("f32"), type("f32"), "--dtype", "f32", "--json"});
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_EQ(named.json()["result"], given.json()["result"]);
  // Refused: two types, a --dtype against a type, an unknown type (caret).
  CliRun two = runCli({"plan", type("f32"), type("bf16")});
  EXPECT_EQ(two.status, 1);
  EXPECT_TRUE(contains(two.err, "the source's element type f32 and the "
                                "destination's bf16 disagree"))
      << two.err;
  CliRun against = runCli({"plan", type("f32"), type("f32"), "--dtype", "f16"});
  EXPECT_EQ(against.status, 1);
  EXPECT_TRUE(contains(against.err, "--dtype f16 and the layout's element "
                                    "type f32 disagree"))
      << against.err;
  CliRun banana = runCli({"plan", type("banana"), type("f32")});
  EXPECT_EQ(banana.status, 1);
  EXPECT_TRUE(contains(banana.err, "unknown element type 'banana'"))
      << banana.err;
  EXPECT_TRUE(contains(banana.err, "note: in argument SRC of 'plan'"))
      << banana.err;
}

TEST(PlanCommand, GatherAndReduceTakeTheSourcesElementType) {
  const std::string bl = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp "
                         "= [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
  // gather: SRC names the data's type; INDEX's i32 names the indices'.
  CliRun g = runCli({"gather", "tensor<64x64xf16, " + bl + ">",
                     "tensor<64x64xi32, " + bl + ">", "--axis", "1"});
  EXPECT_EQ(g.status, 0) << g.err;
  // paper reduce: the type's f16 over the f32 default.
  CliRun r = runCli({"paper", "reduce", "tensor<64x64xf16, " + bl + ">",
                     "--axis", "0", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["element_bits"], 16) << r.out;
  CliRun d = runCli(
      {"paper", "reduce", bl, "--shape", "(64,64)", "--axis", "0", "--json"});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_EQ(d.json()["result"]["element_bits"], 32) << d.out;
}

TEST(PlanCommand, UnparsableLayoutNamesTheArgument) {
  CliRun src = runCli({"plan", "{register: [(0,1)", kMma, "--shape", "(16,8)",
                       "--dtype", "f16"});
  EXPECT_EQ(src.status, 1);
  EXPECT_TRUE(contains(src.err, "note: in argument SRC of 'plan'")) << src.err;
  EXPECT_TRUE(contains(src.err, "read as a linear layout")) << src.err;
  // A tile extent of 3 is not a power of two (bridge/LinearTile.h).
  CliRun dst = runCli(
      {"plan", kMma, "S[(8,3):(1,8)]", "--shape", "(16,8)", "--dtype", "f16"});
  EXPECT_EQ(dst.status, 1);
  EXPECT_TRUE(contains(dst.err, "not a power of two")) << dst.err;
  EXPECT_TRUE(contains(dst.err, "note: in argument DST of 'plan'")) << dst.err;
  EXPECT_TRUE(contains(dst.err, "read as a tile layout")) << dst.err;
  // A JSON object without its kind's fields.
  CliRun json = runCli({"plan", R"({"kind":"blocked"})", kMma, "--shape",
                        "(16,8)", "--dtype", "f16"});
  EXPECT_EQ(json.status, 1);
  EXPECT_TRUE(contains(json.err, "missing field")) << json.err;
  EXPECT_TRUE(contains(json.err, "read as standard-layout parameters"))
      << json.err;
  // A cute layout needs its TV form and a shape.
  CliRun rank = runCli(
      {"plan", "128:1", kMmaCute, "--shape", "(16,8)", "--dtype", "f16"});
  EXPECT_TRUE(contains(rank.err, "2 top-level modes")) << rank.err;
  CliRun noShape = runCli({"plan", kMmaCute, kMmaCute, "--dtype", "f16"});
  EXPECT_EQ(noShape.status, 1);
  EXPECT_TRUE(contains(noShape.err, "a cute TV layout needs --shape"))
      << noShape.err;
  CliRun noShapeJson = runCli({"plan", kMma, kMma, "--dtype", "f16"});
  EXPECT_TRUE(
      contains(noShapeJson.err, "standard-layout parameters need --shape"))
      << noShapeJson.err;
}

TEST(PlanCommand, LayoutsOfDifferentTensors) {
  // A linear layout of 16x8 against --shape (16,16): refused, not ignored.
  CliRun shape = runCli(
      {"plan", kMmaLinear, kMma, "--shape", "(16,16)", "--dtype", "f16"});
  EXPECT_EQ(shape.status, 1);
  EXPECT_TRUE(contains(shape.err, "logical dims have extents (16,8)"))
      << shape.err;
  // 16x8 against 16x16: the planner's alignment names the dim.
  CliRun sizes =
      runCli({"plan", kMmaLinear,
              "{register: [(0,1),(8,0),(0,8)], lane: "
              "[(0,2),(0,4),(1,0),(2,0),(4,0)]} -> {dim0: 16, dim1: 16}",
              "--dtype", "f16"});
  EXPECT_EQ(sizes.status, 1);
  EXPECT_TRUE(contains(sizes.err, "not layouts of the same tensor"))
      << sizes.err;
  EXPECT_TRUE(contains(sizes.err, "output dim 'dim1' has size 8")) << sizes.err;
}

TEST(PlanCommand, BlockedToIntelDpasOperandAndBack) {
  // Intel DPAS layouts by name (kind intel_dpas, Intel's parameter names):
  // a blocked f16 32x16 tensor of 16-lane sub-groups to the A operand of
  // #dpas<{repeatCount 8, systolicDepth 8, executionSize 16, opsPerChan 2,
  // threadsPerWarp 16, warpsPerCTA [2, 2]}>, and the f32 accumulator back
  // to blocked; both plans are re-planned and simulated.
  const std::string dpas =
      R"({"kind":"intel_dpas","repeatCount":8,"systolicDepth":8,"executionSize":16,"opsPerChan":2,"threadsPerWarp":16,"warpsPerCTA":[2,2],"repCluster":[1,1]})";
  const std::string a =
      R"({"kind":"dot_operand","opIdx":0,"kWidth":1,"parent":)" + dpas + "}";
  const std::string blocked16 =
      R"({"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[4,4],"warpsPerCTA":[2,2],"order":[1,0]})";
  nlohmann::json toA =
      checkedPlanJson({blocked16, a, "--shape", "(32,16)", "--dtype", "f16"});
  EXPECT_FALSE(toA.is_null());
  nlohmann::json fromC = checkedPlanJson(
      {dpas, blocked16, "--shape", "(32,32)", "--dtype", "f32"});
  EXPECT_FALSE(fromC.is_null());
  // A blocked layout of 32 lanes against a 16-lane sub-group: refused.
  const std::string blocked32 =
      R"({"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[8,4],"warpsPerCTA":[2,2],"order":[1,0]})";
  CliRun bad =
      runCli({"plan", blocked32, dpas, "--shape", "(32,32)", "--dtype", "f32"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_TRUE(contains(
      bad.err, "source and destination use different numbers of lanes: 32 "
               "vs 16"))
      << bad.err;
}

} // namespace
