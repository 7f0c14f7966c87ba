//===- CudaText.cpp - Text shared by the CUDA emitters --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The host main() that both emitters print after their test and timing
// kernels (see CudaText.h).
//
//===----------------------------------------------------------------------===//

#include "CudaText.h"

namespace lk::plan::cudatext {
namespace {

/// NAME_cuda_ok(err, what): prints "FAIL: NAME: <what>: <CUDA error>" and
/// returns false when err is not cudaSuccess.
void emitOkHelper(std::string &o, const std::string &name) {
  o +=
      "static bool " + name + "_cuda_ok(cudaError_t err, const char *what) {\n";
  o += "  if (err == cudaSuccess)\n    return true;\n";
  o += "  std::printf(\"FAIL: " + name +
       ": %s: %s\\n\", what, cudaGetErrorString(err));\n";
  o += "  return false;\n}\n\n";
}

/// `if (!NAME_cuda_ok(CALL, "WHAT")) return 1;` at `indent`.
void emitChecked(std::string &o, const std::string &name,
                 const std::string &indent, const std::string &call,
                 const std::string &what) {
  o += indent + "if (!" + name + "_cuda_ok(" + call + ", \"" + what + "\"))\n" +
       indent + "  return 1;\n";
}

/// A launch followed by its error check: a launch that fails (too much
/// shared memory, too many threads) is reported by cudaGetLastError, a
/// fault while it runs by cudaDeviceSynchronize. `before` runs between the
/// launch and the synchronization (an event record).
void emitLaunch(std::string &o, const std::string &name,
                const std::string &launch, const std::string &what,
                const std::string &before = "") {
  o += "  " + launch + ";\n";
  o += "  err = cudaGetLastError();\n";
  if (!before.empty())
    o += "  if (err == cudaSuccess)\n    err = " + before + ";\n";
  o += "  if (err == cudaSuccess)\n    err = cudaDeviceSynchronize();\n";
  emitChecked(o, name, "  ", "err", what);
}

/// Raises the dynamic shared-memory limit of both kernels when over 48 KiB.
void emitSmemLimit(std::string &o, const std::string &name) {
  o += "  if (smem > 48 * 1024) {\n";
  for (const char *k : {"_test_kernel", "_bench_kernel"})
    emitChecked(o, name, "    ",
                "cudaFuncSetAttribute(" + name + k +
                    ", cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem))",
                std::string("cudaFuncSetAttribute(") + (k + 1) + ")");
  o += "  }\n";
}

/// The test launch: FAIL (exit 1) on a CUDA error or a mismatch.
void emitCheck(std::string &o, const std::string &name) {
  o += "  unsigned long long *counter = nullptr;\n";
  emitChecked(o, name, "  ",
              "cudaMalloc(&counter, 2 * sizeof(unsigned long long))",
              "cudaMalloc");
  emitChecked(o, name, "  ",
              "cudaMemset(counter, 0, 2 * sizeof(unsigned long long))",
              "cudaMemset");
  o += "  cudaError_t err = cudaSuccess;\n";
  emitLaunch(o, name,
             name + "_test_kernel<<<" + name +
                 "_blocks, threads, smem>>>(counter)",
             "test kernel");
  o += "  unsigned long long bad = 0;\n";
  emitChecked(o, name, "  ",
              "cudaMemcpy(&bad, counter, sizeof bad, cudaMemcpyDeviceToHost)",
              "cudaMemcpy");
  o += "  if (bad != 0) {\n";
  o += "    std::printf(\"FAIL: " + name +
       ": %llu mismatched registers\\n\", bad);\n";
  o += "    return 1;\n  }\n";
}

/// One warm-up and one timed launch of the timing kernel.
void emitTiming(std::string &o, const std::string &name) {
  // Replicas: four full waves of the GPU (the CTAs its SMs hold at once,
  // times four), so that the figure is the throughput of a full GPU and
  // not the latency of a few warps per SM.
  o += "  int device = 0, sms = 0, perSm = 0;\n";
  emitChecked(o, name, "  ", "cudaGetDevice(&device)", "cudaGetDevice");
  emitChecked(o, name, "  ",
              "cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, "
              "device)",
              "cudaDeviceGetAttribute");
  emitChecked(o, name, "  ",
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, " + name +
                  "_bench_kernel, threads, smem)",
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  o += "  const int replicas = (4 * sms * (perSm > 0 ? perSm : 1) + " + name +
       "_blocks - 1) / " + name + "_blocks;\n";
  o += "  const int iterations = 1000;\n";
  o += "  cudaEvent_t start, stop;\n";
  emitChecked(o, name, "  ", "cudaEventCreate(&start)", "cudaEventCreate");
  emitChecked(o, name, "  ", "cudaEventCreate(&stop)", "cudaEventCreate");
  const std::string grid = name + "_bench_kernel<<<" + name +
                           "_blocks * replicas, threads, smem>>>(";
  emitLaunch(o, name, grid + "1, counter + 1)", "warm-up kernel");
  emitChecked(o, name, "  ", "cudaEventRecord(start)", "cudaEventRecord");
  emitLaunch(o, name, grid + "iterations, counter + 1)", "timing kernel",
             "cudaEventRecord(stop)");
  o += "  float ms = 0.0f;\n";
  emitChecked(o, name, "  ", "cudaEventElapsedTime(&ms, start, stop)",
              "cudaEventElapsedTime");
}

} // namespace

void emitHostMain(std::string &o, const std::string &name, int64_t bytes,
                  const std::string &noun) {
  emitOkHelper(o, name);
  o += "int main() {\n";
  o += "  const int threads = 32 * " + name + "_warps;\n";
  o += "  const size_t smem = size_t(" + name + "_smem_bytes);\n";
  emitSmemLimit(o, name);
  emitCheck(o, name);
  emitTiming(o, name);
  o += "  const double bytes = " + std::to_string(bytes) +
       ".0 * replicas * iterations;\n";
  o += "  std::printf(\"PASS: " + name + ": %.1f GB/s (%d x %d " + noun +
       " of " + std::to_string(bytes) +
       " B in %.3f ms)\\n\", bytes / (ms * 1e6), replicas, iterations, "
       "ms);\n";
  o += "  return 0;\n";
  o += "}\n";
}

void emitTestKernelHead(std::string &o, const std::string &name) {
  o += "__global__ void " + name +
       "_test_kernel(unsigned long long *mismatches) {\n";
  o += "  extern __shared__ __align__(16) unsigned char " + name + "_smem[];\n";
  o += "  const uint32_t lane = threadIdx.x % 32u;\n";
  o += "  const uint32_t warp = threadIdx.x / 32u;\n";
  o += "  const uint32_t block = blockIdx.x;\n";
}

void emitTestKernelTail(std::string &o) {
  o += "  (void)lane;\n  (void)warp;\n  (void)block;\n";
  o += "  if (bad)\n    atomicAdd(mismatches, bad);\n";
  o += "}\n";
}

void emitBenchLoop(std::string &o, const std::string &name,
                   const std::string &call, const std::string &out,
                   const std::string &outRegs) {
  o += "  for (int i = 0; i < iterations; ++i) {\n";
  o += "    " + call + ";\n";
  o += "    __syncthreads();\n";
  o += "    for (int r = 0; r < " + name + "_src_regs; ++r)\n";
  o += "      src[r] ^= " + out + "[r % " + outRegs + "];\n";
  o += "  }\n";
  o += "  unsigned long long acc = 0;\n";
  o += "  for (int r = 0; r < " + name + "_src_regs; ++r)\n";
  o += "    acc = acc * 31ull + src[r];\n";
  o += "  if (acc == 0x5eedull)\n    *sink = acc;\n";
  o += "}\n";
}

} // namespace lk::plan::cudatext
