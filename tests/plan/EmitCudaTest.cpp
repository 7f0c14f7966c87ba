//===- EmitCudaTest.cpp - CUDA C++ emission of conversion plans -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Two kinds of checks:
//  * EmitCudaTables: the numbers the emitter prints (cudaEmitTables) are
//    executed on the host exactly as the emitted code uses them (thread
//    offsets XORed with register constants, idle lanes, vector widths,
//    shuffle partners) and the result is compared with the destination
//    layout; the wavefronts of the emitted addresses are compared with
//    plan::simulate's count for the same plan. Every plan is also simulated.
//  * EmitCudaNvcc: the emitted translation units are compiled with nvcc
//    (sm_90a and sm_80) when nvcc is found (LK_NVCC, PATH,
//    /usr/local/cuda/bin/nvcc); skipped otherwise.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/plan/PaddedPlan.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"

#include "support/CudaHostRun.h"
#include "support/NvccTestSupport.h"
#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace lk::plan {
namespace {

using linear::Encoding;
using linear::LinearLayout;
namespace dims = linear::dims;
// ok(), the encoding and layout builders, randomDistributed: PlanTestSupport.h.
using namespace test;

/// Simulates `plan`, executes its emission tables on the host, and checks
/// that both are correct and count the same shared-memory accesses, then
/// that emitCuda succeeds.
void checkEmission(const Plan &plan, const std::string &what) {
  SimulationResult s = ok(simulate(plan));
  ASSERT_TRUE(s.correct) << what << ": " << s.firstMismatch;
  CudaEmitTables t = ok(cudaEmitTables(plan));
  HostRun run = runTables(plan, t);
  expectSimulatorCounts(run, s, what);
  if (plan.smem) {
    EXPECT_EQ(run.barriers, s.barriers) << what;
  }
  if (t.storeFallback) {
    HostRun fb = runTables(plan, t, /*fallback=*/true);
    EXPECT_EQ(fb.mismatches, 0)
        << what << " (sm_80 store): " << fb.firstMismatch;
  }
  Expected<std::string> code = emitCuda(plan);
  ASSERT_TRUE(code) << what << ": " << code.error().message;
}

//===----------------------------------------------------------------------===//
// Hand-derived emissions
//===----------------------------------------------------------------------===//

TEST(EmitCudaTables, NoOpBodyIsFourCopies) {
  // blocked([1,2],[8,4]) on 16x8 = the mma 16x8 accumulator: register
  // [(0,1),(8,0)], so 128 elements / 32 lanes = 4 registers per thread;
  // nothing moves: the body is four copies.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 8});
  Plan p = ok(planConversion(a, layoutOf(*mmaV2Enc({1, 1}), {16, 8}), 16));
  ASSERT_EQ(p.strategy, Strategy::NoOp);
  checkEmission(p, "no-op");
  std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("__device__ __forceinline__ void lk_convert(const "
                      "uint16_t (&src)[4], uint16_t (&dst)[4], void *smem) {\n"
                      "  (void)smem;\n"
                      "  dst[0] = src[0];\n"
                      "  dst[1] = src[1];\n"
                      "  dst[2] = src[2];\n"
                      "  dst[3] = src[3];\n"
                      "}\n"),
            std::string::npos)
      << code;
  EXPECT_NE(code.find("inline constexpr int lk_convert_smem_bytes = 0;"),
            std::string::npos);
  EXPECT_NE(code.find("inline constexpr int lk_convert_warps = 1;"),
            std::string::npos);
  EXPECT_NE(code.find("__global__ void lk_convert_test_kernel("),
            std::string::npos);
  EXPECT_EQ(code.find("int main()"), std::string::npos);
  // Only the three standard headers.
  EXPECT_EQ(code.find("#include"), code.find("#include <cstdint>"));
  EXPECT_NE(code.find("#include <cuda_runtime.h>"), std::string::npos);
  EXPECT_EQ(code.find("#include", code.find("#include <cuda_runtime.h>") + 1),
            std::string::npos);
}

TEST(EmitCudaTables, RegisterPermutationCopiesPerTheTable) {
  // PlanTest's blocked -> mma 16x16: dst register r = src register with
  // bits 1 and 2 swapped: 0,1,4,5,2,3,6,7.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  Plan p = ok(planConversion(a, layoutOf(*mmaV2Enc({1, 1}), {16, 16}), 32));
  ASSERT_EQ(p.strategy, Strategy::RegisterPermutation);
  checkEmission(p, "permutation");
  CudaEmitTables t = ok(cudaEmitTables(p));
  EXPECT_EQ(t.registerSource, (std::vector<int64_t>{0, 1, 4, 5, 2, 3, 6, 7}));
  std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("  dst[2] = src[4];\n  dst[3] = src[5];\n"),
            std::string::npos);
}

TEST(EmitCudaTables, HeaderExampleOffsets) {
  // Plan.h's worked example, f32 16x16, memory layout
  //   offset bits b0..b7 = (1,0),(2,0),(4,0),(0,4),(0,8),(9,0),(2,1),(0,10)
  // ((dim0, dim1) pairs). Store side A: register [(0,1),(0,2),(8,0)], lane
  // [(0,4),(0,8),(1,0),(2,0),(4,0)]. Inverting by hand:
  //   (0,4) = b3 -> element 8 -> 32 B;  (0,8) = b4 -> 64 B;
  //   (1,0) = b0 -> 4 B; (2,0) = b1 -> 8 B; (4,0) = b2 -> 16 B;
  //   (0,1) = b6 ^ b1 -> element 66 -> 264 B;
  //   (0,2) = b7 ^ b4 -> element 144 -> 576 B;
  //   (8,0) = b5 ^ b0 -> element 33 -> 132 B.
  // Load side B: register [(1,0),(2,0),(0,8)] -> 4, 8, 64 B; lane
  //   [(4,0),(8,0),(0,1),(0,2),(0,4)] -> 16, 132, 264, 576, 32 B.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 4}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout b =
      layoutOf(*blockedEnc({4, 1}, {4, 8}, {1, 1}, {0, 1}), {16, 16});
  // (planConversion prefers warp shuffles here; the shared-memory plan.)
  Plan p = ok(planSharedMemory(a, b, 32));
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  checkEmission(p, "header example");
  CudaEmitTables t = ok(cudaEmitTables(p));
  EXPECT_EQ(t.store.accessBytes, 4);
  EXPECT_EQ(t.store.matrixCount, 0);
  EXPECT_EQ(t.smemBytes, 16 * 16 * 4);
  EXPECT_EQ(t.iterations, 1);
  EXPECT_EQ(t.store.thread.lane, (std::vector<uint64_t>{32, 64, 4, 8, 16}));
  EXPECT_EQ(t.load.thread.lane, (std::vector<uint64_t>{16, 132, 264, 576, 32}));
  const auto &st = t.store.accesses, &ld = t.load.accesses;
  ASSERT_EQ(st.size(), 8u);
  ASSERT_EQ(ld.size(), 8u);
  EXPECT_EQ(st[1].registerBytes, 264u);
  EXPECT_EQ(st[2].registerBytes, 576u);
  EXPECT_EQ(st[4].registerBytes, 132u);
  EXPECT_EQ(st[7].registerBytes, 264u ^ 576u ^ 132u);
  EXPECT_EQ(ld[1].registerBytes, 4u);
  EXPECT_EQ(ld[2].registerBytes, 8u);
  EXPECT_EQ(ld[4].registerBytes, 64u);
  std::string code = ok(emitCuda(p));
  // The lane bits as emitted: lane bit 2 (value 4) contributes 4 B to the
  // store offset, lane bit 1 contributes 132 B to the load offset.
  EXPECT_NE(code.find("st ^= (lane & 0x4u) ? 0x4u : 0u;"), std::string::npos);
  EXPECT_NE(code.find("ld ^= (lane & 0x2u) ? 0x84u : 0u;"), std::string::npos);
  EXPECT_NE(code.find("*reinterpret_cast<uint32_t *>(static_cast<unsigned "
                      "char *>(smem) + (st ^ 0x108u)) = src[1];"),
            std::string::npos);
}

TEST(EmitCudaTables, SixteenByteVectorsAndBroadcast) {
  // f16 64x64, 4 warps, 8 common dim1 elements per thread: one uint4 per
  // vector built from 8 registers (4 words of two halves), 4 stores and 4
  // loads per thread (PlanTest CommonRegistersGiveVectorizedAccess).
  LinearLayout a =
      layoutOf(*blockedEnc({1, 8}, {8, 4}, {4, 1}, {1, 0}), {64, 64});
  LinearLayout b =
      layoutOf(*blockedEnc({1, 8}, {16, 2}, {2, 2}, {1, 0}), {64, 64});
  Plan p = ok(planConversion(a, b, 16));
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  checkEmission(p, "16-byte vectors");
  CudaEmitTables t = ok(cudaEmitTables(p));
  EXPECT_EQ(t.store.accessBytes, 16);
  EXPECT_EQ(t.load.accessBytes, 16);
  EXPECT_EQ(t.store.accesses.size(), 4u);
  EXPECT_EQ(t.load.accesses.size(), 4u);
  ASSERT_EQ(t.store.accesses[0].registers.size(), 8u);
  // Registers 0..7 are dim1 = 0..7 of the thread's row: element j = reg j.
  EXPECT_EQ(t.store.accesses[0].registers,
            (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("= make_uint4(uint32_t(src[0]) | uint32_t(src[1]) << 16, "
                      "uint32_t(src[2]) | uint32_t(src[3]) << 16, "),
            std::string::npos);
  EXPECT_NE(code.find("dst[1] = uint16_t(v.x >> 16);"), std::string::npos);

  // Broadcast (PlanTest BroadcastDataIsStoredOnce): lane bit 4 and warp bit
  // 0 of A are zero columns, so lanes with bit 4 set and warp 1 do not
  // store: idle masks 0x10 and 0x1.
  LinearLayout ba =
      layoutOf(*blockedEnc({1, 1}, {32, 1}, {2, 1}, {1, 0}), {16, 16});
  LinearLayout bb =
      layoutOf(*blockedEnc({1, 1}, {1, 32}, {1, 2}, {0, 1}), {16, 16});
  Plan bp = ok(planConversion(ba, bb, 32));
  checkEmission(bp, "broadcast");
  CudaEmitTables bt = ok(cudaEmitTables(bp));
  EXPECT_EQ(bt.storeIdleLanes, 0x10u);
  EXPECT_EQ(bt.storeIdleWarps, 0x1u);
  EXPECT_NE(ok(emitCuda(bp))
                .find("if ((lane & 0x10u) == 0u && (warp & 0x1u) "
                      "== 0u) {"),
            std::string::npos);
}

TEST(EmitCudaTables, ShuffleLaneRegisterSwap) {
  // Plan.h's ShuffleRound example on 16x8 f32 with 2 warps:
  // A = blocked([1,2],[8,4],[2,1]): register [(0,1)], lane [(0,2),(0,4),
  // (1,0),(2,0),(4,0)], warp [(8,0)]; B swaps A's register bit 0 with lane
  // bit 0. Lane l, register r of B holds column (l & 1) + 2r + ...; in A it
  // sits in the lane with bit 0 = r, register l & 1. Two rounds t = 0, 1:
  // lane l reads lane l ^ t (affine: srcLane[0] = t, lane bit k adds 2^k),
  // the sender s offers register (s ^ t) & 1 (even lanes register t, odd
  // lanes 1 - t), and lane l receives into register (l & 1) ^ t.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {2, 1}, {1, 0}), {16, 8});
  LinearLayout b = a;
  b.setColumn(0, a.column(1));
  b.setColumn(1, a.column(0));
  Plan p = ok(planWarpShuffle(a, b, 32));
  checkEmission(p, "lane/register swap");
  CudaEmitTables t = ok(cudaEmitTables(p));
  ASSERT_EQ(t.shuffles.size(), 2u);
  const uint32_t even = 0x55555555u, odd = 0xaaaaaaaau;
  for (const CudaShuffle &s : t.shuffles) {
    int64_t r = s.srcLane[0];
    ASSERT_TRUE(r == 0 || r == 1);
    EXPECT_TRUE(s.srcLaneAffine);
    EXPECT_EQ(s.srcLaneXor, (std::vector<uint64_t>{1, 2, 4, 8, 16}));
    ASSERT_EQ(s.send.size(), 1u);
    ASSERT_EQ(s.send[0].size(), 2u);
    for (const CudaLaneChoice &c : s.send[0])
      EXPECT_EQ(c.lanes, c.reg == r ? even : odd) << "round " << r;
    ASSERT_EQ(s.receive[0].size(), 2u);
    for (const CudaLaneChoice &c : s.receive[0])
      EXPECT_EQ(c.lanes, c.reg == r ? even : odd) << "round " << r;
  }
  // Emitted: the partner from the lane id, one select per side.
  std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("  from ^= (lane & 0x10u) ? 0x10u : 0u;\n"),
            std::string::npos);
  EXPECT_NE(code.find("__shfl_sync(0xffffffffu, s0, int(from));"),
            std::string::npos);
  // Round 0 reads lane l ^ 0 = l: lane-local, emitted without a shuffle;
  // only round 1's __shfl_sync remains.
  EXPECT_TRUE(t.shuffles[0].laneLocal);
  EXPECT_FALSE(t.shuffles[1].laneLocal);
  EXPECT_NE(code.find("{ // round 0 (lane-local: no shuffle)\n"),
            std::string::npos);
  size_t shuffles = 0;
  for (size_t at = code.find("__shfl_sync("); at != std::string::npos;
       at = code.find("__shfl_sync(", at + 1))
    ++shuffles;
  EXPECT_EQ(shuffles, 1u);
}

/// Occurrences of `what` in `code`.
size_t countOf(const std::string &code, const std::string &what) {
  size_t n = 0;
  for (size_t at = code.find(what); at != std::string::npos;
       at = code.find(what, at + 1))
    ++n;
  return n;
}

// The 16x16 f32 pair of Plan.h's header (A = blocked [1,4] [8,4], B =
// blocked [4,1] [4,8] order [0,1]): lane l sends register r ^ sigma(l) and
// receives into d ^ rho(l), sigma and rho linear in lane bits 1-3 (d_s =
// d_r = 3; Plan.h's example). The emitter permutes the 8-register source
// row once before the rounds and the destination row once after them: 3
// lane bits x 8 registers = 24 selects a side, 48 in all, the planner's
// cost.selects, where a select chain per round would write 8 x (7 + 8) =
// 120. Every round then sends p[fixed] and receives into q[fixed].
TEST(EmitCudaTables, ShuffleRowsPermutedOnceByTheLane) {
  const LinearLayout a =
      layoutOf(*blockedEnc({1, 4}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  const LinearLayout b =
      layoutOf(*blockedEnc({4, 1}, {4, 8}, {1, 1}, {0, 1}), {16, 16});
  const Plan p = ok(planWarpShuffle(a, b, 32));
  ASSERT_EQ(p.rounds.size(), 8u);
  ASSERT_TRUE(p.shuffle);
  EXPECT_EQ(p.shuffle->sendSelectBits, 3);
  EXPECT_EQ(p.shuffle->receiveSelectBits, 3);
  checkEmission(p, "header pair");
  const std::string code = ok(emitCuda(p));
  EXPECT_NE(code.find("  uint32_t p[8];\n"), std::string::npos);
  EXPECT_NE(code.find("  uint32_t q[8];\n"), std::string::npos);
  EXPECT_EQ(countOf(code, ": swap r and r ^ "), 6u);
  EXPECT_EQ(int64_t(countOf(code, " = c ? ")), p.cost.selects);
  EXPECT_EQ(countOf(code, "    uint32_t s0 = p["), 8u);
  EXPECT_EQ(countOf(code, "    q["), 8u);
  // No per-lane choice of a register is left in the rounds.
  EXPECT_EQ(code.find(" >> lane & 1u) ? "), std::string::npos);
}

// A masked plan keeps the per-round select chains (a padding register is
// not read, so the row cannot be permuted blindly).
TEST(EmitCudaTables, MaskedShufflesSelectPerRound) {
  const LinearLayout a =
      layoutOf(*blockedEnc({1, 4}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  const LinearLayout b =
      layoutOf(*blockedEnc({4, 1}, {4, 8}, {1, 1}, {0, 1}), {16, 16});
  PaddedPlan padded;
  padded.plan = ok(planWarpShuffle(a, b, 32));
  padded.logicalShape = {12, 16};
  const std::string code = ok(emitCuda(padded));
  EXPECT_EQ(code.find(": swap r and r ^ "), std::string::npos);
  EXPECT_NE(code.find(" >> lane & 1u) ? "), std::string::npos);
}

TEST(EmitCudaTables, IterationsThroughASmallerBuffer) {
  // vecA -> vecB of SixteenByteVectorsAndBroadcast (f16 64x64, 4 warps):
  // the whole tile takes 64 * 64 * 2 = 8192 B. Both layouts hold rows 32..
  // and columns 32.. in registers (CTA tiles of 32x32 repeated), so a
  // 2048-byte budget gives 8192 / 2048 = 4 iterations over those two
  // register bits: store, barrier, load per iteration and a barrier between
  // iterations, 2 * 4 - 1 = 7 barriers in the device function.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 8}, {8, 4}, {4, 1}, {1, 0}), {64, 64});
  LinearLayout b =
      layoutOf(*blockedEnc({1, 8}, {16, 2}, {2, 2}, {1, 0}), {64, 64});
  PlanOptions o;
  o.smemBudgetBytes = 2048;
  Plan p = ok(planSharedMemory(a, b, 16, o));
  ASSERT_EQ(p.smem->iterations, 4);
  checkEmission(p, "4 iterations");
  CudaEmitTables t = ok(cudaEmitTables(p));
  EXPECT_EQ(t.iterations, 4);
  EXPECT_EQ(t.smemBytes, 2048);
  std::string code = ok(emitCuda(p));
  std::string body = code.substr(0, code.find("__global__"));
  size_t barriers = 0;
  for (size_t at = body.find("__syncthreads();"); at != std::string::npos;
       at = body.find("__syncthreads();", at + 1))
    ++barriers;
  EXPECT_EQ(barriers, 7u);
  EXPECT_NE(code.find("inline constexpr int lk_convert_smem_bytes = 2048;"),
            std::string::npos);
}

TEST(EmitCudaTables, TwoCtasEachWithItsOwnBuffer) {
  // Plan.h's f32 example on a 32x16 tensor whose rows 16..31 are held by
  // CTA 1 in both layouts (block column (16,0)): a CTA-local conversion.
  // Each CTA converts its 16x16 half through its own 1024-byte buffer, so
  // the block contributes nothing to the addresses.
  std::vector<linear::DimSize> ins = {{dims::kRegister, 3},
                                      {dims::kLane, 5},
                                      {dims::kWarp, 0},
                                      {dims::kBlock, 1}};
  std::vector<linear::DimSize> outs = {{dims::dim(0), 5}, {dims::dim(1), 4}};
  auto rc = [](uint64_t r, uint64_t c) { return r | c << 5; };
  LinearLayout a = ok(LinearLayout::fromColumns(
      ins, outs,
      std::vector<uint64_t>{rc(0, 1), rc(0, 2), rc(8, 0), rc(0, 4), rc(0, 8),
                            rc(1, 0), rc(2, 0), rc(4, 0), rc(16, 0)}));
  LinearLayout b = ok(LinearLayout::fromColumns(
      ins, outs,
      std::vector<uint64_t>{rc(1, 0), rc(2, 0), rc(0, 8), rc(4, 0), rc(8, 0),
                            rc(0, 1), rc(0, 2), rc(0, 4), rc(16, 0)}));
  Plan p = ok(planSharedMemory(a, b, 32));
  checkEmission(p, "two CTAs");
  CudaEmitTables t = ok(cudaEmitTables(p));
  EXPECT_EQ(t.blocks, 2);
  EXPECT_EQ(t.smemBytes, 1024);
  EXPECT_EQ(t.store.thread.block, (std::vector<uint64_t>{0}));
  EXPECT_EQ(t.load.thread.block, (std::vector<uint64_t>{0}));
  // The self-check indices do depend on the block: row 16 = flat bit 4.
  EXPECT_EQ(t.srcIndexThread.block, (std::vector<uint64_t>{16}));
  EXPECT_NE(ok(emitCuda(p)).find("inline constexpr int lk_convert_blocks = 2;"),
            std::string::npos);
}

TEST(EmitCudaTables, Errors) {
  LinearLayout a =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 8});
  Plan p = ok(planConversion(a, a, 16));
  CudaEmitOptions bad;
  bad.functionName = "1convert";
  Expected<std::string> e = emitCuda(p, bad);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "CUDA function name '1convert' is not a C identifier");
  // The host main() launches the test kernel, so it brings it along.
  CudaEmitOptions noKernel;
  noKernel.testKernel = false;
  noKernel.hostMain = true;
  e = emitCuda(p, noKernel);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_NE(e->find("__global__ void lk_convert_test_kernel"),
            std::string::npos);
  EXPECT_NE(e->find("int main("), std::string::npos);
  CudaEmitOptions alone;
  alone.testKernel = false;
  e = emitCuda(p, alone);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(e->find("__global__"), std::string::npos);
  Plan wrong = p;
  wrong.strategy = Strategy::RegisterPermutation;
  wrong.registerSource = {0, 1, 2, 4}; // 4 registers: 0..3
  e = emitCuda(wrong);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "register source 4 out of range");
  Plan noSmem = p;
  noSmem.strategy = Strategy::SharedMemory;
  ASSERT_FALSE(emitCuda(noSmem));
  EXPECT_EQ(emitCuda(noSmem).error().message,
            "shared-memory plan without its step");
  // 16 lanes per warp cannot be emitted.
  LinearLayout half =
      ok(LinearLayout::identity1D(16, dims::kLane, dims::dim(0)));
  Plan h = ok(planConversion(half, half, 32));
  e = emitCuda(h);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "CUDA emission needs layouts of 32 lanes per "
                               "warp; the plan has 16");
}

//===----------------------------------------------------------------------===//
// Sweeps: every emitted table executes correctly
//===----------------------------------------------------------------------===//

/// The standard layouts of tests/support/PlanPairs.h less blocked-1, mmaV3 and
/// dotB (a smaller sweep: every width is emitted).
std::vector<std::shared_ptr<Encoding>> encodings(unsigned warps, int elemBits) {
  std::vector<std::shared_ptr<Encoding>> r;
  for (auto &[name, e] : bench::standardEncodings(warps, elemBits))
    if (name != "blocked-1" && name != "mmaV3" && name != "dotB")
      r.push_back(e);
  return r;
}

TEST(EmitCudaTables, StandardPairsAllWidths) {
  int plans = 0, shared = 0, shuffles = 0, stmatrix = 0, ldmatrix = 0;
  for (int bits : {8, 16, 32, 64})
    for (unsigned warps : {1u, 4u})
      for (std::vector<int64_t> shape :
           {std::vector<int64_t>{16, 32}, std::vector<int64_t>{64, 32}}) {
        auto encs = encodings(warps, bits);
        for (auto &ea : encs)
          for (auto &eb : encs) {
            Expected<LinearLayout> a = linear::toLinearLayout(*ea, shape);
            Expected<LinearLayout> b = linear::toLinearLayout(*eb, shape);
            if (!a || !b)
              continue;
            std::string what =
                a->str() + " -> " + b->str() + " f" + std::to_string(bits);
            Plan p = ok(planConversion(*a, *b, bits));
            checkEmission(p, what);
            ++plans;
            Plan sp = p.strategy == Strategy::SharedMemory
                          ? p
                          : ok(planSharedMemory(*a, *b, bits));
            if (p.strategy != Strategy::SharedMemory)
              checkEmission(sp, what + " (shared)");
            shared += p.strategy == Strategy::SharedMemory;
            if (Expected<Plan> sh = planWarpShuffle(*a, *b, bits)) {
              checkEmission(*sh, what + " (shuffle)");
              ++shuffles;
            }
            if (bits == 16) {
              // The default shared plan may use matrices; the vector-only
              // one emits too.
              stmatrix += sp.smem->store.matrixInstruction;
              ldmatrix += sp.smem->load.matrixInstruction;
              Plan vp = ok(planSharedMemory(*a, *b, bits, vectorOnly()));
              checkEmission(vp, what + " (vector only)");
            }
          }
      }
  EXPECT_GT(plans, 300);
  EXPECT_GT(shared, plans / 2);
  EXPECT_GT(shuffles, 50);
  EXPECT_GT(stmatrix, 10);
  EXPECT_GT(ldmatrix, 10);
  std::printf("%d plans (%d shared memory), %d shuffle plans, %d stmatrix "
              "and %d ldmatrix sides\n",
              plans, shared, shuffles, stmatrix, ldmatrix);
}

//===----------------------------------------------------------------------===//
// nvcc
//===----------------------------------------------------------------------===//

/// The first standard f16 pair (4 warps, 64x32) whose shared-memory plan
/// with matrix instructions uses stmatrix (wantStore) or ldmatrix.
Plan matrixPlan(bool wantStore) {
  PlanOptions o; // ldmatrix / stmatrix allowed by default
  auto encs = encodings(4, 16);
  for (auto &ea : encs)
    for (auto &eb : encs) {
      std::vector<int64_t> shape = {64, 32};
      Expected<LinearLayout> a = linear::toLinearLayout(*ea, shape);
      Expected<LinearLayout> b = linear::toLinearLayout(*eb, shape);
      if (!a || !b)
        continue;
      Plan p = ok(planSharedMemory(*a, *b, 16, o));
      if (wantStore ? p.smem->store.matrixInstruction
                    : p.smem->load.matrixInstruction)
        return p;
    }
  ADD_FAILURE() << "no " << (wantStore ? "stmatrix" : "ldmatrix") << " plan";
  LinearLayout a =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  return ok(planSharedMemory(a, a, 16));
}

struct EmissionCase {
  std::string name;
  Plan plan;
};

/// A plan of every strategy and width (15 plans).
std::vector<EmissionCase> emissionCases() {
  using Case = EmissionCase;
  std::vector<Case> cases;
  LinearLayout mmaLike =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout rowA =
      layoutOf(*blockedEnc({1, 4}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout colB =
      layoutOf(*blockedEnc({4, 1}, {4, 8}, {1, 1}, {0, 1}), {16, 16});
  LinearLayout vecA =
      layoutOf(*blockedEnc({1, 8}, {8, 4}, {4, 1}, {1, 0}), {64, 64});
  LinearLayout vecB =
      layoutOf(*blockedEnc({1, 8}, {16, 2}, {2, 2}, {1, 0}), {64, 64});
  cases.push_back({"noop_f16", ok(planConversion(mmaLike, mmaLike, 16))});
  cases.push_back(
      {"perm_f32",
       ok(planConversion(mmaLike, layoutOf(*mmaV2Enc({1, 1}), {16, 16}), 32))});
  cases.push_back({"smem_f8", ok(planSharedMemory(rowA, colB, 8))});
  cases.push_back(
      {"smem_f16_vec16", ok(planSharedMemory(vecA, vecB, 16, vectorOnly()))});
  cases.push_back({"smem_f32", ok(planSharedMemory(rowA, colB, 32))});
  cases.push_back({"smem_f64", ok(planSharedMemory(rowA, colB, 64))});
  // Common register bits c1 and r8: 4 x f16 = 8-byte vectors.
  cases.push_back(
      {"smem_f16_vec8",
       ok(planSharedMemory(rowA, layoutOf(*mmaV2Enc({1, 1}), {16, 16}), 16,
                           vectorOnly()))});
  cases.push_back({"stmatrix", matrixPlan(true)});
  cases.push_back({"ldmatrix", matrixPlan(false)});
  {
    PlanOptions small;
    small.smemBudgetBytes = 2048;
    cases.push_back(
        {"smem_iterations", ok(planSharedMemory(vecA, vecB, 16, small))});
  }
  cases.push_back({"shfl_f32", ok(planWarpShuffle(rowA, colB, 32))});
  cases.push_back({"shfl_f8", ok(planWarpShuffle(rowA, colB, 8))});
  cases.push_back({"shfl_f64", ok(planWarpShuffle(rowA, colB, 64))});
  {
    // Register bit 0 swapped with lane bit 0 (f16 16x16, 8 registers, no
    // common vector bit: 4 rounds): the rounds whose round bit is clear
    // (0 and 2) are lane-local (no __shfl_sync), the others shuffle.
    const int lane0 = mmaLike.inDimLog2(dims::kRegister);
    LinearLayout swapped = mmaLike;
    swapped.setColumn(0, mmaLike.column(lane0));
    swapped.setColumn(lane0, mmaLike.column(0));
    Plan p = ok(planWarpShuffle(mmaLike, swapped, 16));
    EXPECT_TRUE(p.rounds[0].laneLocal());
    EXPECT_FALSE(p.rounds[1].laneLocal());
    EXPECT_TRUE(p.rounds[2].laneLocal());
    EXPECT_FALSE(p.rounds[3].laneLocal());
    cases.push_back({"shfl_lane_local", std::move(p)});
    // Register bits 0 and 1 swapped: every round lane-local (a register
    // permutation, asked of the shuffle planner).
    LinearLayout regSwap = mmaLike;
    regSwap.setColumn(0, mmaLike.column(1));
    regSwap.setColumn(1, mmaLike.column(0));
    Plan q = ok(planWarpShuffle(mmaLike, regSwap, 16));
    for (const ShuffleRound &r : q.rounds)
      EXPECT_TRUE(r.laneLocal());
    EXPECT_EQ(q.cost.shuffles, 0);
    cases.push_back({"shfl_all_lane_local", std::move(q)});
  }
  return cases;
}

/// One translation unit holding a plan of every strategy and width.
std::string combinedUnit(std::vector<std::string> &names) {
  std::vector<EmissionCase> cases = emissionCases();
  std::string unit;
  for (size_t i = 0; i < cases.size(); ++i) {
    CudaEmitOptions o;
    o.functionName = "lk_" + cases[i].name;
    o.hostMain = i + 1 == cases.size();
    Expected<std::string> code = emitCuda(cases[i].plan, o);
    if (!code) {
      ADD_FAILURE() << cases[i].name << ": " << code.error().message;
      continue;
    }
    SimulationResult s = ok(simulate(cases[i].plan));
    EXPECT_TRUE(s.correct) << cases[i].name;
    names.push_back(o.functionName);
    unit += *code + "\n";
  }
  return unit;
}

TEST(EmitCudaNvcc, EveryStrategyCompilesForSm90aAndSm80) {
  std::string nvcc = findNvcc();
  if (nvcc.empty())
    GTEST_SKIP() << "nvcc not found (LK_NVCC, PATH, /usr/local/cuda/bin)";
  std::vector<std::string> names;
  std::string unit = combinedUnit(names);
  ASSERT_EQ(names.size(), 15u);
  // The strategies are all present.
  EXPECT_NE(unit.find("__shfl_sync("), std::string::npos);
  EXPECT_NE(unit.find("*reinterpret_cast<uint4 *>("), std::string::npos);
  EXPECT_NE(unit.find("*reinterpret_cast<uint2 *>("), std::string::npos);
  EXPECT_NE(unit.find("__syncthreads();"), std::string::npos);
  EXPECT_NE(unit.find("asm volatile(\"stmatrix.sync.aligned.m8n8.x"),
            std::string::npos);
  EXPECT_NE(unit.find("asm volatile(\"ldmatrix.sync.aligned.m8n8.x"),
            std::string::npos);
  // sm_80 has no stmatrix: the emitted store falls back to 2-byte stores.
  EXPECT_NE(unit.find("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900"),
            std::string::npos);
  for (const char *arch : {"sm_90a", "sm_80"})
    expectCompiles(nvcc, unit, "all", arch);
}

TEST(EmitCudaNvcc, HostMainLinks) {
  std::string nvcc = findNvcc();
  if (nvcc.empty())
    GTEST_SKIP() << "nvcc not found (LK_NVCC, PATH, /usr/local/cuda/bin)";
  LinearLayout a =
      layoutOf(*blockedEnc({1, 8}, {8, 4}, {4, 1}, {1, 0}), {64, 64});
  LinearLayout b =
      layoutOf(*blockedEnc({1, 8}, {16, 2}, {2, 2}, {1, 0}), {64, 64});
  CudaEmitOptions o;
  o.hostMain = true;
  std::string code = ok(emitCuda(ok(planConversion(a, b, 16)), o));
  EXPECT_NE(code.find("int main()"), std::string::npos);
  // A full build (compile and link against the CUDA runtime).
  expectCompiles(nvcc, code, "main", "sm_90a", "");
}

// The host main() checks every CUDA call and every launch
// (hostMainErrorHandling, NvccTestSupport.h): a kernel that cannot launch,
// say with more dynamic shared memory than a block may have, prints
// "FAIL: NAME: test kernel: <CUDA error>" instead of PASS with a counter
// never written. The checker itself flags a main without those checks (in
// line order: the launch's two problems, then the unchecked call).
TEST(EmitCudaTables, HostMainChecksEveryLaunchAndCall) {
  for (const EmissionCase &c : emissionCases()) {
    CudaEmitOptions o;
    o.functionName = "lk_" + c.name;
    o.hostMain = true;
    const std::string code = ok(emitCuda(c.plan, o));
    EXPECT_EQ(hostMainErrorHandling(code), "") << c.name;
    EXPECT_NE(code.find("std::printf(\"FAIL: lk_" + c.name +
                        ": %s: %s\\n\", what, cudaGetErrorString(err));"),
              std::string::npos);
    const std::string last = "  err = cudaGetLastError();\n";
    std::string unchecked = code;
    unchecked.erase(unchecked.rfind(last), last.size());
    EXPECT_NE(hostMainErrorHandling(unchecked), "") << c.name;
  }
  const std::string bare = "int main() {\n  k<<<1, 32>>>(p);\n"
                           "  cudaDeviceSynchronize();\n}\n";
  EXPECT_EQ(hostMainErrorHandling(bare),
            "no cudaGetLastError after:   k<<<1, 32>>>(p);\n"
            "no synchronize and check after:   k<<<1, 32>>>(p);\n"
            "unchecked:   cudaDeviceSynchronize();\n"
            "expected 3 launches (test, warm-up, timing), found 1\n");
}

// Where a GPU is reachable: every plan of emissionCases (each strategy and
// width) built with its host main for the GPU at hand (-arch=native) and
// run (LK_GPU_ARCH=sm_XX builds for that architecture instead). The test
// kernel converts a tensor whose every element is distinct
// and counts destination registers that do not hold the element the
// destination layout names; main prints "PASS: <name>: <GB/s> ..." when
// there are none, "FAIL: ..." otherwise. The throughput lines are printed
// for docs/performance.md.
TEST(EmitCudaGpu, TestKernelsPassOnTheGpu) {
  std::string nvcc;
  if (std::string why = gpuSkipReason(nvcc); !why.empty())
    GTEST_SKIP() << why;
  std::vector<GpuUnit> units;
  for (const EmissionCase &c : emissionCases()) {
    CudaEmitOptions o;
    o.functionName = "lk_" + c.name;
    o.hostMain = true;
    units.push_back({o.functionName, ok(emitCuda(c.plan, o))});
  }
  expectGpuRuns(nvcc, units, /*pass=*/true);
}

/// The naive plan of `p`'s conversion, the baseline of
/// bench/PlanCostTable.cpp: the whole tensor stored to an unswizzled
/// row-major buffer (the last dim fastest) and loaded back, one element per
/// access.
Plan naivePlan(const Plan &p) {
  std::vector<unsigned> extents, order;
  for (const linear::OutDim &d : p.layouts.src.outDims())
    extents.push_back(unsigned(d.size));
  for (size_t i = extents.size(); i-- > 0;)
    order.push_back(unsigned(i));
  const LinearLayout rowMajor =
      ok(linear::identityStandardND(dims::kOffset, extents, order));
  return ok(planSharedMemoryWith(p.layouts.src, p.layouts.dst, p.elementBits,
                                 rowMajor, {}));
}

/// The emission cases that move data between threads (shared memory or
/// shuffles), with their naive plans, named lk_naive_<case>.
std::vector<EmissionCase> naiveCases() {
  std::vector<EmissionCase> out;
  for (const EmissionCase &c : emissionCases())
    if (c.plan.strategy == Strategy::SharedMemory ||
        (c.plan.strategy == Strategy::WarpShuffle && c.plan.cost.shuffles > 0))
      out.push_back({"naive_" + c.name, naivePlan(c.plan)});
  return out;
}

// The naive plans are correct (simulated) and cost at least what the
// planned ones do in wavefronts: the baseline the GPU figures compare with.
TEST(EmitCudaTables, NaivePlansAreCorrectBaselines) {
  const std::vector<EmissionCase> naive = naiveCases();
  ASSERT_EQ(naive.size(), 12u);
  for (const EmissionCase &c : naive) {
    EXPECT_EQ(c.plan.strategy, Strategy::SharedMemory) << c.name;
    EXPECT_TRUE(ok(simulate(c.plan)).correct) << c.name;
    EXPECT_EQ(runTables(c.plan, ok(cudaEmitTables(c.plan))).mismatches, 0)
        << c.name;
  }
}

// Where a GPU is reachable: the naive plans of the same conversions, run
// the same way, for docs/performance.md's "planned against naive" figures.
TEST(EmitCudaGpu, NaivePlansPassOnTheGpu) {
  std::string nvcc;
  if (std::string why = gpuSkipReason(nvcc); !why.empty())
    GTEST_SKIP() << why;
  std::vector<GpuUnit> units;
  for (const EmissionCase &c : naiveCases()) {
    CudaEmitOptions o;
    o.functionName = "lk_" + c.name;
    o.hostMain = true;
    units.push_back({o.functionName, ok(emitCuda(c.plan, o))});
  }
  expectGpuRuns(nvcc, units, /*pass=*/true);
}

/// shfl_f32 of emissionCases with lane 0 of its first shuffling round
/// sending the register after the right one: the emitter accepts it, and
/// the lane that reads lane 0 receives a wrong element.
Plan brokenShufflePlan() {
  Plan p = emissionCases()[10].plan;
  EXPECT_EQ(p.strategy, Strategy::WarpShuffle);
  for (ShuffleRound &r : p.rounds)
    if (!r.laneLocal()) {
      r.sendRegisters[0][0] ^= 1;
      break;
    }
  return p;
}

// The corruption of brokenShufflePlan really moves wrong data: the host
// run of its tables counts mismatches (the intact plan counts none), so
// EmitCudaGpu.BrokenPlanFails must see FAIL.
TEST(EmitCudaTables, BrokenShufflePlanMismatchesOnTheHost) {
  ASSERT_EQ(emissionCases()[10].name, "shfl_f32");
  const Plan good = emissionCases()[10].plan;
  EXPECT_EQ(runTables(good, ok(cudaEmitTables(good))).mismatches, 0);
  const Plan bad = brokenShufflePlan();
  EXPECT_GT(runTables(bad, ok(cudaEmitTables(bad))).mismatches, 0);
  EXPECT_TRUE(emitCuda(bad));
}

// The negative GPU test: the broken plan's program must print
// "FAIL: lk_broken_shfl: <n> mismatched registers" and exit non-zero, so a
// test kernel that never counted would not go unnoticed.
TEST(EmitCudaGpu, BrokenPlanFails) {
  std::string nvcc;
  if (std::string why = gpuSkipReason(nvcc); !why.empty())
    GTEST_SKIP() << why;
  CudaEmitOptions o;
  o.functionName = "lk_broken_shfl";
  o.hostMain = true;
  expectGpuRuns(nvcc, {{o.functionName, ok(emitCuda(brokenShufflePlan(), o))}},
                /*pass=*/false);
}

} // namespace
} // namespace lk::plan
