//===- Table4.cpp - Mixed-precision dot operands (paper Table 4) ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/paper/Table4.h"

#include "layoutkit/linear/Standard.h"
#include "layoutkit/paper/Coalesce.h"
#include "layoutkit/plan/Simulator.h"

#include <algorithm>
#include <memory>

namespace lk::paper {

using linear::Encoding;
using linear::EncodingKind;
using linear::LinearLayout;

namespace {

constexpr int kWarps = 4;
constexpr int64_t kMN[] = {16, 32, 64, 128};

struct Config {
  int mmaVersion;
  int64_t k;
};
constexpr Config kConfigs[] = {{2, 16}, {3, 16},  {2, 32},  {3, 32}, {2, 64},
                               {3, 64}, {2, 128}, {3, 128}, {2, 256}};

std::shared_ptr<Encoding> mmaParent(int version) {
  auto e = std::make_shared<Encoding>();
  e->kind = EncodingKind::NvidiaMma;
  e->versionMajor = version;
  e->instrShape = version == 2 ? std::vector<unsigned>{16, 8}
                               : std::vector<unsigned>{16, 16, 16};
  e->warpsPerCTA =
      version == 2 ? std::vector<unsigned>{2, 2} : std::vector<unsigned>{4, 1};
  e->cta = linear::CTALayout::single(2);
  return e;
}

Encoding dotOperand(int version, int opIdx, int kWidth) {
  Encoding e;
  e.kind = EncodingKind::DotOperand;
  e.opIdx = opIdx;
  e.kWidth = kWidth;
  e.parent = mmaParent(version);
  e.cta = e.parent->cta;
  return e;
}

/// Loads `shape` of `bits` coalesced and converts it into `dot`; counts
/// the strategy. Returns "" or why it failed.
std::string convertOperand(const Encoding &dot, std::vector<int64_t> shape,
                           int bits, Table4Row &row) {
  Expected<Encoding> loaded =
      coalescedEncoding(shape, bits, kWarps, CoalesceStyle::AcrossDims);
  if (!loaded)
    return loaded.error().message;
  Expected<LinearLayout> src = linear::toLinearLayout(*loaded, shape);
  if (!src)
    return src.error().message;
  Expected<LinearLayout> dst = linear::toLinearLayout(dot, shape);
  if (!dst)
    return dst.error().message;
  Expected<plan::Plan> p = plan::planConversion(*src, *dst, bits);
  if (!p)
    return p.error().message;
  Expected<plan::SimulationResult> s = plan::simulate(*p);
  if (!s)
    return s.error().message;
  if (!s->correct)
    return s->firstMismatch;
  switch (p->strategy) {
  case plan::Strategy::NoOp:
    ++row.noOp;
    break;
  case plan::Strategy::RegisterPermutation:
    ++row.registerPermutation;
    break;
  case plan::Strategy::WarpShuffle:
    ++row.warpShuffle;
    break;
  case plan::Strategy::SharedMemory:
    ++row.sharedMemory;
    break;
  }
  return "";
}

} // namespace

Expected<Table4Row> table4Row(int intBits, int floatBits, int configs) {
  for (int b : {intBits, floatBits})
    if (b != 8 && b != 16 && b != 32 && b != 64)
      return Diagnostic::error("table 4: expected 8, 16, 32 or 64-bit "
                               "elements, got " +
                               std::to_string(b));
  if (configs < 1 || configs > int(std::size(kConfigs)))
    return Diagnostic::error("table 4: expected 1 to 9 configurations, got " +
                             std::to_string(configs));
  Table4Row row;
  row.pair = "i" + std::to_string(intBits) + "/f" + std::to_string(floatBits);
  row.intBits = intBits;
  row.floatBits = floatBits;
  int kWidth = std::max(1, 32 / std::min(intBits, floatBits));
  for (int c = 0; c < configs; ++c) {
    const Config &cfg = kConfigs[c];
    for (int64_t m : kMN)
      for (int64_t n : kMN) {
        ++row.total;
        std::string why = convertOperand(dotOperand(cfg.mmaVersion, 0, kWidth),
                                         {m, cfg.k}, intBits, row);
        if (why.empty() && cfg.mmaVersion == 2)
          why = convertOperand(dotOperand(2, 1, kWidth), {cfg.k, n}, floatBits,
                               row);
        if (why.empty()) {
          ++row.passed;
        } else if (row.firstFailure.empty()) {
          row.firstFailure =
              "M=" + std::to_string(m) + " N=" + std::to_string(n) +
              " K=" + std::to_string(cfg.k) +
              (cfg.mmaVersion == 2 ? " mma: " : " wgmma: ") + why;
        }
      }
  }
  return row;
}

Expected<Table4> table4() {
  struct Pair {
    int intBits, floatBits, count;
  };
  // The paper's rows (left column, then right column, row by row).
  static constexpr Pair kPairs[] = {
      {16, 16, 64}, {16, 32, 32}, {16, 64, 32}, {16, 8, 96},  {32, 16, 32},
      {32, 64, 32}, {32, 8, 48},  {64, 16, 32}, {64, 32, 32}, {64, 8, 48},
      {8, 16, 96},  {8, 32, 48},  {8, 64, 48},  {8, 8, 144}};
  Table4 t;
  for (const Pair &p : kPairs) {
    Expected<Table4Row> r = table4Row(p.intBits, p.floatBits, p.count / 16);
    if (!r)
      return std::move(r).error();
    t.passed += r->passed;
    t.total += r->total;
    t.rows.push_back(std::move(*r));
  }
  return t;
}

} // namespace lk::paper
