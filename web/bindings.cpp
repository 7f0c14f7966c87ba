//===- bindings.cpp - The browser demo's calls into the library -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The WebAssembly front end of the demo page (docs/demo.md). Each function
/// exported to JavaScript is argument reading, one call into the api layer
/// (or a model layer, for the cute algebra and the hw analyses) and
/// presentation: it returns one JSON text the page parses. No layout logic
/// lives here or in the page.
///
/// Every reply is an object with "ok". A failure is
///   {"ok": false, "field": FIELD, "error": <Diagnostic record>}
/// with the record of api/Describe.h (message, line, column, offset,
/// length, input, notes, rendered; offset is the 0-based character the
/// caret goes under, null when the diagnostic has no position) and FIELD
/// the input it is about ("layout", "shape", "where", "b", ...; "plan" for
/// a plan that fails on valid inputs).
///
/// Example: parse("S[(8,4,2):(4@laneid,1@laneid,1)", "(8,8)") ->
///   {"ok":false,"field":"layout","error":{"message":"expected ']' ...",
///    "offset":31,...}}
///
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/CuteOps.h"
#include "layoutkit/api/Describe.h"
#include "layoutkit/api/DescribePlan.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/api/Query.h"
#include "layoutkit/core/Checked.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/hw/Analysis.h"
#include "layoutkit/hw/Atom.h"
#include "layoutkit/tile/Bank.h"
#include "layoutkit/tile/TilePresets.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace lk;

namespace {

//===----------------------------------------------------------------------===//
// Replies: api::Record written by api::toJson (presentation only)
//===----------------------------------------------------------------------===//

using api::Record;
using api::Value;

/// A reply's record, "ok" first.
Record ok(bool success = true) { return Record().add("ok", success); }

/// {"ok":false,"field":FIELD,"error":<the Diagnostic record, api/Describe.h>}
/// where FIELD names the page's input the error is about.
std::string errorJson(const Diagnostic &d, std::string_view field) {
  return api::toJson(
      ok(false).add("field", field).add("error", api::describe(d)));
}

#define LK_BIND_TRY(var, expr, field)                                          \
  auto var##_r = (expr);                                                       \
  if (!var##_r)                                                                \
    return errorJson(var##_r.error(), field);                                  \
  auto var = std::move(*var##_r)

/// `auto var = read(..., field)` of a reader that names the field at fault
/// in its last argument (readInput, readTile, readTileElement); on failure
/// the reply is the error with that field.
#define LK_BIND_READ(var, read, ...)                                           \
  std::string var##_field;                                                     \
  auto var = read(__VA_ARGS__, var##_field);                                   \
  if (!var)                                                                    \
  return errorJson(var.error(), var##_field)

//===----------------------------------------------------------------------===//
// Reading the page's inputs
//===----------------------------------------------------------------------===//

/// The page's parse options (the shape is set when given).
api::ParseOptions parseOptions() {
  api::ParseOptions o;
  o.shapeName = "the logical shape";
  return o;
}

/// The layout text in any grammar; `shape` is read first (a basis
/// descriptor needs it).
struct Input {
  api::AnyLayout layout;
  std::optional<IntTuple> shape;
  std::vector<int64_t> leaves;
};

Expected<Input> readInput(const std::string &text, const std::string &shape,
                          std::string &field) {
  Input in;
  api::ParseOptions o = parseOptions();
  if (shape.find_first_not_of(" \t") != std::string::npos) {
    field = "shape";
    LK_TRY(IntTuple t, cute::parseIntTuple(shape));
    LK_TRY(in.leaves, api::parseShapeLeaves(shape));
    in.shape = t;
    o.shape = t;
  }
  field = "layout";
  LK_TRY(in.layout, api::parseLayout(text, o));
  return in;
}

/// The layout as a tile layout over the logical shape (api::tileForm), the
/// shape's leaves; when none is given, the sizes of a cute layout's top
/// modes or of a linear layout's output dims, else one dimension of the
/// layout's size. A cute layout keeps CuTe's orientation, as `layoutkit
/// show` draws it: (4,8):(8,1) over (4,8), row 0 holds offsets 0 1 ... 7.
struct TileInput {
  tile::SwizzledTileLayout layout;
  std::vector<int64_t> shape;
};

/// The page's logical shape: the one given, else a cute layout's top
/// modes or a linear layout's output dims (when there are several).
std::optional<IntTuple> pageShape(const Input &in) {
  if (in.shape)
    return in.shape;
  std::vector<IntTuple> dims;
  if (const cute::ComposedLayout *c = in.layout.cute())
    for (size_t i = 0; c->layout.rank() > 1 && i < c->layout.rank(); ++i)
      dims.push_back(IntTuple(c->layout.mode(i).size()));
  if (const linear::LinearLayout *l = in.layout.linear())
    for (int i = 0; l->numOutDims() > 1 && i < l->numOutDims(); ++i)
      dims.push_back(IntTuple(l->outDim(i).size()));
  return dims.empty() ? std::nullopt
                      : std::optional(IntTuple::tuple(std::move(dims)));
}

Expected<TileInput> readTile(const std::string &text, const std::string &shape,
                             std::string &field) {
  LK_TRY(Input in, readInput(text, shape, field));
  std::optional<IntTuple> s = pageShape(in);
  TileInput t;
  auto form = api::tileForm(in.layout, s, "the shape", text);
  field = !form && form.error().parameter == "shape" ? "shape" : "layout";
  LK_TRY(t.layout, std::move(form));
  field = "shape";
  LK_TRY(t.shape, api::tileShape(s ? *s : IntTuple(t.layout.tile().size()),
                                 t.layout.tile()));
  field = "layout";
  return t;
}

/// A JS number as an integer: magnitude below 2^53 (a double holds those
/// exactly) and no fraction, else refused ("WHAT 1.5: expected EXPECTED"),
/// never wrapped or truncated. Another JS type is refused too (embind
/// would read '' as 0).
Expected<int64_t> integerArg(const emscripten::val &js, const char *what,
                             const char *expected) {
  if (!js.isNumber())
    return Diagnostic::error(std::string(what) + ": expected " + expected +
                             ", got a JS " + js.typeOf().as<std::string>());
  double v = js.as<double>();
  if (!(std::fabs(v) < 9007199254740992.0) || std::trunc(v) != v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    bool inexact = std::trunc(v) == v; // whole, but 2^53 or more
    return Diagnostic::error(
        std::string(what) + " " + buf + ": expected " + expected +
        (inexact ? " below 2^53 (a JS number is not exact beyond)" : ""));
  }
  return int64_t(v);
}

/// readTile, and `flat` checked against the layout's elements (the field
/// at fault in `field`: "element" when it is not an index of one).
Expected<TileInput> readTileElement(const std::string &text,
                                    const std::string &shape,
                                    const emscripten::val &element,
                                    int64_t &flat, std::string &field) {
  LK_TRY(TileInput t, readTile(text, shape, field));
  field = "element";
  LK_TRY(flat, integerArg(element, "element", "an integer element index"));
  if (flat < 0 || flat >= t.layout.tile().size()) {
    field = "element";
    return Diagnostic::error("element " + std::to_string(flat) +
                             " is outside the layout");
  }
  return t;
}

/// The most elements x replicas the tile map returns (its coordinates
/// are this times the axes).
constexpr int64_t kMaxMapPoints = int64_t(1) << 20;

//===----------------------------------------------------------------------===//
// Exported calls
//===----------------------------------------------------------------------===//

/// The layout read, its model and grammar, and its form in each model (the
/// bridge's reason where there is none).
std::string parseJson(std::string text, std::string shape) {
  LK_BIND_READ(in, readInput, text, shape);
  std::vector<int64_t> pow2;
  bool allPow2 = !in->leaves.empty();
  for (int64_t e : in->leaves)
    allPow2 = allPow2 && e > 0 && (e & (e - 1)) == 0;
  if (allPow2)
    pow2 = in->leaves;
  // The tile form is the tile view's (readTile): over the page's shape.
  auto formOf = [&](api::Model m) -> Expected<std::string> {
    if (m == api::Model::Tile) {
      LK_TRY(tile::SwizzledTileLayout t,
             api::tileForm(in->layout, pageShape(*in), "the shape", text));
      return api::tileText(t);
    }
    LK_TRY(api::AnyLayout c, api::convert(in->layout, m, pow2));
    return c.str();
  };
  Record forms;
  for (api::Model m :
       {api::Model::Cute, api::Model::Tile, api::Model::Linear}) {
    Expected<std::string> c = formOf(m);
    forms.add(std::string(api::modelName(m)),
              c ? ok().add("text", *c)
                : ok(false)
                      .add("reason", c.error().message)
                      .add("notes", Value::strings(c.error().notes)));
  }
  return api::toJson(ok().add("model", api::modelName(in->layout.model()))
                         .add("syntax", api::syntaxName(in->layout.syntax))
                         .add("text", in->layout.str())
                         .add("forms", forms));
}

/// The most elements a panel draws (the logical tile, the staging buffer).
constexpr int64_t kMaxDrawn = int64_t(1) << 18;

/// Every element's physical coordinates: coords[(flat * replicas + r) *
/// axes + a], with the axes, which of them are owner axes, the text,
/// threads[flat], the thread number of its first point (api::threadIndex),
/// and threadFormula, its terms (empty: no axis numbers threads).
std::string tileMapJson(std::string text, std::string shape) {
  LK_BIND_READ(t, readTile, text, shape);
  const tile::TileLayout &tl = t->layout.tile();
  if (tl.size() > kMaxDrawn)
    return errorJson(Diagnostic::error("the demo draws at most " +
                                       std::to_string(kMaxDrawn) +
                                       " elements; this layout has " +
                                       std::to_string(tl.size())),
                     "shape");
  LK_BIND_TRY(map, api::tileMap(t->layout, kMaxMapPoints, "the demo's picture"),
              "layout");
  Value::List names, kinds, owner;
  for (tile::Axis a : map.axes) {
    names.emplace_back(a.name());
    kinds.emplace_back(tile::kindName(a.kind()));
    owner.emplace_back(api::isOwnerAxis(a));
  }
  return api::toJson(ok().add("text", api::tileText(t->layout))
                         .add("shape", Value::ints(t->shape))
                         .add("size", tl.size())
                         .add("replicas", map.replicas)
                         .add("axes", names)
                         .add("kinds", kinds)
                         .add("ownerAxes", owner)
                         .add("coords", Value::encodedInts(map.coords))
                         .add("threads", Value::encodedInts(map.threads))
                         .add("threadFormula", api::threadFormula(map.axes)));
}

/// {"ok":true,"result":<record>}.
std::string resultJson(const Record &r) {
  return api::toJson(ok().add("result", r));
}

/// The record of `query` (api::ownerList, api::evaluation) for the page's
/// logical element `element`: its first api::kListLimit items and their
/// total, as `layoutkit tile owners` / `tile eval --steps` print them.
template <class Query>
std::string elementJson(const std::string &text, const std::string &shape,
                        const emscripten::val &element, Query query) {
  int64_t flat = 0;
  LK_BIND_READ(t, readTileElement, text, shape, element, flat);
  LK_BIND_TRY(
      r, query(t->layout, api::tileElement(t->shape, flat), api::kListLimit),
      "layout");
  return resultJson(api::describe(r));
}

/// The owners record of a logical element (api::ownerList).
std::string ownersJson(std::string text, std::string shape,
                       emscripten::val element) {
  return elementJson(text, shape, element, &api::ownerList);
}

/// The evaluation record of a logical element (api::evaluation: its points
/// and the derivation).
std::string stepsJson(std::string text, std::string shape,
                      emscripten::val element) {
  return elementJson(text, shape, element, &api::evaluation);
}

/// The holding record of a hardware coordinate (api::holding), its
/// elements the page's (row-major over the shape).
std::string holdsJson(std::string text, std::string shape, std::string where) {
  LK_BIND_READ(t, readTile, text, shape);
  LK_BIND_TRY(w, api::parseAxisValues(where), "where");
  LK_BIND_TRY(h, api::holding(t->layout, t->shape, w, std::nullopt), "layout");
  return resultJson(api::describe(h));
}

/// The bank view record of the layout as shared memory of `dtype` with a
/// swizzle mode ("none", "32B", "64B", "128B") as "view", and the
/// conflicts record of a warp reading column `column` of a rank-2 tile as
/// "conflicts" (null, with the reason in "conflicts_error", when there is
/// no such read). Elements are the page's (row-major over the shape).
std::string banksJson(std::string text, std::string shape, std::string dtype,
                      std::string swizzle, emscripten::val columnNumber) {
  LK_BIND_READ(t, readTile, text, shape);
  LK_BIND_TRY(type, cute::ElementTypeRegistry::global().lookup(dtype), "dtype");
  std::optional<std::string_view> mode;
  if (swizzle != "none")
    mode = swizzle;
  LK_BIND_TRY(memory, api::memoryLayout(t->layout, type.bits, mode), "layout");
  LK_BIND_TRY(map, api::bankMap(memory, type.bits, 4096), "layout");
  Value conflicts, why;
  if (t->shape.size() == 2) {
    api::ColumnRead read;
    read.rows = t->shape[0];
    read.cols = t->shape[1];
    Expected<int64_t> column =
        integerArg(columnNumber, "column", "an integer column index");
    if (!column)
      return errorJson(column.error(), "column");
    read.column = *column;
    auto c = api::columnConflictReport(memory, type.bits, read);
    if (c)
      conflicts = api::describe(*c);
    else
      why = c.error().message;
  }
  return api::toJson(ok().add("view", api::describe(map))
                         .add("conflicts", conflicts)
                         .add("conflicts_error", why));
}

/// The presets: the tile presets (tile::presets, docs/design.md §6.2) and
/// register fragments of the hw atom catalog, each with its layout and
/// logical shape; "group" says which of the two a row comes from.
std::string presetsJson() {
  Value::List rows;
  for (const tile::Preset &p : tile::presets())
    rows.push_back(api::describe(p).add("group", "tile preset"));
  // smem_row_major_8x64 under the 128B swizzle: the conflict-free read of
  // the bank example (docs/design.md §6.3), the page's own example (no
  // tile preset: `tile presets` and Python do not list it).
  rows.push_back(Record()
                     .add("name", "smem_swizzled_128B_8x64")
                     .add("layout", "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]")
                     .add("shape", Value::ints({8, 64}))
                     .add("summary", "(8,64) f16 tile with the 128B swizzle: "
                                     "a column read is conflict-free")
                     .add("group", "bank example"));
  for (const char *name :
       {"mma.m16n8k16.f16.A", "mma.m16n8k16.f16.B", "mma.m16n8k16.f16.C",
        "wgmma.m64n64k16.f16.C", "tcgen05.ld.32x32b.x2"}) {
    auto a = hw::findAtom(name);
    if (!a)
      continue;
    auto tl = (*a)->tileLayout();
    if (!tl)
      continue;
    rows.push_back(Record()
                       .add("name", (*a)->name)
                       .add("group", "hw atom")
                       .add("summary", (*a)->instruction + " operand " +
                                           (*a)->operand + " (" +
                                           (*a)->firstArchName() + ")")
                       .add("layout", tl->str())
                       .add("shape", Value::ints((*a)->logicalShape()))
                       .add("tv", (*a)->tv.str())
                       .add("tvShape", Value::ints((*a)->cuteExtents)));
  }
  return api::toJson(ok().add("presets", rows));
}

/// The bank of each logical element of a plan's staging buffer, with the
/// logical shape's leaves and the memory layout's text.
Expected<Record> stagingBanks(const api::PlanReport &r,
                              const std::vector<int64_t> &leaves,
                              int64_t bits) {
  if (!r.memory.tile)
    return Diagnostic::error("the staging layout has no tile form to draw");
  LK_TRY(tile::MemoryLayout memory, tile::MemoryLayout::of(*r.memory.tile));
  LK_TRY(std::vector<int64_t> banks,
         tile::elementBanks(memory, bits, kMaxDrawn));
  // The page lays the banks out as rows of the last extent.
  int64_t cells = 1;
  bool fits = true;
  for (int64_t e : leaves)
    fits = fits && e > 0 && !mulOverflows(cells, e, cells);
  if (!fits || cells != int64_t(banks.size()))
    return Diagnostic::error("the staging buffer has " +
                             std::to_string(banks.size()) +
                             " elements, not the logical shape's (" +
                             joinIntegers(leaves, ",") + ")");
  return Record()
      .add("layout", memory.str())
      .add("shape", Value::ints(leaves))
      .add("dtype_bits", bits)
      .add("banks", Value::ints(banks));
}

/// The page's parse options over `shape` (none when blank: a TTGIR tensor
/// type gives its own), for the layouts of plan, reduce and gather.
Expected<api::ParseOptions> shapeOptions(const std::string &shape) {
  api::ParseOptions o = parseOptions();
  if (shape.find_first_not_of(" \t") != std::string::npos) {
    LK_TRY(o.shape, cute::parseIntTuple(shape));
  }
  return o;
}

/// Plans the conversion src -> dst: {"ok":true,"plan":<plan record>,
/// "staging":{layout, shape, dtype_bits, banks}|null,"staging_error":..|null}
/// (staging: the buffer drawn over the logical tile, each element's bank
/// under the plan's memory layout, tile::elementBanks).
std::string planJson(std::string src, std::string dst, std::string shape,
                     std::string dtype, std::string logical) {
  LK_BIND_TRY(o, shapeOptions(shape), "shape");
  std::optional<cute::ElementType> given;
  if (dtype.find_first_not_of(" \t") != std::string::npos) {
    LK_BIND_TRY(t, cute::ElementTypeRegistry::global().lookup(dtype), "dtype");
    given = std::move(t);
  }
  LK_BIND_TRY(srcType, api::elementTypeOf(src), "layout");
  LK_BIND_TRY(dstType, api::elementTypeOf(dst), "b");
  LK_BIND_TRY(type,
              api::conversionElementType(given, srcType, dstType, "dtype"),
              "dtype");
  LK_BIND_TRY(a, api::parseDistributed(src, o), "layout");
  LK_BIND_TRY(b, api::parseDistributed(dst, o), "b");
  std::vector<int64_t> extents;
  if (logical.find_first_not_of(" \t") != std::string::npos) {
    LK_BIND_TRY(e, api::parseShapeLeaves(logical), "logical");
    extents = std::move(e);
  }
  LK_BIND_TRY(planned, api::planTensorConversion(a, b, type, extents), "plan");
  LK_BIND_TRY(rec, api::describe(planned), "plan");
  Value staging, stagingError;
  if (planned.report.plan.smem) {
    // The logical shape: the source's output dims (the shape given, or
    // the one a TTGIR tensor type gives).
    std::vector<int64_t> leaves;
    for (int d = 0; d < a.numOutDims(); ++d)
      leaves.push_back(a.outDim(d).size());
    auto banks = stagingBanks(planned.report, leaves, type.bits);
    if (banks)
      staging = *banks;
    else
      stagingError = banks.error().message;
  }
  return api::toJson(ok().add("plan", rec)
                         .add("staging", staging)
                         .add("staging_error", stagingError));
}

/// A JS number as an axis (integerArg).
Expected<int64_t> axisArg(const emscripten::val &v) {
  return integerArg(v, "axis", "an integer dim index");
}

/// A JS boolean (embind would read '' as false): `what` names it.
Expected<bool> boolArg(const emscripten::val &v, const char *what) {
  if (!v.isTrue() && !v.isFalse())
    return Diagnostic::error(std::string(what) + ": expected true or false, " +
                             "got a JS " + v.typeOf().as<std::string>());
  return v.isTrue();
}

/// Plans and simulates a reduction (api::reduce): {"ok":true,
/// "reduction":<reduction record>}.
std::string reduceJson(std::string layout, emscripten::val axisNumber,
                       std::string shape, std::string dtype,
                       emscripten::val eliminateDuplicatesJs) {
  LK_BIND_TRY(o, shapeOptions(shape), "shape");
  LK_BIND_TRY(type, cute::ElementTypeRegistry::global().lookup(dtype), "dtype");
  LK_BIND_TRY(l, api::parseDistributed(layout, o), "layout");
  LK_BIND_TRY(axis, axisArg(axisNumber), "axis");
  LK_BIND_TRY(eliminateDuplicates,
              boolArg(eliminateDuplicatesJs, "eliminate_duplicates"),
              "eliminate_duplicates");
  LK_BIND_TRY(r, api::reduce(l, axis, type, eliminateDuplicates), "plan");
  return api::toJson(ok().add("reduction", api::describe(r)));
}

/// Plans out = gather(src, index, axis) (api::gather): {"ok":true,
/// "gather":<gather record>}.
std::string gatherJson(std::string src, std::string index,
                       emscripten::val axisNumber, std::string shape,
                       std::string dtype) {
  LK_BIND_TRY(o, shapeOptions(shape), "shape");
  LK_BIND_TRY(type, cute::ElementTypeRegistry::global().lookup(dtype), "dtype");
  LK_BIND_TRY(a, api::parseDistributed(src, o), "layout");
  LK_BIND_TRY(b, api::parseDistributed(index, o), "b");
  LK_BIND_TRY(axis, axisArg(axisNumber), "axis");
  LK_BIND_TRY(p, api::gather(a, b, axis, type), "plan");
  return api::toJson(ok().add("gather", api::describe(p)));
}

/// The fields of an offset table: rows, cols and the cells row by row (a
/// cell that is not one offset, e.g. of a basis-stride layout, is -1).
Record &tableFields(Record &o, const api::OffsetTable &t) {
  Value::List cells;
  for (const IntTuple &c : t.cells)
    cells.emplace_back(c.isLeaf() ? c.value() : -1);
  return o.add("rows", t.rows).add("cols", t.cols).add("cells", cells);
}

/// A table of a cute layout's offsets (api::tabulateGrouped: rank > 2
/// as mode 0 down, the other modes grouped across; "grouping" says so).
Record tableRecord(const cute::Layout &l) {
  auto t = api::tabulateGrouped(cute::ComposedLayout{{}, 0, l});
  Record o = Record().add("text", l.str());
  if (!t)
    return o.add("error", t.error().message);
  o.add("layout", api::describe(l)).add("grouping", t->grouping);
  return tableFields(o, *t);
}

/// The offsets of a cute layout of rank <= 2 (the TV view).
std::string cuteTableJson(std::string text) {
  api::ParseOptions o;
  o.syntax = api::Syntax::CuteText;
  LK_BIND_TRY(l, api::parseLayout(text, o), "layout");
  LK_BIND_TRY(t, api::tabulate(*l.cute()), "layout");
  Record out = ok().add("text", t.title);
  return api::toJson(tableFields(out, t));
}

/// The TV view: a cute layout (thread, value) -> index tabulated, and the
/// logical tile of `shape` with the first thread and value of each cell
/// (-1: no pair reaches it), api::tvGrid.
std::string tvJson(std::string text, std::string shape) {
  api::ParseOptions o;
  o.syntax = api::Syntax::CuteText;
  LK_BIND_TRY(l, api::parseLayout(text, o), "layout");
  LK_BIND_TRY(t, api::tabulate(*l.cute()), "layout");
  LK_BIND_TRY(leaves, api::parseShapeLeaves(shape), "shape");
  LK_BIND_TRY(g, api::tvGrid(l.cute()->layout, leaves), "shape");
  Value::List thread, value;
  for (const std::vector<api::TvPair> &h : g.holders) {
    thread.emplace_back(h.empty() ? -1 : h[0].thread);
    value.emplace_back(h.empty() ? -1 : h[0].value);
  }
  Record out = ok().add("text", t.title);
  return api::toJson(tableFields(out, t)
                         .add("tileRows", g.rows)
                         .add("tileCols", g.cols)
                         .add("thread", thread)
                         .add("value", value));
}

/// The operations of the operations view: the registry's (api/CuteOps.h)
/// of two parameters, a layout A first, whose answer is a layout.
bool twoArgumentLayoutOp(const api::CuteOp &op) {
  return op.params.size() == 2 && op.params[0].kind == api::CuteKind::Layout &&
         op.result == api::CuteKind::Layout;
}

/// {ok, ops: [{name, b: kind of B, bOptional, doc}]}: the operations
/// view's menu.
std::string cuteOpsJson() {
  Value::List rows;
  for (const api::CuteOp &op : api::cuteOps())
    if (twoArgumentLayoutOp(op))
      rows.push_back(Record()
                         .add("name", op.name)
                         .add("b", api::cuteKindName(op.params[1].kind))
                         .add("bOptional", op.params[1].optional)
                         .add("doc", op.doc));
  return api::toJson(ok().add("ops", rows));
}

/// B as the view tabulates it: a layout (or a layout tiler) as a table,
/// anything else as its text.
Record operandTable(const api::CuteValue &v) {
  if (const cute::Layout *l = std::get_if<cute::Layout>(&v.value))
    return tableRecord(*l);
  if (const cute::Tiler *t = std::get_if<cute::Tiler>(&v.value);
      t && t->kind == cute::Tiler::Kind::Layout)
    return tableRecord(t->layout);
  return Record().add("text", v.str());
}

/// `op`(a, b) of the registry with the inputs and result tabulated: A a
/// layout, B read by the operation's second parameter (a tiler, a layout,
/// or complement's cotarget, an integer tuple, as the CLI reads them).
std::string algebraJson(std::string op, std::string a, std::string b) {
  const api::CuteOp *row = api::findCuteOp(op);
  if (!row || !twoArgumentLayoutOp(*row))
    return errorJson(Diagnostic::error("unknown operation '" + op + "'"), "op");
  LK_BIND_TRY(la, cute::parseLayout(a), "layout");
  std::vector<api::CuteValue> args{api::CuteValue{la}};
  Record bTable = Record().add("text", "");
  // An empty B leaves out an optional second parameter (coalesce's
  // profile, complement's cotarget), as the CLI does.
  if (!(row->params[1].optional &&
        b.find_first_not_of(" \t") == std::string::npos)) {
    LK_BIND_TRY(vb, api::parseCuteValue(row->params[1].kind, b), "b");
    bTable = operandTable(vb);
    args.push_back(std::move(vb));
  }
  Expected<api::CuteValue> result = api::callCuteOp(*row, std::move(args));
  if (!result)
    return errorJson(result.error(), "op");
  return api::toJson(
      ok().add("a", tableRecord(la))
          .add("b", bTable)
          .add("result", tableRecord(std::get<cute::Layout>(result->value))));
}

/// The access record: what one warp's access of the layout costs when
/// each lane's registers come from a row-major tile of the shape in shared
/// / global memory (api::analyseAccess on sm_90).
std::string accessJson(std::string text, std::string shape, std::string dtype,
                       std::string swizzle) {
  LK_BIND_READ(t, readTile, text, shape);
  LK_BIND_TRY(type, cute::ElementTypeRegistry::global().lookup(dtype), "dtype");
  // The memory side: the logical shape row-major on m (its size fits
  // int64: readTile checked it).
  tile::IterList shard;
  shard.resize(t->shape.size());
  int64_t stride = 1;
  for (size_t d = t->shape.size(); d-- > 0; stride *= t->shape[d])
    shard[d] = {t->shape[d], stride, tile::Axis::m()};
  LK_BIND_TRY(rowMajor, tile::TileLayout::make(std::move(shard)), "layout");
  std::optional<std::string_view> mode;
  if (swizzle != "none")
    mode = swizzle;
  LK_BIND_TRY(memory,
              api::memoryLayout(tile::SwizzledTileLayout({}, rowMajor),
                                type.bits, mode),
              "layout");
  LK_BIND_TRY(a,
              // The lanes' registers: the tile without a swizzle (a CuTe
              // text's swizzle is on its offsets, not on who holds what).
              api::analyseAccess(tile::SwizzledTileLayout(tile::SwizzleLayout(),
                                                          t->layout.tile()),
                                 memory, type.bits, std::nullopt,
                                 hw::Arch::Sm90),
              "layout");
  return resultJson(api::describe(a));
}

} // namespace

EMSCRIPTEN_BINDINGS(layoutkit) {
  emscripten::function("parse", &parseJson);
  emscripten::function("tileMap", &tileMapJson);
  emscripten::function("owners", &ownersJson);
  emscripten::function("steps", &stepsJson);
  emscripten::function("holds", &holdsJson);
  emscripten::function("banks", &banksJson);
  emscripten::function("presets", &presetsJson);
  emscripten::function("plan", &planJson);
  emscripten::function("reduce", &reduceJson);
  emscripten::function("gather", &gatherJson);
  emscripten::function("algebra", &algebraJson);
  emscripten::function("cuteOps", &cuteOpsJson);
  emscripten::function("access", &accessJson);
  emscripten::function("table", &cuteTableJson);
  emscripten::function("tv", &tvJson);
}
