//===- EmitGather.h - CUDA C++ for a gather plan -----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns a plan::GatherPlan (Gather.h) into CUDA C++: one device function
/// that performs the gather, with the same conventions as the conversion
/// emitter (EmitCuda.h).
///
/// ## The emitted contract
///
///     inline constexpr int NAME_src_regs, NAME_out_regs; // per thread
///     inline constexpr int NAME_warps, NAME_blocks;      // per CTA, CTAs
///     inline constexpr int NAME_smem_bytes;              // 0: no buffer
///     __device__ void NAME(const T (&src)[NAME_src_regs],
///                          const int32_t (&index)[NAME_out_regs],
///                          T (&out)[NAME_out_regs], void *smem);
///
/// T is the raw-bit type of the element (uint8_t .. uint64_t); lane =
/// threadIdx.x % 32, warp = threadIdx.x / 32, block = blockIdx.x; every
/// thread of the CTA calls it (the shuffles use the full mask). index[r]
/// is the index tensor's value at output register r, in [0, size of the
/// source axis).
///
/// ## Formulas (all constants from planning time)
///
/// ThreadLocal / WarpShuffle, output register r with runtime index v
/// (equation (1) of Gather.h), XOR over the set bits:
///     reg(r)  = base[r].reg  ^ XOR_i v_i fromIndex[i].reg
///                            ^ XOR_j lane_j fromLane[j].reg
///                            ^ XOR_k group_k fromWarp[k].reg
///     lane(r) = the same with .lane
/// group = warp bits, then block bits. Then per round t (send register s
/// = steps[r].sendRegisters[t]): x = __shfl_sync(~0u, src[s], lane(r))
/// (ThreadLocal: x = src[s]); out[r] = x when reg(r) == s.
///
/// SharedMemory (one CTA): src register r of (lane, warp) is stored at
/// byte storeBytes[r] ^ storeThread(lane, warp) of a row-major buffer of the
/// source tensor unless r, lane or warp only holds duplicates (a set bit of
/// storeIdleRegisters / Lanes / Warps); __syncthreads(); out[r] is loaded
/// from byte loadBytes[r] ^ loadThread(lane, warp) ^ v * axisStrideBytes.
/// The row-major position is linear in the hardware bits because every dim
/// is a power of two, so the XOR forms are exact.
///
/// Errors: lanes per warp other than 32, a function name that is not a C
/// identifier, a plan whose tables do not match its layouts.
///
/// Example (Gather.h's hand-derived f32 8x8 plan, axis 1): per output
/// register r, `reg = r ^ (v & 1)`, `sl = (lane & 0x1c) | (v >> 1 & 3)` in
/// XOR form, then two rounds: shuffle src[0] and src[1] from lane sl,
/// keeping the one whose register equals reg.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_EMITGATHER_H
#define LAYOUTKIT_PLAN_EMITGATHER_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/plan/Gather.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lk::plan {

/// Every number the gather emitter prints (see the file comment). Tests
/// execute them on the host exactly as the emitted code does.
struct CudaGatherTables {
  GatherStrategy strategy = GatherStrategy::SharedMemory;
  int64_t warps = 0, blocks = 0;
  int64_t srcRegisters = 0, outRegisters = 0;
  int64_t elementBytes = 0;
  /// ThreadLocal / WarpShuffle: the plan's addressing and rounds, with
  /// fromWarp split into warp and block terms.
  std::vector<SourceLocation> fromIndex, fromLane, fromWarp, fromBlock;
  std::vector<GatherRegisterSteps> steps;
  /// SharedMemory.
  int64_t smemBytes = 0;
  std::vector<uint64_t> storeBytes, loadBytes;
  CudaThreadTerm storeThread, loadThread;
  uint64_t storeIdleRegisters = 0, storeIdleLanes = 0, storeIdleWarps = 0;
  uint64_t axisStrideBytes = 0;
};

/// The tables of `plan`. Fails on lanes per warp other than 32 and on a
/// plan whose addressing does not match its layouts.
Expected<CudaGatherTables> cudaGatherTables(const GatherPlan &plan);

struct CudaGatherEmitOptions {
  std::string functionName = "lk_gather";
};

/// The CUDA C++ translation unit (<cstdint> and <cuda_runtime.h> only)
/// for `plan`: the constants and the device function of the file comment.
Expected<std::string> emitGatherCuda(const GatherPlan &plan,
                                     const CudaGatherEmitOptions &options = {});

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_EMITGATHER_H
