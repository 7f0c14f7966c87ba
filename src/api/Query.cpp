//===- Query.cpp - Evaluate, owners, banks --------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Query.h"

#include "layoutkit/api/Layout.h"
#include "layoutkit/core/Checked.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/core/Lexer.h"
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
  size_t digits = begin;
  if (digits < end && text[digits] == '+')
    ++digits; // the Lexer reads '-' itself
  if (digits == end || (digits > begin && text[digits] == '-'))
    return Diagnostic::at("expected an integer", text, digits);
  // The shared integer lexer (decimal or 0x hex), over the trimmed text.
  Lexer lx(text.substr(0, end), /*newlinesAreBlank=*/false);
  lx.reset(digits);
  auto v = lx.readInt("");
  if (!v) {
    if (v.error().message.find("does not fit") != std::string::npos)
      return Diagnostic::at("integer does not fit in 64 bits", text, digits,
                            end - digits);
    return Diagnostic::at("expected an integer", text, digits);
  }
  if (lx.pos() != end)
    return Diagnostic::at("unexpected character after integer", text, lx.pos());
  return *v;
}

//===----------------------------------------------------------------------===//
// cute
//===----------------------------------------------------------------------===//

Expected<IntTuple> idx2crd(const IntTuple &idx, const IntTuple &s,
                           const IntTuple &d) {
  auto fail = [&](const std::string &why) {
    return Diagnostic::error("idx2crd(" + idx.str() + ", " + s.str() + ", " +
                             d.str() + "): " + why);
  };
  if (idx.isTuple() || s.isTuple()) {
    if (s.isLeaf() || d.isLeaf() || s.rank() != d.rank() ||
        (idx.isTuple() && idx.rank() != s.rank()))
      return fail("the index, shape and stride are not congruent");
    IntTuple r;
    for (size_t i = 0; i < s.rank(); ++i) {
      LK_TRY(IntTuple c, idx2crd(idx.isTuple() ? idx[i] : idx, s[i], d[i]));
      r.push_back(std::move(c));
    }
    return r;
  }
  if (d.isTuple())
    return fail("the stride is not congruent to the shape");
  if (d.value() == 0 || s.value() <= 0)
    return fail("strides must be nonzero and shapes positive");
  if (idx.value() == INT64_MIN && d.value() == -1)
    return fail("integer overflow");
  return IntTuple((idx.value() / d.value()) % s.value());
}

Expected<std::vector<int64_t>> offsets(const cute::ComposedLayout &c) {
  if (c.layout.hasBasisStrides())
    return Diagnostic::error("offsets: the layout has basis strides");
  int64_t n = c.layout.size();
  LK_CHECK(checkWork("offsets", n, 1, kMaxArrayValues));
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    out[size_t(i)] = c.swizzle(c.offset + cute::evaluate(c.layout, i));
  return out;
}

/// sum over leaves of (s-1)|d| fits in int64: for 0 <= x < size(l) the
/// unchecked cute::evaluate cannot overflow.
static bool evaluationBoundFits(const cute::Layout &l) {
  int64_t bound = 0;
  auto s = l.shape().leaves();
  auto d = l.stride().leaves();
  for (size_t k = 0; k < s.size(); ++k) {
    int64_t t;
    if (d[k].value == INT64_MIN ||
        mulOverflows(s[k].value - 1, std::abs(d[k].value), t) ||
        addOverflows(bound, t, bound))
      return false;
  }
  return true;
}

std::optional<ColumnFailure>
evaluateColumns(std::span<const EvalColumn> columns, std::span<int64_t> out,
                const cute::ComposedLayout *composed) {
  std::vector<bool> fits;
  for (const EvalColumn &c : columns)
    fits.push_back(evaluationBoundFits(c.layout));
  for (size_t e = 0; e < out.size(); ++e) {
    int64_t r = 0;
    for (size_t k = 0; k < columns.size(); ++k) {
      const EvalColumn &c = columns[k];
      int64_t x = c.values[e];
      if (fits[k] && x >= 0 && x < c.layout.size()) {
        if (addOverflows(r, cute::evaluate(c.layout, x), r))
          return ColumnFailure{int64_t(e), Arith::diagnostic("crd2idx")};
        continue;
      }
      Expected<int64_t> v = cute::crd2idx(IntTuple(x), c.layout);
      if (!v || addOverflows(r, *v, r))
        return ColumnFailure{int64_t(e),
                             v ? Arith::diagnostic("crd2idx") : v.error()};
    }
    if (composed) {
      if (addOverflows(r, composed->offset, r))
        return ColumnFailure{
            int64_t(e), Arith::diagnostic("the offset of " + composed->str())};
      r = composed->swizzle(r);
    }
    out[e] = r;
  }
  return std::nullopt;
}

Expected<IntTuple> evaluate(const cute::ComposedLayout &c,
                            const IntTuple &coord) {
  bool plain = c.swizzle.isIdentity() && c.offset == 0;
  if (c.layout.hasBasisStrides()) {
    if (!plain) // refused where it is made; a value built field by field
      return cute::ComposedLayout::make(c.swizzle, c.offset, c.layout).error();
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
  int64_t cells = 0;
  if (mulOverflows(table.rows, table.cols, cells) || cells > kMaxTableCells)
    return Diagnostic::error("layout has " + std::to_string(table.rows) +
                             " x " + std::to_string(table.cols) +
                             " cells; show draws at most " +
                             std::to_string(kMaxTableCells))
        .note("divide it first, e.g. with zipped_divide, and show a tile");
  // A basis-stride cell is a codomain tuple: bound the values, not only the
  // cells, before filling the table. Every cell has the first one's form.
  if (cells > 0) {
    IntTuple origin =
        rank == 2 ? IntTuple::tuple({IntTuple(0), IntTuple(0)}) : IntTuple(0);
    LK_TRY(IntTuple first, evaluate(c, origin));
    int64_t perCell = int64_t(first.leafCount());
    if (perCell > kMaxTableValues / cells)
      return Diagnostic::error("the table would hold " + std::to_string(cells) +
                               " cells of " + std::to_string(perCell) +
                               " values; show draws at most " +
                               std::to_string(kMaxTableValues) + " values")
          .note("divide it first, or show a layout with fewer basis "
                "coordinates");
  }
  table.cells.reserve(size_t(cells));
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

Expected<OffsetTable> tabulateGrouped(const cute::ComposedLayout &c) {
  size_t rank = c.layout.rank();
  if (rank <= 2)
    return tabulate(c);
  cute::ComposedLayout grouped = c;
  LK_TRY(grouped.layout, cute::group_modes(c.layout, 1, rank));
  LK_TRY(OffsetTable table, tabulate(grouped));
  table.title = cuteText(c);
  table.grouping = "modes 1.." + std::to_string(rank - 1) +
                   " grouped across (mode 1 fastest)";
  return table;
}

//===----------------------------------------------------------------------===//
// tile
//===----------------------------------------------------------------------===//

Expected<std::vector<int64_t>> logicalShape(const IntTuple &t) {
  std::vector<int64_t> shape;
  if (t.isLeaf()) {
    shape.push_back(t.value());
  } else {
    for (size_t k = 0; k < t.rank(); ++k) {
      IntTuple mode = t[k];
      if (!mode.isLeaf())
        return Diagnostic::error("a logical shape is a flat tuple of "
                                 "extents, e.g. (8,16); got " +
                                 t.str())
            .about("shape");
      shape.push_back(mode.value());
    }
  }
  if (shape.empty())
    return Diagnostic::error("a logical shape needs at least one extent")
        .about("shape");
  LK_CHECK(tile::TileLayout::checkExtents(shape));
  return shape;
}

Expected<std::vector<int64_t>> tileShape(const IntTuple &t,
                                         const tile::TileLayout &layout) {
  LK_TRY(std::vector<int64_t> shape, logicalShape(t));
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
  if (t.depth() > 1) // ((1),1): a mode of rank 1 is still a tuple
    return Diagnostic::error("a coordinate is a flat tuple, e.g. (7,15); got " +
                             t.str());
  std::vector<int64_t> coord;
  for (const IntTuple::Node &n : t.leaves())
    coord.push_back(n.value);
  return layout.flatten(shape, coord);
}

bool isOwnerAxis(tile::Axis a) {
  return a.kind() == tile::AxisKind::Thread ||
         a.kind() == tile::AxisKind::Device;
}

std::string threadFormula(std::span<const tile::Axis> axes) {
  std::string s;
  for (tile::Axis a : axes)
    if (int64_t w = threadWeight(a))
      s += (s.empty() ? "" : " + ") + (w > 1 ? std::to_string(w) + " " : "") +
           std::string(a.name());
  return s;
}

/// tvGrid's refusals of the tile and the layout, before any work.
static Status checkTvGrid(const cute::Layout &tv,
                          std::span<const int64_t> shape) {
  if (shape.empty() || shape.size() > 2)
    return Diagnostic::error("a TV layout's tile has rank 1 or 2, not " +
                             std::to_string(shape.size()));
  if (shape[0] < 1 || shape.back() < 1)
    return Diagnostic::error("a TV layout's tile has an extent below 1");
  int64_t rows = shape[0], cols = shape.size() > 1 ? shape[1] : 1, cells = 0;
  if (bool over = mulOverflows(rows, cols, cells);
      over || cells > kMaxDrawCells)
    return Diagnostic::error("the TV layout's tile is " + std::to_string(rows) +
                             " rows x " + std::to_string(cols) + " columns = " +
                             (over ? "over 2^63" : std::to_string(cells)) +
                             " cells; the view draws at most " +
                             std::to_string(kMaxDrawCells) + " cells");
  if (tv.rank() > 2 || tv.hasBasisStrides())
    return Diagnostic::error("a TV layout is (thread, value) -> index with "
                             "integer strides; " +
                             tv.str() + " is not");
  return checkWork("the TV layout", tv.size(), 1, kMaxTableValues);
}

Expected<TvGrid> tvGrid(const cute::Layout &tv,
                        std::span<const int64_t> shape) {
  LK_CHECK(checkTvGrid(tv, shape));
  TvGrid g;
  g.rows = shape[0];
  g.cols = shape.size() > 1 ? shape[1] : 1;
  g.threads = tv.rank() == 2 ? tv.mode(0).size() : tv.size();
  g.values = tv.rank() == 2 ? tv.mode(1).size() : 1;
  g.holders.resize(size_t(g.rows * g.cols));
  for (int64_t t = 0; t < g.threads; ++t)
    for (int64_t v = 0; v < g.values; ++v) {
      int64_t i = cute::evaluate(tv, t + g.threads * v);
      if (i < 0 || i >= g.rows * g.cols)
        return Diagnostic::error("thread " + std::to_string(t) + ", value " +
                                 std::to_string(v) + " maps to index " +
                                 std::to_string(i) + ", outside the shape's " +
                                 std::to_string(g.rows * g.cols) + " elements");
      g.holders[size_t(i % g.rows * g.cols + i / g.rows)].push_back({t, v});
    }
  return g;
}

Expected<TvGrid> atomGrid(const hw::Atom &a) {
  std::vector<int64_t> shape = a.logicalShape();
  TvGrid g;
  g.cols = shape.back();
  g.rows = 1;
  for (size_t d = 0; d + 1 < shape.size(); ++d) {
    LK_TRY(g.rows, checkedMul(g.rows, shape[d], "the atom's rows"));
  }
  if (g.rows > kMaxDrawCells / g.cols)
    return Diagnostic::error("atom " + a.name + " has more than " +
                             std::to_string(kMaxDrawCells) +
                             " elements to draw");
  g.threads = a.threads;
  g.values = a.values;
  g.holders.resize(size_t(g.rows * g.cols));
  for (int64_t t = 0; t < a.threads; ++t)
    for (int64_t v = 0; v < a.values; ++v) {
      LK_TRY(std::vector<int64_t> c, a.eval(t, v));
      int64_t row = 0;
      for (size_t d = 0; d + 1 < c.size(); ++d)
        row = row * shape[d] + c[d];
      g.holders[size_t(row * g.cols + c.back())].push_back({t, v});
    }
  return g;
}

Expected<LinearGrid> linearGrid(const linear::LinearLayout &l,
                                int64_t maxInputs) {
  const int outs = l.numOutDims();
  if (outs < 1 || outs > 2)
    return Diagnostic::error("the picture needs one or two output dims; the "
                             "layout has " +
                             std::to_string(outs));
  if (l.totalOutBits() > 62 || l.totalOutSize() > kMaxDrawCells)
    return Diagnostic::error("the picture draws at most " +
                             std::to_string(kMaxDrawCells) +
                             " cells; the layout has 2^" +
                             std::to_string(l.totalOutBits()) + " outputs");
  if (l.totalInBits() > 62 || l.totalInSize() > maxInputs)
    return Diagnostic::error(
        "the picture reads at most " + std::to_string(maxInputs) +
        " inputs; the layout has 2^" + std::to_string(l.totalInBits()));
  LinearGrid g;
  g.rows = outs == 2 ? int64_t(1) << l.outDim(0).log2 : 1;
  g.cols = int64_t(1) << l.outDim(outs - 1).log2;
  g.holders.resize(size_t(g.rows * g.cols));
  for (int64_t x = 0; x < l.totalInSize(); ++x) {
    std::vector<int64_t> out = l.unpackOut(l.applyFlat(uint64_t(x)));
    g.holders[size_t((outs == 2 ? out[0] : 0) * g.cols + out.back())].push_back(
        x);
  }
  return g;
}

Expected<int64_t> linearThread(const linear::LinearLayout &l,
                               std::span<const int64_t> in) {
  for (int i = 0; i < l.numInDims(); ++i) {
    linear::DimSize d = l.inDim(i);
    if (d.log2 > 0 && d.id > linear::dims::kBlock)
      return Diagnostic::error(
          "a thread number needs inputs register, lane, warp and block "
          "only; this layout also has '" +
          std::string(linear::dimName(d.id)) + "' of size " +
          std::to_string(d.size()) +
          " (a memory layout, not a distributed one)");
  }
  auto value = [&](linear::DimId d) {
    int i = l.inDimIndex(d);
    return i < 0 ? int64_t(0) : in[size_t(i)];
  };
  const int64_t lanes = hw::kWarpLanes;
  LK_TRY(int64_t perBlock, checkedMul(lanes, l.inDimSize(linear::dims::kWarp),
                                      "the thread number"));
  LK_TRY(int64_t blocks, checkedMul(perBlock, value(linear::dims::kBlock),
                                    "the thread number"));
  LK_TRY(int64_t warps,
         checkedMul(lanes, value(linear::dims::kWarp), "the thread number"));
  LK_TRY(int64_t t,
         checkedAdd(value(linear::dims::kLane), warps, "the thread number"));
  return checkedAdd(t, blocks, "the thread number");
}

int64_t threadWeight(tile::Axis a) {
  if (a == tile::Axis::laneid() || a == tile::Axis::tid() ||
      a == tile::Axis::tid_in_wg())
    return 1;
  if (a == tile::Axis::warpid())
    return hw::kWarpLanes;
  if (a == tile::Axis::wgid()) // a warpgroup is 4 warps
    return 4 * hw::kWarpLanes;
  return 0;
}

Expected<int64_t> threadIndex(std::span<const tile::AxisValue> owner) {
  int64_t t = 0;
  for (const tile::AxisValue &v : owner) {
    int64_t w = threadWeight(v.axis);
    if (w == 0)
      continue;
    if (v.value < 0)
      return Diagnostic::error("axis '" + std::string(v.axis.name()) +
                               "' is negative (" + std::to_string(v.value) +
                               "): no thread number");
    LK_TRY(int64_t term, checkedMul(v.value, w, "the thread number"));
    LK_TRY(t, checkedAdd(t, term, "the thread number"));
  }
  return t;
}

Expected<TileMap> tileMap(const tile::SwizzledTileLayout &layout,
                          int64_t maxPoints, std::string_view what) {
  const tile::TileLayout &tl = layout.tile();
  LK_CHECK(checkWork(what, tl.size(), tl.replicaCount(), maxPoints));
  TileMap map;
  map.axes.assign(tl.axes().begin(), tl.axes().end());
  map.replicas = tl.replicaCount();
  map.coords.reserve(size_t(tl.size() * map.replicas) * map.axes.size());
  std::vector<tile::AxisValue> first(map.axes.size());
  for (int64_t k = 0; k < tl.size(); ++k) {
    tile::CoordSet set = layout.eval(k);
    map.coords.insert(map.coords.end(), set.values().begin(),
                      set.values().end());
    for (size_t a = 0; a < first.size(); ++a)
      first[a] = {map.axes[a], set[0][a]};
    LK_TRY(int64_t thread, threadIndex(first));
    map.threads.push_back(thread);
  }
  return map;
}

Status checkWork(std::string_view what, int64_t elements, int64_t perElement,
                 int64_t limit) {
  Expected<int64_t> n = checkedMul(elements, perElement, "the work bound");
  if (!n || *n > limit)
    return Diagnostic::error(
        std::string(what) + ": " + std::to_string(elements) + " elements x " +
        std::to_string(perElement) + " values exceed the limit of " +
        std::to_string(limit) + " values");
  return Ok{};
}

Expected<int64_t> tilePointBound(const tile::TileLayout &layout,
                                 int64_t elements, std::string_view what) {
  const int64_t replicas = layout.replicaCount();
  auto refuse = [&](const std::string &count) {
    return Diagnostic::error(
        std::string(what) + " would enumerate " + count + " points (" +
        std::to_string(elements) + (elements == 1 ? " element" : " elements") +
        " x " + std::to_string(replicas) +
        (replicas == 1 ? " replica" : " replicas") + "); the limit is " +
        std::to_string(kMaxTilePoints) + " points");
  };
  int64_t points;
  if (mulOverflows(elements, replicas, points))
    return refuse("more than 2^63");
  if (points > kMaxTilePoints)
    return refuse(std::to_string(points));
  return points;
}

TilePoints evaluate(const tile::SwizzledTileLayout &layout, int64_t flat,
                    int64_t limit) {
  return {layout.eval(flat, limit), layout.tile().replicaCount()};
}

std::vector<EvalStep> evaluationSteps(const tile::SwizzledTileLayout &layout,
                                      int64_t flat) {
  const tile::TileLayout &t = layout.tile();
  std::vector<EvalStep> steps;
  auto components = t.components(flat);
  for (size_t k = 0; k < t.shard().size(); ++k) {
    const tile::Iter &it = t.shard()[k];
    // c < extent and c * stride is bounded by the layout's validated
    // largest coordinate, so the product fits.
    steps.push_back({EvalStep::Kind::Shard, k, it, components[k],
                     components[k] * it.stride});
  }
  for (size_t k = 0; k < t.offset().size(); ++k) {
    const tile::AxisValue &o = t.offset()[k];
    steps.push_back({EvalStep::Kind::Offset, k, tile::Iter{1, o.value, o.axis},
                     0, o.value});
  }
  for (size_t k = 0; k < t.replica().size(); ++k)
    steps.push_back({EvalStep::Kind::Replica, k, t.replica()[k], 0, 0});
  if (!layout.swizzle().isIdentity()) {
    int64_t m = t.addressAt(flat, tile::Axis::m());
    steps.push_back({EvalStep::Kind::Swizzle, 0,
                     tile::Iter{1, 0, tile::Axis::m()}, m,
                     layout.addressAt(flat)});
  }
  return steps;
}

std::vector<Owner> owners(const tile::SwizzledTileLayout &layout,
                          int64_t flat) {
  return owners(layout, flat, layout.tile().replicaCount());
}

std::vector<Owner> owners(const tile::SwizzledTileLayout &layout, int64_t flat,
                          int64_t limit) {
  tile::CoordSet set = layout.eval(flat, limit);
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
    // Non-ASCII bytes are read into the name too, so a misspelt name is
    // reported whole ("unknown axis 'läneid'"), never cut at its first
    // non-ASCII character.
    auto inName = [](char c) {
      auto u = static_cast<unsigned char>(c);
      return std::isalnum(u) || c == '_' || u >= 0x80;
    };
    while (p < text.size() && inName(text[p]))
      ++p;
    if (p == nameAt)
      return Diagnostic::at("expected an axis name, e.g. laneid=3", text,
                            nameAt);
    std::string name(text.substr(nameAt, p - nameAt));
    auto axis = tile::Axis::byName(name);
    if (!axis) { // at the name, with byName's note of the known axes
      Diagnostic d =
          Diagnostic::at(axis.error().message, text, nameAt, name.size());
      d.notes = axis.error().notes;
      return d;
    }
    blank();
    if (p >= text.size() || text[p] != '=')
      return Diagnostic::at("expected '=' after axis " + name, text, p);
    ++p;
    blank();
    size_t valueAt = p;
    // The value's word (decimal or 0x hex: parseInteger reads it whole).
    while (p < text.size() && std::isalnum(static_cast<unsigned char>(text[p])))
      ++p;
    if (p == valueAt)
      return Diagnostic::at("expected a non-negative value for axis " + name,
                            text, valueAt);
    auto value = parseInteger(text.substr(valueAt, p - valueAt));
    if (!value)
      return Diagnostic::at(value.error().message + " (the value of axis " +
                                name + ")",
                            text, valueAt, p - valueAt);
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

Expected<std::vector<int64_t>> holders(const tile::SwizzledTileLayout &layout,
                                       std::span<const tile::AxisValue> where) {
  if (!layout.swizzle().isIdentity())
    return Diagnostic::error("tile holds: invert the tile layout without "
                             "its swizzle (the swizzle only moves m)");
  for (const tile::AxisValue &w : where)
    if (w.value < 0)
      return Diagnostic::error("expected a non-negative value for axis " +
                               std::string(w.axis.name()) + ", got " +
                               std::to_string(w.value));
  const int64_t replicas = layout.tile().replicaCount();
  if (replicas > kMaxHolderVisits)
    return Diagnostic::error(
        "the search for the elements held starts once per replica; the "
        "layout has " +
        std::to_string(replicas) + " replicas, more than " +
        std::to_string(kMaxHolderVisits) + " (the limit of holders)");
  auto held = layout.tile().holders(where, kMaxHolderVisits);
  if (!held)
    return Diagnostic::error(
        "the search for the elements held would visit more than " +
        std::to_string(kMaxHolderVisits) +
        " candidates (the limit of holders); fix more axes");
  return held;
}

Expected<tile::BankView> bankView(const tile::MemoryLayout &memory,
                                  int64_t dtypeBits, int64_t maxLines) {
  int64_t size = memory.size();
  if (size > kMaxBankViewElements)
    return Diagnostic::error(
        "the bank view walks every element; this tile has " +
        std::to_string(size) + ", more than the limit of " +
        std::to_string(kMaxBankViewElements));
  return tile::bankView(memory, dtypeBits, maxLines);
}

Expected<tile::SwizzledTileLayout>
withSwizzleMode(const tile::SwizzledTileLayout &layout, int64_t dtypeBits,
                std::string_view swizzleMode) {
  LK_TRY(tile::SwizzleMode m, tile::swizzleModeByName(swizzleMode));
  LK_TRY(tile::SwizzleLayout s, tile::SwizzleLayout::forDtype(dtypeBits, m));
  if (s.isIdentity())
    return layout;
  if (!layout.swizzle().isIdentity())
    return Diagnostic::error("the layout already has a swizzle (" +
                             layout.swizzle().str() +
                             "); drop the swizzle mode (--swizzle)");
  return tile::SwizzledTileLayout(s, layout.tile());
}

Expected<tile::MemoryLayout>
memoryLayout(const tile::SwizzledTileLayout &layout, int64_t dtypeBits,
             std::optional<std::string_view> swizzleMode) {
  if (!swizzleMode)
    return tile::MemoryLayout::of(layout);
  if (!layout.swizzle().isIdentity())
    return Diagnostic::error("the layout already has a swizzle (" +
                             layout.swizzle().str() +
                             "); drop the swizzle mode (--swizzle)");
  LK_TRY(tile::SwizzleMode m, tile::swizzleModeByName(*swizzleMode));
  LK_TRY(tile::SwizzleLayout s, tile::SwizzleLayout::forDtype(dtypeBits, m));
  return tile::MemoryLayout::of(tile::SwizzledTileLayout(s, layout.tile()));
}

int64_t laneCount(const ColumnRead &read) {
  return read.lanes ? *read.lanes : std::min(read.rows, hw::kWarpLanes);
}

Expected<tile::BankConflicts> columnConflicts(const tile::MemoryLayout &memory,
                                              int64_t dtypeBits,
                                              const ColumnRead &read) {
  const int64_t shape[] = {read.rows, read.cols};
  LK_CHECK(memory.tile().admits(shape));
  if (laneCount(read) < 1 || laneCount(read) > kMaxReadLanes)
    return Diagnostic::error("a column read has 1 to " +
                             std::to_string(kMaxReadLanes) +
                             " lanes (the threads of a CTA); got " +
                             std::to_string(laneCount(read)));
  LK_TRY(tile::BankAccess access,
         tile::columnAccess(read.rows, read.cols, read.firstRow,
                            laneCount(read), read.column, read.vector));
  return tile::bankConflicts(memory, dtypeBits, access);
}

//===----------------------------------------------------------------------===//
// Results described as records
//===----------------------------------------------------------------------===//

TileElement tileElement(std::span<const int64_t> shape, int64_t x) {
  return {std::vector<int64_t>(shape.begin(), shape.end()),
          tile::TileLayout::unflatten(shape, x), x};
}

Expected<int64_t> listLimit(std::string_view what,
                            std::optional<int64_t> requested) {
  if (!requested)
    return kMaxListAll;
  if (*requested < 1 || *requested > kMaxListAll)
    return Diagnostic::error(std::string(what) +
                             ": limit must be between 1 and " +
                             std::to_string(kMaxListAll) + " (got " +
                             std::to_string(*requested) + ")");
  return *requested;
}

Expected<Evaluation> evaluation(const tile::SwizzledTileLayout &layout,
                                TileElement element,
                                std::optional<int64_t> limit) {
  LK_TRY(int64_t n, listLimit("evaluation", limit));
  const int64_t x = element.x;
  return Evaluation{layout, std::move(element), evaluate(layout, x, n),
                    evaluationSteps(layout, x)};
}

Expected<OwnerList> ownerList(const tile::SwizzledTileLayout &layout,
                              TileElement element,
                              std::optional<int64_t> limit) {
  LK_TRY(int64_t n, listLimit("owners", limit));
  const int64_t x = element.x;
  return OwnerList{layout, std::move(element), owners(layout, x, n),
                   layout.tile().replicaCount()};
}

Expected<Holding> holding(const tile::SwizzledTileLayout &layout,
                          std::vector<int64_t> shape,
                          std::vector<tile::AxisValue> where,
                          std::optional<int64_t> limit) {
  LK_TRY(int64_t n, listLimit("holding", limit));
  LK_TRY(std::vector<int64_t> held, holders(layout, where));
  std::sort(held.begin(), held.end());
  int64_t shown = std::min<int64_t>(n, int64_t(held.size()));
  return Holding{tileText(layout), std::move(shape), std::move(where),
                 std::move(held), shown};
}

Expected<BankMap> bankMap(const tile::MemoryLayout &memory, int64_t dtypeBits,
                          int64_t maxLines) {
  LK_TRY(tile::BankView view, api::bankView(memory, dtypeBits, maxLines));
  return BankMap{memory.str(), dtypeBits, std::move(view)};
}

Expected<ConflictReport> columnConflictReport(const tile::MemoryLayout &memory,
                                              int64_t dtypeBits,
                                              const ColumnRead &read) {
  LK_TRY(tile::BankConflicts c, columnConflicts(memory, dtypeBits, read));
  // columnConflicts validated the read, so its access is well formed.
  LK_TRY(tile::BankAccess access,
         tile::columnAccess(read.rows, read.cols, read.firstRow,
                            laneCount(read), read.column, read.vector));
  ColumnRead r = read;
  r.lanes = laneCount(read);
  return ConflictReport{memory.str(), dtypeBits, r, std::move(access),
                        std::move(c)};
}

Expected<ConflictReport> conflictReport(const tile::MemoryLayout &memory,
                                        int64_t dtypeBits,
                                        tile::BankAccess access) {
  LK_TRY(tile::BankConflicts c, tile::bankConflicts(memory, dtypeBits, access));
  return ConflictReport{memory.str(), dtypeBits, std::nullopt,
                        std::move(access), std::move(c)};
}

Expected<AccessAnalysis>
analyseAccess(const tile::SwizzledTileLayout &distributed,
              const tile::MemoryLayout &memory, int64_t dtypeBits,
              std::optional<int64_t> accessBytes, hw::Arch arch) {
  if (!distributed.swizzle().isIdentity())
    return Diagnostic::error("the distributed layout has a swizzle; a "
                             "distributed layout says which lane holds "
                             "which element, a swizzle belongs to memory");
  AccessAnalysis a;
  a.distributed = tileText(distributed);
  a.memory = memory.str();
  a.dtypeBits = dtypeBits;
  a.arch = arch;
  const tile::TileLayout &d = distributed.tile();
  LK_TRY(a.vectorBytes, hw::vectorBytes(d, memory, dtypeBits));
  a.accessBytes = accessBytes.value_or(a.vectorBytes);
  // Both memories take the machine's widths: checked once, before either
  // names its own (global_access would otherwise fail on the shared model).
  const auto &widths = hw::machine(arch).gmem.accessWidths;
  if (std::find(widths.begin(), widths.end(), a.accessBytes) == widths.end())
    return Diagnostic::error(
        "access width " + std::to_string(a.accessBytes) +
        " B is not supported (allowed: " + joinIntegers(widths, ", ") + ")");
  hw::WarpAccess w{d, memory, dtypeBits, a.accessBytes};
  LK_TRY(a.shared, hw::sharedAccess(w, arch));
  LK_TRY(a.global, hw::globalAccess(w, arch));
  LK_TRY(a.replication, hw::replication(d));
  return a;
}

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

Expected<std::vector<int64_t>> parseDimValues(std::string_view text,
                                              const linear::LinearLayout &l) {
  std::vector<int64_t> values(size_t(l.numInDims()), 0);
  // Where each input dim was given (npos: not yet): a repeat is refused.
  std::vector<size_t> givenAt(values.size(), std::string_view::npos);
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
    const Expected<int> found = l.findInDim(name); // not interned
    if (!found)
      return Diagnostic::at(found.error().message, text, p, eq - p);
    const int idx = *found;
    size_t nameAt = p + text.substr(p, eq - p).find(name);
    if (size_t first = givenAt[size_t(idx)]; first != std::string_view::npos)
      return Diagnostic::at("in-dim '" + name +
                                "' is given twice (first at column " +
                                std::to_string(first + 1) + ")",
                            text, nameAt, std::max<size_t>(1, name.size()));
    givenAt[size_t(idx)] = nameAt;
    auto v = parseInteger(text.substr(eq + 1, end - eq - 1));
    if (!v) {
      bool wide = v.error().message.find("does not fit") != std::string::npos;
      return Diagnostic::at(wide ? "the value for " + name +
                                       " does not fit in 64 bits"
                                 : "expected an integer value for " + name,
                            text, eq + 1, std::max<size_t>(1, end - eq - 1));
    }
    if (Status in = l.checkInValue(idx, *v); !in)
      return Diagnostic::at(in.error().message, text, eq + 1,
                            std::max<size_t>(1, end - eq - 1));
    values[size_t(idx)] = *v;
    if (end + 1 == text.size()) // a comma ends the text: a pair is missing
      return Diagnostic::at("expected dim=value after ','", text, end + 1);
    p = end + 1;
  }
  return values;
}

Expected<std::vector<int64_t>>
inputsByName(const linear::LinearLayout &l,
             std::span<const std::pair<std::string, int64_t>> given) {
  std::vector<int64_t> values(size_t(l.numInDims()), 0);
  std::vector<bool> seen(values.size(), false);
  for (const auto &[name, value] : given) {
    LK_TRY(int i, l.findInDim(name));
    if (seen[size_t(i)])
      return Diagnostic::error("in-dim '" + name + "' is given twice");
    seen[size_t(i)] = true;
    values[size_t(i)] = value;
  }
  return values;
}

Expected<std::vector<int64_t>> linearOutputs(const linear::LinearLayout &l) {
  if (l.totalInBits() > 62)
    return Diagnostic::error("outputs: 2^" + std::to_string(l.totalInBits()) +
                             " inputs");
  int64_t n = l.totalInSize(), k = l.numOutDims();
  LK_CHECK(checkWork("outputs", n, std::max<int64_t>(k, 1), kMaxArrayValues));
  std::vector<int64_t> out(static_cast<size_t>(n * k));
  for (int64_t x = 0; x < n; ++x) {
    uint64_t y = l.applyFlat(uint64_t(x));
    for (int j = 0; j < k; ++j)
      out[size_t(x * k + j)] = int64_t((y >> l.outShift(j)) &
                                       ((uint64_t(1) << l.outDim(j).log2) - 1));
  }
  return out;
}

} // namespace lk::api
