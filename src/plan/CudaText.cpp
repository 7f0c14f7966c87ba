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

/// Raises the dynamic shared-memory limit of both kernels when over 48 KiB.
void emitSmemLimit(std::string &o, const std::string &name) {
  o += "  if (smem > 48 * 1024) {\n";
  for (const char *k : {"_test_kernel", "_bench_kernel"})
    o += "    cudaFuncSetAttribute(" + name + k +
         ", cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));\n";
  o += "  }\n";
}

/// The test launch: FAIL (exit 1) on a CUDA error or a mismatch.
void emitCheck(std::string &o, const std::string &name) {
  o += "  unsigned long long *counter = nullptr;\n";
  o += "  if (cudaMalloc(&counter, 2 * sizeof(unsigned long long)) != "
       "cudaSuccess) {\n";
  o += "    std::printf(\"FAIL: cudaMalloc\\n\");\n    return 1;\n  }\n";
  o += "  cudaMemset(counter, 0, 2 * sizeof(unsigned long long));\n";
  o += "  " + name + "_test_kernel<<<" + name +
       "_blocks, threads, smem>>>(counter);\n";
  o += "  cudaError_t err = cudaDeviceSynchronize();\n";
  o += "  unsigned long long bad = 0;\n";
  o += "  if (err == cudaSuccess)\n";
  o += "    err = cudaMemcpy(&bad, counter, sizeof bad, "
       "cudaMemcpyDeviceToHost);\n";
  o += "  if (err != cudaSuccess || bad != 0) {\n";
  o += "    std::printf(\"FAIL: " + name +
       ": %llu mismatched registers (%s)\\n\", bad, "
       "cudaGetErrorString(err));\n";
  o += "    return 1;\n  }\n";
}

} // namespace

void emitHostMain(std::string &o, const std::string &name, int64_t bytes,
                  const std::string &noun) {
  o += "int main() {\n";
  o += "  const int threads = 32 * " + name + "_warps;\n";
  o += "  const size_t smem = size_t(" + name + "_smem_bytes);\n";
  emitSmemLimit(o, name);
  emitCheck(o, name);
  o += "  const int replicas = 1024, iterations = 1000;\n";
  o += "  cudaEvent_t start, stop;\n";
  o += "  cudaEventCreate(&start);\n  cudaEventCreate(&stop);\n";
  o += "  " + name + "_bench_kernel<<<" + name +
       "_blocks * replicas, threads, smem>>>(1, counter + 1);\n";
  o += "  cudaEventRecord(start);\n";
  o += "  " + name + "_bench_kernel<<<" + name +
       "_blocks * replicas, threads, smem>>>(iterations, counter + 1);\n";
  o += "  cudaEventRecord(stop);\n";
  o += "  err = cudaEventSynchronize(stop);\n";
  o += "  float ms = 0.0f;\n  cudaEventElapsedTime(&ms, start, stop);\n";
  o += "  if (err != cudaSuccess) {\n";
  o += "    std::printf(\"FAIL: " + name +
       " timing: %s\\n\", cudaGetErrorString(err));\n";
  o += "    return 1;\n  }\n";
  o += "  const double bytes = " + std::to_string(bytes) +
       ".0 * replicas * iterations;\n";
  o += "  std::printf(\"PASS: " + name + ": %.1f GB/s (%d x %d " + noun +
       " of " + std::to_string(bytes) +
       " B in %.3f ms)\\n\", bytes / (ms * 1e6), replicas, iterations, "
       "ms);\n";
  o += "  return 0;\n";
  o += "}\n";
}

} // namespace lk::plan::cudatext
