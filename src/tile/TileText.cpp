//===- TileText.cpp - Text form of tile layouts ---------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A recursive-descent parser over lk::Lexer for the grammar of TileText.h.
/// It reports the first error with a source range and is bounded: at most
/// TileLayout::kMaxIters iters, no recursion, so arbitrary input is safe.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TileText.h"

#include "layoutkit/core/Lexer.h"

namespace lk::tile {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

class TileParser {
public:
  explicit TileParser(std::string_view text) : lx_(text) {}

  Expected<TileLayout> layout() {
    if (!lx_.consumeIf('S'))
      return lx_.expected("'S[' to open the shard");
    LK_CHECK(lx_.expect('[', "after 'S'"));
    LK_CHECK(iters(shard_, "shard"));
    LK_CHECK(lx_.expect(']', "to close the shard"));
    while (!lx_.atEnd()) {
      if (!lx_.consumeIf('+'))
        return lx_.expected("'+' or end of input after a term");
      char c = lx_.peek();
      if (c == 'R') {
        lx_.consumeIf('R');
        LK_CHECK(lx_.expect('[', "after 'R'"));
        LK_CHECK(iters(replica_, "replica"));
        LK_CHECK(lx_.expect(']', "to close the replica"));
      } else if (isDigit(c)) {
        LK_CHECK(offsetTerm());
      } else {
        return lx_.expected(
            "'R[' (a replica) or an offset (an integer) after '+'");
      }
    }
    Expected<TileLayout> l = TileLayout::make(shard_, replica_, offset_);
    if (!l)
      return lx_.error(l.error().message, 0, lx_.text().size());
    return l;
  }

private:
  /// `uint [@ axis]`: a stride or an offset value with its axis.
  Status valueWithAxis(std::string_view what, int64_t &value, Axis &axis) {
    LK_TRY(value, lx_.readUint(what));
    axis = Axis::m();
    if (lx_.consumeIf('@')) {
      lx_.peek();
      size_t start = lx_.pos();
      LK_TRY(std::string name, lx_.readWord("an axis name after '@'"));
      Expected<Axis> a = Axis::byName(name);
      if (!a) {
        Diagnostic d = lx_.error(a.error().message, start, name.size());
        d.notes = a.error().notes;
        return d;
      }
      axis = *a;
    }
    return Ok{};
  }

  Status extent(IterList &out) {
    lx_.peek();
    size_t start = lx_.pos();
    if (shard_.size() + replica_.size() >= TileLayout::kMaxIters)
      return lx_.error("a tile layout has at most " +
                           std::to_string(TileLayout::kMaxIters) + " iters",
                       start);
    LK_TRY(int64_t e, lx_.readUint("an extent"));
    if (e < 1)
      return lx_.error("extent " + std::to_string(e) + " must be at least 1",
                       start, lx_.pos() - start);
    out.push_back(Iter{e, 0, Axis::m()});
    return Ok{};
  }

  /// `(e,...):(s,...)` or `e:s`, appended to `out`.
  Status iters(IterList &out, std::string_view part) {
    size_t first = out.size();
    std::string partStr(part);
    bool grouped = lx_.consumeIf('(');
    if (grouped) {
      while (true) {
        LK_CHECK(extent(out));
        if (lx_.consumeIf(','))
          continue;
        if (lx_.consumeIf(')'))
          break;
        return lx_.expected("',' or ')' in the " + partStr + " extents");
      }
    } else {
      if (!isDigit(lx_.peek()))
        return lx_.expected("an extent (a positive integer) or '(' in the " +
                            partStr);
      LK_CHECK(extent(out));
    }
    if (!lx_.consumeIf(':')) // message built only on failure (no allocation)
      return lx_.expected("':' between the " + partStr +
                          " extents and strides");
    size_t count = out.size() - first;
    lx_.peek();
    size_t stridesAt = lx_.pos();
    if (grouped) {
      if (!lx_.consumeIf('('))
        return lx_.expected("'(' to open the " + partStr +
                            " strides (the extents are parenthesized)");
    }
    size_t k = first;
    while (true) {
      lx_.peek();
      size_t at = lx_.pos();
      int64_t s;
      Axis a;
      LK_CHECK(valueWithAxis("a stride", s, a));
      if (k >= out.size())
        return lx_.error(partStr + " has " + std::to_string(count) +
                             (count == 1 ? " extent" : " extents") +
                             " but more strides",
                         at, lx_.pos() - at);
      out[k].stride = s;
      out[k].axis = a;
      ++k;
      if (!grouped)
        break;
      if (lx_.consumeIf(','))
        continue;
      if (lx_.consumeIf(')'))
        break;
      return lx_.expected("',' or ')' in the " + partStr + " strides");
    }
    if (k != out.size())
      return lx_.error(partStr + " has " + std::to_string(count) +
                           " extents but " + std::to_string(k - first) +
                           (k - first == 1 ? " stride" : " strides"),
                       stridesAt, lx_.pos() - stridesAt);
    return Ok{};
  }

  Status offsetTerm() {
    lx_.peek();
    size_t start = lx_.pos();
    int64_t v;
    Axis a;
    LK_CHECK(valueWithAxis("an offset", v, a));
    for (const AxisValue &o : offset_)
      if (o.axis == a)
        return lx_.error("second offset on axis " + std::string(a.name()) +
                             " (the offset has one integer per axis)",
                         start, lx_.pos() - start);
    offset_.push_back(AxisValue{a, v});
    return Ok{};
  }

  Lexer lx_;
  IterList shard_;
  IterList replica_;
  OffsetList offset_;
};

void appendIters(std::string &s, const IterList &iters, size_t first,
                 size_t count) {
  s += "(";
  for (size_t k = first; k < first + count; ++k)
    s += (k > first ? "," : "") + std::to_string(iters[k].extent);
  s += "):(";
  for (size_t k = first; k < first + count; ++k)
    s += (k > first ? "," : "") + strideText(iters[k].stride, iters[k].axis);
  s += ")";
}

} // namespace

std::string strideText(int64_t stride, Axis axis) {
  std::string s = std::to_string(stride);
  if (!axis.isMemory()) {
    s += '@';
    s += axis.name();
  }
  return s;
}

Expected<TileLayout> parseTileLayout(std::string_view text) {
  TileParser p(text);
  return p.layout();
}

std::string printTileLayout(const TileLayout &l) {
  std::string s = "S[";
  appendIters(s, l.shard(), 0, l.shard().size());
  s += "]";
  for (const Iter &it : l.replica())
    s += " + R[" + std::to_string(it.extent) + ":" +
         strideText(it.stride, it.axis) + "]";
  for (const AxisValue &o : l.offset())
    s += " + " + strideText(o.value, o.axis);
  return s;
}

} // namespace lk::tile
