//===- LinearCute.cpp - Bridge between linear and cute layouts ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/LinearCute.h"

#include "layoutkit/core/Bits.h"

#include <bit>
#include <string>

namespace lk::bridge {

using linear::DimId;
using linear::DimSize;
using linear::LinearLayout;

linear::DimId indexDim() {
  static const DimId id = linear::internDim("index");
  return id;
}

namespace {

std::string binary(uint64_t v) {
  if (v == 0)
    return "0b0";
  std::string s;
  for (int b = 63 - std::countl_zero(v); b >= 0; --b)
    s += (v >> b) & 1 ? '1' : '0';
  return "0b" + s;
}

/// Columns of a plain cute layout (index bit j -> offset), checked.
struct CuteColumns {
  std::vector<uint64_t> cols;
  std::vector<int> modeBits; ///< bits per top-level mode
};

Expected<CuteColumns> cuteColumns(const cute::Layout &l,
                                  const std::string &text) {
  CuteColumns out;
  // Leaves of each top-level mode, in order (a leaf layout is one mode).
  std::vector<std::pair<IntTuple::Node, IntTuple::Node>> leaves;
  std::vector<size_t> leavesPerMode;
  if (l.shape().isLeaf()) {
    leaves.push_back({l.shape().nodes()[0], l.stride().nodes()[0]});
    leavesPerMode.push_back(1);
  } else {
    for (size_t m = 0; m < l.rank(); ++m) {
      auto s = l.shape()[m].leaves();
      auto d = l.stride()[m].leaves();
      for (size_t k = 0; k < s.size(); ++k)
        leaves.push_back({s[k], d[k]});
      leavesPerMode.push_back(s.size());
    }
  }
  uint64_t used = 0;
  size_t leafIndex = 0;
  for (size_t m = 0; m < leavesPerMode.size(); ++m) {
    int bits = 0;
    for (size_t k = 0; k < leavesPerMode[m]; ++k, ++leafIndex) {
      const IntTuple::Node &s = leaves[leafIndex].first;
      const IntTuple::Node &d = leaves[leafIndex].second;
      BasisPath path = BasisPath::fromRaw(d.basis);
      std::string leafText =
          std::to_string(s.value) + ":" + IntTuple::leaf(d.value, path).str();
      std::string where = "leaf " + std::to_string(leafIndex) + " (" +
                          leafText + ") of " + text;
      if (s.value <= 0 || !std::has_single_bit(uint64_t(s.value)))
        return Diagnostic::error(where + " has extent " +
                                 std::to_string(s.value) +
                                 ", not a power of two");
      if (!path.empty())
        return Diagnostic::error(where +
                                 " has a basis stride; the bridge reads "
                                 "plain integer strides (offsets)");
      if (d.value < 0)
        return Diagnostic::error(where +
                                 " has a negative stride; offsets over F2 "
                                 "are non-negative");
      int k2 = std::countr_zero(uint64_t(s.value));
      for (int i = 0; i < k2; ++i) {
        uint64_t c = uint64_t(d.value);
        if (c != 0 && bitWidth(c) + i > 63)
          return Diagnostic::error(
              where + ": offset " + std::to_string(d.value) + " * 2^" +
              std::to_string(i) + " does not fit in 63 bits");
        c <<= i;
        if (c & used) {
          size_t j = 0;
          while (!(out.cols[j] & c))
            ++j;
          return Diagnostic::error(
              where + ": bit " + std::to_string(i) +
              " of the leaf maps to offset " + std::to_string(c) +
              ", which shares bits with index bit " + std::to_string(j) +
              " (offset " + std::to_string(out.cols[j]) +
              "): the sum carries, so the map is not linear "
              "over F2");
        }
        used |= c;
        out.cols.push_back(c);
        ++bits;
      }
      if (out.cols.size() > size_t(LinearLayout::kMaxBits))
        return Diagnostic::error(text + " has more than 64 index bits");
    }
    out.modeBits.push_back(bits);
  }
  return out;
}

Expected<LinearLayout> columnsToLinear(const CuteColumns &c,
                                       const CuteToLinearDims &dims,
                                       const std::string &text) {
  std::vector<DimSize> ins;
  if (dims.inDims.empty()) {
    ins.push_back({indexDim(), int(c.cols.size())});
  } else {
    if (dims.inDims.size() != c.modeBits.size())
      return Diagnostic::error(std::to_string(dims.inDims.size()) +
                               " in-dim names for " + text + ", which has " +
                               std::to_string(c.modeBits.size()) +
                               " top-level modes");
    for (size_t m = 0; m < c.modeBits.size(); ++m)
      ins.push_back({dims.inDims[m], c.modeBits[m]});
  }
  uint64_t all = 0;
  for (uint64_t col : c.cols)
    all |= col;
  int outBits = bitWidth(all);
  if (!dims.outDims.empty()) {
    int want = 0;
    for (const linear::OutDim &o : dims.outDims) {
      if (o.size <= 0 || !std::has_single_bit(uint64_t(o.size)))
        return Diagnostic::error(
            "out-dim " + std::string(linear::dimName(o.dim)) + " has size " +
            std::to_string(o.size) + ", not a power of two");
      want += std::countr_zero(uint64_t(o.size));
    }
    if (want < outBits)
      return Diagnostic::error("the out-dims hold " + std::to_string(want) +
                               " bits, but " + text + " reaches offset bit " +
                               std::to_string(outBits - 1));
    outBits = want;
  }
  if (outBits > LinearLayout::kMaxBits)
    return Diagnostic::error(text + " has offsets of more than 64 bits");
  DimSize out{linear::dims::kOffset, outBits};
  LK_TRY(LinearLayout ll,
         LinearLayout::fromColumns(ins, std::span(&out, 1), c.cols));
  if (dims.outDims.empty())
    return ll;
  return ll.reshapeOuts(dims.outDims);
}

/// Leaves (extent, stride) of the columns [begin, end) merged where they
/// double or stay zero.
void mergedLeaves(std::span<const uint64_t> cols, std::vector<int64_t> &shape,
                  std::vector<int64_t> &stride) {
  size_t j = 0;
  while (j < cols.size()) {
    int64_t extent = 2;
    uint64_t first = cols[j], last = cols[j];
    size_t k = j + 1;
    while (k < cols.size() &&
           ((first == 0 && cols[k] == 0) ||
            (first != 0 && bitWidth(last) < 64 && cols[k] == last << 1))) {
      last = cols[k];
      extent *= 2;
      ++k;
    }
    shape.push_back(extent);
    stride.push_back(int64_t(first));
    j = k;
  }
}

Expected<cute::Layout> columnsToCute(const LinearLayout &ll,
                                     std::span<const uint64_t> cols,
                                     const IntTuple *shape) {
  if (ll.totalOutBits() > 63)
    return Diagnostic::error(
        "a cute offset holds at most 63 bits; the layout has " +
        std::to_string(ll.totalOutBits()) + " output bits");
  // The merged leaf extents below are at most 2^(input bits).
  if (ll.totalInBits() > 62)
    return Diagnostic::error(
        "a cute layout has at most 2^62 elements; the layout has " +
        std::to_string(ll.totalInBits()) + " input bits");
  // Disjoint non-zero columns: sum == XOR.
  uint64_t used = 0;
  auto name = [&](int j) {
    int i = ll.numInDims() - 1;
    while (ll.inShift(i) > j)
      --i;
    return "basis " + std::to_string(j - ll.inShift(i)) + " of in-dim " +
           std::string(linear::dimName(ll.inDim(i).id));
  };
  for (size_t j = 0; j < cols.size(); ++j) {
    if (cols[j] & used) {
      size_t k = 0;
      while (!(cols[k] & cols[j]))
        ++k;
      return Diagnostic::error(name(int(j)) + " maps to " + binary(cols[j]) +
                               ", which shares bits with " + name(int(k)) +
                               " (" + binary(cols[k]) +
                               "): the map is not a permutation of strided "
                               "bits (the offsets would carry)");
    }
    used |= cols[j];
  }
  if (shape) {
    auto leaves = shape->leaves();
    std::vector<int64_t> strides;
    size_t j = 0;
    for (size_t k = 0; k < leaves.size(); ++k) {
      int64_t e = leaves[k].value;
      if (e <= 0 || !std::has_single_bit(uint64_t(e)) || leaves[k].basis != 0)
        return Diagnostic::error("leaf " + std::to_string(k) + " of shape " +
                                 shape->str() + " has extent " +
                                 std::to_string(e) + ", not a power of two");
      int bits = std::countr_zero(uint64_t(e));
      if (j + size_t(bits) > cols.size())
        return Diagnostic::error(
            "shape " + shape->str() + " has more bits than the " +
            std::to_string(cols.size()) + " input bits of the layout");
      uint64_t first = bits ? cols[j] : 0;
      for (int i = 0; i < bits; ++i)
        if (cols[j + size_t(i)] != first << i)
          return Diagnostic::error(
              "leaf " + std::to_string(k) + " (extent " + std::to_string(e) +
              ") of shape " + shape->str() + ": " + name(int(j) + i) +
              " maps to " + binary(cols[j + size_t(i)]) + ", not " +
              binary(first << i) + ": the bits are not one strided walk");
      strides.push_back(int64_t(first));
      j += size_t(bits);
    }
    if (j != cols.size())
      return Diagnostic::error("shape " + shape->str() + " has " +
                               std::to_string(j) + " bits; the layout has " +
                               std::to_string(cols.size()) + " input bits");
    return cute::Layout::make(*shape, shape->withLeaves(strides.data()));
  }
  std::vector<IntTuple> modeShapes, modeStrides;
  for (int i = 0; i < ll.numInDims(); ++i) {
    std::vector<int64_t> s, d;
    mergedLeaves(cols.subspan(size_t(ll.inShift(i)), size_t(ll.inDim(i).log2)),
                 s, d);
    if (s.empty()) {
      modeShapes.push_back(IntTuple(int64_t(1)));
      modeStrides.push_back(IntTuple(int64_t(0)));
    } else if (s.size() == 1) {
      modeShapes.push_back(IntTuple(s[0]));
      modeStrides.push_back(IntTuple(d[0]));
    } else {
      std::vector<IntTuple> ts, td;
      for (size_t k = 0; k < s.size(); ++k) {
        ts.push_back(IntTuple(s[k]));
        td.push_back(IntTuple(d[k]));
      }
      modeShapes.push_back(IntTuple::tuple(ts));
      modeStrides.push_back(IntTuple::tuple(td));
    }
  }
  if (modeShapes.empty())
    return cute::Layout();
  if (modeShapes.size() == 1)
    return cute::Layout::make(modeShapes[0], modeStrides[0]);
  return cute::Layout::make(IntTuple::tuple(modeShapes),
                            IntTuple::tuple(modeStrides));
}

} // namespace

Expected<LinearLayout> cuteToLinear(const cute::Layout &layout,
                                    const CuteToLinearDims &dims) {
  std::string text = layout.str();
  LK_TRY(CuteColumns c, cuteColumns(layout, text));
  return columnsToLinear(c, dims, text);
}

Expected<LinearLayout> cuteToLinear(const cute::ComposedLayout &layout,
                                    const CuteToLinearDims &dims) {
  // Named as written: a plain layout read as one has the identity swizzle,
  // which a message would otherwise show ("Sw<0,0,0> o (3,4):(1,3)").
  const bool plain = layout.swizzle.isIdentity() && layout.offset == 0;
  std::string text = plain ? layout.layout.str() : layout.str();
  if (layout.offset != 0)
    return Diagnostic::error(
        "offset " + std::to_string(layout.offset) + " of " + text +
        " is not representable: a linear layout maps index 0 "
        "to offset 0");
  LK_TRY(CuteColumns c, cuteColumns(layout.layout, text));
  for (uint64_t &col : c.cols)
    col = uint64_t(layout.swizzle(int64_t(col)));
  return columnsToLinear(c, dims, text);
}

Expected<cute::Layout> linearToCute(const LinearLayout &ll,
                                    const IntTuple *shape) {
  return columnsToCute(ll, ll.columns(), shape);
}

Expected<cute::ComposedLayout> linearToCute(const LinearLayout &ll,
                                            const cute::Swizzle &swizzle,
                                            const IntTuple *shape) {
  std::vector<uint64_t> cols(ll.columns().begin(), ll.columns().end());
  for (uint64_t &c : cols) {
    if (bitWidth(c) > 62)
      return Diagnostic::error("a swizzled offset holds at most 62 bits");
    c = uint64_t(swizzle(int64_t(c)));
  }
  LK_TRY(cute::Layout l, columnsToCute(ll, cols, shape));
  return cute::ComposedLayout{swizzle, 0, std::move(l)};
}

} // namespace lk::bridge
