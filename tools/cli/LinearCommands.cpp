//===- LinearCommands.cpp - `layoutkit linear ...` ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The linear family: build Triton's standard layouts from their
/// parameters, print bases, draw which register / lane / warp holds each
/// element, apply, compose and invert. Layouts are given in their text form
/// (docs/linear.md), e.g. '{register: [(0,1)], lane: [(1,0),(2,0)]} ->
/// {dim0: 4, dim1: 2}'. The command rows are at the end.
///
//===----------------------------------------------------------------------===//

#include "cli/Grid.h"
#include "cli/Handlers.h"
#include "cli/Json.h"
#include "cli/LayoutArgs.h"

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Describe.h"
#include "layoutkit/api/Query.h"
#include "layoutkit/api/ShapeOps.h"
#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/bridge/LinearTile.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Analysis.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/TileText.h"

namespace lk::cli {

using namespace lk::linear;

namespace {

/// A linear layout: its text, or Triton's TTGIR text (a tensor type, or a
/// `#ttg.linear` attribute, gives the shape: these commands take no
/// --shape). Other text is read as the linear grammar, so its diagnostic
/// is that grammar's.
Expected<LinearLayout> layoutParam(const Invocation &inv, size_t i) {
  api::ParseOptions options;
  options.shapeName.clear();
  if (api::candidateSyntaxes(inv.text(i)).front() != api::Syntax::TtgirText)
    options.syntax = api::Syntax::LinearText;
  LK_TRY(api::AnyLayout l,
         inv.argument(api::parseLayout(inv.text(i), options), i));
  return *l.linear();
}

Reply layoutReplyOf(const LinearLayout &l) {
  return Reply{l.str(), jsonOf(api::describe(l))};
}

/// "dim=value" pairs (api::parseDimValues); dims left out are 0.
Expected<std::vector<int64_t>> valuesParam(const Invocation &inv, size_t i,
                                           const LinearLayout &l) {
  return inv.argument(api::parseDimValues(inv.text(i), l), i);
}

/// The picture of a layout whose outputs are one or two dims
/// (api::linearGrid): each cell lists the inputs mapping to it ("R1L5W0";
/// several separated by '/').
Expected<Grid> picture(const LinearLayout &l) {
  LK_TRY(api::LinearGrid lg, api::linearGrid(l, int64_t(1) << 16));
  Grid g(lg.rows, lg.cols);
  g.title = l.str();
  // Input dims of size 1 (e.g. warp: [] of a one-warp layout) are left out
  // of the cells.
  std::vector<int> shown;
  for (int i = 0; i < l.numInDims(); ++i)
    if (l.inDim(i).log2 > 0)
      shown.push_back(i);
  std::string legend = "cell: ";
  for (size_t k = 0; k < shown.size(); ++k)
    legend += std::string(k ? ", " : "") +
              char(std::toupper(dimName(l.inDim(shown[k]).id)[0])) + " = " +
              std::string(dimName(l.inDim(shown[k]).id));
  int colourDim = shown.size() > 1 ? shown[1] : shown.empty() ? -1 : shown[0];
  g.legend = legend + (colourDim < 0
                           ? std::string()
                           : "; colour: first holder's " +
                                 std::string(dimName(l.inDim(colourDim).id)));
  for (size_t k = 0; k < lg.holders.size(); ++k)
    for (int64_t x : lg.holders[k]) {
      std::vector<int64_t> in = l.unpackIn(uint64_t(x));
      std::string who;
      for (int i : shown)
        who += char(std::toupper(dimName(l.inDim(i).id)[0])) +
               std::to_string(in[size_t(i)]);
      g.cells[k] += (g.cells[k].empty() ? "" : "/") + who;
      if (g.colors[k] < 0)
        g.colors[k] = colourDim < 0 ? 0 : in[size_t(colourDim)];
    }
  return g;
}

Status attachPicture(const Invocation &inv, const LinearLayout &l, Reply &r) {
  bool show = inv.option("show").has_value();
  std::optional<std::string> svg = inv.option("svg");
  if (!show && !svg)
    return Ok{};
  LK_TRY(Grid g, picture(l));
  if (show) {
    g.title.clear(); // the layout's text is already the first line
    r.text += "\n" + renderGridText(g);
  }
  return attachSvg(inv, renderGridSvg(g), r);
}

Expected<Reply> runLinearStandard(const Invocation &inv) {
  LK_TRY(api::ParseOptions options, parseOptions(std::nullopt));
  options.shapeName = "SHAPE";
  // Without SHAPE the text must give it (a TTGIR tensor type); the reader
  // says so otherwise.
  if (inv.has(1)) {
    LK_TRY(options.shape, inv.argument(api::parseTensorShape(inv.text(1)), 1));
  }
  bool ttgir =
      api::candidateSyntaxes(inv.text(0)).front() == api::Syntax::TtgirText;
  options.syntax = ttgir ? api::Syntax::TtgirText : api::Syntax::StandardParams;
  LK_TRY(api::AnyLayout l,
         inv.argument(api::parseLayout(inv.text(0), options), 0));
  const LinearLayout &ll = *l.linear();
  Reply r = layoutReplyOf(ll);
  LK_CHECK(attachPicture(inv, ll, r));
  return r;
}

Expected<Reply> runLinearShow(const Invocation &inv) {
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  LK_TRY(Grid g, picture(l));
  Reply r{renderGridText(g), jsonOf(api::describe(l))};
  LK_CHECK(attachSvg(inv, renderGridSvg(g), r));
  return r;
}

Expected<Reply> runLinearBases(const Invocation &inv) {
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  Reply r{l.toString(), jsonOf(api::describe(l))};
  r.json["injective"] = l.isInjective();
  r.json["surjective"] = l.isSurjective();
  r.json["rank"] = l.rank();
  return r;
}

Expected<Reply> runLinearApply(const Invocation &inv) {
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  LK_TRY(std::vector<int64_t> in, valuesParam(inv, 1, l));
  LK_TRY(std::vector<int64_t> out, l.apply(in));
  Reply r;
  r.json = JsonValue::object();
  for (int i = 0; i < l.numOutDims(); ++i) {
    std::string name(dimName(l.outDim(i).id));
    r.text += (i ? " " : "") + name + "=" + std::to_string(out[size_t(i)]);
    r.json[name] = out[size_t(i)];
  }
  return r;
}

Expected<Reply> runLinearCompose(const Invocation &inv) {
  LK_TRY(LinearLayout inner, layoutParam(inv, 0));
  LK_TRY(LinearLayout outer, layoutParam(inv, 1));
  LK_TRY(LinearLayout c, inner.compose(outer));
  return layoutReplyOf(c);
}

Expected<Reply> runLinearInvert(const Invocation &inv) {
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  if (inv.option("pseudo")) {
    LK_TRY(LinearLayout p, l.pseudoinvert());
    return layoutReplyOf(p);
  }
  LK_TRY(LinearLayout p, l.invert());
  return layoutReplyOf(p);
}

Expected<Reply> runLinearFromCute(const Invocation &inv) {
  LK_TRY(cute::ComposedLayout c, inv.composedLayout(0));
  LK_TRY(LinearLayout l, inv.argument(bridge::cuteToLinear(c), 0));
  return layoutReplyOf(l);
}

Expected<Reply> runLinearFromTile(const Invocation &inv) {
  api::ParseOptions options;
  options.syntax = api::Syntax::TileText;
  LK_TRY(api::AnyLayout t,
         inv.argument(api::parseLayout(inv.text(0), options), 0));
  LK_TRY(std::vector<int64_t> shape, inv.leavesOption("shape"));
  LK_TRY(LinearLayout l, api::toLinear(t, shape));
  return layoutReplyOf(l);
}

Expected<Reply> runLinearPad(const Invocation &inv) {
  LK_TRY(std::vector<int64_t> shape, inv.leavesOption("shape"));
  // Triton's layouts (TTGIR, JSON parameters) are built over the padded
  // shape: each --shape extent rounded up to a power of two.
  LK_TRY(api::ParseOptions options, parseOptions(std::nullopt));
  if (!shape.empty()) {
    LK_TRY(std::vector<int64_t> padded, linear::paddedShape(shape));
    std::vector<IntTuple> dims(padded.begin(), padded.end());
    options.shape = IntTuple::tuple(std::move(dims));
  }
  LK_TRY(api::AnyLayout any,
         inv.argument(api::parseLayout(inv.text(0), options), 0));
  LK_TRY(bridge::PaddedConversion pc, api::toPaddedLinear(any, shape));
  LK_TRY(Waste w, pc.layout.waste());
  Reply r;
  r.text = "padded: " + pc.paddedText + "\n" + pc.describe() +
           "\nlinear: " + pc.layout.str() + "\nwaste: " + w.str();
  static constexpr const char *kKinds[] = {"dim", "extent", "stride"};
  JsonValue steps = JsonValue::array();
  for (const bridge::PadStep &st : pc.steps)
    steps.push_back({{"kind", kKinds[int(st.kind)]},
                     {"where", st.where},
                     {"from", st.from},
                     {"to", st.to}});
  std::vector<int64_t> logical(pc.layout.logicalShape().begin(),
                               pc.layout.logicalShape().end());
  r.json = {{"padded", pc.paddedText},
            {"steps", steps},
            {"exact", pc.exact},
            {"layout", jsonOf(api::describe(pc.layout.layout()))},
            {"logical_shape", logical},
            {"waste", jsonOf(api::describe(w))}};
  return r;
}

Expected<Reply> runLinearToCute(const Invocation &inv) {
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  LK_TRY(cute::Layout c, bridge::linearToCute(l));
  return Reply{c.str(), c.str()};
}

Expected<Reply> runLinearToTile(const Invocation &inv) {
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  LK_TRY(tile::TileLayout t, bridge::linearToTile(l));
  return Reply{t.str(), t.str()};
}

Expected<Reply> runLinearProduct(const Invocation &inv) {
  LK_TRY(LinearLayout inner, layoutParam(inv, 0));
  LK_TRY(LinearLayout outer, layoutParam(inv, 1));
  LK_TRY(LinearLayout p, product(inner, outer));
  return layoutReplyOf(p);
}

Expected<Reply> runLinearDivide(const Invocation &inv) {
  LK_TRY(LinearLayout a, layoutParam(inv, 0));
  LK_TRY(LinearLayout b, layoutParam(inv, 1));
  if (inv.option("right")) {
    LK_TRY(LinearLayout q, divideRight(a, b));
    return layoutReplyOf(q);
  }
  LK_TRY(LinearLayout q, divideLeft(a, b));
  return layoutReplyOf(q);
}

/// "0b101" style mask text of `bits` input bits.
std::string maskText(uint64_t mask) {
  if (mask == 0)
    return "0";
  std::string s;
  for (uint64_t m = mask; m; m >>= 1)
    s.insert(s.begin(), char('0' + (m & 1)));
  return "0b" + s;
}

Expected<Reply> runLinearProperties(const Invocation &inv) {
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  LK_TRY(std::vector<int64_t> orderLeaves, inv.leavesOption("order"));
  Expected<std::vector<unsigned>> order = outDimOrder(l, orderLeaves);
  if (!order)
    return inv.inOption(std::move(order).error(), "order");
  Reply r;
  r.json = JsonValue::object();
  auto flag = [&](const char *name, bool v) {
    r.text += std::string(name) + ": " + (v ? "true" : "false") + "\n";
    r.json[name] = v;
  };
  flag("distributed", isDistributed(l));
  flag("memory", isMemory(l));
  flag("injective", l.isInjective());
  flag("surjective", l.isSurjective());
  auto contiguous = contiguousElements(l, *order);
  if (contiguous) {
    r.text +=
        "contiguous elements per thread: " + std::to_string(*contiguous) + "\n";
    r.json["contiguous_elements"] = *contiguous;
  } else {
    r.text += "contiguous elements per thread: n/a (" +
              contiguous.error().message + ")\n";
    r.json["contiguous_elements"] = nullptr;
  }
  Duplicates d = duplicates(l);
  JsonValue dup = JsonValue::object();
  std::string dupText;
  for (int i = 0; i < l.numInDims(); ++i) {
    std::string name(dimName(l.inDim(i).id));
    uint64_t freeMask = d.freeMasks[size_t(i)],
             zeroMask = d.zeroMasks[size_t(i)];
    dup[name] = {{"free_mask", freeMask}, {"zero_mask", zeroMask}};
    if (freeMask || zeroMask)
      dupText += " " + name + " (free " + maskText(freeMask) + ", zero " +
                 maskText(zeroMask) + ")";
  }
  r.text += "duplicates:" + (dupText.empty() ? std::string(" none") : dupText);
  r.json["duplicates"] = dup;
  return r;
}

/// `linear trans|reshape|...` (api::applyShapeOp); a bad ARG is named as
/// argument 1.
Expected<Reply> runLinearShapeOp(const Invocation &inv) {
  std::string leaf = leafNameOf(inv.spec->name);
  const api::ShapeOp *op = api::findShapeOp(leaf);
  if (!op)
    return Diagnostic::error("no shape operation '" + leaf + "'");
  LK_TRY(LinearLayout l, layoutParam(inv, 0));
  std::vector<int64_t> arg;
  if (op->arg != api::ShapeArg::None) {
    LK_TRY(arg, inv.argument(api::parseShapeLeaves(inv.text(1)), 1));
    if (Status ok = api::checkShapeArg(*op, arg); !ok)
      return inv.inArgument(std::move(ok).error(), 1);
  }
  LK_TRY(LinearLayout result,
         api::applyShapeOp(*op, l, arg, inv.option("backward").has_value()));
  return layoutReplyOf(result);
}

} // namespace

std::vector<CommandSpec> linearCommands() {
  const std::string group = "Linear layouts";
  const ParamSpec layout{
      "LAYOUT",
      "a linear layout in its text form, e.g. '{register: "
      "[(0,1)], lane: [(1,0),(2,0)]} -> {dim0: 4, dim1: 2}', "
      "or Triton's TTGIR text with its tensor type, e.g. "
      "'tensor<16x16xf32, #ttg.blocked<{...}>>'",
      Arity::One};
  const OptionSpec svg{"svg", "FILE",
                       "also write an SVG picture ('-': print it instead)"};
  const char *blocked =
      "'{\"kind\":\"blocked\",\"sizePerThread\":[1,4],\"threadsPerWarp\":[8,4],"
      "\"warpsPerCTA\":[1,1],\"order\":[1,0]}'";
  std::vector<CommandSpec> rows = {
      {"linear standard",
       group,
       "Build a standard GPU layout (Triton's) from its parameters",
       "PARAMS is a JSON object with `kind` (blocked, nvidia_mma, "
       "dot_operand, slice, swizzled_shared, nvmma_shared, amd_mfma, "
       "amd_wmma, intel_dpas, shmem_for_reg_to_reg) and that kind's "
       "parameters, named as Triton (intel_dpas: Intel's backend) names "
       "them (tests/data/linear-public.jsonl has examples), or Triton's "
       "TTGIR attribute text ('#ttg.blocked<{...}>', alias lines before it, "
       "docs/linear.md). "
       "SHAPE is the tensor shape (optional when the text is a TTGIR tensor "
       "type, tensor<64x64xf16, #ttg...>). Prints the layout's text; --show "
       "adds the "
       "picture of which register / lane / warp holds each element.",
       {std::string("layoutkit linear standard ") + blocked +
        " '(8,16)' --show"},
       {{"PARAMS", "the layout parameters as a JSON object or TTGIR text",
         Arity::One},
        {"SHAPE", "the tensor shape, e.g. (64,64)", Arity::Optional}},
       {{"show", "", "also draw the holders of each element", true}, svg},
       runLinearStandard},
      {"linear show",
       group,
       "Draw which inputs (register, lane, warp, ...) map to each output",
       "One or two output dims: rows are dim0, columns the last dim.",
       {"layoutkit linear show '{register: [(0,1)], lane: [(1,0),(2,0)]} -> "
        "{dim0: 4, dim1: 2}'"},
       {layout},
       {svg},
       runLinearShow},
      {"linear bases",
       group,
       "Print a layout's bases, one line per input bit",
       "--json adds whether the layout is injective and surjective, and its "
       "rank over F2.",
       {"layoutkit linear bases '{register: [(0,1)], lane: [(1,0),(2,0)]} -> "
        "{dim0: 4, dim1: 2}'"},
       {layout},
       {},
       runLinearBases},
      {"linear apply",
       group,
       "Evaluate a layout: the XOR of the bases of the set input bits",
       "INPUTS gives dim=value pairs; dims left out are 0.",
       {"layoutkit linear apply '{register: [(0,1)], lane: [(1,0),(2,0)]} -> "
        "{dim0: 4, dim1: 2}' 'register=1,lane=3'   # dim0=3 dim1=1"},
       {layout,
        {"INPUTS", "dim=value pairs, e.g. register=1,lane=3", Arity::One}},
       {},
       runLinearApply},
      {"linear compose",
       group,
       "Compose two layouts: OUTER(INNER(x))",
       "INNER's output dims must be OUTER's input dims (same names and sizes).",
       {"layoutkit linear compose '{lane: [(1),(2)]} -> {offset: 4}' "
        "'{offset: [(2),(1)]} -> {dim0: 4}'"},
       {{"INNER", "the layout applied first", Arity::One},
        {"OUTER", "the layout applied second", Arity::One}},
       {},
       runLinearCompose},
      {"linear invert",
       group,
       "Invert a layout (square and invertible), or --pseudo: the minimum-norm "
       "right inverse",
       "The pseudoinverse sets free variables to zero, so broadcast data "
       "resolves to the smallest input.",
       {"layoutkit linear invert '{lane: [(2),(1)]} -> {dim0: 4}'"},
       {layout},
       {{"pseudo", "",
         "the pseudoinverse (for non-square or non-injective layouts)", true}},
       runLinearInvert},
      {"linear from-cute",
       group,
       "The linear layout of a cute layout (index bits -> offset bits)",
       "Power-of-two extents whose strides share no bits, optionally "
       "swizzled ('Sw<B,M,S> o L'); the in-dim is `index`, the out-dim "
       "`offset` (docs/linear.md, Bridges).",
       {"layoutkit linear from-cute '(4,8):(8,1)'"},
       {{"LAYOUT",
         "a cute layout, e.g. (4,8):(8,1) or 'Sw<3,4,3> o (8,64):(64,1)'",
         Arity::One}},
       {},
       runLinearFromCute},
      {"linear pad",
       group,
       "A layout of any shape as a padded linear layout, with the waste",
       "Extents that are not powers of two are padded to the next one and "
       "masked (docs/linear.md, Non-power-of-two shapes): a cute layout over "
       "its modes (offset -> dim0..), a tile layout over --shape (hardware -> "
       "dim0..), a linear layout with --shape as its logical shape (else its "
       "own), Triton's layouts (TTGIR, JSON) built over --shape rounded up "
       "to powers of two. Prints "
       "the padded layout, each change (dims, extents, strides), whether "
       "valid elements keep their places, the linear layout and the waste "
       "(padded elements, masked slots, fully masked registers / lanes / "
       "offsets).",
       {"layoutkit linear pad '(4,3):(1,4)'",
        "layoutkit linear pad 'S[(2,128,112):(112@TCol,1@TLane,1@TCol)]' "
        "--shape '(2,128,112)'"},
       {{"LAYOUT", "a cute, tile or linear layout", Arity::One}},
       {{"shape", "SHAPE",
         "the logical shape (tile and linear layouts), e.g. (2,128,112)"}},
       runLinearPad},
      {"linear from-tile",
       group,
       "The linear layout of a tile layout (hardware -> logical)",
       "One in-dim per axis (m -> register, laneid -> lane, warpid -> warp, "
       "cta -> block); replicas become zero columns. Out-dim `index`, or "
       "dim0.. with --shape.",
       {"layoutkit linear from-tile 'S[(8,4,2):(4@laneid,1@laneid,1)]' --shape "
        "'(8,8)'"},
       {{"LAYOUT", "a tile layout with power-of-two extents and strides",
         Arity::One}},
       {{"shape", "SHAPE",
         "the logical shape, e.g. (8,8): out-dims dim0, dim1"}},
       runLinearFromTile},
      {"linear to-cute",
       group,
       "The cute layout of a linear layout (flattened input -> offset)",
       "Refused when two non-zero bases share a bit (the offsets would carry).",
       {"layoutkit linear to-cute '{index: [(8),(16),(1),(2),(4)]} -> {offset: "
        "32}'"},
       {layout},
       {},
       runLinearToCute},
      {"linear to-tile",
       group,
       "The tile layout of a hardware -> logical linear layout",
       "Every non-zero basis must be a single logical bit, each reached once.",
       {"layoutkit linear to-tile '{register: [(0,1)], lane: "
        "[(0,2),(0,4),(1,0),(2,0),(4,0)]} -> {dim0: 8, dim1: 8}'"},
       {layout},
       {},
       runLinearToTile},
      {"linear product",
       group,
       "The product INNER * OUTER (direct sum of the bases)",
       "Input and output dims are the union, INNER's first; on a common "
       "output dim OUTER's values are shifted above INNER's.",
       {"layoutkit linear product '{register: [(1)]} -> {dim0: 2}' "
        "'{lane: [(1)]} -> {dim0: 2}'"},
       {{"INNER", "the minor layout", Arity::One},
        {"OUTER", "the major layout", Arity::One}},
       {},
       runLinearProduct},
      {"linear divide",
       group,
       "The quotient C with A = B * C (or, --right, B with A = B * C)",
       "Left division: A's first bases per input dim must be B's; C keeps "
       "the rest shifted down. --right divides by the major part.",
       {"layoutkit linear divide '{register: [(1),(2),(4)]} -> {dim0: 8}' "
        "'{register: [(1)]} -> {dim0: 2}'"},
       {{"A", "the layout to divide", Arity::One},
        {"B", "the divisor (the minor part; with --right the major part)",
         Arity::One}},
       {{"right", "", "divide by the major part (A = B * C, C given)", true}},
       runLinearDivide},
      {"linear properties",
       group,
       "Distributed? memory? contiguity per thread, duplicated data",
       "distributed: every column has at most one bit, non-zero columns "
       "distinct; memory: invertible with 1 or 2 bits per column; contiguous "
       "elements per thread in the memory order --order (default row-major; "
       "needs a register in-dim and dim0.. out-dims); duplicates: per in-dim "
       "the free-variable mask (data held twice) and the zero-column mask "
       "(pure broadcast).",
       {"layoutkit linear properties '{register: [(0,1)], lane: [(0,2), "
        "(1,0)]} -> {dim0: 2, dim1: 4}'"},
       {layout},
       {{"order", "ORDER",
         "memory order of the dims, fastest first, e.g. (1,0)"}},
       runLinearProperties},
  };
  const ParamSpec order{
      "ORDER", "result dim i is operand dim ORDER[i], e.g. (1,0)", Arity::One};
  const ParamSpec shapeArg{"SHAPE", "the other shape, e.g. (4,8)", Arity::One};
  const ParamSpec axis{"AXIS", "the position of the size-1 dim, e.g. 0",
                       Arity::One};
  const OptionSpec backward{"backward", "",
                            "map a wanted result layout to the operand layout "
                            "that gives it with no data movement",
                            true};
  auto shapeRow = [&](const std::string &name, const std::string &summary,
                      std::vector<ParamSpec> params,
                      const std::string &example) {
    return CommandSpec{"linear " + name,
                       group,
                       summary,
                       "Shape operations keep every element in its thread and "
                       "register (docs/linear.md, Shape operations); the "
                       "layout's out-dims are dim0.. of the operand.",
                       {"layoutkit linear " + name + " " + example},
                       std::move(params),
                       {backward},
                       runLinearShapeOp};
  };
  const std::string blockedArg =
      "'{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}'";
  rows.push_back(shapeRow("trans", "The layout of a transposed tensor",
                          {layout, order}, blockedArg + " '(1,0)'"));
  rows.push_back(shapeRow("reshape",
                          "The layout of a reshaped tensor (row-major)",
                          {layout, shapeArg}, blockedArg + " 8"));
  rows.push_back(shapeRow("expand_dims",
                          "The layout with a size-1 dim inserted",
                          {layout, axis}, blockedArg + " 0"));
  rows.push_back(shapeRow(
      "broadcast", "The layout of a tensor broadcast to SHAPE",
      {layout, shapeArg}, "'{lane: [(0,1)]} -> {dim0: 1, dim1: 2}' '(2,2)'"));
  rows.push_back(shapeRow("join",
                          "The layout of join(a, b): a new minor dim of size 2",
                          {layout}, blockedArg));
  rows.push_back(shapeRow(
      "split", "The layout of split: the minor dim of size 2 removed", {layout},
      "'{register: [(0,0,1)], lane: [(0,1,0)]} -> {dim0: 1, "
      "dim1: 2, dim2: 2}'"));
  return rows;
}

} // namespace lk::cli
