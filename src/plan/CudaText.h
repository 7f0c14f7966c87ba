//===- CudaText.h - Text helpers of the CUDA emitters ------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The pieces of CUDA C++ text that the conversion emitter (EmitCuda.cpp)
// and the gather emitter (EmitGather.cpp) both print: identifiers, hex
// constants, raw-bit element types, thread terms, the number of self-check
// passes and the host main() (CudaText.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_CUDATEXT_H
#define LAYOUTKIT_SRC_PLAN_CUDATEXT_H

#include "layoutkit/plan/EmitCuda.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace lk::plan::cudatext {

/// A C identifier of at most 200 characters: [A-Za-z_][A-Za-z0-9_]*.
inline bool isIdentifier(const std::string &s) {
  if (s.empty() || s.size() > 200)
    return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!alpha && !(digit && i > 0))
      return false;
  }
  return true;
}

/// `0x1fu` (wide: `0x1full`).
inline std::string hex(uint64_t v, bool wide) {
  char buf[32];
  std::snprintf(buf, sizeof buf, wide ? "0x%llxull" : "0x%llxu",
                static_cast<unsigned long long>(v));
  return buf;
}

/// The raw-bit type of an element of `bytes` bytes: uint8_t .. uint64_t.
inline const char *elementType(int64_t bytes) {
  switch (bytes) {
  case 1:
    return "uint8_t";
  case 2:
    return "uint16_t";
  case 4:
    return "uint32_t";
  default:
    return "uint64_t";
  }
}

/// Emits `VAR ^= ...` for every non-zero column of a thread term.
inline void emitThreadTerm(std::string &o, const std::string &indent,
                           const std::string &var, const CudaThreadTerm &t,
                           bool wide) {
  o += indent + (wide ? "uint64_t " : "uint32_t ") + var + " = 0" +
       (wide ? "ull" : "u") + ";\n";
  auto part = [&](const char *id, const std::vector<uint64_t> &cols) {
    for (size_t j = 0; j < cols.size(); ++j)
      if (cols[j])
        o += indent + var + " ^= (" + id + " & " +
             hex(uint64_t(1) << j, false) + ") ? " + hex(cols[j], wide) +
             " : 0" + (wide ? "ull" : "u") + ";\n";
  };
  part("lane", t.lane);
  part("warp", t.warp);
  part("block", t.block);
}

/// Self-check passes for ids below 2^idBits carried as (id + 1) in
/// elements of `elementBytes`: pass p carries bits [p * w, (p + 1) * w) of
/// (id + 1), w = 8 * elementBytes, so two different ids differ in some pass.
/// Example: f8 and 2048 elements (idBits 11): 2 passes.
inline int selfCheckPasses(int idBits, int64_t elementBytes) {
  const int w = int(elementBytes * 8);
  return (idBits + 1 + w - 1) / w;
}

/// The test kernels' poison: before pass `pass` every byte of the dynamic
/// shared buffer NAME_smem (NAME_smem_bytes long) becomes 0xa5 ^ pass, then
/// __syncthreads(), so a slot the plan fails to store reads a value that
/// differs from the previous pass's instead of that value. Nothing when
/// `smemBytes` is 0.
inline void emitSmemPoison(std::string &o, const std::string &name,
                           int64_t smemBytes) {
  if (smemBytes == 0)
    return;
  o += "    for (int i = int(threadIdx.x); i < " + name +
       "_smem_bytes; i += int(blockDim.x))\n";
  o += "      " + name + "_smem[i] = (unsigned char)(0xa5 ^ pass);\n";
  o += "    __syncthreads();\n";
}

/// The opening of both emitters' NAME_test_kernel(mismatches): the
/// signature, the dynamic shared buffer NAME_smem, and the lane, warp and
/// block of the thread.
void emitTestKernelHead(std::string &o, const std::string &name);

/// The close of a test kernel after its pass loop: the thread's `bad`
/// count added to *mismatches when non-zero.
void emitTestKernelTail(std::string &o);

/// The timing loop and epilogue of both emitters' NAME_bench_kernel:
/// `iterations` times `call;` then __syncthreads(), each result folded
/// back into the source (src[r] ^= OUT[r % OUT_REGS], so no iteration can
/// be dropped), and the source hashed into *sink when it equals a value
/// it never takes in practice (so the loop is live). Example: for the
/// conversion, call "NAME(src, dst, NAME_smem)", out "dst", outRegs
/// "NAME_dst_regs".
void emitBenchLoop(std::string &o, const std::string &name,
                   const std::string &call, const std::string &out,
                   const std::string &outRegs);

/// The host main() of both emitters, after a helper NAME_cuda_ok: launches
/// NAME_test_kernel(counter) on NAME_blocks CTAs of 32 * NAME_warps threads
/// with NAME_smem_bytes of dynamic shared memory (raising the limit over
/// 48 KiB). Every CUDA call's result is checked, and every launch is
/// followed by `err = cudaGetLastError()` and cudaDeviceSynchronize, so a
/// kernel that cannot launch (say, more shared memory than a block may
/// have) fails instead of leaving the counter 0. It prints
/// "FAIL: NAME: <what>: <CUDA error>" on an error (what: cudaMalloc,
/// test kernel, ...) and "FAIL: NAME: <count> mismatched registers" on a
/// mismatch, returning 1; then it times NAME_bench_kernel(iterations,
/// sink) over `replicas` x NAME_blocks CTAs x 1000 iterations and prints
/// "PASS: NAME: <GB/s> GB/s (<replicas> x 1000 <noun> of <bytes> B in <ms>
/// ms)", GB/s counting `bytes` per iteration per replica. replicas =
/// ceil(4 x SMs x CTAs an SM holds at once (the occupancy API) /
/// NAME_blocks): four full waves, so the figure is a full GPU's throughput.
void emitHostMain(std::string &o, const std::string &name, int64_t bytes,
                  const std::string &noun);

} // namespace lk::plan::cudatext

#endif // LAYOUTKIT_SRC_PLAN_CUDATEXT_H
