//===- NvccTestSupport.h - nvcc helpers of the emitter tests -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Helpers shared by the CUDA emitter tests (EmitCudaTest.cpp,
/// EmitGatherTest.cpp): finding nvcc, running a command with its output,
/// a per-process temp directory, compiling a unit under -Werror, and
/// whether a GPU is reachable. Pulled in with `using namespace test;`.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_NVCCTESTSUPPORT_H
#define LAYOUTKIT_TESTS_SUPPORT_NVCCTESTSUPPORT_H

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace lk::plan::test {

/// nvcc from LK_NVCC, PATH, or /usr/local/cuda/bin/nvcc; empty when none.
inline std::string findNvcc() {
  namespace fs = std::filesystem;
  auto runnable = [](const fs::path &p) {
    return !p.empty() && fs::is_regular_file(p) &&
           ::access(p.c_str(), X_OK) == 0;
  };
  if (const char *env = std::getenv("LK_NVCC"); env && *env)
    return runnable(env) ? std::string(env) : std::string();
  if (const char *path = std::getenv("PATH")) {
    std::string s = path;
    size_t start = 0;
    while (start <= s.size()) {
      size_t end = s.find(':', start);
      if (end == std::string::npos)
        end = s.size();
      fs::path p = fs::path(s.substr(start, end - start)) / "nvcc";
      if (end > start && runnable(p))
        return p.string();
      start = end + 1;
    }
  }
  fs::path fallback = "/usr/local/cuda/bin/nvcc";
  return runnable(fallback) ? fallback.string() : std::string();
}

struct CommandResult {
  int status = -1;
  std::string output;
};

/// Runs `cmd` through the shell, stdout and stderr together.
inline CommandResult runCommand(const std::string &cmd) {
  CommandResult r;
  FILE *f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f)
    return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    r.output.append(buf, n);
  r.status = ::pclose(f);
  return r;
}

/// A fresh temp directory for this test.
inline std::filesystem::path tempDir(const std::string &stem) {
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() /
               ("lk-emit-" + stem + "-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

/// Compiles `code` with `nvcc -arch=ARCH -c` (and -Werror on every
/// warning); `extra` "" builds and links instead. A failure carries nvcc's
/// output.
inline void expectCompiles(const std::string &nvcc, const std::string &code,
                           const std::string &stem, const std::string &arch,
                           const std::string &extra = "-c") {
  namespace fs = std::filesystem;
  fs::path dir = tempDir(stem);
  fs::path cu = dir / (stem + ".cu");
  std::ofstream(cu) << code;
  fs::path obj = dir / (stem + "-" + arch + ".o");
  CommandResult r = runCommand(
      "'" + nvcc + "' -arch=" + arch + " -std=c++17 -Werror all-warnings " +
      extra + " '" + cu.string() + "' -o '" + obj.string() + "'");
  EXPECT_EQ(r.status, 0) << "nvcc -arch=" << arch << " " << extra
                         << " failed on " << cu << ":\n"
                         << r.output;
  if (r.status == 0)
    fs::remove_all(dir);
}

/// What is wrong with the error handling of an emitted host main() (empty:
/// nothing): every line of main() that calls a CUDA runtime function must
/// check its result (`NAME_cuda_ok(cudaX(...), ...)` or `err = cudaX(...)`),
/// and every kernel launch (`<<<`) must be followed on the next line by
/// `err = cudaGetLastError();` and, before the next launch, by a
/// cudaDeviceSynchronize and a `NAME_cuda_ok(err, ...)` check.
inline std::string hostMainErrorHandling(const std::string &code) {
  const size_t at = code.find("int main() {");
  if (at == std::string::npos)
    return "no int main()";
  std::istringstream in(code.substr(at));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  const std::regex call("cuda[A-Z][A-Za-z]*\\(");
  std::string why;
  size_t launches = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &l = lines[i];
    if (std::regex_search(l, call) &&
        l.find("_cuda_ok(cuda") == std::string::npos &&
        l.find("err = cuda") == std::string::npos)
      why += "unchecked: " + l + "\n";
    if (l.find("<<<") == std::string::npos)
      continue;
    ++launches;
    if (i + 1 >= lines.size() || lines[i + 1] != "  err = cudaGetLastError();")
      why += "no cudaGetLastError after: " + l + "\n";
    bool synced = false, checked = false;
    for (size_t j = i + 1;
         j < lines.size() && lines[j].find("<<<") == std::string::npos; ++j) {
      synced = synced || lines[j].find("err = cudaDeviceSynchronize();") !=
                             std::string::npos;
      checked = checked || (synced && lines[j].find("_cuda_ok(err, ") !=
                                          std::string::npos);
    }
    if (!checked)
      why += "no synchronize and check after: " + l + "\n";
  }
  if (launches != 3)
    why += "expected 3 launches (test, warm-up, timing), found " +
           std::to_string(launches) + "\n";
  return why;
}

/// Whether a CUDA GPU is reachable: `nvidia-smi -L` lists one. LK_GPU=0
/// turns the GPU tests off, LK_GPU=1 on (without asking nvidia-smi).
inline bool gpuReachable() {
  if (const char *env = std::getenv("LK_GPU"); env && *env)
    return std::string(env) != "0";
  CommandResult r = runCommand("nvidia-smi -L");
  return r.status == 0 && r.output.find("GPU ") != std::string::npos;
}

/// The architecture the GPU tests build for: LK_GPU_ARCH, else "native".
inline std::string gpuArch() {
  if (const char *env = std::getenv("LK_GPU_ARCH"); env && *env)
    return env;
  return "native";
}

/// A unit built with its host main for `arch` (-O3), then run: `built`
/// false carries nvcc's output in `run`.
struct GpuRun {
  bool built = false;
  std::filesystem::path dir, exe;
  CommandResult run;
};

/// Builds `code` into a fresh directory named after `stem`.
inline GpuRun buildGpuUnit(const std::string &nvcc, const std::string &code,
                           const std::string &stem, const std::string &arch) {
  GpuRun g;
  g.dir = tempDir("gpu-" + stem);
  const std::filesystem::path cu = g.dir / (stem + ".cu");
  g.exe = g.dir / stem;
  std::ofstream(cu) << code;
  CommandResult build =
      runCommand("'" + nvcc + "' -arch=" + arch + " -O3 -std=c++17 '" +
                 cu.string() + "' -o '" + g.exe.string() + "'");
  g.built = build.status == 0;
  if (!g.built)
    g.run = build;
  return g;
}

/// Runs a built unit; removes its directory when it exits 0.
inline void runGpuUnit(GpuRun &g) {
  g.run = runCommand("'" + g.exe.string() + "'");
  if (g.run.status == 0)
    std::filesystem::remove_all(g.dir);
}

/// Why the GPU tests cannot run here, empty when they can: no nvcc (set
/// into `nvcc` otherwise) or no GPU reachable.
inline std::string gpuSkipReason(std::string &nvcc) {
  nvcc = findNvcc();
  if (nvcc.empty())
    return "nvcc not found (LK_NVCC, PATH, /usr/local/cuda/bin)";
  if (!gpuReachable())
    return "no GPU reachable (nvidia-smi -L lists none, or LK_GPU=0)";
  return "";
}

/// A named translation unit with its host main.
struct GpuUnit {
  std::string name, code;
};

/// Builds every unit for gpuArch() and runs it, printing its output. With
/// `pass`, each must exit 0 with its first line "PASS: NAME: ..."; without,
/// each must exit non-zero with its first line "FAIL: NAME: <n> mismatched
/// registers" (a mismatch the test kernel counted, not a CUDA error such as
/// a failed cudaMalloc where no GPU answers). A unit that does not build
/// stops the loop.
inline void expectGpuRuns(const std::string &nvcc,
                          const std::vector<GpuUnit> &units, bool pass) {
  const std::string arch = gpuArch();
  const std::string word = pass ? "PASS: " : "FAIL: ";
  // nvcc runs in parallel (one builder per hardware thread); the programs
  // run one at a time so that no two time the GPU together.
  std::vector<GpuRun> runs(units.size());
  std::atomic<size_t> next{0};
  std::vector<std::thread> builders;
  const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned t = 0; t < std::min<size_t>(n, units.size()); ++t)
    builders.emplace_back([&] {
      for (size_t i; (i = next++) < units.size();)
        runs[i] = buildGpuUnit(nvcc, units[i].code, units[i].name, arch);
    });
  for (std::thread &b : builders)
    b.join();
  for (size_t i = 0; i < units.size(); ++i) {
    const GpuUnit &u = units[i];
    GpuRun &g = runs[i];
    ASSERT_TRUE(g.built) << u.name << ":\n" << g.run.output;
    runGpuUnit(g);
    if (pass) {
      EXPECT_EQ(g.run.status, 0) << u.name << ":\n" << g.run.output;
    } else {
      EXPECT_NE(g.run.status, 0) << u.name << ":\n" << g.run.output;
    }
    EXPECT_EQ(g.run.output.rfind(word + u.name + ":", 0), 0u) << g.run.output;
    const std::regex counted("^FAIL: " + u.name +
                             ": [1-9][0-9]* mismatched registers\n");
    if (!pass) {
      EXPECT_TRUE(std::regex_search(g.run.output, counted)) << g.run.output;
    }
    std::printf("%s", g.run.output.c_str());
  }
}

} // namespace lk::plan::test

#endif // LAYOUTKIT_TESTS_SUPPORT_NVCCTESTSUPPORT_H
