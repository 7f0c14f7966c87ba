//===- TileLayout.cpp - Shard / replica / offset over named axes ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TileLayout.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/tile/TileText.h"

#include <algorithm>
#include <unordered_map>

namespace lk::tile {
namespace {

std::string iterText(const Iter &it) {
  std::string s = std::to_string(it.extent) + ":" + std::to_string(it.stride);
  if (!it.axis.isMemory())
    s += "@" + std::string(it.axis.name());
  return s;
}

/// Slot of `a` in `axes`, appending it when absent.
uint16_t slotOf(SmallVector<Axis, 8> &axes, Axis a) {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] == a)
      return uint16_t(i);
  axes.push_back(a);
  return uint16_t(axes.size() - 1);
}

/// True when the iters (extent > 1 only) form a mixed-radix system once
/// sorted by stride: each stride exceeds the largest sum of the smaller
/// ones. Such a system is injective.
bool mixedRadix(std::vector<Iter> iters) {
  std::sort(iters.begin(), iters.end(),
            [](const Iter &a, const Iter &b) { return a.stride < b.stride; });
  __int128 reach = 0; // largest sum of the iters so far
  for (const Iter &it : iters) {
    if (it.stride <= reach)
      return false;
    reach += __int128(it.extent - 1) * it.stride;
  }
  return true;
}

constexpr int64_t kEnumerationLimit = int64_t(1) << 22;
constexpr int64_t kBitsetLimit = int64_t(1) << 24;

} // namespace

TileLayout::TileLayout() {
  shard_.push_back(Iter{1, 0, Axis::m()});
  axes_.push_back(Axis::m());
  shardSlot_.push_back(0);
  offsetBySlot_.push_back(0);
}

Expected<TileLayout> TileLayout::make(std::initializer_list<Iter> shard,
                                      std::initializer_list<Iter> replica,
                                      std::initializer_list<AxisValue> offset) {
  IterList s, r;
  OffsetList o;
  for (const Iter &i : shard)
    s.push_back(i);
  for (const Iter &i : replica)
    r.push_back(i);
  for (const AxisValue &v : offset)
    o.push_back(v);
  return make(std::move(s), std::move(r), std::move(o));
}

Expected<TileLayout> TileLayout::make(IterList shard, IterList replica,
                                      OffsetList offset) {
  if (shard.empty())
    return Diagnostic::error("a tile layout needs at least one shard iter");
  if (shard.size() + replica.size() > kMaxIters)
    return Diagnostic::error("a tile layout has at most " +
                             std::to_string(kMaxIters) + " iters");
  auto checkIters = [](const IterList &iters, const char *part) -> Status {
    for (size_t k = 0; k < iters.size(); ++k) {
      const Iter &it = iters[k];
      if (it.extent < 1)
        return Diagnostic::error(std::string(part) + " iter " +
                                 std::to_string(k) + " (" + iterText(it) +
                                 "): extent must be at least 1");
      if (it.stride < 0)
        return Diagnostic::error(std::string(part) + " iter " +
                                 std::to_string(k) + " (" + iterText(it) +
                                 "): stride must be non-negative");
    }
    return Ok{};
  };
  LK_CHECK(checkIters(shard, "shard"));
  LK_CHECK(checkIters(replica, "replica"));
  for (size_t i = 0; i < offset.size(); ++i) {
    if (offset[i].value < 0)
      return Diagnostic::error(
          "offset " + std::to_string(offset[i].value) + " on axis " +
          std::string(offset[i].axis.name()) + " must be non-negative");
    for (size_t j = 0; j < i; ++j)
      if (offset[j].axis == offset[i].axis)
        return Diagnostic::error("two offsets on axis " +
                                 std::string(offset[i].axis.name()) +
                                 "; the offset has one integer per axis");
  }

  TileLayout l;
  l.shard_ = std::move(shard);
  l.replica_ = std::move(replica);
  l.offset_ = std::move(offset);
  l.axes_.clear();
  l.shardSlot_.clear();
  l.offsetBySlot_.clear();
  for (const Iter &it : l.shard_)
    l.shardSlot_.push_back(slotOf(l.axes_, it.axis));
  for (const Iter &it : l.replica_)
    l.replicaSlot_.push_back(slotOf(l.axes_, it.axis));
  for (const AxisValue &v : l.offset_)
    slotOf(l.axes_, v.axis);
  l.offsetBySlot_.resize(l.axes_.size(), 0);
  for (const AxisValue &v : l.offset_)
    l.offsetBySlot_[size_t(l.axisSlot(v.axis))] = v.value;

  Arith ar;
  l.size_ = 1;
  for (const Iter &it : l.shard_)
    l.size_ = ar.mul(l.size_, it.extent);
  if (!ar.ok())
    return Arith::diagnostic("the size of the shard (product of its extents)");
  l.replicaCount_ = 1;
  for (const Iter &it : l.replica_)
    l.replicaCount_ = ar.mul(l.replicaCount_, it.extent);
  if (!ar.ok())
    return Arith::diagnostic("the replica count (product of its extents)");
  // The largest coordinate on every axis must fit.
  SmallVector<int64_t, 8> reach = l.offsetBySlot_;
  for (size_t k = 0; k < l.shard_.size(); ++k)
    reach[l.shardSlot_[k]] =
        ar.add(reach[l.shardSlot_[k]],
               ar.mul(l.shard_[k].extent - 1, l.shard_[k].stride));
  for (size_t k = 0; k < l.replica_.size(); ++k)
    reach[l.replicaSlot_[k]] =
        ar.add(reach[l.replicaSlot_[k]],
               ar.mul(l.replica_[k].extent - 1, l.replica_[k].stride));
  if (!ar.ok())
    return Arith::diagnostic("the largest physical coordinate of the layout");
  return l;
}

int64_t TileLayout::offsetOn(Axis a) const {
  int s = axisSlot(a);
  return s < 0 ? 0 : offsetBySlot_[size_t(s)];
}

int TileLayout::axisSlot(Axis a) const {
  for (size_t i = 0; i < axes_.size(); ++i)
    if (axes_[i] == a)
      return int(i);
  return -1;
}

//===----------------------------------------------------------------------===//
// Logical coordinates
//===----------------------------------------------------------------------===//

std::string shapeText(std::span<const int64_t> shape) {
  return "(" + joinIntegers(shape, ",") + ")";
}

Status TileLayout::checkExtents(std::span<const int64_t> shape) {
  Arith ar;
  int64_t n = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 1)
      return Diagnostic::error("shape " + shapeText(shape) + ": extent " +
                               std::to_string(shape[d]) + " of dimension " +
                               std::to_string(d) + " must be at least 1")
          .about("shape");
    n = ar.mul(n, shape[d]);
  }
  if (!ar.ok())
    return Arith::diagnostic("the size of shape " + shapeText(shape))
        .about("shape");
  return Ok{};
}

Status TileLayout::admits(std::span<const int64_t> shape) const {
  LK_CHECK(checkExtents(shape));
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e; // checked above
  if (n != size_)
    return Diagnostic::error(
               "shape " + shapeText(shape) + " of size " + std::to_string(n) +
               " is not admitted by a layout of size " + std::to_string(size_) +
               " (the product of the shard extents)")
        .about("shape");
  return Ok{};
}

Expected<int64_t> TileLayout::flatten(std::span<const int64_t> shape,
                                      std::span<const int64_t> coord) const {
  LK_CHECK(admits(shape));
  if (coord.size() != shape.size())
    return Diagnostic::error(
        "coordinate of rank " + std::to_string(coord.size()) + " for shape " +
        shapeText(shape) + " of rank " + std::to_string(shape.size()));
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (coord[d] < 0 || coord[d] >= shape[d])
      return Diagnostic::error("coordinate " + shapeText(coord) +
                               " is outside shape " + shapeText(shape) +
                               " in dimension " + std::to_string(d));
    flat = flat * shape[d] + coord[d]; // < size_: no overflow
  }
  return flat;
}

std::vector<int64_t> TileLayout::unflatten(std::span<const int64_t> shape,
                                           int64_t flat) {
  std::vector<int64_t> c(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    c[d] = flat % shape[d];
    flat /= shape[d];
  }
  return c;
}

SmallVector<int64_t, 8> TileLayout::components(int64_t flat) const {
  SmallVector<int64_t, 8> c;
  c.resize(shard_.size(), 0);
  for (size_t k = shard_.size(); k-- > 0;) {
    c[k] = flat % shard_[k].extent;
    flat /= shard_[k].extent;
  }
  return c;
}

//===----------------------------------------------------------------------===//
// Forward map
//===----------------------------------------------------------------------===//

void TileLayout::baseInto(int64_t flat, int64_t *out) const {
  const size_t n = axes_.size();
  for (size_t i = 0; i < n; ++i)
    out[i] = offsetBySlot_[i];
  const Iter *it = shard_.data();
  const uint16_t *slot = shardSlot_.data();
  for (size_t k = shard_.size(); k-- > 0;) {
    int64_t e = it[k].extent;
    int64_t q = flat / e;
    out[slot[k]] += (flat - q * e) * it[k].stride;
    flat = q;
  }
}

int64_t TileLayout::addressAt(int64_t flat, Axis a) const {
  int64_t v = offsetOn(a);
  for (size_t k = shard_.size(); k-- > 0;) {
    int64_t e = shard_[k].extent;
    int64_t q = flat / e;
    if (shard_[k].axis == a)
      v += (flat - q * e) * shard_[k].stride;
    flat = q;
  }
  return v;
}

Expected<int64_t> TileLayout::address(std::span<const int64_t> shape,
                                      std::span<const int64_t> coord,
                                      Axis a) const {
  LK_TRY(int64_t flat, flatten(shape, coord));
  return addressAt(flat, a);
}

void TileLayout::evalInto(int64_t flat, CoordSet &out) const {
  evalInto(flat, out, replicaCount_);
}

void TileLayout::evalInto(int64_t flat, CoordSet &out, int64_t limit) const {
  const size_t n = axes_.size();
  out.reset(n);
  baseInto(flat, out.appendUninitialized());
  const int64_t count = std::min(limit, replicaCount_);
  for (int64_t r = 1; r < count; ++r) {
    int64_t *p = out.appendUninitialized();
    const int64_t *base = out.values().data();
    for (size_t i = 0; i < n; ++i)
      p[i] = base[i];
    int64_t rest = r;
    for (size_t t = replica_.size(); t-- > 0;) {
      int64_t e = replica_[t].extent;
      int64_t q = rest / e;
      p[replicaSlot_[t]] += (rest - q * e) * replica_[t].stride;
      rest = q;
    }
  }
}

CoordSet TileLayout::eval(int64_t flat) const {
  CoordSet s;
  evalInto(flat, s);
  return s;
}

Expected<CoordSet> TileLayout::eval(std::span<const int64_t> shape,
                                    std::span<const int64_t> coord) const {
  LK_TRY(int64_t flat, flatten(shape, coord));
  return eval(flat);
}

std::vector<PhysicalCoord> TileLayout::owners(int64_t flat) const {
  CoordSet s = eval(flat);
  std::vector<PhysicalCoord> out;
  for (size_t i = 0; i < s.size(); ++i) {
    PhysicalCoord c;
    for (size_t a = 0; a < axes_.size(); ++a)
      c.push_back(AxisValue{axes_[a], s[i][a]});
    out.push_back(c);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Inverse queries
//===----------------------------------------------------------------------===//

Expected<std::vector<int64_t>>
TileLayout::holders(std::span<const AxisValue> where, int64_t limit) const {
  const size_t nAxes = axes_.size();
  const size_t n = shard_.size();
  std::vector<int64_t> out;
  // Every replica is a candidate start: more replicas than the budget is
  // refused before they are listed (R[2^62] would not fit in memory).
  if (replicaCount_ > limit)
    return Diagnostic::error("holders(): " + std::to_string(replicaCount_) +
                             " replicas, more than " + std::to_string(limit) +
                             " candidates to visit");
  // Constraint per slot: -1 = free.
  std::vector<int64_t> want(nAxes, -1);
  for (const AxisValue &w : where) {
    int s = axisSlot(w.axis);
    if (s < 0) {
      if (w.value != 0)
        return out; // an axis the layout does not name is at 0
      continue;
    }
    if (want[size_t(s)] >= 0 && want[size_t(s)] != w.value)
      return out;
    if (w.value < 0)
      return out;
    want[size_t(s)] = w.value;
  }
  // maxRest[k * nAxes + a]: largest sum of the shard iters k.. on slot a.
  std::vector<int64_t> maxRest((n + 1) * nAxes, 0);
  for (size_t k = n; k-- > 0;) {
    for (size_t a = 0; a < nAxes; ++a)
      maxRest[k * nAxes + a] = maxRest[(k + 1) * nAxes + a];
    maxRest[k * nAxes + shardSlot_[k]] +=
        (shard_[k].extent - 1) * shard_[k].stride;
  }
  int64_t visited = 0;
  std::vector<int64_t> rem(nAxes, 0);
  bool overLimit = false;
  // Depth-first over the shard iters, slowest first.
  auto dfs = [&](auto &&self, size_t k, int64_t flat) -> void {
    if (overLimit)
      return;
    if (++visited > limit) {
      overLimit = true;
      return;
    }
    if (k == n) {
      for (size_t a = 0; a < nAxes; ++a)
        if (want[a] >= 0 && rem[a] != 0)
          return;
      out.push_back(flat);
      return;
    }
    const Iter &it = shard_[k];
    size_t a = shardSlot_[k];
    int64_t lo = 0, hi = it.extent - 1;
    if (want[a] >= 0 && it.stride > 0) {
      int64_t rest = maxRest[(k + 1) * nAxes + a];
      lo = std::max<int64_t>(0, ceilDiv(rem[a] - rest, it.stride));
      hi = std::min(hi, floorDiv(rem[a], it.stride));
    } else if (want[a] >= 0) {
      if (rem[a] < 0 || rem[a] > maxRest[(k + 1) * nAxes + a])
        return;
    }
    for (int64_t c = lo; c <= hi; ++c) {
      int64_t saved = rem[a];
      if (want[a] >= 0)
        rem[a] -= c * it.stride;
      self(self, k + 1, flat * it.extent + c);
      rem[a] = saved;
      if (overLimit)
        return;
    }
  };
  // Every replica is one more start of the search: bounded by the limit
  // too, before the replicas are listed.
  if (replicaCount_ > limit)
    return Diagnostic::error("holders(): " + std::to_string(replicaCount_) +
                             " replicas to try, more than " +
                             std::to_string(limit) + " candidates");
  CoordSet reps;
  // Replica contributions: evaluate L(0) and subtract its base.
  evalInto(0, reps);
  for (size_t r = 0; r < reps.size(); ++r) {
    if (++visited > limit) // infeasible replicas count too
      return Diagnostic::error("holders(): more than " + std::to_string(limit) +
                               " candidates to visit");
    bool feasible = true;
    for (size_t a = 0; a < nAxes; ++a) {
      if (want[a] < 0)
        continue;
      // reps[r][a] - reps[0][a] is the replica contribution; base of L(0)
      // is O (flat 0 has all components 0).
      int64_t shift = reps[r][a];
      rem[a] = want[a] - shift;
      if (rem[a] < 0 || rem[a] > maxRest[a])
        feasible = false;
    }
    if (!feasible)
      continue;
    dfs(dfs, 0, 0);
    if (overLimit)
      return Diagnostic::error("holders(): more than " + std::to_string(limit) +
                               " candidates to visit");
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Expected<bool> TileLayout::isInjectiveOn(Axis a) const {
  std::vector<Iter> iters;
  for (const Iter &it : shard_)
    if (it.axis == a && it.extent > 1) {
      if (it.stride == 0)
        return false;
      iters.push_back(it);
    }
  if (iters.empty() || mixedRadix(iters))
    return true;
  // Pigeonhole: more combinations than reachable values.
  __int128 count = 1, span = 1;
  for (const Iter &it : iters) {
    count *= it.extent;
    span += __int128(it.extent - 1) * it.stride;
    if (count > span * 2 + (int64_t(1) << 40))
      return false;
  }
  if (count > span)
    return false;
  if (count <= kEnumerationLimit) {
    std::vector<int64_t> sums{0};
    for (const Iter &it : iters) {
      std::vector<int64_t> next;
      next.reserve(sums.size() * size_t(it.extent));
      for (int64_t s : sums)
        for (int64_t c = 0; c < it.extent; ++c)
          next.push_back(s + c * it.stride);
      sums.swap(next);
    }
    std::sort(sums.begin(), sums.end());
    return std::adjacent_find(sums.begin(), sums.end()) == sums.end();
  }
  if (span <= kBitsetLimit) {
    // Reachable sums as a bitset; a step that reaches fewer than
    // (previous count) * extent new values has a collision.
    size_t words = size_t((span + 63) / 64);
    std::vector<uint64_t> reach(words, 0), next(words);
    reach[0] = 1;
    int64_t have = 1;
    for (const Iter &it : iters) {
      std::fill(next.begin(), next.end(), 0);
      for (int64_t c = 0; c < it.extent; ++c) {
        int64_t shift = c * it.stride;
        size_t ws = size_t(shift / 64), bs = size_t(shift % 64);
        for (size_t w = 0; w + ws < words; ++w) {
          uint64_t v = reach[w];
          if (!v)
            continue;
          next[w + ws] |= v << bs;
          if (bs && w + ws + 1 < words)
            next[w + ws + 1] |= v >> (64 - bs);
        }
      }
      int64_t got = 0;
      for (uint64_t w : next)
        got += __builtin_popcountll(w);
      if (got != have * it.extent)
        return false;
      have = got;
      reach.swap(next);
    }
    return true;
  }
  return Diagnostic::error(
      "cannot decide whether the layout is injective on axis " +
      std::string(a.name()) + ": too many combinations");
}

Expected<bool> TileLayout::isInjective() const {
  // Sufficient: every axis, shard and replica iters together, is a
  // mixed-radix system, so (x, r) -> coordinate is injective.
  bool radix = true;
  for (Axis a : axes()) {
    std::vector<Iter> iters;
    for (const Iter &it : shard_)
      if (it.axis == a && it.extent > 1)
        iters.push_back(it);
    for (const Iter &it : replica_)
      if (it.axis == a && it.extent > 1)
        iters.push_back(it);
    bool zero = false;
    for (const Iter &it : iters)
      zero |= it.stride == 0;
    if (zero || !mixedRadix(iters)) {
      radix = false;
      break;
    }
  }
  if (radix)
    return true;
  __int128 total = __int128(size_) * replicaCount_;
  if (total > kEnumerationLimit)
    return Diagnostic::error("cannot decide whether the layout is injective: " +
                             std::to_string(size_) + " elements x " +
                             std::to_string(replicaCount_) +
                             " replicas is too many to enumerate");
  struct Hash {
    size_t operator()(const std::vector<int64_t> &v) const {
      uint64_t h = 1469598103934665603ull; // FNV-1a, 64-bit on wasm too
      for (int64_t x : v)
        h = (h ^ uint64_t(x)) * 1099511628211ull;
      return size_t(h);
    }
  };
  std::unordered_map<std::vector<int64_t>, int64_t, Hash> owner;
  CoordSet s;
  std::vector<int64_t> key(axes_.size());
  for (int64_t x = 0; x < size_; ++x) {
    evalInto(x, s);
    for (size_t i = 0; i < s.size(); ++i) {
      std::copy(s[i].begin(), s[i].end(), key.begin());
      auto [it, inserted] = owner.emplace(key, x);
      if (!inserted && it->second != x)
        return false;
    }
  }
  return true;
}

Footprint TileLayout::footprint(Axis a) const {
  Footprint f;
  f.min = f.max = offsetOn(a);
  for (const Iter &it : shard_)
    if (it.axis == a)
      f.max += (it.extent - 1) * it.stride;
  for (const Iter &it : replica_)
    if (it.axis == a)
      f.max += (it.extent - 1) * it.stride;
  return f;
}

bool TileLayout::operator==(const TileLayout &o) const {
  if (!(shard_ == o.shard_) || !(replica_ == o.replica_) ||
      offset_.size() != o.offset_.size())
    return false;
  for (const AxisValue &v : offset_) {
    bool found = false;
    for (const AxisValue &w : o.offset_)
      found |= (w == v);
    if (!found)
      return false;
  }
  return true;
}

std::string TileLayout::str() const { return printTileLayout(*this); }

} // namespace lk::tile
