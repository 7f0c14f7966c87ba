//===- PlanCostTable.cpp - Planned cost of the standard conversions -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// `lk_plan_cost_table` prints, as a markdown table, what planConversion
// costs for the standard conversions of PlanPairs.h against the naive plan:
// the whole tensor stored to an unswizzled row-major shared buffer
// (offset = row * N + col) and loaded back, with scalar accesses
// (planSharedMemoryWith, no vector bits). Counts are warp instructions
// (stores + loads + register moves + selects + shuffles), shared-memory
// wavefronts (store + load) over the CTA and the cost model's estimated
// cycles (Plan.h, Cost), as the planner predicts them (the plan tests
// check those predictions against the warp simulator).
//
// After the table it sweeps every ordered pair of the standard layouts
// (2-D and 1-D), f8/f16/f32, shapes 16..64 in each dim with 1, 2 and 4
// warps and 128..256 with 8 warps, and prints one summary line.
//
// A plan is worse than the naive one when the planner's cost model rates it
// slower (Cost::cycles, Plan.h), or it takes more wavefronts, barriers or
// shared memory, or, being a shared-memory plan too, more instructions (a
// warp-shuffle plan trades instructions for no wavefront and no barrier). The
// exit status is 1 when any plan is worse (each such plan is listed on stderr),
// 2 when a plan cannot be built, 0 otherwise; ctest runs it
// (plan.cost_never_worse).
//
// Output is deterministic (costs only, no times).
//
//===----------------------------------------------------------------------===//

#include "support/PlanPairs.h"

#include "layoutkit/core/Join.h"
#include "layoutkit/plan/Plan.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

using namespace lk;
namespace dims = linear::dims;

namespace {

struct Totals {
  int64_t plans = 0, worse = 0, failed = 0;
  int64_t plannedInstructions = 0, naiveInstructions = 0;
  int64_t plannedWavefronts = 0, naiveWavefronts = 0;
  double plannedCycles = 0, naiveCycles = 0;
};

struct Compared {
  plan::Plan planned, naive;
  bool worse = false;
};

/// Plans src -> dst and the naive plan; nullopt (and a message) on failure.
std::optional<Compared> compare(const linear::LinearLayout &src,
                                const linear::LinearLayout &dst, int bits,
                                const std::vector<int64_t> &shape,
                                const std::string &what, Totals &t) {
  Expected<plan::Plan> p = plan::planConversion(src, dst, bits);
  if (!p) {
    std::fprintf(stderr, "%s: planConversion failed: %s\n", what.c_str(),
                 p.error().message.c_str());
    ++t.failed;
    return std::nullopt;
  }
  std::vector<unsigned> extents(shape.begin(), shape.end());
  std::vector<unsigned> order;
  for (size_t i = shape.size(); i-- > 0;)
    order.push_back(unsigned(i)); // row-major: the last dim fastest
  Expected<linear::LinearLayout> rowMajor =
      linear::identityStandardND(dims::kOffset, extents, order);
  Expected<plan::Plan> n =
      rowMajor ? plan::planSharedMemoryWith(src, dst, bits, *rowMajor, {})
               : Expected<plan::Plan>(std::move(rowMajor).error());
  if (!n) {
    std::fprintf(stderr, "%s: naive plan failed: %s\n", what.c_str(),
                 n.error().message.c_str());
    ++t.failed;
    return std::nullopt;
  }
  Compared c{std::move(*p), std::move(*n)};
  const plan::Cost &a = c.planned.cost, &b = c.naive.cost;
  // The planner ranks strategies by estimated cycles (Plan.h, Cost), so a
  // warp-shuffle plan may issue more instructions than the naive plan (and
  // no wavefront, barrier or buffer); a shared-memory plan must not.
  bool sharedWorse = c.planned.strategy == plan::Strategy::SharedMemory &&
                     a.instructions > b.instructions;
  c.worse = a.cycles > b.cycles || sharedWorse || a.wavefronts > b.wavefronts ||
            a.barriers > b.barriers || a.smemBytes > b.smemBytes;
  ++t.plans;
  t.plannedInstructions += a.instructions;
  t.naiveInstructions += b.instructions;
  t.plannedWavefronts += a.wavefronts;
  t.naiveWavefronts += b.wavefronts;
  t.plannedCycles += a.cycles;
  t.naiveCycles += b.cycles;
  if (c.worse) {
    ++t.worse;
    std::fprintf(stderr,
                 "%s: planned (%s) is worse than naive: %.1f vs %.1f "
                 "cycles, %" PRId64 " vs %" PRId64 " instructions, %" PRId64
                 " vs %" PRId64 " wavefronts, %" PRId64 " vs %" PRId64
                 " barriers, %" PRId64 " vs %" PRId64 " B\n",
                 what.c_str(),
                 std::string(plan::strategyName(c.planned.strategy)).c_str(),
                 a.cycles, b.cycles, a.instructions, b.instructions,
                 a.wavefronts, b.wavefronts, a.barriers, b.barriers,
                 a.smemBytes, b.smemBytes);
  }
  return c;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  return joinIntegers(shape, "x");
}

/// The named layouts for `warps`, `bits`: 2-D ones for a 2-D shape, 1-D
/// ones for a 1-D shape.
std::vector<std::pair<std::string, bench::EncodingPtr>>
encodingsFor(size_t rank, unsigned warps, int bits) {
  return rank == 2 ? bench::standardEncodings(warps, bits)
                   : bench::sliceEncodings(warps, bits);
}

std::optional<linear::LinearLayout>
layoutNamed(const std::string &name, size_t rank, unsigned warps, int bits,
            const std::vector<int64_t> &shape) {
  for (auto &[n, e] : encodingsFor(rank, warps, bits))
    if (n == name) {
      Expected<linear::LinearLayout> l = linear::toLinearLayout(*e, shape);
      if (l)
        return std::move(*l);
    }
  return std::nullopt;
}

} // namespace

int main() {
  Totals table, sweep;

  // The table: representative conversions.
  struct Row {
    const char *src, *dst;
  };
  const Row rows[] = {{"blocked-row8", "mma"},
                      {"mma", "blocked-row8"},
                      {"blocked-mmalike", "mma"},
                      {"mma", "dotA"},
                      {"mma", "dotB"},
                      {"blocked-row", "blocked-col"},
                      {"mmaV3", "blocked-row8"},
                      {"blocked-2x2", "blocked-1"},
                      {"slice0(mma)", "blocked-1d"},
                      {"slice0(blocked-row)", "slice0(blocked-col)"}};
  struct Config {
    int64_t n;
    unsigned warps;
  };
  const Config configs[] = {{16, 1}, {64, 4}, {128, 8}, {256, 8}};
  std::printf(
      "| conversion | shape | warps | type | strategy | accesses | "
      "instructions planned / naive | wavefronts planned (lower bound) / "
      "naive | cycles planned / naive |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const Row &row : rows)
    for (const Config &cfg : configs)
      for (int bits : {8, 16, 32}) {
        std::string src = row.src, dst = row.dst;
        size_t rank =
            src.rfind("slice0(", 0) == 0 || src == "blocked-1d" ? 1 : 2;
        std::vector<int64_t> shape(rank, cfg.n);
        std::optional<linear::LinearLayout> a =
            layoutNamed(src, rank, cfg.warps, bits, shape);
        std::optional<linear::LinearLayout> b =
            layoutNamed(dst, rank, cfg.warps, bits, shape);
        if (!a || !b)
          continue; // e.g. mmaV3 below 4 warps, a layout larger than the tensor
        std::string what = src + " -> " + dst + " " + shapeText(shape) + " f" +
                           std::to_string(bits) + " w" +
                           std::to_string(cfg.warps);
        std::optional<Compared> c = compare(*a, *b, bits, shape, what, table);
        if (!c)
          continue;
        const plan::Plan &p = c->planned;
        std::string vector = "-", bound;
        if (p.smem) {
          // "16 B" for vectors on both sides; "stmatrix.x4 / 16 B" (store /
          // load) when a side uses a matrix instruction.
          const plan::SharedMemoryPlan &sm = *p.smem;
          auto side = [&](bool matrix, bool trans, const char *op) {
            return matrix ? std::string(op) + ".x" +
                                std::to_string(sm.matrixCount) +
                                (trans ? ".trans" : "")
                          : std::to_string(sm.accessBytes) + " B";
          };
          vector = side(sm.store.matrixInstruction, sm.store.trans, "stmatrix");
          if (sm.store.matrixInstruction || sm.load.matrixInstruction)
            vector += " / " + side(sm.load.matrixInstruction, sm.load.trans,
                                   "ldmatrix");
          bound = " (" +
                  std::to_string(p.smem->store.lowerBound +
                                 p.smem->load.lowerBound) +
                  ")";
        }
        std::printf(
            "| %s -> %s | %s | %u | f%d | %s | %s | %" PRId64 " / %" PRId64
            " | %" PRId64 "%s / %" PRId64 " | %.1f / %.1f |%s\n",
            src.c_str(), dst.c_str(), shapeText(shape).c_str(), cfg.warps, bits,
            std::string(plan::strategyName(p.strategy)).c_str(), vector.c_str(),
            p.cost.instructions, c->naive.cost.instructions, p.cost.wavefronts,
            bound.c_str(), c->naive.cost.wavefronts, p.cost.cycles,
            c->naive.cost.cycles, c->worse ? " WORSE" : "");
      }

  // The sweep: every ordered pair.
  struct SweepPart {
    std::vector<unsigned> warps;
    std::vector<int64_t> sizes;
  };
  const SweepPart parts[] = {{{1, 2, 4}, {16, 32, 64}}, {{8}, {128, 256}}};
  for (const SweepPart &part : parts)
    for (int bits : {8, 16, 32})
      for (unsigned warps : part.warps)
        for (int64_t m : part.sizes)
          for (size_t rank : {size_t(2), size_t(1)})
            for (int64_t n : part.sizes) {
              if (rank == 1 && n != m)
                continue;
              std::vector<int64_t> shape = rank == 2
                                               ? std::vector<int64_t>{m, n}
                                               : std::vector<int64_t>{m};
              auto encs = encodingsFor(rank, warps, bits);
              for (auto &[na, ea] : encs)
                for (auto &[nb, eb] : encs) {
                  Expected<linear::LinearLayout> a =
                      linear::toLinearLayout(*ea, shape);
                  Expected<linear::LinearLayout> b =
                      linear::toLinearLayout(*eb, shape);
                  if (!a || !b)
                    continue;
                  std::string what = na + " -> " + nb + " " + shapeText(shape) +
                                     " f" + std::to_string(bits) + " w" +
                                     std::to_string(warps);
                  compare(*a, *b, bits, shape, what, sweep);
                }
            }
  std::printf("\nSweep of every ordered pair (2-D and 1-D layouts above, "
              "f8/f16/f32, 16..64 per dim with 1/2/4 warps, 128..256 with 8 "
              "warps): %" PRId64 " plans, %" PRId64
              " worse than naive, %" PRId64 " failed; instructions %" PRId64
              " planned vs %" PRId64 " naive; wavefronts %" PRId64
              " planned vs %" PRId64
              " naive; estimated cycles %.0f planned vs %.0f naive.\n",
              sweep.plans, sweep.worse, sweep.failed, sweep.plannedInstructions,
              sweep.naiveInstructions, sweep.plannedWavefronts,
              sweep.naiveWavefronts, sweep.plannedCycles, sweep.naiveCycles);
  if (table.failed || sweep.failed)
    return 2;
  return table.worse || sweep.worse ? 1 : 0;
}
