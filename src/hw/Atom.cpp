//===- Atom.cpp - Register-fragment atoms and their three views -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Atom.h"

#include "layoutkit/core/Bits.h"

#include "AtomTable.h"

#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/hw/LaneWarp.h"
#include "layoutkit/tile/Axis.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace lk::hw {

namespace {

/// One leaf of a TV layout mode, with its weight inside the mode (the
/// exclusive prefix product of the mode's earlier leaves).
struct Leaf {
  int64_t extent;
  int64_t stride;
  int64_t weight;
  bool thread;
};

std::vector<Leaf> leavesOf(const cute::Layout &tv) {
  std::vector<Leaf> out;
  for (size_t mode = 0; mode < 2; ++mode) {
    cute::Layout m = tv.mode(mode);
    auto shapes = m.shape().leaves();
    auto strides = m.stride().leaves();
    int64_t w = 1;
    for (size_t i = 0; i < shapes.size(); ++i) {
      out.push_back({shapes[i].value, strides[i].value, w, mode == 0});
      w *= shapes[i].value;
    }
  }
  return out;
}

struct Catalog {
  std::vector<Atom> atoms;
  std::map<std::string, size_t, std::less<>> byName;
};

const Catalog &catalog() {
  static const Catalog c = [] {
    Catalog cat;
    for (detail::AtomRow &r : detail::atomRows()) {
      Atom a;
      a.name = std::move(r.name);
      a.arch = r.arch;
      a.instruction = std::move(r.instruction);
      a.operand = std::move(r.operand);
      a.facts = std::move(r.facts);
      a.unverified = r.unverified;
      a.note = std::move(r.note);
      a.threads = r.threads;
      Expected<cute::Layout> tv = cute::parseLayout(r.tv);
      // The rows are fixed data; a row that does not parse is a bug that
      // the catalog test reports (the atom then has the trivial layout).
      if (tv)
        a.tv = *tv;
      a.values = a.tv.size() / (a.threads > 0 ? a.threads : 1);
      a.cuteExtents = std::move(r.cuteExtents);
      a.logicalOrder = std::move(r.logicalOrder);
      a.coordNames = std::move(r.coordNames);
      a.minCapability = r.minCapability;
      a.lastArch = r.lastArch;
      cat.byName.emplace(a.name, cat.atoms.size());
      cat.atoms.push_back(std::move(a));
    }
    return cat;
  }();
  return c;
}

} // namespace

std::string_view atomArchName(Arch a) {
  switch (a) {
  case Arch::Sm80:
    return "sm_80";
  case Arch::Sm90:
    return "sm_90";
  case Arch::Sm100:
    return "sm_100";
  }
  return "sm_?";
}

std::vector<int64_t> Atom::logicalShape() const {
  std::vector<int64_t> out;
  for (int c : logicalOrder)
    out.push_back(cuteExtents[size_t(c)]);
  return out;
}

Expected<std::vector<int64_t>> Atom::eval(int64_t thread, int64_t value) const {
  if (thread < 0 || thread >= threads)
    return Diagnostic::error("atom " + name + ": thread " +
                             std::to_string(thread) + " is outside 0.." +
                             std::to_string(threads - 1));
  if (value < 0 || value >= values)
    return Diagnostic::error("atom " + name + ": value " +
                             std::to_string(value) + " is outside 0.." +
                             std::to_string(values - 1));
  int64_t idx = cute::evaluate(tv, thread + threads * value);
  std::vector<int64_t> cuteCoord;
  for (int64_t e : cuteExtents) {
    cuteCoord.push_back(idx % e);
    idx /= e;
  }
  if (idx != 0)
    return Diagnostic::error(
        "atom " + name + ": (thread " + std::to_string(thread) + ", value " +
        std::to_string(value) + ") maps outside the codomain");
  std::vector<int64_t> out;
  for (int c : logicalOrder)
    out.push_back(cuteCoord[size_t(c)]);
  return out;
}

Expected<tile::TileLayout> Atom::tileLayout() const {
  const size_t rank = cuteExtents.size();
  std::vector<int64_t> prefix(rank, 1);
  for (size_t c = 1; c < rank; ++c)
    prefix[c] = prefix[c - 1] * cuteExtents[c - 1];

  auto threadIter = [&](int64_t extent,
                        int64_t weight) -> Expected<tile::Iter> {
    Expected<ThreadModeAxis> a = threadModeAxis(extent, weight);
    if (!a)
      return Diagnostic::error("atom " + name + ": " + a.error().message);
    return tile::Iter{extent, a->weight,
                      a->warp ? tile::Axis::warpid() : tile::Axis::laneid()};
  };

  tile::IterList replica;
  // Per cute coordinate: (local stride, leaf).
  std::vector<std::vector<std::pair<int64_t, Leaf>>> perCoord(rank);
  for (const Leaf &l : leavesOf(tv)) {
    if (l.extent == 1)
      continue;
    if (l.stride == 0) {
      if (l.thread) {
        LK_TRY(tile::Iter it, threadIter(l.extent, l.weight));
        replica.push_back(it);
      } else {
        replica.push_back(tile::Iter{l.extent, l.weight, tile::Axis::m()});
      }
      continue;
    }
    size_t c = rank;
    for (size_t k = 0; k < rank; ++k)
      if (l.stride >= prefix[k] && l.stride < prefix[k] * cuteExtents[k])
        c = k;
    if (c == rank || l.stride % prefix[c] != 0)
      return Diagnostic::error("atom " + name + ": TV leaf " +
                               std::to_string(l.extent) + ":" +
                               std::to_string(l.stride) +
                               " is not inside one logical coordinate; no "
                               "tile layout");
    perCoord[c].push_back({l.stride / prefix[c], l});
  }

  tile::IterList shard;
  for (size_t ld = 0; ld < logicalOrder.size(); ++ld) {
    int d = logicalOrder[ld];
    auto &ls = perCoord[size_t(d)];
    std::sort(ls.begin(), ls.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    int64_t running = 1;
    for (const auto &[local, l] : ls) {
      if (local != running)
        return Diagnostic::error(
            "atom " + name + ": the TV leaves of coordinate '" +
            (ld < coordNames.size() ? coordNames[ld] : std::to_string(ld)) +
            "' are not a mixed-radix split (stride " + std::to_string(local) +
            " where " + std::to_string(running) + " was due); no tile layout");
      running *= l.extent;
    }
    if (running != cuteExtents[size_t(d)])
      return Diagnostic::error("atom " + name + ": the TV leaves cover " +
                               std::to_string(running) + " of extent " +
                               std::to_string(cuteExtents[size_t(d)]) +
                               "; no tile layout");
    // Row-major, last iter fastest: largest local stride first.
    for (auto it = ls.rbegin(); it != ls.rend(); ++it) {
      const Leaf &l = it->second;
      if (l.thread) {
        LK_TRY(tile::Iter ti, threadIter(l.extent, l.weight));
        shard.push_back(ti);
      } else {
        shard.push_back(tile::Iter{l.extent, l.weight, tile::Axis::m()});
      }
    }
  }
  if (shard.empty())
    shard.push_back(tile::Iter{1, 0, tile::Axis::m()});
  return tile::TileLayout::make(std::move(shard), std::move(replica));
}

Expected<linear::LinearLayout> Atom::linearLayout() const {
  if (!isPow2(threads) || !isPow2(values))
    return Diagnostic::error("atom " + name +
                             ": thread or value count is not a power of two; "
                             "no linear layout");
  std::vector<int64_t> shape = logicalShape();
  for (int64_t e : shape)
    if (!isPow2(e))
      return Diagnostic::error("atom " + name + ": logical extent " +
                               std::to_string(e) +
                               " is not a power of two; no linear layout");
  int regBits = log2Exact(values);
  int thrBits = log2Exact(threads);

  // register, then thread (split into lane and warp below).
  const linear::DimId thread = linear::internDim("thread");
  std::vector<linear::InDimBases> ins = {{linear::dims::kRegister, {}},
                                         {thread, {}}};
  for (int b = 0; b < regBits; ++b) {
    LK_TRY(auto v, eval(0, int64_t(1) << b));
    ins[0].bases.push_back(std::move(v));
  }
  for (int b = 0; b < thrBits; ++b) {
    LK_TRY(auto v, eval(int64_t(1) << b, 0));
    ins[1].bases.push_back(std::move(v));
  }
  std::vector<linear::OutDim> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({linear::dims::dim(int(d)), shape[d]});
  LK_TRY(linear::LinearLayout byThread,
         linear::LinearLayout::make(std::span<const linear::InDimBases>(ins),
                                    std::span<const linear::OutDim>(outs)));
  LK_TRY(linear::LinearLayout ll, splitThreadDim(byThread, thread));
  // The map must be the XOR of its bases everywhere.
  for (int64_t t = 0; t < threads; ++t) {
    for (int64_t v = 0; v < values; ++v) {
      LK_TRY(std::vector<int64_t> want, eval(t, v));
      LaneWarp lw = laneWarpOf(t);
      std::vector<int64_t> in = {v, lw.lane};
      if (ll.hasInDim(linear::dims::kWarp))
        in.push_back(lw.warp);
      LK_TRY(std::vector<int64_t> got, ll.apply(in));
      if (got != want)
        return Diagnostic::error("atom " + name + ": (thread " +
                                 std::to_string(t) + ", value " +
                                 std::to_string(v) +
                                 ") is not the XOR of its bases; the atom is "
                                 "not F2-linear");
    }
  }
  return ll;
}

std::span<const Atom> atoms() {
  const Catalog &c = catalog();
  return {c.atoms.data(), c.atoms.size()};
}

Expected<const Atom *> findAtom(std::string_view name) {
  const Catalog &c = catalog();
  auto it = c.byName.find(name);
  if (it == c.byName.end()) {
    // An instruction names its atoms: say which, as `hw atoms
    // --instruction` lists them.
    AtomFilter f;
    f.instruction = std::string(name);
    Expected<std::vector<const Atom *>> of = listAtoms(f);
    // Its first atoms listed (at most 6 names); "" filters nothing out.
    if (!name.empty() && of && !of->empty()) {
      const size_t n = of->size(), shown = n > 6 ? 3 : n;
      std::string named;
      for (size_t i = 0; i < shown; ++i)
        named += (i ? ", " : "") + (*of)[i]->name;
      if (shown < n)
        named += ", ... (" + std::to_string(n) + " in all)";
      return Diagnostic::error("'" + std::string(name) +
                               "' is an instruction, not one atom: its atoms "
                               "are " +
                               named);
    }
    return Diagnostic::error("unknown atom '" + excerpt(name) + "'")
        .note(
            "atoms are named mma.<shape>.<type>.<A|B|C>, "
            "ldmatrix.x<1|2|4>[.trans].b16, stmatrix.x<1|2|4>[.trans].b16, "
            "ldmatrix.m16n16.x<1|2>.trans.b8, "
            "ldmatrix.m8n16.x<1|2|4>.b8x16.<b6x16_p32|b4x16_p64>, "
            "stmatrix.m16n8.x<1|2|4>.trans.b8, "
            "wgmma.m64n<N>k<K>.<type>.<A|C>, "
            "tcgen05.<ld|st>.<32x32b|16x64b|16x128b|16x256b|16x32bx2>.x<num>");
  }
  return &c.atoms[it->second];
}

bool Atom::runsOn(Arch a) const {
  return arch <= a && (!lastArch || a <= *lastArch) &&
         machine(a).computeCapability >= minCapability;
}

std::string Atom::firstArchName() const {
  if (machine(arch).computeCapability < minCapability)
    return "sm_" + std::to_string(minCapability);
  return std::string(atomArchName(arch));
}

Expected<std::vector<const Atom *>> listAtoms(const AtomFilter &f) {
  if (!f.operand.empty() && f.operand != "A" && f.operand != "B" &&
      f.operand != "C" && f.operand != "frag")
    return Diagnostic::error(
        "unknown operand '" + f.operand +
        "': expected A, B, C (the accumulator, C and D) or frag");
  std::vector<const Atom *> out;
  for (const Atom &a : atoms()) {
    if (f.arch && !a.runsOn(*f.arch))
      continue;
    if (!f.instruction.empty()) { // names start with their instruction
      const std::string &in = a.name;
      bool match = in == f.instruction ||
                   (in.size() > f.instruction.size() &&
                    in.compare(0, f.instruction.size(), f.instruction) == 0 &&
                    in[f.instruction.size()] == '.');
      if (!match)
        continue;
    }
    if (!f.operand.empty() && a.operand != f.operand)
      continue;
    out.push_back(&a);
  }
  return out;
}

} // namespace lk::hw
