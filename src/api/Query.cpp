//===- Query.cpp - Evaluate, owners, banks --------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Query.h"

#include "layoutkit/api/Layout.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/hw/LaneWarp.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace lk::api {

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

} // namespace

Expected<int64_t> parseInteger(std::string_view text) {
  size_t begin = 0;
  while (begin < text.size() && isBlank(text[begin]))
    ++begin;
  size_t end = text.size();
  while (end > begin && isBlank(text[end - 1]))
    --end;
  if (begin == end)
    return Diagnostic::at("expected an integer", text, begin);
  size_t digits = begin;
  if (text[digits] == '+' || text[digits] == '-')
    ++digits;
  // from_chars does not accept '+'; parse the digits and apply the sign.
  int64_t magnitude = 0;
  const char *first = text.data() + digits;
  const char *last = text.data() + end;
  auto [ptr, ec] = std::from_chars(first, last, magnitude);
  if (ptr == first)
    return Diagnostic::at("expected an integer", text, digits);
  if (ec == std::errc::result_out_of_range)
    return Diagnostic::at("integer does not fit in 64 bits", text, digits,
                          size_t(last - first));
  if (ptr != last)
    return Diagnostic::at("unexpected character after integer", text,
                          size_t(ptr - text.data()));
  return text[begin] == '-' ? -magnitude : magnitude;
}

//===----------------------------------------------------------------------===//
// cute
//===----------------------------------------------------------------------===//

Expected<IntTuple> evaluate(const cute::ComposedLayout &c,
                            const IntTuple &coord) {
  bool plain = c.swizzle.isIdentity() && c.offset == 0;
  if (c.layout.hasBasisStrides()) {
    if (!plain)
      return Diagnostic::error(
          "a swizzle or offset cannot be applied to a basis-stride layout");
    return cute::crd2offset(coord, c.layout);
  }
  LK_TRY(int64_t offset, cute::crd2idx(coord, c));
  return IntTuple(offset);
}

Expected<OffsetTable> tabulate(const cute::ComposedLayout &c) {
  const cute::Layout &l = c.layout;
  OffsetTable table;
  table.title = cuteText(c);
  size_t rank = l.rank();
  if (rank > 2) {
    return Diagnostic::error("show draws layouts of rank 1 or 2; " + l.str() +
                             " has rank " + std::to_string(rank))
        .note("group its modes into two first, e.g. `layoutkit group_modes '" +
              l.str() + "' 1 " + std::to_string(rank) +
              "`, or into one (`group_modes ... 0 " + std::to_string(rank) +
              "`) to show it as a single row");
  }
  if (rank == 2) {
    table.rows = l.mode(0).size();
    table.cols = l.mode(1).size();
  } else {
    table.rows = 1;
    table.cols = l.size();
  }
  if (table.rows * table.cols > kMaxTableCells)
    return Diagnostic::error("layout has " +
                             std::to_string(table.rows * table.cols) +
                             " cells; show draws at most " +
                             std::to_string(kMaxTableCells))
        .note("divide it first, e.g. with zipped_divide, and show a tile");
  table.cells.reserve(size_t(table.rows * table.cols));
  for (int64_t r = 0; r < table.rows; ++r) {
    for (int64_t col = 0; col < table.cols; ++col) {
      IntTuple coord = rank == 2 ? IntTuple::tuple({IntTuple(r), IntTuple(col)})
                                 : IntTuple(col);
      LK_TRY(IntTuple value, evaluate(c, coord));
      table.cells.push_back(std::move(value));
    }
  }
  return table;
}

//===----------------------------------------------------------------------===//
// tile
//===----------------------------------------------------------------------===//

Expected<std::vector<int64_t>> tileShape(const IntTuple &t,
                                         const tile::TileLayout &layout) {
  std::vector<int64_t> shape;
  if (t.isLeaf()) {
    shape.push_back(t.value());
  } else {
    for (size_t k = 0; k < t.rank(); ++k) {
      IntTuple mode = t[k];
      if (!mode.isLeaf())
        return Diagnostic::error("a logical shape is a flat tuple of "
                                 "extents, e.g. (8,16); got " +
                                 t.str());
      shape.push_back(mode.value());
    }
  }
  if (shape.empty())
    return Diagnostic::error("a logical shape needs at least one extent");
  LK_CHECK(layout.admits(shape));
  return shape;
}

Expected<int64_t> tileIndex(const IntTuple &t, const tile::TileLayout &layout,
                            std::span<const int64_t> shape) {
  if (t.isLeaf() && shape.size() != 1) {
    int64_t flat = t.value();
    if (flat < 0 || flat >= layout.size())
      return Diagnostic::error("index " + std::to_string(flat) +
                               " is outside [0, " +
                               std::to_string(layout.size()) + ")");
    return flat;
  }
  std::vector<int64_t> coord;
  for (const IntTuple::Node &n : t.leaves())
    coord.push_back(n.value);
  if (!t.isLeaf() && t.leafCount() != t.rank())
    return Diagnostic::error("a coordinate is a flat tuple, e.g. (7,15)");
  return layout.flatten(shape, coord);
}

bool isOwnerAxis(tile::Axis a) {
  return a.kind() == tile::AxisKind::Thread ||
         a.kind() == tile::AxisKind::Device;
}

std::vector<Owner> owners(const tile::ComposeLayout &layout, int64_t flat) {
  tile::CoordSet set = layout.eval(flat);
  std::span<const tile::Axis> axes = layout.tile().axes();
  std::vector<Owner> r(set.size());
  for (size_t i = 0; i < set.size(); ++i)
    for (size_t k = 0; k < axes.size(); ++k)
      (isOwnerAxis(axes[k]) ? r[i].owner : r[i].at)
          .push_back({axes[k], set[i][k]});
  return r;
}

Expected<std::vector<tile::AxisValue>> parseAxisValues(std::string_view text) {
  std::vector<tile::AxisValue> where;
  size_t p = 0;
  auto blank = [&] {
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t'))
      ++p;
  };
  while (true) {
    blank();
    size_t nameAt = p;
    while (p < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[p])) || text[p] == '_'))
      ++p;
    if (p == nameAt)
      return Diagnostic::at("expected an axis name, e.g. laneid=3", text,
                            nameAt);
    std::string name(text.substr(nameAt, p - nameAt));
    auto axis = tile::Axis::byName(name);
    if (!axis)
      return Diagnostic::at(axis.error().message, text, nameAt, name.size());
    blank();
    if (p >= text.size() || text[p] != '=')
      return Diagnostic::at("expected '=' after axis " + name, text, p);
    ++p;
    blank();
    size_t valueAt = p;
    while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p])))
      ++p;
    auto value = parseInteger(text.substr(valueAt, p - valueAt));
    if (p == valueAt || !value)
      return Diagnostic::at("expected a non-negative value for axis " + name,
                            text, valueAt);
    for (const tile::AxisValue &w : where)
      if (w.axis == *axis)
        return Diagnostic::at("axis " + name + " is given twice", text, nameAt,
                              name.size());
    where.push_back({*axis, *value});
    blank();
    if (p == text.size())
      return where;
    if (text[p] != ',')
      return Diagnostic::at("expected ',' or the end after a value", text, p);
    ++p;
  }
}

Expected<std::vector<int64_t>>
holders(const tile::ComposeLayout &layout,
        std::span<const tile::AxisValue> where) {
  if (!layout.swizzle().isIdentity())
    return Diagnostic::error("tile holds: invert the tile layout without "
                             "its swizzle (the swizzle only moves m)");
  return layout.tile().holders(where);
}

Expected<tile::MemoryLayout>
memoryLayout(const tile::ComposeLayout &layout, int64_t dtypeBits,
             std::optional<std::string_view> swizzleMode) {
  if (!swizzleMode)
    return tile::MemoryLayout::of(layout);
  if (!layout.swizzle().isIdentity())
    return Diagnostic::error("the layout already has a swizzle (" +
                             layout.swizzle().str() +
                             "); drop the swizzle mode (--swizzle)");
  LK_TRY(tile::SwizzleMode m, tile::swizzleModeByName(*swizzleMode));
  LK_TRY(tile::SwizzleLayout s, tile::SwizzleLayout::forDtype(dtypeBits, m));
  return tile::MemoryLayout::of(tile::ComposeLayout(s, layout.tile()));
}

int64_t laneCount(const ColumnRead &read) {
  return read.lanes ? *read.lanes : std::min(read.rows, hw::kWarpLanes);
}

Expected<tile::BankConflicts> columnConflicts(const tile::MemoryLayout &memory,
                                              int64_t dtypeBits,
                                              const ColumnRead &read) {
  LK_TRY(tile::BankAccess access,
         tile::columnAccess(read.rows, read.cols, read.firstRow,
                            laneCount(read), read.column, read.vector));
  return tile::bankConflicts(memory, dtypeBits, access);
}

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

Expected<std::vector<int64_t>> parseDimValues(std::string_view text,
                                              const linear::LinearLayout &l) {
  std::vector<int64_t> values(size_t(l.numInDims()), 0);
  size_t p = 0;
  while (p < text.size()) {
    size_t eq = text.find('=', p);
    size_t end = text.find(',', p);
    if (end == std::string_view::npos)
      end = text.size();
    if (eq == std::string_view::npos || eq > end)
      return Diagnostic::at("expected dim=value, e.g. lane=5", text, p);
    std::string name(text.substr(p, eq - p));
    while (!name.empty() && name.back() == ' ')
      name.pop_back();
    while (!name.empty() && name.front() == ' ')
      name.erase(name.begin());
    int idx = l.inDimIndex(linear::internDim(name));
    if (idx < 0)
      return Diagnostic::at("the layout has no input dim '" + name + "'", text,
                            p, eq - p);
    auto v = parseInteger(text.substr(eq + 1, end - eq - 1));
    if (!v)
      return Diagnostic::at("expected an integer value for " + name, text,
                            eq + 1, std::max<size_t>(1, end - eq - 1));
    values[size_t(idx)] = *v;
    p = end + 1;
  }
  return values;
}

} // namespace lk::api
