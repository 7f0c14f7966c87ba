//===- TileCommands.cpp - `layoutkit tile ...` ----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The tile family: evaluate L(x), list owners, invert (what a thread
/// holds), picture the mapping, and the shared-memory bank view and
/// conflict counts of a memory layout. The command rows are at the end.
///
//===----------------------------------------------------------------------===//

#include "cli/Grid.h"
#include "cli/Handlers.h"

#include "cli/Json.h"

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Describe.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Query.h"

#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/tile/Bank.h"
#include "layoutkit/tile/SwizzleLayout.h"
#include "layoutkit/tile/TilePresets.h"
#include "layoutkit/tile/TileText.h"

#include <algorithm>
#include <fstream>
#include <map>

namespace lk::cli {

using namespace lk::tile;

namespace {

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

/// LAYOUT: any grammar as its tile form over SHAPE, the next argument
/// (api::parseTile); a SHAPE that does not parse is reported first, and a
/// fault about the shape the layout is read over (a Triton encoding's
/// "shape" parameter, e.g. a dim that is not a power of two) is SHAPE's
/// (Invocation::locate).
Expected<SwizzledTileLayout> layoutParam(const Invocation &inv, size_t i) {
  LK_TRY(IntTuple shape, inv.intTuple(i + 1));
  return inv.argument(api::parseTile(inv.text(i), shape, "SHAPE"), i);
}

/// LAYOUT composed with the swizzle of --swizzle for --dtype (default f16),
/// when --swizzle is given.
Expected<SwizzledTileLayout> swizzledLayoutParam(const Invocation &inv,
                                                 size_t i);

/// SHAPE: an integer or a flat tuple of positive integers the layout admits.
Expected<std::vector<int64_t>> shapeParam(const Invocation &inv, size_t i,
                                          const TileLayout &layout) {
  LK_TRY(IntTuple t, inv.intTuple(i));
  return inv.argument(api::tileShape(t, layout), i);
}

/// COORD: a tuple of the shape's rank, or one integer (the row-major index).
Expected<int64_t> coordParam(const Invocation &inv, size_t i,
                             const TileLayout &layout,
                             const std::vector<int64_t> &shape) {
  LK_TRY(IntTuple t, inv.intTuple(i));
  return inv.argument(api::tileIndex(t, layout, shape), i);
}

/// The element type of --dtype, else the one LAYOUT names (a Triton type,
/// an attribute's elem=), else f16.
Expected<cute::ElementType> dtypeOf(const Invocation &inv) {
  return inv.elementType({0}, "f16");
}

Expected<SwizzledTileLayout> swizzledLayoutParam(const Invocation &inv,
                                                 size_t i) {
  LK_TRY(SwizzledTileLayout layout, layoutParam(inv, i));
  std::optional<std::string> mode = inv.option("swizzle");
  if (!mode)
    return layout;
  LK_TRY(cute::ElementType dtype, dtypeOf(inv));
  return api::withSwizzleMode(layout, dtype.bits, *mode);
}

/// The memory layout of LAYOUT with --swizzle applied.
Expected<MemoryLayout> memoryParam(const Invocation &inv,
                                   const SwizzledTileLayout &layout,
                                   int64_t bits) {
  std::optional<std::string> mode = inv.option("swizzle");
  return api::memoryLayout(layout, bits,
                           mode ? std::optional<std::string_view>(*mode)
                                : std::nullopt);
}

//===----------------------------------------------------------------------===//
// Printing coordinates
//===----------------------------------------------------------------------===//

std::string coordText(std::span<const int64_t> shape, int64_t flat) {
  std::vector<int64_t> c = TileLayout::unflatten(shape, flat);
  std::string s = "(";
  for (size_t d = 0; d < c.size(); ++d)
    s += (d ? "," : "") + std::to_string(c[d]);
  return s + ")";
}

/// "laneid=3 warpid=5 m=1": a physical coordinate with its axis names.
std::string physicalText(std::span<const Axis> axes,
                         std::span<const int64_t> c) {
  std::string s;
  for (size_t k = 0; k < axes.size(); ++k)
    s += (k ? " " : "") + std::string(axes[k].name()) + "=" +
         std::to_string(c[k]);
  return s;
}

/// "laneid=4 m=1".
std::string axisValuesText(const std::vector<AxisValue> &v) {
  std::string s;
  for (const AxisValue &a : v)
    s += (s.empty() ? "" : " ") + std::string(a.axis.name()) + "=" +
         std::to_string(a.value);
  return s;
}

/// WHERE: "laneid=3,warpid=5" (blanks allowed).
Expected<std::vector<AxisValue>> whereParam(const Invocation &inv, size_t i) {
  return inv.argument(api::parseAxisValues(inv.text(i)), i);
}

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

/// LAYOUT SHAPE COORD: the layout and the coordinate's flat index.
struct Evaluated {
  SwizzledTileLayout layout;
  std::vector<int64_t> shape;
  int64_t flat = 0;
};

Expected<Evaluated> evaluateParams(const Invocation &inv) {
  Evaluated e;
  LK_TRY(e.layout, swizzledLayoutParam(inv, 0));
  LK_TRY(e.shape, shapeParam(inv, 1, e.layout.tile()));
  LK_TRY(e.flat, coordParam(inv, 2, e.layout.tile(), e.shape));
  return e;
}

std::string iterText(const Iter &it) {
  return std::to_string(it.extent) + ":" + std::to_string(it.stride) + "@" +
         std::string(it.axis.name());
}

/// `tile eval --steps`: which iter adds what (before the points).
std::string stepsText(const api::Evaluation &e) {
  std::string text = "x = " + std::to_string(e.element.x) + " = " +
                     coordText(e.element.shape, e.element.x) + "\n";
  for (const api::EvalStep &s : e.steps) {
    std::string axis(s.iter.axis.name());
    switch (s.kind) {
    case api::EvalStep::Kind::Shard:
      text += "shard iter " + std::to_string(s.index) + " (" +
              iterText(s.iter) + "): c = " + std::to_string(s.component) +
              ", " + axis + " += " + std::to_string(s.added) + "\n";
      break;
    case api::EvalStep::Kind::Offset:
      text += "offset: " + axis + " += " + std::to_string(s.added) + "\n";
      break;
    case api::EvalStep::Kind::Replica:
      text += "replica iter " + std::to_string(s.index) + " (" +
              iterText(s.iter) + "): one point per r in [0," +
              std::to_string(s.iter.extent) + "), " + axis +
              " += " + std::to_string(s.iter.stride) + "*r\n";
      break;
    case api::EvalStep::Kind::Swizzle:
      text += "swizzle " + e.layout.swizzle().str() + ": m " +
              std::to_string(s.component) + " -> " + std::to_string(s.added) +
              "\n";
      break;
    }
  }
  return text + "L(x):\n";
}

Expected<Reply> runTileEval(const Invocation &inv) {
  LK_TRY(Evaluated e, evaluateParams(inv));
  LK_TRY(api::Evaluation ev,
         api::evaluation(e.layout, api::tileElement(e.shape, e.flat),
                         listLimit(inv)));
  const CoordSet &set = ev.points.points;
  std::span<const Axis> axes = e.layout.tile().axes();
  Reply r;
  if (inv.option("steps"))
    r.text = stepsText(ev);
  for (size_t i = 0; i < set.size(); ++i)
    r.text += physicalText(axes, set[i]) + "\n";
  r.json = jsonOf(api::describe(ev));
  noteOmitted(r, int64_t(set.size()), ev.points.total);
  return r;
}

Expected<Reply> runTileOwners(const Invocation &inv) {
  LK_TRY(Evaluated e, evaluateParams(inv));
  LK_TRY(api::OwnerList o,
         api::ownerList(e.layout, api::tileElement(e.shape, e.flat),
                        listLimit(inv)));
  Reply r;
  r.text = coordText(e.shape, e.flat) + " has " + std::to_string(o.total) +
           (o.total == 1 ? " owner" : " owners") + ":\n";
  for (const api::Owner &p : o.owners) {
    std::string who = axisValuesText(p.owner), at = axisValuesText(p.at);
    r.text += "  " + (who.empty() ? std::string("(no thread axis)") : who) +
              (at.empty() ? "" : " holds it at " + at) + "\n";
  }
  r.json = jsonOf(api::describe(o));
  noteOmitted(r, int64_t(o.owners.size()), o.total);
  return r;
}

Expected<Reply> runTileHolds(const Invocation &inv) {
  LK_TRY(SwizzledTileLayout layout, layoutParam(inv, 0));
  LK_TRY(std::vector<int64_t> shape, shapeParam(inv, 1, layout.tile()));
  LK_TRY(std::vector<AxisValue> where, whereParam(inv, 2));
  LK_TRY(api::Holding h, api::holding(layout, shape, where, listLimit(inv)));
  const size_t total = h.elements.size();
  Reply r;
  r.text = axisValuesText(where) + " holds " + std::to_string(total) +
           (total == 1 ? " element" : " elements") + (total ? ":" : "\n");
  for (int64_t k = 0; k < h.shown; ++k)
    r.text += " " + coordText(shape, h.elements[size_t(k)]);
  if (total)
    r.text += "\n";
  r.json = jsonOf(api::describe(h));
  noteOmitted(r, h.shown, int64_t(total));
  return r;
}

Expected<Reply> runTileShow(const Invocation &inv) {
  LK_TRY(SwizzledTileLayout layout, swizzledLayoutParam(inv, 0));
  LK_TRY(std::vector<int64_t> shape, shapeParam(inv, 1, layout.tile()));
  if (shape.size() > 2)
    return Diagnostic::error(
               "tile show draws shapes of rank 1 or 2; got rank " +
               std::to_string(shape.size()))
        .about("shape");
  int64_t rows = shape.size() == 2 ? shape[0] : 1;
  int64_t cols = shape.back();
  if (rows * cols > (int64_t(1) << 16))
    return Diagnostic::error("tile show draws at most 65536 elements");
  LK_CHECK(api::tilePointBound(layout.tile(), rows * cols, "tile show"));
  LK_TRY(api::TileMap map,
         api::tileMap(layout, api::kMaxTilePoints, "tile show"));
  std::span<const Axis> axes = map.axes;
  Grid g(rows, cols);
  g.title = api::tileText(layout);
  std::string names;
  for (Axis a : axes)
    names += (names.empty() ? "" : ",") + std::string(a.name());
  // Coloured by the first point's thread number (api::threadIndex, as
  // the demo and Python draw), else by its whole coordinate.
  std::string thread = api::threadFormula(axes);
  bool threads = !thread.empty();
  g.legend =
      "cell (i,j): " + names +
      (layout.tile().replicaCount() > 1 ? "  (replicas separated by |)" : "") +
      (threads ? "; colour: thread = " + thread : "; colour: coordinate");
  std::map<std::string, int64_t> coordColour;
  JsonValue table = JsonValue::array();
  for (int64_t r = 0; r < rows; ++r) {
    JsonValue row = JsonValue::array();
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t k = r * cols + c;
      std::string cell;
      JsonValue coords = JsonValue::array();
      for (int64_t i = 0; i < map.replicas; ++i) {
        std::string one;
        for (int64_t v : map.point(k, i))
          one += (one.empty() ? "" : ",") + std::to_string(v);
        cell += (i ? "|" : "") + one;
        coords.push_back(jsonOf(api::axisRecord(axes, map.point(k, i))));
      }
      g.cell(r, c) = cell;
      if (threads) {
        g.color(r, c) = map.threads[size_t(k)];
      } else {
        auto [it, inserted] = coordColour.emplace(
            physicalText(axes, map.point(k, 0)), int64_t(coordColour.size()));
        g.color(r, c) = it->second;
      }
      row.push_back(coords);
    }
    table.push_back(row);
  }
  Reply reply;
  reply.text = renderGridText(g);
  reply.json = {
      {"layout", api::tileText(layout)}, {"axes", names}, {"table", table}};
  LK_CHECK(attachSvg(inv, renderGridSvg(g), reply));
  return reply;
}

Expected<Reply> runTileBanks(const Invocation &inv) {
  LK_TRY(SwizzledTileLayout layout, layoutParam(inv, 0));
  LK_TRY(std::vector<int64_t> shape, shapeParam(inv, 1, layout.tile()));
  LK_TRY(cute::ElementType dtype, dtypeOf(inv));
  LK_TRY(MemoryLayout memory, memoryParam(inv, layout, dtype.bits));
  LK_TRY(api::BankMap map, api::bankMap(memory, dtype.bits, 4096));
  const BankView &view = map.view;
  Grid g(view.lineCount, kBanks);
  g.title = memory.str() + " as " + dtype.name;
  g.legend = "rows: bank lines of 128 bytes; columns: banks; cell: the "
             "elements in that 4-byte word; colour: last logical index";
  for (int64_t l = 0; l < view.lineCount; ++l) {
    int64_t line = view.firstLine + l;
    g.rowLabels[size_t(l)] = std::to_string(line);
    for (int64_t b = 0; b < kBanks; ++b) {
      const std::vector<int64_t> &elems = view.at(line, b);
      std::string cell;
      for (size_t k = 0; k < elems.size(); ++k)
        cell += (k ? " " : "") + coordText(shape, elems[k]);
      g.cell(l, b) = cell;
      if (!elems.empty())
        g.color(l, b) = TileLayout::unflatten(shape, elems[0]).back();
    }
  }
  Reply reply;
  reply.text = renderGridText(g);
  reply.json = jsonOf(api::describe(map));
  LK_CHECK(attachSvg(inv, renderGridSvg(g), reply));
  return reply;
}

Expected<Reply> runTileConflicts(const Invocation &inv) {
  LK_TRY(SwizzledTileLayout layout, layoutParam(inv, 0));
  LK_TRY(std::vector<int64_t> shape, shapeParam(inv, 1, layout.tile()));
  if (shape.size() != 2)
    return Diagnostic::error("tile conflicts reads a column of a rank-2 "
                             "shape; got rank " +
                             std::to_string(shape.size()));
  LK_TRY(cute::ElementType dtype, dtypeOf(inv));
  const int64_t bits = dtype.bits;
  LK_TRY(MemoryLayout memory, memoryParam(inv, layout, bits));
  api::ColumnRead read;
  read.rows = shape[0];
  read.cols = shape[1];
  LK_TRY(read.column, inv.integerOption("column", 0));
  if (inv.option("lanes")) {
    LK_TRY(int64_t lanes, inv.integerOption("lanes", 0));
    read.lanes = lanes;
  }
  LK_TRY(read.vector, inv.integerOption("vector", 1));
  LK_TRY(read.firstRow, inv.integerOption("first-row", 0));
  LK_TRY(api::ConflictReport c, api::columnConflictReport(memory, bits, read));
  int64_t lanes = api::laneCount(read), vector = read.vector;
  Reply reply;
  // columnConflicts checked firstRow + lanes <= rows, so this cannot
  // overflow.
  reply.text = "lanes " + std::to_string(read.firstRow) + ".." +
               std::to_string(read.firstRow + lanes - 1) + " read column " +
               std::to_string(read.column) + " (" + std::to_string(vector) +
               (vector == 1 ? " element" : " elements") + " each) of " +
               memory.str() + "\n" + c.conflicts.explain();
  reply.json = jsonOf(api::describe(c));
  return reply;
}

Expected<Reply> runTilePresets(const Invocation &inv) {
  Reply r;
  if (inv.has(0)) {
    LK_TRY(const Preset *p, inv.argument(findPreset(inv.text(0)), 0));
    const Preset &preset = *p;
    r.text = std::string(preset.text) + "\nshape: " + shapeText(preset.shape) +
             "\n" + std::string(preset.summary);
    r.json = jsonOf(api::describe(preset));
    return r;
  }
  r.json = JsonValue::array();
  for (const Preset &p : presets()) {
    r.text += std::string(p.name) + "  " + shapeText(p.shape) + "  " +
              std::string(p.text) + "\n";
    r.json.push_back(jsonOf(api::describe(p)));
  }
  return r;
}

} // namespace

//===----------------------------------------------------------------------===//
// Command rows
//===----------------------------------------------------------------------===//

std::vector<CommandSpec> tileCommands() {
  const std::string group = "Tile layouts";
  const ParamSpec layout{
      "LAYOUT",
      "a tile layout, e.g. 'S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + "
      "R[2:4@warpid] + 5@warpid', or a swizzled one, e.g. "
      "'Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]'; any other layout (linear, "
      "a TTGIR tensor type, cute) is read as its tile form over SHAPE (a "
      "cute layout: element (r,c) at CuTe's coordinate (r,c); over one dim, "
      "or rank 1, at CuTe's 1-D index)",
      Arity::One};
  const ParamSpec shape{"SHAPE",
                        "the logical shape, e.g. (8,16); its size must equal "
                        "the product of the shard extents",
                        Arity::One};
  const ParamSpec coord{"COORD",
                        "a logical coordinate, e.g. (7,15), or one integer "
                        "(the row-major index)",
                        Arity::One};
  const OptionSpec svg{"svg", "FILE",
                       "also write an SVG picture to FILE ('-': print the "
                       "SVG instead of the text table)"};
  const OptionSpec dtype{"dtype", "TYPE",
                         "element type, e.g. f16 (default), bf16, f32, f8e4m3"};
  const OptionSpec swizzle{"swizzle",
                           "MODE",
                           "compose LAYOUT with the swizzle of this mode for "
                           "--dtype",
                           false,
                           {"none", "32B", "64B", "128B"}};
  const char *tc = "'S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + "
                   "R[2:4@warpid] + 5@warpid'";
  return {
      {"tile presets",
       group,
       "List the hardware tile presets, or print one",
       "Without NAME: one line per preset (name, logical shape, layout). "
       "With NAME: its layout, shape and what it describes; the layout "
       "text can be passed to the other tile commands.",
       {"layoutkit tile presets", "layoutkit tile presets mma_m8n8_fragment"},
       {{"NAME", "a preset name, e.g. tensor_core_8x16", Arity::Optional}},
       {},
       runTilePresets},
      {"tile eval",
       group,
       "Evaluate a tile layout: the set L(x) of physical coordinates",
       "L(x) = { D(x) + r + O | r in R }: the coordinate is flattened "
       "row-major, split over the shard extents with the last iter fastest, "
       "and each replica combination is added. One line per coordinate, "
       "every axis the layout names.",
       {std::string("layoutkit tile eval ") + tc + " '(8,16)' '(7,15)'",
        "layoutkit tile eval 'Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]' "
        "'(8,64)' '(3,0)'   # m=216"},
       {layout, shape, coord},
       {allOption(),
        dtype,
        swizzle,
        {"steps", "",
         "show which iter contributes what to L(x) (the "
         "components of x, each shard iter's term, the offsets, the replica "
         "iters and the swizzle); --json always has them (steps)",
         true}},
       runTileEval},
      {"tile owners",
       group,
       "Which threads own a logical element, and where they hold it",
       "Owner axes are the thread and device axes (laneid, warpid, tid, "
       "pid, ...); the others (m, TLane, TCol, P, F) say where the owner "
       "holds the element.",
       {std::string("layoutkit tile owners ") + tc + " '(8,16)' '(0,8)'"},
       {layout, shape, coord},
       {allOption(), dtype, swizzle},
       runTileOwners},
      {"tile holds",
       group,
       "The logical elements a physical coordinate holds",
       "WHERE fixes some axes (axis=value, comma separated); the others "
       "take every value, so laneid=3,warpid=5 lists what one thread holds "
       "in all its registers.",
       {std::string("layoutkit tile holds ") + tc +
        " '(8,16)' 'laneid=0,warpid=5'"},
       {layout,
        shape,
        {"WHERE", "axis=value pairs, e.g. laneid=3,warpid=5", Arity::One}},
       {allOption()},
       runTileHolds},
      {"tile show",
       group,
       "Draw the logical tile with the physical coordinates of each element",
       "Rank-1 or rank-2 shapes. Each cell lists the values of the layout's "
       "axes (replicas separated by |); --svg draws the cells coloured by "
       "owner (like a thread-value picture).",
       {std::string("layoutkit tile show ") + tc + " '(8,16)' --svg tc.svg"},
       {layout, shape},
       {svg, dtype, swizzle},
       runTileShow},
      {"tile banks",
       group,
       "The line x bank view of a shared-memory layout",
       "Rows are bank lines (128 bytes), columns the 32 banks; a cell lists "
       "the logical elements in that 4-byte word. LAYOUT must have every "
       "iter on m and no replica.",
       {"layoutkit tile banks 'S[(8,64):(64,1)]' '(8,64)' --dtype f16 "
        "--swizzle 128B"},
       {layout, shape},
       {dtype, swizzle, svg},
       runTileBanks},
      {"tile conflicts",
       group,
       "Bank conflicts of lanes reading one column of a shared-memory tile",
       "Lane i reads row FIRST-ROW + i, elements [COLUMN*VECTOR, "
       "(COLUMN+1)*VECTOR). Prints the ways (the most distinct 4-byte "
       "words one bank serves; 1 = conflict-free) and, per conflicted bank, "
       "which lanes collide.",
       {"layoutkit tile conflicts 'S[(8,64):(64,1)]' '(8,64)' --column 0   "
        "# 8-way",
        "layoutkit tile conflicts 'S[(8,64):(64,1)]' '(8,64)' --swizzle "
        "128B   # conflict-free"},
       {layout, shape},
       {dtype,
        swizzle,
        {"column", "J", "the column of vectors to read (default 0)"},
        {"lanes", "N", "number of lanes (default: rows, at most 32)"},
        {"vector", "V", "elements per lane (default 1)"},
        {"first-row", "R", "row read by lane 0 (default 0)"}},
       runTileConflicts},
  };
}

} // namespace lk::cli
