//===- EmitGather.h - CUDA C++ for a gather plan -----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns a plan::GatherPlan (Gather.h) into CUDA C++: one device function
/// that performs the gather, with the same conventions as the conversion
/// emitter (EmitCuda.h), and optionally a self-checking test kernel and a
/// host main() that runs it (emitGatherCuda).
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
  /// The test kernel's element ids (row-major positions, dim0 slowest), as
  /// per-register constant ^ thread term (linear: every dim is a power of
  /// two). srcId[r]: source register r, in the source tensor; outId[r]:
  /// output register r, in the output (index) tensor; wantId[r]: output
  /// register r with its axis coordinate cleared, in the source tensor, so
  /// the element out[r] must hold for index value v is
  ///     wantId[r] ^ wantIdThread ^ v * axisStride.
  std::vector<uint64_t> srcId, outId, wantId;
  CudaThreadTerm srcIdThread, outIdThread, wantIdThread;
  /// Size of the source axis; row-major stride of its coordinate (elements).
  uint64_t axisSize = 0, axisStride = 0;
  /// log2 of the number of elements of the source / output tensor.
  int srcIdBits = 0, outIdBits = 0;
};

/// The tables of `plan`. Fails on lanes per warp other than 32 and on a
/// plan whose addressing does not match its layouts.
Expected<CudaGatherTables> cudaGatherTables(const GatherPlan &plan);

/// The index value the test kernel gives the output element of row-major
/// id `outId`: a deterministic pseudo-random value in [0, axisSize).
/// h = uint32(outId) * 0x9e3779b1, h ^= h >> 16, h *= 0x85ebca6b,
/// h ^= h >> 13, result h & (axisSize - 1). The emitted NAME_test_index
/// computes the same. Precondition: axisSize is a non-zero power of two at
/// most 2^32 (every axis of a layout is); the mask is then exact. Other
/// values are not checked: 0 masks with all ones, and a non-power of two
/// masks with a value whose set bits can exceed axisSize - 1. Example:
/// outId 0 gives 0 for any axis size. Elements the index layout holds more
/// than once get one value.
uint32_t gatherTestIndex(uint64_t outId, uint64_t axisSize);

struct CudaGatherEmitOptions {
  std::string functionName = "lk_gather";
  /// Also emit NAME_test_index and the self-checking NAME_test_kernel
  /// (off by default: the unit is the device function alone).
  bool testKernel = false;
  /// Also emit NAME_bench_kernel and a host main() that runs the test
  /// kernel (emitted with it, whatever testKernel says), prints PASS with
  /// GB/s or FAIL.
  bool hostMain = false;
};

/// The CUDA C++ translation unit for `plan` (<cstdint>, <cuda_runtime.h>,
/// and <cstdio> with hostMain): the constants and the device function of
/// the file comment, then the options' kernels.
///
/// Test kernel `NAME_test_kernel(unsigned long long *mismatches)`: every
/// thread gives src register r (id + 1) of its element (srcId), index
/// register r the value gatherTestIndex(outId of r), and adds to
/// *mismatches the output registers that do not hold (id + 1) of
/// src[x with x_axis := index[x]] (wantId). Elements narrower than the ids
/// are checked in selfCheckPasses passes, pass p carrying bits
/// [p * elementBits, (p + 1) * elementBits) of (id + 1) with the same index
/// values: the plan reads the same locations in every pass, so a register
/// holding a wrong element differs from the wanted one in some pass. Each
/// output register starts a pass as the complement of what it must become,
/// so one the gather never writes is counted too, and (SharedMemory) every
/// byte of the buffer becomes 0xa5 ^ p before pass p, so a slot never
/// stored reads garbage, not the previous pass's value. Launch: NAME_blocks
/// CTAs of 32 * NAME_warps threads with NAME_smem_bytes of dynamic shared
/// memory. The host main (CudaText.h) checks every CUDA call and launch and
/// counts the output tensor's bytes per gather.
///
/// Errors: a function name that is not a C identifier, a test kernel (or
/// a host main) for an output tensor of more than 2^32
/// elements (the hash takes 32-bit ids), and those of cudaGatherTables.
Expected<std::string> emitGatherCuda(const GatherPlan &plan,
                                     const CudaGatherEmitOptions &options = {});

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_EMITGATHER_H
