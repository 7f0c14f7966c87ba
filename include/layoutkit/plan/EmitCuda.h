//===- EmitCuda.h - CUDA C++ for a conversion plan ---------------*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns a plan::Plan into one self-contained CUDA C++ translation unit
/// (only <cstdint>, <cstdio>, <cuda_runtime.h>): a device function that
/// performs the conversion, and optionally a self-checking test kernel and a
/// host main() that runs it.
///
/// ## The emitted contract
///
///     inline constexpr int NAME_src_regs, NAME_dst_regs; // per thread
///     inline constexpr int NAME_warps, NAME_blocks;  // warps per CTA, CTAs
///     inline constexpr int NAME_smem_bytes;          // 0: register plans
///     __device__ void NAME(const T (&src)[NAME_src_regs],
///                          T (&dst)[NAME_dst_regs], void *smem);
///
/// T is the raw-bit type of plan.elementBits (uint8_t, uint16_t, uint32_t,
/// uint64_t). The function is called by every thread of a one-dimensional
/// CTA of 32 * NAME_warps threads: lane = threadIdx.x % 32, warp =
/// threadIdx.x / 32, block = blockIdx.x. `smem` points to NAME_smem_bytes
/// bytes of 16-byte aligned shared memory (unused when 0); the caller must
/// place a __syncthreads() between two calls that share the buffer.
///
/// ## Constants from planning time
///
/// Every layout here is linear over F2, so the value at a thread is the XOR
/// of per-bit constants: the shared-memory byte offset of register r of
/// (lane l, warp w) is
///     offset(r, l, w) = R[r] ^ (XOR_{j : l_j = 1} Lane[j])
///                            ^ (XOR_{k : w_k = 1} Warp[k])
/// with R[r] = M^-1(A(r, 0, 0)) * elementBytes and Lane[j] (Warp[k]) the
/// image of lane (warp) bit j (k) (M the plan's memory layout, A the source
/// for stores, the destination for loads). The emitted code computes the
/// lane/warp part once from the bits of threadIdx.x and XORs the constant
/// R[r] into it per access. Logical element indices for the self-check are
/// built the same way from the columns of plan.layouts.
///
/// Strategies: NoOp (copies), RegisterPermutation (dst[r] = src[registerSource
/// [r]]), SharedMemory (vector stores of accessBytes as uint8_t..uint4 or
/// stmatrix inline PTX, __syncthreads(), vector loads or ldmatrix, per
/// iteration through a smaller buffer, then duplicate-register copies;
/// lanes and warps that only hold duplicates do not st.shared; below sm_90
/// a stmatrix store is emitted as 2-byte stores), WarpShuffle (per round a
/// select of the register each lane sends, __shfl_sync of the packed
/// 32-bit words, a select of the register each lane receives; a lane-local
/// round, ShuffleRound::laneLocal, has no __shfl_sync and no packing). Errors:
/// lanes per warp other than 32, a function name that is not a C
/// identifier, a malformed plan (the checks
/// of the simulator).
///
/// ## Masked plans (non-power-of-two shapes)
///
/// A plan over padded layouts (PaddedPlan.h) is emitted masked: element
/// index y (the flat logical index of the padded shape) is valid when
///     ((y >> shift_d) & (2^log2_d - 1)) < extent_d on every padded dim d,
/// which the emitted `NAME_valid(y)` tests. Each thread computes once per
/// register whether it holds a valid element (sv[r] for src, dv[r] for
/// dst) and then follows the masked simulation (Simulator.h,
/// SimulationMask): a src register of padding is never read (a shuffle
/// sends 0 for it), a dst register of padding is never written, and a
/// shared-memory slot is written or read only for a valid element. A
/// vector access whose elements are all valid stays one vector access;
/// one with only some valid becomes one scalar access per valid element
/// (the simulator counts it once, as a partial vector); a lane with none
/// valid does not access. Masked plans use no ldmatrix / stmatrix, which
/// move whole rows (planPaddedConversion plans them without).
///
/// Example (tests/plan/EmitCudaMaskedTest.cpp, Blocked48SharedMemory): f32
/// over [48] padded to 64, register r of lane l holding 2l + r: NAME_valid(y)
/// is ((y >> 0) & 0x3f) < 0x30; lanes 24..31 hold only padding, so sv[0]
/// and sv[1] are false there and those lanes store nothing.
///
/// Example (f16, one warp, NoOp with 2 registers), body of `lk_convert`:
///     (void)smem;
///     dst[0] = src[0];
///     dst[1] = src[1];
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_EMITCUDA_H
#define LAYOUTKIT_PLAN_EMITCUDA_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/plan/PaddedPlan.h"
#include "layoutkit/plan/Plan.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lk::plan {

struct CudaEmitOptions {
  std::string functionName = "lk_convert";
  bool testKernel = true; ///< also emit the self-checking __global__ kernel
  bool hostMain = false;  ///< also emit a host main() that launches the test
                          ///< kernel (emitted with it, whatever
                          ///< testKernel says), prints PASS/FAIL and the
                          ///< achieved bandwidth
};

/// The thread-dependent part of a value that is linear in (lane, warp,
/// block): value(l, w, b) = XOR of lane[j] for the set bits j of l, warp[k]
/// for the set bits of w, block[i] for the set bits of b.
/// Example: lane = {4, 8}, warp = {} gives 0, 4, 8, 12 for lanes 0..3.
struct CudaThreadTerm {
  std::vector<uint64_t> lane, warp, block;
  uint64_t at(int64_t l, int64_t w, int64_t b = 0) const;
};

/// One warp-wide shared-memory instruction of a thread, as emitted.
///  * Vector side (st.shared / ld.shared of accessBytes): vector element j
///    is register registers[j] (of src for the store, dst for the load) at
///    byte (registerBytes ^ thread term) + j * elementBytes.
///  * Matrix side (stmatrix / ldmatrix .m8n8.x<count>[.trans].b16): the
///    thread supplies row address registerBytes ^ thread term; its 32-bit
///    register j packs registers[2j] (low half) and registers[2j + 1] (high
///    half).
/// `iteration` is the access's iteration in warp 0; in warp w it is
/// iteration ^ (XOR of warpIteration[k] over the set bits k of w).
struct CudaSharedAccess {
  std::vector<int64_t> registers;
  uint64_t registerBytes = 0;
  int64_t iteration = 0;
};

/// One side (store or load) of the shared-memory step.
struct CudaSharedSide {
  /// 0: vector accesses of accessBytes; 1, 2, 4: matrix instructions.
  int64_t matrixCount = 0;
  bool trans = false;
  int64_t accessBytes = 0;
  CudaThreadTerm thread; ///< byte offsets (row addresses for matrices)
  /// Iteration term of warp w: XOR of warpIteration[k] over its set bits k.
  std::vector<uint64_t> warpIteration;
  std::vector<CudaSharedAccess> accesses;
};

/// The register that the lanes of `lanes` (bit l = lane l) use.
struct CudaLaneChoice {
  int64_t reg = 0;
  uint32_t lanes = 0;
};

/// One shuffle round of a WarpShuffle plan as emitted. Per vector element
/// j, send[j] partitions the 32 lanes by the src register they offer; the
/// elements are packed
/// little-endian into wordsPerVector 32-bit words, each word shuffled from
/// lane srcLane[l], unpacked, and element j is written to the dst register
/// of receive[j] whose mask holds the lane. srcLane is computed from the
/// lane id when affine: srcLane[l] = srcLane[0] ^ XOR_{k : l_k = 1}
/// srcLaneXor[k]; otherwise read from a per-lane table.
///
/// Selects: when, over every round and element, lane l's register is lane
/// 0's XOR a linear function of l (sigma for the send side, rho for the
/// receive side: the planner's form), the unmasked emission permutes the
/// source row once before the rounds (row[r] = src[r ^ sigma(l)], one
/// conditional swap of register pairs per non-zero sigma column: d_s x
/// registers selects) and the received row once after them, and each round
/// reads and writes fixed registers: the (d_s + d_r) selects per word of
/// Plan.h's cost. Otherwise (and in masked plans) each round selects its
/// register per lane: a chain over the k registers sent (k - 1 selects) and
/// k conditional writes on the receive side.
struct CudaShuffle {
  /// Every lane reads itself (ShuffleRound::laneLocal): no __shfl_sync,
  /// the sent elements are the received ones.
  bool laneLocal = false;
  std::vector<int64_t> srcLane;
  bool srcLaneAffine = false;
  std::vector<uint64_t> srcLaneXor;
  std::vector<std::vector<CudaLaneChoice>> send, receive;
};

/// One padded out-dim of a masked emission: element index y is valid on it
/// when ((y >> shift) & (2^log2 - 1)) < extent.
/// Example: [48] padded to 64: shift 0, log2 6, extent 48.
struct CudaDimBound {
  int shift = 0, log2 = 0;
  int64_t extent = 0;
};

/// Every number the emitter writes, computed at planning time. The emitter
/// prints exactly these; tests execute them on the host and compare with
/// plan::simulate.
struct CudaEmitTables {
  int64_t lanes = 0, warps = 0, blocks = 0;
  int64_t srcRegisters = 0, dstRegisters = 0;
  int64_t elementBytes = 0;
  int logicalBits = 0; ///< log2 of the number of tensor elements
  /// NoOp / RegisterPermutation: dst[r] = src[registerSource[r]].
  std::vector<int64_t> registerSource;
  /// SharedMemory: buffer bytes per CTA, iterations through it, the sides.
  int64_t smemBytes = 0, iterations = 1;
  CudaSharedSide store, load;
  /// With a stmatrix store: the same store as 2-byte scalar st.shared
  /// (emitted for targets below sm_90, which lack stmatrix).
  std::optional<CudaSharedSide> storeFallback;
  /// A lane (warp) with any of these bits set only holds duplicates and does
  /// not store.
  uint64_t storeIdleLanes = 0, storeIdleWarps = 0;
  /// After the loads (SharedMemory) or rounds (WarpShuffle):
  /// dst[first] = dst[second].
  std::vector<std::pair<int64_t, int64_t>> registerCopies;
  /// WarpShuffle.
  int64_t vectorElements = 1, wordsPerVector = 1;
  std::vector<CudaShuffle> shuffles;
  /// Self-check: logical index of (r, l, w, b) = index[r] ^ thread term.
  std::vector<uint64_t> srcIndex, dstIndex;
  CudaThreadTerm srcIndexThread, dstIndexThread;
  /// Masked emission: the padded out-dims (extent below the padded size);
  /// empty when every element is valid. An element index y is valid when
  /// it is within every bound.
  std::vector<CudaDimBound> bounds;
  bool masked() const { return !bounds.empty(); }
  bool valid(uint64_t y) const;
};

/// The tables of `plan` (validated as by the simulator). Fails on lanes per
/// warp other than 32, on a plan whose fields do not fit its strategy, and
/// on plan features the emitter does not handle.
Expected<CudaEmitTables> cudaEmitTables(const Plan &plan);

/// The tables of `plan` masked by the logical shape `logical` (one extent
/// per out-dim, each out-dim's size the next power of two of its extent,
/// as linear::PaddedLayout::make requires of both layouts): bounds holds
/// the dims whose extent is below their padded size, so a logical shape
/// equal to the padded shape gives the unmasked tables. Fails as above,
/// with make's diagnostic on a logical shape that does not fit the plan's
/// layouts, and on a masked plan with ldmatrix or stmatrix (they move
/// whole rows, padding included).
Expected<CudaEmitTables> cudaEmitTables(const Plan &plan,
                                        std::span<const int64_t> logical);

/// The CUDA C++ translation unit for `plan` (see the file comment). The
/// test kernel `NAME_test_kernel(unsigned long long *mismatches)` fills each
/// src register with (logical index + 1) of plan.layouts.src, calls NAME and
/// adds the number of dst registers that differ from (logical index + 1) of
/// plan.layouts.dst to *mismatches. Elements narrower than the index are
/// checked in ceil((logicalBits + 1) / elementBits) passes, pass p moving
/// bits [p * elementBits, (p + 1) * elementBits) of (index + 1), so every
/// misplaced element is caught. Before each pass every byte of the shared
/// buffer becomes 0xa5 ^ pass (then __syncthreads()), so a slot the plan
/// fails to store reads garbage, not the previous pass's value; nothing
/// when NAME_smem_bytes is 0. Launch: NAME_blocks CTAs of 32 * NAME_warps
/// threads with NAME_smem_bytes of dynamic shared memory.
/// The host main checks every CUDA call and launch (CudaText.h), also times
/// NAME_bench_kernel (the conversion repeated in a loop) and prints
/// PASS/FAIL and tensor bytes converted per second.
Expected<std::string> emitCuda(const Plan &plan,
                               const CudaEmitOptions &options = {});

/// The masked translation unit of a padded plan (see "Masked plans" above):
/// the device function predicated on NAME_valid, and a test kernel that
/// fills src registers of padding with a poison value (all bits set),
/// fills every dst register with a marker (0x5a in every byte, ^ pass)
/// before the call, and counts a valid dst register that does not hold its
/// element and a dst register of padding that no longer holds the marker.
/// Same contract and failures as emitCuda(plan), and those of
/// cudaEmitTables(plan, logical).
Expected<std::string> emitCuda(const PaddedPlan &plan,
                               const CudaEmitOptions &options = {});

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_EMITCUDA_H
