//===- Table3.cpp - Reductions over standard layouts (paper Table 3) -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/paper/Table3.h"

#include "layoutkit/linear/Standard.h"

#include <memory>
#include <utility>

namespace lk::paper {

using linear::Encoding;
using linear::EncodingKind;
using linear::LinearLayout;
namespace dims = linear::dims;

namespace {

using EncodingPtr = std::shared_ptr<Encoding>;
constexpr int kBits = 16;
constexpr unsigned kWarps[] = {1, 2, 4, 8};
constexpr int64_t kSizes[] = {16, 32, 64, 128};

std::vector<unsigned> warps2(unsigned w) {
  if (w == 4)
    return {2, 2};
  if (w == 8)
    return {4, 2};
  return {w, 1};
}

EncodingPtr blocked(unsigned w) {
  auto e = std::make_shared<Encoding>();
  e->kind = EncodingKind::Blocked;
  e->sizePerThread = {1, 4};
  e->threadsPerWarp = {8, 4};
  e->warpsPerCTA = warps2(w);
  e->order = {1, 0};
  e->cta = linear::CTALayout::single(2);
  return e;
}

EncodingPtr mma(std::vector<unsigned> wpc) {
  auto e = std::make_shared<Encoding>();
  e->kind = EncodingKind::NvidiaMma;
  e->versionMajor = 2;
  e->instrShape = {16, 8};
  e->warpsPerCTA = std::move(wpc);
  e->cta = linear::CTALayout::single(2);
  return e;
}

EncodingPtr dotA(unsigned w) {
  auto e = std::make_shared<Encoding>();
  e->kind = EncodingKind::DotOperand;
  e->opIdx = 0;
  e->kWidth = 32 / kBits;
  e->parent = mma({w, 1});
  e->cta = e->parent->cta;
  return e;
}

EncodingPtr slice(EncodingPtr parent, int dim) {
  auto e = std::make_shared<Encoding>();
  e->kind = EncodingKind::Slice;
  e->dim = dim;
  e->parent = std::move(parent);
  e->cta = linear::CTALayout::single(1);
  return e;
}

/// A deterministic generator (64-bit LCG, high bits).
struct Lcg {
  uint64_t s;
  uint64_t next(uint64_t n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (s >> 33) % n;
  }
};

/// A random distributed layout of SxS over `w` warps (Table3.h).
Expected<LinearLayout> custom(int64_t size, unsigned w, Lcg &rng) {
  int n = __builtin_ctzll(uint64_t(size));
  std::vector<std::vector<int64_t>> bits; // logical bits as (dim0, dim1)
  for (int b = 0; b < n; ++b) {
    bits.push_back({int64_t(1) << b, 0});
    bits.push_back({0, int64_t(1) << b});
  }
  for (size_t i = bits.size(); i > 1; --i)
    std::swap(bits[i - 1], bits[rng.next(i)]);
  size_t next = 0;
  auto deal = [&](int count) {
    std::vector<std::vector<int64_t>> r;
    for (int i = 0; i < count; ++i)
      r.push_back(next < bits.size() ? bits[next++]
                                     : std::vector<int64_t>{0, 0});
    return r;
  };
  std::vector<std::vector<int64_t>> lane = deal(5);
  std::vector<std::vector<int64_t>> warp = deal(__builtin_ctz(w));
  std::vector<std::vector<int64_t>> reg;
  while (next < bits.size())
    reg.push_back(bits[next++]);
  if (rng.next(2) && !reg.empty())
    reg.insert(reg.begin() + rng.next(reg.size() + 1), {0, 0});
  return LinearLayout::make(
      {{dims::kRegister, reg}, {dims::kLane, lane}, {dims::kWarp, warp}},
      {{dims::dim(0), size}, {dims::dim(1), size}});
}

struct ReduceCountsPair {
  plan::ReduceCounts with, without;
};

/// Plans and simulates one case both ways; adds it to `row`.
void runCase(Table3Row &row, const Expected<LinearLayout> &l, int axis,
             const std::string &name) {
  ++row.cases;
  auto fail = [&](const std::string &why) {
    if (row.firstFailure.empty())
      row.firstFailure = name + ": " + why;
  };
  if (!l)
    return fail(l.error().message);
  ReduceCountsPair counts;
  for (bool elim : {true, false}) {
    Expected<plan::ReducePlan> p = plan::planReduction(*l, axis, kBits, elim);
    if (!p)
      return fail(p.error().message);
    Expected<plan::ReduceSimulation> s = plan::simulateReduction(*p);
    if (!s)
      return fail(s.error().message);
    if (!s->correct)
      return fail(s->firstMismatch);
    (elim ? counts.with : counts.without) = s->counts;
  }
  ++row.supported;
  row.storeInstructions += counts.with.storeInstructions;
  row.storeLanes += counts.with.storeLanes;
  row.storeInstructionsNoElim += counts.without.storeInstructions;
  row.storeLanesNoElim += counts.without.storeLanes;
}

} // namespace

Expected<std::vector<Table3Row>> table3() {
  using Maker = EncodingPtr (*)(unsigned);
  struct Family {
    const char *name;
    Maker make;
    bool sliced;
  };
  static const Family kFamilies[] = {
      {"blocked", blocked, false},
      {"mma", [](unsigned w) { return mma(warps2(w)); }, false},
      {"mma-input", dotA, false},
      {"slice-blocked", [](unsigned w) { return slice(blocked(w), 0); }, true},
      {"slice-mma", [](unsigned w) { return slice(mma(warps2(w)), 0); }, true},
      {"slice-mma-input", [](unsigned w) { return slice(dotA(w), 1); }, true},
  };
  std::vector<Table3Row> rows;
  for (const Family &f : kFamilies) {
    Table3Row row;
    row.layout = f.name;
    for (int64_t s : kSizes)
      for (unsigned w : kWarps) {
        std::vector<int64_t> shape =
            f.sliced ? std::vector<int64_t>{s} : std::vector<int64_t>{s, s};
        Expected<LinearLayout> l = linear::toLinearLayout(*f.make(w), shape);
        std::string name = std::string(f.name) + " " + std::to_string(s) +
                           " w" + std::to_string(w);
        for (int axis = 0; axis < int(shape.size()); ++axis)
          runCase(row, l, axis, name + " axis " + std::to_string(axis));
      }
    rows.push_back(std::move(row));
  }
  Table3Row row;
  row.layout = "custom";
  Lcg rng{0x5eed};
  for (int64_t s : kSizes)
    for (unsigned w : kWarps) {
      Expected<LinearLayout> l = custom(s, w, rng);
      for (int axis = 0; axis < 2; ++axis)
        runCase(row, l, axis,
                "custom " + std::to_string(s) + " w" + std::to_string(w) +
                    " axis " + std::to_string(axis));
    }
  rows.push_back(std::move(row));
  return rows;
}

} // namespace lk::paper
