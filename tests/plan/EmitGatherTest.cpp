//===- EmitGatherTest.cpp - CUDA C++ emission of gather plans -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Two kinds of checks, as for conversion plans (EmitCudaTest.cpp):
//  * EmitGatherTables: the numbers the gather emitter prints
//    (cudaGatherTables) are executed on the host exactly as the emitted code
//    uses them (thread terms XORed with per-register constants, index bits,
//    __shfl_sync partners, the row-major buffer), on random index tensors,
//    and every output register is compared with src[N(x) + e_v] computed
//    from the layouts alone; the emitted text is checked to hold one
//    __shfl_sync per round of a WarpShuffle plan and none otherwise.
//  * EmitGatherNvcc: the emitted translation units compile with nvcc
//    (sm_90a, sm_80) when nvcc is found; skipped otherwise.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitGather.h"
#include "layoutkit/plan/Gather.h"

#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace lk::plan {
namespace {

using linear::LinearLayout;
namespace dims = linear::dims;
using namespace test;

/// Row-major position of an output word (dim0 slowest), from the dims.
uint64_t rowMajorOf(const LinearLayout &l, uint64_t word) {
  uint64_t p = 0;
  for (int k = 0; k < l.numOutDims(); ++k) {
    int64_t size = l.outDim(k).size();
    p = p * uint64_t(size) +
        ((word >> l.outShift(k)) & uint64_t(size - 1));
  }
  return p;
}

uint64_t hw(const LinearLayout &l, int64_t r, int64_t lane, int64_t w) {
  return uint64_t(r) | uint64_t(lane) << l.inShift(1) |
         uint64_t(w) << l.inShift(2);
}

/// XOR of terms[i] over the set bits i of x, register or lane part.
int64_t termOf(const std::vector<SourceLocation> &terms, uint64_t x,
               bool lane) {
  int64_t v = 0;
  for (size_t i = 0; i < terms.size(); ++i)
    if (x >> i & 1)
      v ^= lane ? terms[i].lane : terms[i].reg;
  return v;
}

/// Executes the tables of `p` on the host for one CTA (block 0) and
/// returns the number of output registers that differ from the element the
/// layouts say they must hold.
int64_t runOnHost(const GatherPlan &p, const CudaGatherTables &t,
                  const std::vector<int64_t> &indexValues) {
  const LinearLayout &s = p.src, &ix = p.index;
  const int64_t lanes = 32;
  auto srcValue = [&](int64_t w, int64_t l, int64_t r) {
    return rowMajorOf(s, s.applyFlat(hw(s, r, l, w))) + 1;
  };
  int64_t bad = 0;
  std::vector<uint64_t> buf;
  const uint64_t eb = uint64_t(t.elementBytes);
  if (t.strategy == GatherStrategy::SharedMemory) {
    EXPECT_EQ(t.smemBytes % t.elementBytes, 0);
    buf.assign(size_t(t.smemBytes / t.elementBytes), 0);
    for (int64_t w = 0; w < t.warps; ++w)
      for (int64_t l = 0; l < lanes; ++l) {
        if ((uint64_t(l) & t.storeIdleLanes) || (uint64_t(w) & t.storeIdleWarps))
          continue;
        for (int64_t r = 0; r < t.srcRegisters; ++r) {
          if (uint64_t(r) & t.storeIdleRegisters)
            continue;
          uint64_t byte = t.storeBytes[size_t(r)] ^ t.storeThread.at(l, w);
          EXPECT_LT(byte / eb, buf.size());
          if (byte / eb < buf.size())
            buf[size_t(byte / eb)] = srcValue(w, l, r);
        }
      }
  }
  for (int64_t w = 0; w < t.warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < t.outRegisters; ++r) {
        const uint64_t word = ix.applyFlat(hw(ix, r, l, w));
        const int64_t v = indexValues[size_t(rowMajorOf(ix, word))];
        // The wanted element: the index word with the axis coordinate v.
        uint64_t wantWord = 0;
        for (int k = 0; k < s.numOutDims(); ++k) {
          uint64_t c = k == p.axis ? uint64_t(v)
                                   : (word >> ix.outShift(k)) &
                                         uint64_t(s.outDim(k).size() - 1);
          wantWord |= c << s.outShift(k);
        }
        const uint64_t want = rowMajorOf(s, wantWord) + 1;
        uint64_t got = 0;
        if (t.strategy == GatherStrategy::SharedMemory) {
          uint64_t byte = t.loadBytes[size_t(r)] ^ t.loadThread.at(l, w) ^
                          uint64_t(v) * t.axisStrideBytes;
          got = byte / eb < buf.size() ? buf[size_t(byte / eb)] : 0;
        } else {
          const GatherRegisterSteps &st = t.steps[size_t(r)];
          int64_t reg = st.base.reg ^ termOf(t.fromIndex, uint64_t(v), false) ^
                        termOf(t.fromLane, uint64_t(l), false) ^
                        termOf(t.fromWarp, uint64_t(w), false);
          int64_t sl = st.base.lane ^ termOf(t.fromIndex, uint64_t(v), true) ^
                       termOf(t.fromLane, uint64_t(l), true) ^
                       termOf(t.fromWarp, uint64_t(w), true);
          if (t.strategy == GatherStrategy::ThreadLocal)
            sl = l; // no shuffle: the emitted code reads its own src
          for (int64_t send : st.sendRegisters)
            if (st.sendRegisters.size() == 1 || reg == send)
              got = srcValue(w, sl, send);
        }
        bad += got != want;
      }
  return bad;
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

/// Gather plans of every strategy on standard blocked layouts.
std::vector<GatherPlan> standardPlans() {
  std::vector<GatherPlan> plans;
  struct Case {
    LinearLayout l;
    int axis;
  };
  std::vector<Case> cases = {
      {blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}), 1},
      {blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16}), 1},
      {blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16}), 0},
      {blocked({2, 2}, {4, 8}, {2, 2}, {1, 0}, {32, 64}), 1},
      {blocked({1, 16}, {32, 1}, {2, 1}, {1, 0}, {64, 16}), 1},
      {blocked({1, 4}, {32, 1}, {2, 1}, {1, 0}, {64, 4}), 0},
      {blocked({4, 1}, {2, 16}, {4, 1}, {0, 1}, {64, 32}), 0},
  };
  for (const Case &c : cases)
    for (int64_t bits : {8, 16, 32, 64})
      plans.push_back(ok(planGather(c.l, c.l, c.axis, bits)));
  return plans;
}

TEST(EmitGatherTables, HostRunMatchesTheLayoutsForEveryStrategy) {
  std::mt19937 rng(2026);
  int strategies[3] = {0, 0, 0};
  for (const GatherPlan &p : standardPlans()) {
    ++strategies[int(p.strategy)];
    CudaGatherTables t = ok(cudaGatherTables(p));
    const int64_t axisSize = p.src.outDim(p.axis).size();
    std::uniform_int_distribution<int64_t> d(0, axisSize - 1);
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<int64_t> idx(size_t(p.index.totalOutSize()));
      for (int64_t &x : idx)
        x = d(rng);
      EXPECT_EQ(runOnHost(p, t, idx), 0)
          << p.describe() << "\n" << p.src.str();
    }
    std::string code = ok(emitGatherCuda(p));
    size_t shfl = count(code, "__shfl_sync(");
    size_t want = p.strategy == GatherStrategy::WarpShuffle
                      ? size_t(p.index.inDimSize(dims::kRegister) *
                               p.roundsPerRegister)
                      : 0;
    EXPECT_EQ(shfl, want) << code;
    EXPECT_EQ(count(code, "__syncthreads()"),
              p.strategy == GatherStrategy::SharedMemory ? 1u : 0u);
  }
  EXPECT_GT(strategies[int(GatherStrategy::ThreadLocal)], 0);
  EXPECT_GT(strategies[int(GatherStrategy::WarpShuffle)], 0);
  EXPECT_GT(strategies[int(GatherStrategy::SharedMemory)], 0);
}

// A wrong table is caught by the host run: flipping a lane term of a
// shuffle plan sends some lanes to the wrong partner.
TEST(EmitGatherTables, HostRunCatchesAWrongTable) {
  GatherPlan p = ok(planGather(
      blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}),
      blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}), 1, 32));
  ASSERT_EQ(p.strategy, GatherStrategy::WarpShuffle);
  CudaGatherTables t = ok(cudaGatherTables(p));
  std::vector<int64_t> idx(64);
  for (size_t e = 0; e < idx.size(); ++e)
    idx[e] = int64_t(e % 8);
  EXPECT_EQ(runOnHost(p, t, idx), 0);
  t.fromLane[0].lane ^= 1;
  EXPECT_GT(runOnHost(p, t, idx), 0);
}

TEST(EmitGatherTables, Errors) {
  GatherPlan p = ok(planGather(
      blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}),
      blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}), 1, 32));
  CudaGatherEmitOptions o;
  o.functionName = "2bad";
  Expected<std::string> e = emitGatherCuda(p, o);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "function name '2bad' is not a C identifier");
  GatherPlan broken = p;
  broken.fromLane.pop_back();
  Expected<CudaGatherTables> b = cudaGatherTables(broken);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message, "malformed gather plan: the addressing does "
                               "not match the layouts");
}

//===----------------------------------------------------------------------===//
// nvcc (compile only)
//===----------------------------------------------------------------------===//

std::string findNvcc() {
  namespace fs = std::filesystem;
  auto runnable = [](const fs::path &p) {
    return !p.empty() && fs::is_regular_file(p) &&
           ::access(p.c_str(), X_OK) == 0;
  };
  if (const char *env = std::getenv("LK_NVCC"); env && *env)
    return runnable(env) ? std::string(env) : std::string();
  fs::path fallback = "/usr/local/cuda/bin/nvcc";
  return runnable(fallback) ? fallback.string() : std::string();
}

TEST(EmitGatherNvcc, EveryStrategyCompilesForSm90aAndSm80) {
  std::string nvcc = findNvcc();
  if (nvcc.empty())
    GTEST_SKIP() << "nvcc not found (LK_NVCC, /usr/local/cuda/bin)";
  namespace fs = std::filesystem;
  // One translation unit: a plan of each strategy and width, renamed.
  std::string unit;
  int n = 0;
  for (const GatherPlan &p : standardPlans()) {
    CudaGatherEmitOptions o;
    o.functionName = "g" + std::to_string(n++);
    unit += ok(emitGatherCuda(p, o));
  }
  fs::path dir = fs::temp_directory_path() /
                 ("lk-emit-gather-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path cu = dir / "gather.cu";
  std::ofstream(cu) << unit;
  for (const char *arch : {"sm_90a", "sm_80"}) {
    std::string cmd = "'" + nvcc + "' -arch=" + arch +
                      " -std=c++17 -Werror all-warnings -c '" + cu.string() +
                      "' -o '" + (dir / "gather.o").string() + "' 2>&1";
    std::string out;
    FILE *f = ::popen(cmd.c_str(), "r");
    ASSERT_NE(f, nullptr);
    char b[4096];
    size_t k;
    while ((k = std::fread(b, 1, sizeof b, f)) > 0)
      out.append(b, k);
    EXPECT_EQ(::pclose(f), 0) << arch << ":\n" << out;
  }
  fs::remove_all(dir);
}

} // namespace
} // namespace lk::plan
