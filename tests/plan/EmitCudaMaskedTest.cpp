//===- EmitCudaMaskedTest.cpp - CUDA emission of masked (padded) plans ----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Plans between layouts of a padded shape (PaddedPlan.h) emitted masked
// (EmitCuda.h, "Masked plans"). The tables are executed on the host with
// the emitted predicates (support/CudaHostRun.h) and compared with the
// simulator's masked run of the same plan: every valid element arrives,
// nothing touches padding, and the instructions, wavefronts, masked
// accesses and partial vectors are the simulator's. nvcc compiles the
// masked units when it is found.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Padded.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/plan/PaddedPlan.h"

#include "support/CudaHostRun.h"
#include "support/NvccTestSupport.h"
#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace lk::plan {
namespace {

using linear::PaddedLayout;
using namespace test;

/// `plan` over layouts of the padded shape of `logical`.
PaddedPlan masked(Plan plan, const std::vector<int64_t> &logical) {
  return ok(maskPlan(std::move(plan), logical));
}

/// The accesses of the device function NAME in `code` that its masked
/// predicates do not guard, one line each (empty: none). A line's guards
/// are the conditions of the blocks around it, an `if (...)` without a
/// block on the line before, and the line itself (a select). Every write
/// `dst[k] = ...` must be guarded by dv[k]; every read of `src[k]` by
/// sv[k], except a whole-register copy `dst[r] = src[k];` guarded by dv[r]
/// (the two registers hold the same element).
std::string unguardedAccesses(const std::string &code,
                              const std::string &name) {
  const std::string head = "__device__ __forceinline__ void " + name + "(";
  size_t at = code.find(head);
  if (at == std::string::npos)
    return "no device function " + name;
  at = code.find('\n', at) + 1;
  std::vector<std::string> blocks; // the condition line of each open block
  std::string pending, problems;
  static const std::regex write(R"(\bdst\[(\d+)\] =)"),
      read(R"(\bsrc\[(\d+)\])"),
      copy(R"(^ *(?:if \(dv\[\d+\]\) )?dst\[(\d+)\] = src\[\d+\];$)");
  while (at < code.size()) {
    size_t end = code.find('\n', at);
    const std::string line = code.substr(at, end - at);
    at = end + 1;
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line[first] == '#')
      continue;
    if (line == "}")
      break; // the end of the function
    const std::string text = line.substr(first);
    std::string guards = pending + "\n" + line;
    for (const std::string &b : blocks)
      guards += "\n" + b;
    pending.clear();
    if (text.rfind("}", 0) == 0 && !blocks.empty())
      blocks.pop_back(); // "}" or "} else {"
    if (!text.empty() && text.back() == '{')
      blocks.push_back(text.rfind("} else", 0) == 0 ? "" : text);
    else if (text.find(" // ") != std::string::npos &&
             text.substr(0, text.find(" // ")).back() == '{')
      blocks.push_back(text.rfind("} else", 0) == 0 ? "" : text);
    if (text.rfind("if (", 0) == 0 && text.back() == ')') {
      pending = text;
      continue;
    }
    std::smatch m;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), write);
         it != std::sregex_iterator(); ++it)
      if (guards.find("dv[" + (*it)[1].str() + "]") == std::string::npos)
        problems += "unguarded write: " + text + "\n";
    const bool isCopy =
        std::regex_match(line, m, copy) &&
        guards.find("dv[" + m[1].str() + "]") != std::string::npos;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), read);
         it != std::sregex_iterator(); ++it)
      if (!isCopy &&
          guards.find("sv[" + (*it)[1].str() + "]") == std::string::npos)
        problems += "unguarded read: " + text + "\n";
  }
  return problems;
}

/// Runs the masked tables of `p` on the host and checks them against the
/// simulator's masked run; also checks that the unit emits. Returns the
/// host run.
HostRun checkMasked(const PaddedPlan &p, const std::string &what) {
  SimulationResult s = ok(simulatePadded(p));
  EXPECT_TRUE(s.correct) << what << ": " << s.firstMismatch << s.firstViolation;
  CudaEmitTables t = ok(cudaEmitTables(p.plan, p.logicalShape));
  HostRun run = runTables(p.plan, t, false, p.logicalShape);
  expectSimulatorCounts(run, s, what);
  Expected<std::string> code = emitCuda(p);
  EXPECT_TRUE(code) << what << ": " << code.error().message;
  if (code) {
    EXPECT_EQ(unguardedAccesses(*code, "lk_convert"), "") << what;
  }
  return run;
}

// Through shared memory (hand derivation in PaddedPlanTest's
// Blocked48SharedMemory): one element per lane and instruction; A's 2
// stores each leave lanes 24..31 (elements 48..63) predicated off, B's
// second load lanes 16..31 (32 + l >= 48): 2 * 8 + 16 = 32 masked element
// accesses, no partial vector, 48 valid registers. The emitted predicate
// of [48] padded to 64 is ((y >> 0) & 0x3f) < 0x30, and each store and load
// is guarded by its register's flag.
TEST(EmitCudaMasked, Blocked48SharedMemory) {
  PaddedLayout a = blocked48A(), b = blocked48B();
  PaddedPlan p = masked(
      ok(planSharedMemory(a.layout(), b.layout(), 32, vectorOnly())), {48});
  HostRun run = checkMasked(p, "blocked48 shared");
  EXPECT_EQ(run.storeInstructions, 2);
  EXPECT_EQ(run.loadInstructions, 2);
  EXPECT_EQ(run.maskedAccesses, 32);
  EXPECT_EQ(run.partialVectors, 0);
  EXPECT_EQ(run.checked, 48);
  std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("__device__ __forceinline__ bool lk_convert_valid("
                      "uint64_t y) {\n  return ((y >> 0) & 0x3full) < "
                      "0x30ull;\n}\n"),
            std::string::npos)
      << code;
  EXPECT_NE(code.find("  if (sv[0])\n"), std::string::npos) << code;
  EXPECT_NE(code.find("  if (dv[1])\n"), std::string::npos) << code;
  EXPECT_NE(code.find("// Masked to the logical shape (48)"),
            std::string::npos);
}

// unguardedAccesses, which checkMasked applies to every masked unit, sees
// a load guarded by the src flag and a store guarded by the dst flag.
TEST(EmitCudaMasked, GuardCheckCatchesSwappedFlags) {
  PaddedLayout a = blocked48A(), b = blocked48B();
  const std::string code = ok(emitCuda(masked(
      ok(planSharedMemory(a.layout(), b.layout(), 32, vectorOnly())), {48})));
  ASSERT_EQ(unguardedAccesses(code, "lk_convert"), "");
  auto swapped = [&](const std::string &from, const std::string &to) {
    std::string c = code;
    size_t at = c.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
      c.replace(at, from.size(), to);
    return unguardedAccesses(c, "lk_convert");
  };
  EXPECT_NE(swapped("if (sv[0])\n", "if (dv[0])\n").find("unguarded read"),
            std::string::npos);
  EXPECT_NE(swapped("if (dv[1])\n", "if (sv[1])\n").find("unguarded write"),
            std::string::npos);
}

// The same pair by shuffles, when the planner finds them: lanes send 0 for
// a register of padding and write only valid registers.
TEST(EmitCudaMasked, Blocked48Shuffle) {
  PaddedLayout a = blocked48A(), b = blocked48B();
  Expected<Plan> sh = planWarpShuffle(a.layout(), b.layout(), 32);
  ASSERT_TRUE(sh) << sh.error().message;
  PaddedPlan p = masked(std::move(*sh), {48});
  HostRun run = checkMasked(p, "blocked48 shuffle");
  EXPECT_EQ(run.checked, 48);
  EXPECT_GT(run.maskedAccesses, 0);
  std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("(sv["), std::string::npos) << code;
  EXPECT_NE(code.find("  if (dv["), std::string::npos) << code;
}

// 4 x f32 vectors (registers 1, 2 are elements +1, +2 on both sides; the
// lanes differ, so the pair goes through shared memory) over [126] padded
// to 128: the vector {124, 125, 126, 127} of lane 31 holds two padding
// elements on each side (124 = 4 * 31 in A; lane bits 8, 16, 32, 64, 4 of
// B all set, lane 31 again). Each side moves it as one partial vector with
// 2 elements predicated off: 2 partial vectors, 4 masked accesses, 126
// valid registers. The emitted code keeps the 16-byte access for whole
// vectors and falls back to one access per valid element.
PaddedPlan partialVectorPlan() {
  PaddedLayout a = padded("{register: [(1), (2)], lane: [(4), (8), (16), "
                          "(32), (64)], warp: [], block: []} -> {dim0: 128}",
                          {126});
  PaddedLayout b = padded("{register: [(1), (2)], lane: [(8), (16), (32), "
                          "(64), (4)], warp: [], block: []} -> {dim0: 128}",
                          {126});
  return masked(ok(planSharedMemory(a.layout(), b.layout(), 32, vectorOnly())),
                {126});
}

TEST(EmitCudaMasked, PartialVectorsFallBackToElements) {
  PaddedPlan p = partialVectorPlan();
  ASSERT_EQ(p.plan.smem->vectorElements, 4);
  HostRun run = checkMasked(p, "partial vectors");
  EXPECT_EQ(run.partialVectors, 2);
  EXPECT_EQ(run.maskedAccesses, 4);
  EXPECT_EQ(run.checked, 126);
  std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("if (sv[0] && sv[1] && sv[2] && sv[3]) {\n"),
            std::string::npos)
      << code;
  EXPECT_NE(code.find("} else { // some elements are padding"),
            std::string::npos);
  EXPECT_NE(code.find("*reinterpret_cast<uint4 *>("), std::string::npos);
  EXPECT_NE(code.find("*reinterpret_cast<uint32_t *>("), std::string::npos);
}

// Every blocked pair of a few parameter sets over non-power-of-two shapes
// (PaddedPlanTest's sweep), each element width: the chosen plan, the
// shared-memory plan and the shuffle plan, masked, agree with the
// simulator.
TEST(EmitCudaMasked, BlockedSweep) {
  int runs = 0, partial = 0, shuffles = 0;
  for (const PaddedSweepSet &set : paddedBlockedSweep()) {
    const std::vector<int64_t> &logical = set.logical;
    for (const PaddedLayout &a : set.layouts)
      for (const PaddedLayout &b : set.layouts)
        for (int64_t bits : {8, 16, 32, 64}) {
          const std::string what =
              a.str() + " -> " + b.str() + " b" + std::to_string(bits);
          PaddedPlan chosen = ok(planPaddedConversion(a, b, bits));
          checkMasked(chosen, what);
          ++runs;
          if (auto smem = planSharedMemory(a.layout(), b.layout(), bits,
                                           vectorOnly())) {
            partial += checkMasked(masked(std::move(*smem), logical),
                                   what + " (shared)")
                           .partialVectors > 0;
            ++runs;
          }
          if (auto sh = planWarpShuffle(a.layout(), b.layout(), bits)) {
            checkMasked(masked(std::move(*sh), logical), what + " (shuffle)");
            ++runs;
            ++shuffles;
          }
        }
  }
  EXPECT_GT(runs, 300);
  EXPECT_GT(partial, 10);
  EXPECT_GT(shuffles, 10);
}

// A logical shape of powers of two masks nothing: the tables have no
// bounds and the unit is the unmasked one.
TEST(EmitCudaMasked, PowerOfTwoShapeIsUnmasked) {
  PaddedLayout a = blocked48A(), b = blocked48B();
  Plan plan = ok(planSharedMemory(a.layout(), b.layout(), 32, vectorOnly()));
  PaddedPlan whole = masked(plan, {64});
  EXPECT_FALSE(ok(cudaEmitTables(plan, whole.logicalShape)).masked());
  EXPECT_EQ(ok(emitCuda(whole)), ok(emitCuda(plan)));
}

TEST(EmitCudaMasked, Errors) {
  PaddedLayout a = blocked48A(), b = blocked48B();
  Plan plan = ok(planSharedMemory(a.layout(), b.layout(), 32, vectorOnly()));
  auto message = [&](std::vector<int64_t> logical) {
    Expected<CudaEmitTables> t = cudaEmitTables(plan, logical);
    EXPECT_FALSE(t);
    return t ? std::string() : t.error().message;
  };
  // linear::PaddedLayout::make's diagnostics: the shape must pad to the
  // layouts' out-dims exactly (20 pads to 32, not to the 64 of dim0).
  EXPECT_EQ(message({48, 2}),
            "the logical shape has 2 extents, the layout 1 out-dims");
  EXPECT_EQ(message({0}), "extent 0 of dim 0 is not in [1, 2^62]");
  EXPECT_EQ(
      message({65}),
      "the logical extent 65 of dim0 pads to 128, but the layout's dim0 has "
      "size 64 (an extent pads to the next power of two, so dim0's must "
      "be in 33..64)");
  EXPECT_EQ(
      message({20}),
      "the logical extent 20 of dim0 pads to 32, but the layout's dim0 has "
      "size 64 (an extent pads to the next power of two, so dim0's must "
      "be in 33..64)");
  // ldmatrix / stmatrix cannot skip padding: a masked plan with them is
  // refused (an f16 transpose of 16x16 tiles stores with stmatrix).
  const unsigned sa[] = {1, 8}, ta[] = {8, 4}, oa[] = {1, 0};
  const unsigned sb[] = {8, 1}, tb[] = {4, 8}, ob[] = {0, 1};
  const unsigned w[] = {1, 1};
  const int64_t shape[] = {64, 64};
  linear::LinearLayout x = ok(linear::blockedLayout(sa, ta, w, oa, shape));
  linear::LinearLayout y = ok(linear::blockedLayout(sb, tb, w, ob, shape));
  Plan matrices = ok(planSharedMemory(x, y, 16));
  ASSERT_TRUE(matrices.smem->store.matrixInstruction ||
              matrices.smem->load.matrixInstruction);
  Expected<CudaEmitTables> t =
      cudaEmitTables(matrices, std::vector<int64_t>{60, 64});
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("cannot use ldmatrix / stmatrix"),
            std::string::npos);
  EXPECT_TRUE(cudaEmitTables(matrices, std::vector<int64_t>{64, 64}));
}

/// Two layouts of [96] padded to 128 whose register bits are swapped
/// (register r of one is register 2(r mod 2) + r / 2 of the other): a
/// register permutation; elements 96..127 (bits 32 and 64 set) are
/// padding.
PaddedLayout registers96(bool swapped) {
  return padded(std::string("{register: ") +
                    (swapped ? "[(64), (1)]" : "[(1), (64)]") +
                    ", lane: [(2), (4), (8), (16), (32)], warp: [], "
                    "block: []} -> {dim0: 128}",
                {96});
}

/// Masked plans of every strategy and both vector paths: [48] through
/// shared memory and by shuffles, the partial vectors of [126], and 12x8
/// in 8-, 16- and 64-bit elements (the chosen plan and the shared one).
std::vector<PaddedPlan> maskedCases() {
  PaddedLayout a = blocked48A(), b = blocked48B();
  std::vector<PaddedPlan> plans = {
      masked(ok(planSharedMemory(a.layout(), b.layout(), 32, vectorOnly())),
             {48}),
      masked(ok(planWarpShuffle(a.layout(), b.layout(), 32)), {48}),
      partialVectorPlan(), ok(planPaddedConversion(a, a, 32)),
      ok(planPaddedConversion(registers96(false), registers96(true), 16))};
  EXPECT_EQ(plans[3].plan.strategy, Strategy::NoOp);
  EXPECT_EQ(plans[4].plan.strategy, Strategy::RegisterPermutation);
  for (int64_t bits : {8, 16, 64}) {
    const unsigned sa[] = {1, 4}, ta[] = {16, 2}, oa[] = {1, 0};
    const unsigned sb[] = {4, 1}, tb[] = {4, 8}, ob[] = {0, 1};
    const unsigned w[] = {1, 1};
    std::vector<int64_t> logical{12, 8};
    const int64_t shape[] = {16, 8};
    PaddedLayout x = ok(PaddedLayout::make(
        ok(linear::blockedLayout(sa, ta, w, oa, shape)), logical));
    PaddedLayout y = ok(PaddedLayout::make(
        ok(linear::blockedLayout(sb, tb, w, ob, shape)), logical));
    plans.push_back(ok(planPaddedConversion(x, y, bits)));
    plans.push_back(
        masked(ok(planSharedMemory(x.layout(), y.layout(), bits, vectorOnly())),
               logical));
  }
  return plans;
}

// The units the nvcc and GPU tests build, each strategy among them, agree
// with the simulator on the host, every access guarded.
TEST(EmitCudaMasked, CompiledCasesAgreeWithTheSimulator) {
  std::vector<PaddedPlan> plans = maskedCases();
  ASSERT_EQ(plans.size(), 11u);
  for (size_t i = 0; i < plans.size(); ++i)
    checkMasked(plans[i], "masked case " + std::to_string(i));
}

// nvcc compiles masked units of every strategy (and both vector paths)
// for sm_90a and sm_80, warnings as errors; the host main of a masked unit
// checks every CUDA call and launch.
TEST(EmitCudaMaskedNvcc, CompilesForSm90aAndSm80) {
  std::string nvcc = findNvcc();
  if (nvcc.empty())
    GTEST_SKIP() << "nvcc not found (LK_NVCC, PATH, /usr/local/cuda/bin)";
  std::vector<PaddedPlan> plans = maskedCases();
  std::string unit;
  for (size_t i = 0; i < plans.size(); ++i) {
    CudaEmitOptions o;
    o.functionName = "lk_masked_" + std::to_string(i);
    o.hostMain = i + 1 == plans.size();
    std::string code = ok(emitCuda(plans[i], o));
    EXPECT_NE(code.find(o.functionName + "_valid("), std::string::npos);
    if (o.hostMain) {
      EXPECT_EQ(hostMainErrorHandling(code), "");
    }
    unit += code + "\n";
  }
  EXPECT_NE(unit.find("__shfl_sync("), std::string::npos);
  EXPECT_NE(unit.find("} else { // some elements are padding"),
            std::string::npos);
  for (const char *arch : {"sm_90a", "sm_80"})
    expectCompiles(nvcc, unit, "masked", arch);
}

// Where a GPU is reachable (as EmitCudaGpu.TestKernelsPassOnTheGpu): each
// masked unit built with its host main and run. Its test kernel fills src
// registers of padding with all ones and dst registers with a marker, and
// counts a valid dst register without its element and a padding one that
// lost the marker; main prints "PASS: <name>: ..." when there are none.
TEST(EmitCudaMaskedGpu, TestKernelsPassOnTheGpu) {
  std::string nvcc;
  if (std::string why = gpuSkipReason(nvcc); !why.empty())
    GTEST_SKIP() << why;
  std::vector<PaddedPlan> plans = maskedCases();
  std::vector<GpuUnit> units;
  for (size_t i = 0; i < plans.size(); ++i) {
    CudaEmitOptions o;
    o.functionName = "lk_masked_" + std::to_string(i);
    o.hostMain = true;
    units.push_back({o.functionName, ok(emitCuda(plans[i], o))});
  }
  expectGpuRuns(nvcc, units, /*pass=*/true);
}

} // namespace
} // namespace lk::plan
