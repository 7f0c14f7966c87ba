//===- AllocationCounter.h - Heap allocations per benchmark iteration -----===//
//
// Replaces the global operator new so each benchmark can report how many
// heap allocations one iteration of the operation performs ("allocs"
// counter). The hot paths of small layouts are expected to report 0.
//
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_BENCH_ALLOCATIONCOUNTER_H
#define LAYOUTKIT_BENCH_ALLOCATIONCOUNTER_H

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>

namespace lk::bench {

extern std::atomic<uint64_t> gAllocations;

/// Records allocations made while the benchmark loop runs, per iteration.
class AllocationScope {
public:
  explicit AllocationScope(benchmark::State &state)
      : state_(state), start_(gAllocations.load()) {}
  ~AllocationScope() {
    uint64_t n = gAllocations.load() - start_;
    state_.counters["allocs"] = benchmark::Counter(
        double(n) / double(state_.iterations() ? state_.iterations() : 1));
  }

private:
  benchmark::State &state_;
  uint64_t start_;
};

} // namespace lk::bench

#endif
