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
//  * EmitGatherTestKernel: the self-check's ids are the layouts', its
//    logic run on the host passes and catches a wrong check or gather, and
//    the options put the kernels and main() in the text (or refuse).
//  * EmitGatherNvcc: the emitted translation units (with test kernels, and
//    one with its host main) build with nvcc when nvcc is found; skipped
//    otherwise. EmitGatherGpu: run them where a GPU is reachable.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitGather.h"
#include "layoutkit/plan/Gather.h"

#include "support/NvccTestSupport.h"
#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <random>
#include <string>
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
    p = p * uint64_t(size) + ((word >> l.outShift(k)) & uint64_t(size - 1));
  }
  return p;
}

uint64_t hw(const LinearLayout &l, int64_t r, int64_t lane, int64_t w,
            int64_t b = 0) {
  uint64_t x = uint64_t(r) | uint64_t(lane) << l.inShift(1) |
               uint64_t(w) << l.inShift(2);
  return l.numInDims() > 3 ? x | uint64_t(b) << l.inShift(3) : x;
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

/// What one execution of the tables reads and checks, in CTA `block`
/// (set by executeTables before it calls the functions).
struct HostRun {
  int64_t block = 0;
  /// The value of source register r of (warp w, lane l).
  std::function<uint64_t(int64_t w, int64_t l, int64_t r)> src;
  /// The index value of output register r of (w, l).
  std::function<int64_t(int64_t w, int64_t l, int64_t r)> index;
  /// The value output register r of (w, l) must hold for index value v.
  std::function<uint64_t(int64_t w, int64_t l, int64_t r, int64_t v)> want;
  /// What output register r of (w, l) holds before the gather (empty: 0).
  std::function<uint64_t(int64_t w, int64_t l, int64_t r)> init;
  /// What every element slot of the shared buffer holds before the stores.
  uint64_t poison = 0;
};

/// The source value output register r of (w, l) receives for index value
/// v, as the emitted ThreadLocal / WarpShuffle code computes it.
uint64_t roundsOnHost(const CudaGatherTables &t, const HostRun &h, int64_t w,
                      int64_t l, int64_t r, int64_t v) {
  const GatherRegisterSteps &st = t.steps[size_t(r)];
  int64_t reg = st.base.reg ^ termOf(t.fromIndex, uint64_t(v), false) ^
                termOf(t.fromLane, uint64_t(l), false) ^
                termOf(t.fromWarp, uint64_t(w), false) ^
                termOf(t.fromBlock, uint64_t(h.block), false);
  int64_t sl = st.base.lane ^ termOf(t.fromIndex, uint64_t(v), true) ^
               termOf(t.fromLane, uint64_t(l), true) ^
               termOf(t.fromWarp, uint64_t(w), true) ^
               termOf(t.fromBlock, uint64_t(h.block), true);
  if (t.strategy == GatherStrategy::ThreadLocal)
    sl = l; // no shuffle: the emitted code reads its own src
  uint64_t got = h.init ? h.init(w, l, r) : 0;
  for (int64_t send : st.sendRegisters)
    if (st.sendRegisters.size() == 1 || reg == send)
      got = h.src(w, sl, send);
  return got;
}

/// Executes the tables of `t` on the host for CTA h.block as the emitted
/// code does and returns the number of output registers that differ from
/// h.want.
int64_t executeBlock(const CudaGatherTables &t, const HostRun &h) {
  const int64_t lanes = 32;
  const uint64_t eb = uint64_t(t.elementBytes);
  std::vector<uint64_t> buf;
  if (t.strategy == GatherStrategy::SharedMemory) {
    EXPECT_EQ(t.smemBytes % t.elementBytes, 0);
    buf.assign(size_t(t.smemBytes / t.elementBytes), h.poison);
    for (int64_t w = 0; w < t.warps; ++w)
      for (int64_t l = 0; l < lanes; ++l) {
        if ((uint64_t(l) & t.storeIdleLanes) ||
            (uint64_t(w) & t.storeIdleWarps))
          continue;
        for (int64_t r = 0; r < t.srcRegisters; ++r) {
          if (uint64_t(r) & t.storeIdleRegisters)
            continue;
          uint64_t byte =
              t.storeBytes[size_t(r)] ^ t.storeThread.at(l, w, h.block);
          EXPECT_LT(byte / eb, buf.size());
          if (byte / eb < buf.size())
            buf[size_t(byte / eb)] = h.src(w, l, r);
        }
      }
  }
  int64_t bad = 0;
  for (int64_t w = 0; w < t.warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < t.outRegisters; ++r) {
        const int64_t v = h.index(w, l, r);
        uint64_t got = 0;
        if (t.strategy == GatherStrategy::SharedMemory) {
          uint64_t byte = t.loadBytes[size_t(r)] ^
                          t.loadThread.at(l, w, h.block) ^
                          uint64_t(v) * t.axisStrideBytes;
          got = byte / eb < buf.size() ? buf[size_t(byte / eb)] : 0;
        } else {
          got = roundsOnHost(t, h, w, l, r, v);
        }
        bad += got != h.want(w, l, r, v);
      }
  return bad;
}

/// executeBlock over every CTA.
int64_t executeTables(const CudaGatherTables &t, HostRun &h) {
  int64_t bad = 0;
  for (h.block = 0; h.block < t.blocks; ++h.block)
    bad += executeBlock(t, h);
  return bad;
}

/// Row-major position (+ 1) of the source element at the index-layout word
/// `word` with its axis coordinate replaced by v: src[N(x) + e_v], from the
/// layouts alone.
uint64_t wantedFromLayouts(const GatherPlan &p, uint64_t word, int64_t v) {
  const LinearLayout &s = p.src, &ix = p.index;
  uint64_t wantWord = 0;
  for (int k = 0; k < s.numOutDims(); ++k) {
    uint64_t c = k == p.axis ? uint64_t(v)
                             : (word >> ix.outShift(k)) &
                                   uint64_t(s.outDim(k).size() - 1);
    wantWord |= c << s.outShift(k);
  }
  return rowMajorOf(s, wantWord) + 1;
}

/// The tables of `t` run with source element at row-major position p
/// holding p + 1 and `indexValues` (row-major over the index tensor);
/// every output register is compared with wantedFromLayouts.
int64_t runOnHost(const GatherPlan &p, const CudaGatherTables &t,
                  const std::vector<int64_t> &indexValues) {
  const LinearLayout &s = p.src, &ix = p.index;
  HostRun h;
  h.src = [&](int64_t w, int64_t l, int64_t r) {
    return rowMajorOf(s, s.applyFlat(hw(s, r, l, w, h.block))) + 1;
  };
  h.index = [&](int64_t w, int64_t l, int64_t r) {
    return indexValues[size_t(
        rowMajorOf(ix, ix.applyFlat(hw(ix, r, l, w, h.block))))];
  };
  h.want = [&](int64_t w, int64_t l, int64_t r, int64_t v) {
    return wantedFromLayouts(p, ix.applyFlat(hw(ix, r, l, w, h.block)), v);
  };
  return executeTables(t, h);
}

/// The test kernel of emitGatherCuda on the host, pass by pass as the
/// emitted kernel runs them: pass p gives src register r bits [p * w,
/// (p + 1) * w) of (srcId + 1) truncated to the element (w = element bits),
/// index register r gatherTestIndex(outId), starts output register r as
/// the complement of its wanted bits, fills the shared buffer with bytes
/// 0xa5 ^ p, gathers with the other tables and counts the registers that
/// differ from the wanted bits of (wantId ^ v * axisStride) + 1. `passes`
/// < 0: selfCheckPasses, ceil((srcIdBits + 1) / w). Returns the kernel's
/// mismatch count over all passes.
int64_t testKernelOnHost(const CudaGatherTables &t, int passes = -1) {
  const int bits = int(t.elementBytes * 8);
  if (passes < 0)
    passes = (t.srcIdBits + 1 + bits - 1) / bits;
  const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  HostRun h;
  auto index = [&](int64_t w, int64_t l, int64_t r) {
    return int64_t(gatherTestIndex(
        t.outId[size_t(r)] ^ t.outIdThread.at(l, w, h.block), t.axisSize));
  };
  auto wantId = [&](int64_t w, int64_t l, int64_t r, int64_t v) {
    return t.wantId[size_t(r)] ^ t.wantIdThread.at(l, w, h.block) ^
           uint64_t(v) * t.axisStride;
  };
  int64_t bad = 0;
  for (int pass = 0; pass < passes; ++pass) {
    auto bitsOf = [&](uint64_t id) {
      return ((id + 1) >> (pass * bits)) & mask;
    };
    h.src = [&](int64_t w, int64_t l, int64_t r) {
      return bitsOf(t.srcId[size_t(r)] ^ t.srcIdThread.at(l, w, h.block));
    };
    h.index = index;
    h.want = [&](int64_t w, int64_t l, int64_t r, int64_t v) {
      return bitsOf(wantId(w, l, r, v));
    };
    h.init = [&](int64_t w, int64_t l, int64_t r) {
      return ~bitsOf(wantId(w, l, r, index(w, l, r))) & mask;
    };
    h.poison = (0x0101010101010101ull * uint64_t(0xa5 ^ pass)) & mask;
    bad += executeTables(t, h);
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

/// A 16x8 layout over two CTAs: register (0,1), lanes (0,2), (0,4),
/// (1,0), (2,0), (4,0), no warp bit, block (8,0): CTA b holds rows
/// 8b .. 8b + 7.
LinearLayout twoCtaLayout() {
  std::vector<linear::DimSize> ins = {{dims::kRegister, 1},
                                      {dims::kLane, 5},
                                      {dims::kWarp, 0},
                                      {dims::kBlock, 1}};
  std::vector<linear::DimSize> outs = {{dims::dim(0), 4}, {dims::dim(1), 3}};
  auto rc = [](uint64_t r, uint64_t c) { return r | c << 4; };
  return ok(LinearLayout::fromColumns(
      ins, outs,
      std::vector<uint64_t>{rc(0, 1), rc(0, 2), rc(0, 4), rc(1, 0), rc(2, 0),
                            rc(4, 0), rc(8, 0)}));
}

/// Plans beyond standardPlans' same-layout single-CTA ones, f8 and f32
/// each: a source of 8x16 gathered along axis 1 by an 8x8 index in another
/// layout; a broadcast layout (8x4 on two warps of 32 lanes: each element
/// held twice, once per warp); a two-CTA layout gathered along axis 1.
std::vector<GatherPlan> extraPlans() {
  struct Case {
    LinearLayout src, index;
    int axis;
  };
  const LinearLayout bcast = blocked({1, 1}, {8, 4}, {2, 1}, {1, 0}, {8, 4});
  const std::vector<Case> cases = {
      {blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {8, 16}),
       blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}), 1},
      {bcast, bcast, 1},
      {twoCtaLayout(), twoCtaLayout(), 1},
  };
  std::vector<GatherPlan> plans;
  for (const Case &c : cases)
    for (int64_t bits : {8, 32})
      plans.push_back(ok(planGather(c.src, c.index, c.axis, bits)));
  return plans;
}

/// standardPlans, then extraPlans.
std::vector<GatherPlan> allPlans() {
  std::vector<GatherPlan> plans = standardPlans();
  for (GatherPlan &p : extraPlans())
    plans.push_back(std::move(p));
  return plans;
}

TEST(EmitGatherTables, HostRunMatchesTheLayoutsForEveryStrategy) {
  std::mt19937 rng(2026);
  int strategies[3] = {0, 0, 0};
  for (const GatherPlan &p : allPlans()) {
    ++strategies[int(p.strategy)];
    CudaGatherTables t = ok(cudaGatherTables(p));
    const int64_t axisSize = p.src.outDim(p.axis).size();
    std::uniform_int_distribution<int64_t> d(0, axisSize - 1);
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<int64_t> idx(size_t(p.index.totalOutSize()));
      for (int64_t &x : idx)
        x = d(rng);
      EXPECT_EQ(runOnHost(p, t, idx), 0) << p.describe() << "\n" << p.src.str();
    }
    std::string code = ok(emitGatherCuda(p));
    size_t shfl = count(code, "__shfl_sync(");
    size_t want =
        p.strategy == GatherStrategy::WarpShuffle
            ? size_t(p.index.inDimSize(dims::kRegister) * p.roundsPerRegister)
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
  GatherPlan p =
      ok(planGather(blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}),
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
  GatherPlan p =
      ok(planGather(blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}),
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

/// The test-table ids of thread (b, w, l) that differ from the layouts'.
int64_t wrongIds(const GatherPlan &p, const CudaGatherTables &t, int64_t b,
                 int64_t w, int64_t l) {
  const LinearLayout &s = p.src, &ix = p.index;
  int64_t wrong = 0;
  for (int64_t r = 0; r < t.srcRegisters; ++r)
    wrong += (t.srcId[size_t(r)] ^ t.srcIdThread.at(l, w, b)) !=
             rowMajorOf(s, s.applyFlat(hw(s, r, l, w, b)));
  for (int64_t r = 0; r < t.outRegisters; ++r) {
    const uint64_t word = ix.applyFlat(hw(ix, r, l, w, b));
    const uint64_t id = t.outId[size_t(r)] ^ t.outIdThread.at(l, w, b);
    wrong += id != rowMajorOf(ix, word);
    wrong += gatherTestIndex(id, t.axisSize) >= t.axisSize;
    for (int64_t v = 0; v < int64_t(t.axisSize); ++v)
      wrong += (t.wantId[size_t(r)] ^ t.wantIdThread.at(l, w, b) ^
                uint64_t(v) * t.axisStride) +
                   1 !=
               wantedFromLayouts(p, word, v);
  }
  return wrong;
}

// The test kernel's ids are those of the layouts: srcId is the row-major
// position of each source register's element, outId that of each output
// register's element in the output tensor, and wantId ^ v * axisStride
// that of src[x with x_axis := v] (wantedFromLayouts), for every thread of
// every CTA and every v; its index values lie in [0, axis size). Then the
// kernel's check, run on the host with the gather's tables, counts nothing.
TEST(EmitGatherTestKernel, IdsMatchTheLayoutsAndTheHostRunPasses) {
  for (const GatherPlan &p : allPlans()) {
    const LinearLayout &s = p.src;
    CudaGatherTables t = ok(cudaGatherTables(p));
    ASSERT_EQ(t.axisSize, uint64_t(s.outDim(p.axis).size()));
    int64_t wrong = 0;
    for (int64_t b = 0; b < t.blocks; ++b)
      for (int64_t w = 0; w < t.warps; ++w)
        for (int64_t l = 0; l < 32; ++l)
          wrong += wrongIds(p, t, b, w, l);
    EXPECT_EQ(wrong, 0) << p.describe() << "\n" << s.str();
    EXPECT_EQ(testKernelOnHost(t), 0) << p.describe() << "\n" << s.str();
  }
}

// gatherTestIndex by hand: h = id * 0x9e3779b1 (mod 2^32), h ^= h >> 16,
// h *= 0x85ebca6b, h ^= h >> 13. id 0 gives 0. id 1: h = 0x9e3779b1,
// ^ (h >> 16 = 0x9e37) = 0x9e37e786; * 0x85ebca6b = 0x52c4c5b4_640f8102,
// mod 2^32 0x640f8102; ^ (h >> 13 = 0x3207c) = 0x640ca17e: masked by 7
// gives 6, by 1 gives 0.
TEST(EmitGatherTestKernel, TestIndexByHand) {
  EXPECT_EQ(gatherTestIndex(0, 8), 0u);
  EXPECT_EQ(gatherTestIndex(1, 8), 6u);
  EXPECT_EQ(gatherTestIndex(1, 2), 0u);
  EXPECT_EQ(gatherTestIndex(1, 1), 0u);
  // Spread: 256 ids over an axis of 8 hit every value.
  std::vector<int> hits(8, 0);
  for (uint64_t id = 0; id < 256; ++id)
    ++hits[gatherTestIndex(id, 8)];
  for (int h : hits)
    EXPECT_GT(h, 0);
}

// A wrong check or a wrong gather is caught by the kernel's logic on the
// host: a flipped wanted id, a wrong axis stride or source id makes a
// correct gather fail, and so does a wrong index term of the gather (on
// every f32 plan of allPlans).
TEST(EmitGatherTestKernel, HostRunCatchesWrongChecksAndGathers) {
  for (const GatherPlan &p : allPlans()) {
    if (p.elementBits != 32)
      continue;
    const CudaGatherTables good = ok(cudaGatherTables(p));
    ASSERT_EQ(testKernelOnHost(good), 0);
    CudaGatherTables t = good;
    t.wantId[0] ^= 1;
    EXPECT_GT(testKernelOnHost(t), 0) << p.describe();
    t = good;
    t.axisStride *= 2;
    EXPECT_GT(testKernelOnHost(t), 0) << p.describe();
    t = good;
    t.srcId[0] ^= uint64_t(1) << (good.srcIdBits - 1);
    EXPECT_GT(testKernelOnHost(t), 0) << p.describe();
    t = good;
    if (t.strategy == GatherStrategy::SharedMemory)
      t.axisStrideBytes ^= uint64_t(t.elementBytes);
    else
      t.fromIndex[0].reg ^= 1, t.fromIndex[0].lane ^= 1;
    EXPECT_GT(testKernelOnHost(t), 0) << p.describe();
  }
}

// Why f8 needs two passes: the f8 shared-memory plan of the 64x32 tensor
// (2^11 elements, axis 0 of stride 32) altered to load row ^ 8 reads an
// element whose id differs by 8 * 32 = 256, so (id + 1) mod 256 (one pass)
// cannot tell it from the right one; the second pass (bits 8..15) does.
TEST(EmitGatherTestKernel, OnePassOfF8MissesWhatTwoPassesCatch) {
  const GatherPlan p = standardPlans()[24];
  ASSERT_EQ(p.elementBits, 8);
  ASSERT_EQ(p.strategy, GatherStrategy::SharedMemory);
  CudaGatherTables t = ok(cudaGatherTables(p));
  ASSERT_EQ(t.srcIdBits, 11);
  ASSERT_EQ(t.axisStride, 32u);
  EXPECT_EQ(testKernelOnHost(t), 0);
  for (uint64_t &b : t.loadBytes)
    b ^= 8 * t.axisStrideBytes;
  EXPECT_EQ(testKernelOnHost(t, 1), 0);
  EXPECT_GT(testKernelOnHost(t), 0);
}

/// Gather.h's f32 8x8 WarpShuffle plan (axis 1) with the lane term of
/// index bit 0 flipped: the emitter accepts it, and an odd index value
/// reads the neighbouring lane's column.
GatherPlan brokenGatherPlan() {
  GatherPlan p =
      ok(planGather(blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}),
                    blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}), 1, 32));
  EXPECT_EQ(p.strategy, GatherStrategy::WarpShuffle);
  p.fromIndex[0].lane ^= 1;
  return p;
}

// The corruption of brokenGatherPlan really moves wrong data: the test
// kernel run on the host counts mismatches, so EmitGatherGpu.BrokenPlanFails
// must see FAIL.
TEST(EmitGatherTestKernel, BrokenPlanMismatchesOnTheHost) {
  const GatherPlan bad = brokenGatherPlan();
  EXPECT_GT(testKernelOnHost(ok(cudaGatherTables(bad))), 0);
  EXPECT_TRUE(emitGatherCuda(bad));
}

size_t passesIn(const std::string &code) {
  const std::string key = "for (int pass = 0; pass < ";
  size_t at = code.find(key);
  return at == std::string::npos
             ? 0
             : size_t(std::stoi(code.substr(at + key.size())));
}

// The emitted text: the device function alone by default; the test kernel
// with testKernel (pass count ceil((log2 #source elements + 1) / element
// bits), so every bit of id + 1 is compared); the timing kernel and main()
// with hostMain too, for each of the 28 plans.
TEST(EmitGatherTestKernel, TextHoldsWhatTheOptionsAsk) {
  int n = 0;
  for (const GatherPlan &p : standardPlans()) {
    CudaGatherEmitOptions o;
    o.functionName = "g" + std::to_string(n++);
    const std::string kernel = "__global__ void " + o.functionName +
                               "_test_kernel(unsigned long long *mismatches)";
    const std::string bench =
        "__global__ void " + o.functionName + "_bench_kernel(";
    std::string plain = ok(emitGatherCuda(p, o));
    EXPECT_EQ(count(plain, "__global__"), 0u);
    EXPECT_EQ(count(plain, "int main()"), 0u);
    o.testKernel = true;
    std::string tested = ok(emitGatherCuda(p, o));
    EXPECT_EQ(tested.rfind(plain, 0), 0u) << "the device function first";
    EXPECT_EQ(count(tested, kernel), 1u);
    EXPECT_EQ(count(tested, bench), 0u);
    EXPECT_EQ(count(tested, "int main()"), 0u);
    const int64_t bits = p.elementBits;
    EXPECT_EQ(int64_t(passesIn(tested)),
              (p.src.totalOutBits() + 1 + bits - 1) / bits);
    o.hostMain = true;
    std::string full = ok(emitGatherCuda(p, o));
    EXPECT_EQ(count(full, kernel), 1u);
    EXPECT_EQ(count(full, bench), 1u);
    EXPECT_EQ(count(full, "int main()"), 1u);
    EXPECT_EQ(count(full, "#include <cstdio>"), 1u);
    EXPECT_EQ(count(full, "\"PASS: " + o.functionName + ": "), 1u);
  }
}

// The host main() checks every CUDA call and every launch (see
// EmitCudaTables.HostMainChecksEveryLaunchAndCall), for every plan.
TEST(EmitGatherTestKernel, HostMainChecksEveryLaunchAndCall) {
  int n = 0;
  for (const GatherPlan &p : allPlans()) {
    CudaGatherEmitOptions o;
    o.functionName = "g" + std::to_string(n++);
    o.testKernel = o.hostMain = true;
    const std::string code = ok(emitGatherCuda(p, o));
    EXPECT_EQ(hostMainErrorHandling(code), "") << p.describe();
    EXPECT_EQ(count(code, "  err = cudaGetLastError();\n"), 3u);
    EXPECT_EQ(count(code, "\"FAIL: " + o.functionName + ": %s: %s\\n\""), 1u);
  }
}

TEST(EmitGatherTestKernel, OptionErrors) {
  GatherPlan p =
      ok(planGather(blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}),
                    blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8}), 1, 32));
  // The host main() launches the test kernel, so it brings it along.
  CudaGatherEmitOptions o;
  o.hostMain = true;
  Expected<std::string> e = emitGatherCuda(p, o);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_NE(e->find("__global__ void lk_gather_test_kernel"),
            std::string::npos);
  EXPECT_NE(e->find("int main("), std::string::npos);
  o.testKernel = true;
  o.functionName = "";
  e = emitGatherCuda(p, o);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "function name '' is not a C identifier");
}

// An output tensor of 2^33 elements (64 columns, 2^27 rows, one row pair
// per CTA: 2^27 CTAs, a cheap plan since every dim is a list of columns)
// has ids the 32-bit hash cannot take: the test kernel is refused, the
// device function alone is emitted.
TEST(EmitGatherTestKernel, RefusesOutputsOverTwoToThe32Elements) {
  std::vector<linear::DimSize> ins = {{dims::kRegister, 1},
                                      {dims::kLane, 5},
                                      {dims::kWarp, 0},
                                      {dims::kBlock, 27}};
  std::vector<linear::DimSize> outs = {{dims::dim(0), 27}, {dims::dim(1), 6}};
  std::vector<uint64_t> cols;
  for (int j = 0; j < 6; ++j) // register, lanes: the 64 columns
    cols.push_back(uint64_t(1) << (27 + j));
  for (int k = 0; k < 27; ++k) // blocks: the rows
    cols.push_back(uint64_t(1) << k);
  LinearLayout l = ok(LinearLayout::fromColumns(ins, outs, cols));
  GatherPlan p = ok(planGather(l, l, 1, 32));
  CudaGatherEmitOptions o;
  o.testKernel = true;
  Expected<std::string> e = emitGatherCuda(p, o);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "the test kernel hashes 32-bit element ids; "
                               "the output tensor has 2^33 elements");
  EXPECT_TRUE(emitGatherCuda(p));
}

//===----------------------------------------------------------------------===//
// nvcc (compile only) and the GPU
//===----------------------------------------------------------------------===//

/// Every standard plan and the f32 extra plans (31) with their test
/// kernels, named lk_g<i>_<strategy>_f<bits>.
std::vector<std::pair<std::string, std::string>> testUnits(bool hostMain) {
  std::vector<std::pair<std::string, std::string>> units;
  int n = 0;
  std::vector<GatherPlan> plans = standardPlans();
  for (GatherPlan &p : extraPlans())
    if (p.elementBits == 32)
      plans.push_back(std::move(p));
  for (const GatherPlan &p : plans) {
    std::string strategy(gatherStrategyName(p.strategy));
    for (char &c : strategy)
      if (c == ' ' || c == '-')
        c = '_';
    CudaGatherEmitOptions o;
    o.functionName = "lk_g" + std::to_string(n++) + "_" + strategy + "_f" +
                     std::to_string(p.elementBits);
    o.testKernel = true;
    o.hostMain = hostMain;
    units.push_back({o.functionName, ok(emitGatherCuda(p, o))});
  }
  return units;
}

TEST(EmitGatherNvcc, EveryStrategyCompilesForSm90aAndSm80) {
  std::string nvcc = findNvcc();
  if (nvcc.empty())
    GTEST_SKIP() << "nvcc not found (LK_NVCC, PATH, /usr/local/cuda/bin)";
  // One translation unit: the 31 plans with their test kernels.
  std::string unit;
  for (const auto &[name, code] : testUnits(false))
    unit += code + "\n";
  for (const char *arch : {"sm_90a", "sm_80"})
    expectCompiles(nvcc, unit, "gather", arch);
}

TEST(EmitGatherNvcc, HostMainLinks) {
  std::string nvcc = findNvcc();
  if (nvcc.empty())
    GTEST_SKIP() << "nvcc not found (LK_NVCC, PATH, /usr/local/cuda/bin)";
  // A shared-memory plan (the last layout, axis 0, f16): full build.
  auto units = testUnits(true);
  ASSERT_EQ(units.size(), 31u);
  ASSERT_EQ(standardPlans()[25].strategy, GatherStrategy::SharedMemory);
  expectCompiles(nvcc, units[25].second, "gather-main", "sm_90a", "");
}

// Where a GPU is reachable: each of the 31 plans built with its host main
// for the GPU at hand (-arch=native; LK_GPU_ARCH=sm_XX instead) and run.
// The test kernel gathers from a source whose every element is distinct
// with pseudo-random index values and counts output registers that do not
// hold src[x with x_axis := index[x]]; main prints "PASS: <name>: <GB/s>
// ..." when there are none, "FAIL: ..." otherwise. The lines are printed.
TEST(EmitGatherGpu, TestKernelsPassOnTheGpu) {
  std::string nvcc;
  if (std::string why = gpuSkipReason(nvcc); !why.empty())
    GTEST_SKIP() << why;
  std::vector<GpuUnit> units;
  for (const auto &[name, code] : testUnits(true))
    units.push_back({name, code});
  expectGpuRuns(nvcc, units, /*pass=*/true);
}

// The negative GPU test: brokenGatherPlan's program must print
// "FAIL: lk_broken_gather: <n> mismatched registers" and exit non-zero
// (EmitGatherTestKernel.BrokenPlanMismatchesOnTheHost shows it must).
TEST(EmitGatherGpu, BrokenPlanFails) {
  std::string nvcc;
  if (std::string why = gpuSkipReason(nvcc); !why.empty())
    GTEST_SKIP() << why;
  CudaGatherEmitOptions o;
  o.functionName = "lk_broken_gather";
  o.testKernel = o.hostMain = true;
  expectGpuRuns(nvcc,
                {{o.functionName, ok(emitGatherCuda(brokenGatherPlan(), o))}},
                /*pass=*/false);
}

} // namespace
} // namespace lk::plan
