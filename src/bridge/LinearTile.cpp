//===- LinearTile.cpp - Bridge between linear and tile layouts ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/LinearTile.h"

#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/tile/TileText.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>

namespace lk::bridge {

using linear::DimId;
using linear::DimSize;
using linear::LinearLayout;
using tile::Axis;
using tile::Iter;
using tile::TileLayout;
namespace dims = linear::dims;

namespace {

std::string binary(uint64_t v) {
  if (v == 0)
    return "0b0";
  std::string s;
  for (int b = 63 - std::countl_zero(v); b >= 0; --b)
    s += (v >> b) & 1 ? '1' : '0';
  return "0b" + s;
}

std::string shardText(const TileLayout &t) {
  std::string e, s;
  for (const Iter &it : t.shard()) {
    e += (e.empty() ? "" : ",") + std::to_string(it.extent);
    s += (s.empty() ? "" : ",") + tile::strideText(it.stride, it.axis);
  }
  return "S[(" + e + "):(" + s + ")]";
}

int axisRank(Axis a) {
  if (a == Axis::m())
    return 0;
  if (a == Axis::laneid())
    return 1;
  if (a == Axis::warpid())
    return 2;
  if (a == Axis::cta())
    return 3;
  return 4;
}

struct BitOwner {
  bool set = false;
  uint64_t column = 0; ///< the logical bit (0 for a replica)
  std::string who;
};

} // namespace

DimId axisDim(Axis a, DimId memoryDim) {
  if (a == Axis::m())
    return memoryDim;
  if (a == Axis::laneid())
    return dims::kLane;
  if (a == Axis::warpid())
    return dims::kWarp;
  if (a == Axis::cta())
    return dims::kBlock;
  return linear::internDim(a.name());
}

Expected<Axis> dimAxis(DimId d, DimId memoryDim) {
  if (d == memoryDim || d == dims::kRegister || d == dims::kOffset)
    return Axis::m();
  if (d == dims::kLane)
    return Axis::laneid();
  if (d == dims::kWarp)
    return Axis::warpid();
  if (d == dims::kBlock)
    return Axis::cta();
  Expected<Axis> a = Axis::byName(linear::dimName(d));
  if (!a)
    return Diagnostic::error("in-dim '" + std::string(linear::dimName(d)) +
                             "' names no tile axis")
        .note("in-dims register/offset, lane, warp, block map to m, laneid, "
              "warpid, "
              "cta; other in-dims must be named like an axis");
  return a;
}

Expected<LinearLayout> tileToLinear(const TileLayout &t,
                                    const TileToLinearDims &opts) {
  for (const tile::AxisValue &o : t.offset())
    if (o.value != 0)
      return Diagnostic::error(
          "offset " + tile::strideText(o.value, o.axis) +
          " is not representable: a linear layout maps the "
          "origin of every axis to element 0");
  std::vector<Axis> axes(t.axes().begin(), t.axes().end());
  std::sort(axes.begin(), axes.end(), [](Axis a, Axis b) {
    return axisRank(a) != axisRank(b) ? axisRank(a) < axisRank(b)
                                      : a.id() < b.id();
  });
  if (axes.size() > size_t(LinearLayout::kMaxDims))
    return Diagnostic::error("the layout names " + std::to_string(axes.size()) +
                             " axes; a linear layout has at most 16 in-dims");
  std::vector<std::array<BitOwner, 64>> owners(axes.size());
  auto slotOf = [&](Axis a) {
    size_t i = 0;
    while (axes[i] != a)
      ++i;
    return i;
  };

  const std::string shard = shardText(t);
  // Logical bits below each shard iter (the last iter is the fastest).
  const tile::IterList &D = t.shard();
  std::vector<int> low(D.size() + 1, 0);
  for (size_t k = D.size(); k-- > 0;) {
    int64_t e = D[k].extent;
    if (!std::has_single_bit(uint64_t(e)))
      return Diagnostic::error("iter " + std::to_string(k) + " of " + shard +
                               " has extent " + std::to_string(e) +
                               ", not a power of two");
    low[k] = low[k + 1] + std::countr_zero(uint64_t(e));
  }
  const int logicalBits = D.empty() ? 0 : low[0];

  auto place = [&](const Iter &it, const std::string &who, bool isShard,
                   int lowBit) -> Status {
    if (!std::has_single_bit(uint64_t(it.extent)))
      return Diagnostic::error(who + " has extent " +
                               std::to_string(it.extent) +
                               ", not a power of two");
    if (it.extent == 1)
      return Ok{};
    if (it.stride == 0)
      return Diagnostic::error(
          who + " has stride 0: " +
          (isShard
               ? std::string("several logical elements share one coordinate, "
                             "which a linear layout (hardware -> logical) "
                             "cannot express")
               : std::string("the element is held twice at one coordinate")));
    if (!std::has_single_bit(uint64_t(it.stride)))
      return Diagnostic::error(who + " has stride " +
                               std::to_string(it.stride) +
                               ", not a power of two");
    int p0 = std::countr_zero(uint64_t(it.stride));
    int bits = std::countr_zero(uint64_t(it.extent));
    std::array<BitOwner, 64> &own = owners[slotOf(it.axis)];
    for (int i = 0; i < bits; ++i) {
      int p = p0 + i;
      if (p >= 63)
        return Diagnostic::error(who + " reaches bit " + std::to_string(p) +
                                 " of " + std::string(it.axis.name()) +
                                 "; a linear layout holds at most 63");
      if (own[size_t(p)].set)
        return Diagnostic::error(
            own[size_t(p)].who + " and " + who + " both reach bit " +
            std::to_string(p) + " of " + std::string(it.axis.name()) +
            " (value " + std::to_string(int64_t(1) << p) +
            "): the coordinates carry, so the map is not linear "
            "over F2");
      own[size_t(p)] = {true, isShard ? uint64_t(1) << (lowBit + i) : 0, who};
    }
    return Ok{};
  };
  for (size_t k = 0; k < D.size(); ++k)
    LK_CHECK(place(D[k], "iter " + std::to_string(k) + " of " + shard, true,
                   low[k + 1]));
  for (size_t k = 0; k < t.replica().size(); ++k) {
    const Iter &r = t.replica()[k];
    LK_CHECK(place(r,
                   "replica iter " + std::to_string(k) + " (R[" +
                       std::to_string(r.extent) + ":" +
                       tile::strideText(r.stride, r.axis) + "])",
                   false, 0));
  }

  std::vector<DimSize> ins;
  std::vector<uint64_t> cols;
  for (size_t a = 0; a < axes.size(); ++a) {
    int top = 0;
    for (int p = 0; p < 64; ++p)
      if (owners[a][size_t(p)].set)
        top = p + 1;
    for (int p = 0; p < top; ++p) {
      if (!owners[a][size_t(p)].set)
        return Diagnostic::error("bit " + std::to_string(p) + " (value " +
                                 std::to_string(int64_t(1) << p) + ") of " +
                                 std::string(axes[a].name()) +
                                 " is reached by no iter: coordinates with it "
                                 "set hold no element, but a "
                                 "linear layout maps every coordinate to one");
      cols.push_back(owners[a][size_t(p)].column);
    }
    ins.push_back({axisDim(axes[a], opts.memoryDim), top});
  }

  std::vector<DimSize> outs;
  std::vector<DimId> order;
  if (opts.shape.empty()) {
    outs.push_back({indexDim(), logicalBits});
  } else {
    LK_CHECK(t.admits(opts.shape));
    if (opts.shape.size() > size_t(LinearLayout::kMaxDims))
      return Diagnostic::error("a linear layout has at most 16 out-dims");
    for (size_t d = opts.shape.size(); d-- > 0;) {
      int64_t e = opts.shape[d];
      if (!std::has_single_bit(uint64_t(e)))
        return Diagnostic::error("logical dim " + std::to_string(d) +
                                 " has size " + std::to_string(e) +
                                 ", not a power of two");
      outs.push_back({dims::dim(int(d)), std::countr_zero(uint64_t(e))});
    }
    for (size_t d = 0; d < opts.shape.size(); ++d)
      order.push_back(dims::dim(int(d)));
  }
  LK_TRY(LinearLayout ll, LinearLayout::fromColumns(ins, outs, cols));
  if (order.size() > 1)
    return ll.transposeOuts(order);
  return ll;
}

Expected<TileLayout> linearToTile(const LinearLayout &ll, DimId memoryDim) {
  std::vector<Axis> axes;
  for (int i = 0; i < ll.numInDims(); ++i) {
    LK_TRY(Axis a, dimAxis(ll.inDim(i).id, memoryDim));
    for (int j = 0; j < i; ++j)
      if (axes[size_t(j)] == a)
        return Diagnostic::error(
            "in-dims '" + std::string(linear::dimName(ll.inDim(j).id)) +
            "' and '" + std::string(linear::dimName(ll.inDim(i).id)) +
            "' both map to axis " + std::string(a.name()));
    axes.push_back(a);
  }
  // The out-dims listed most major first: reversed, the flattened output is
  // the row-major flat index.
  LinearLayout rev = ll;
  if (ll.numOutDims() > 1) {
    std::vector<DimId> order;
    for (int i = ll.numOutDims(); i-- > 0;)
      order.push_back(ll.outDim(i).id);
    LK_TRY(rev, ll.transposeOuts(order));
  }
  const int n = rev.totalOutBits();
  auto name = [&](int j) {
    int i = ll.numInDims() - 1;
    while (ll.inShift(i) > j)
      --i;
    return "basis " + std::to_string(j - ll.inShift(i)) + " of in-dim " +
           std::string(linear::dimName(ll.inDim(i).id));
  };
  std::array<int, 64> holder;
  holder.fill(-1);
  for (int j = 0; j < rev.totalInBits(); ++j) {
    uint64_t c = rev.column(j);
    if (c == 0)
      continue;
    if (!std::has_single_bit(c))
      return Diagnostic::error(
          name(j) + " maps to " + binary(c) +
          ", which is not a single bit: a tile iter moves one "
          "logical bit per hardware bit");
    int lb = std::countr_zero(c);
    if (holder[size_t(lb)] >= 0)
      return Diagnostic::error(
          name(j) + " maps to " + binary(c) + ", as does " +
          name(holder[size_t(lb)]) +
          ": a tile layout cannot hold an element at the XOR of "
          "two coordinates");
    holder[size_t(lb)] = j;
  }
  for (int lb = 0; lb < n; ++lb)
    if (holder[size_t(lb)] < 0)
      return Diagnostic::error("logical bit " + std::to_string(lb) +
                               " (flat index " +
                               std::to_string(int64_t(1) << lb) +
                               ") is reached by no basis: the layout is not "
                               "surjective, so some element has no coordinate");
  auto dimOf = [&](int j) {
    int i = ll.numInDims() - 1;
    while (ll.inShift(i) > j)
      --i;
    return i;
  };
  auto checkBit = [&](int j) -> Status {
    int i = dimOf(j);
    if (j - ll.inShift(i) >= 63)
      return Diagnostic::error(name(j) +
                               " is bit 63 or above of its axis, which a "
                               "tile stride cannot reach");
    return Ok{};
  };

  tile::IterList shard, replica;
  // Shard: from the most major logical bit down, merging consecutive bits
  // of one axis.
  int lb = n - 1;
  while (lb >= 0) {
    int j = holder[size_t(lb)];
    LK_CHECK(checkBit(j));
    int len = 1;
    while (lb - len >= 0) {
      int k = holder[size_t(lb - len)];
      if (dimOf(k) != dimOf(j) || k != j - len)
        break;
      ++len;
    }
    int lowJ = j - len + 1;
    int p = lowJ - ll.inShift(dimOf(j));
    shard.push_back(
        Iter{int64_t(1) << len, int64_t(1) << p, axes[size_t(dimOf(j))]});
    lb -= len;
  }
  if (shard.empty()) // one element: an extent-1 iter on the first axis
    shard.push_back(Iter{1, 0, axes.empty() ? Axis::m() : axes[0]});
  // Replica: runs of zero columns per in-dim, lowest first.
  tile::OffsetList offset;
  for (int i = 0; i < ll.numInDims(); ++i) {
    int lo = ll.inShift(i), bits = ll.inDim(i).log2;
    if (bits == 0)
      offset.push_back(tile::AxisValue{axes[size_t(i)], 0}); // names the axis
    for (int b = 0; b < bits;) {
      if (rev.column(lo + b) != 0) {
        ++b;
        continue;
      }
      LK_CHECK(checkBit(lo + b));
      int len = 1;
      while (b + len < bits && rev.column(lo + b + len) == 0)
        ++len;
      replica.push_back(
          Iter{int64_t(1) << len, int64_t(1) << b, axes[size_t(i)]});
      b += len;
    }
  }
  return TileLayout::make(std::move(shard), std::move(replica),
                          std::move(offset));
}

} // namespace lk::bridge
