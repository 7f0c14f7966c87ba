//===- PlanCommands.cpp - `layoutkit plan SRC DST` ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plans the conversion of a tensor held in registers in distributed layout
/// SRC to distributed layout DST (plan/Plan.h) and prints the strategy, the
/// vector width, the shared-memory layout chosen (the swizzle), the
/// wavefronts against their lower bounds, the instruction counts, the
/// shared-memory bytes and the estimated cycles of the cost model;
/// `--emit cuda` adds the CUDA C++ of the plan (plan/EmitCuda.h).
///
/// SRC and DST are hardware -> logical layouts given in any of the models;
/// the model is told by the first characters of the text:
///
///   {"kind": ...}            standard-layout parameters (the JSON object of
///                            `linear standard`), over the tensor --shape;
///   {register: ...} -> {...} a linear layout in its text form;
///   S[...] / R[...]          a tile layout: axes m -> register, laneid ->
///                            lane, warpid -> warp, cta -> block (the
///                            tile -> linear bridge); logical dims dim0.. of
///                            --shape (row-major), or `index` without it;
///   anything else            a cute TV layout (thread, value) -> element
///                            index, CuTe's convention (hw/Atom.h): two
///                            top-level modes, the thread's low 5 bits are
///                            the lane, the others the warp, the value is
///                            the register; the index is split colex over
///                            --shape (dim0 = the first, fastest coordinate).
///
/// Example: the mma.m16n8k16 accumulator as a tile layout and as a cute TV
/// layout is one layout, so the conversion is free:
///   layoutkit plan 'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
///                  '((4,8),(2,2)):((32,1),(16,8))' --shape '(16,8)' --dtype
///                  f16
///   strategy: no-op
///   cost: 0 instructions (0 register moves, 0 selects, 0 shuffles), ...
/// A bad argument names itself and the model it was read as:
///   layoutkit plan '{register: [(0,1)' ... -> "error: ... note: in argument
///   SRC of 'plan'  note: read as a linear layout (...)".
///
//===----------------------------------------------------------------------===//

#include "layoutkit/Handlers.h"
#include "layoutkit/LayoutArgs.h"

#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/bridge/LinearTile.h"
#include "layoutkit/bridge/TileCute.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/tile/SwizzleLayout.h"
#include "layoutkit/tile/TileText.h"

#include <cctype>
#include <cstdio>

namespace lk::cli {

using linear::LinearLayout;
namespace dims = linear::dims;

namespace {

/// The layout models a SRC / DST text can be written in.
enum class LayoutModel { Standard, Linear, Tile, Cute };

std::string_view modelName(LayoutModel m) {
  switch (m) {
  case LayoutModel::Standard:
    return "standard-layout parameters (JSON)";
  case LayoutModel::Linear:
    return "a linear layout";
  case LayoutModel::Tile:
    return "a tile layout";
  case LayoutModel::Cute:
    return "a cute TV layout";
  }
  return "?";
}

/// The model of a layout text, from its first non-blank characters:
/// `{"` -> JSON parameters, `{` -> linear, `S[` / `R[` -> tile, else cute.
LayoutModel detectModel(std::string_view text) {
  size_t p = 0;
  auto skipBlanks = [&] {
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p])))
      ++p;
  };
  skipBlanks();
  if (p < text.size() && text[p] == '{') {
    ++p;
    skipBlanks();
    return p < text.size() && text[p] == '"' ? LayoutModel::Standard
                                             : LayoutModel::Linear;
  }
  if (p < text.size() && (text[p] == 'S' || text[p] == 'R')) {
    ++p;
    skipBlanks();
    if (p < text.size() && text[p] == '[')
      return LayoutModel::Tile;
  }
  return LayoutModel::Cute;
}

/// A cute TV layout (thread, value) -> index, as a linear layout
/// register/lane/warp -> dim0.. (see the file comment).
Expected<LinearLayout> cuteTvToLinear(std::string_view text,
                                      const std::vector<int64_t> *shape) {
  LK_TRY(cute::Layout tv, cute::parseLayout(text));
  if (tv.rank() != 2)
    return Diagnostic::error(
        "a cute layout for `plan` is a TV layout (thread, value) -> element "
        "index with 2 top-level modes; " +
        tv.str() + " has " + std::to_string(tv.rank()));
  if (!shape)
    return Diagnostic::error("a cute TV layout needs --shape, the tensor's "
                             "extents its element index is split over "
                             "(colex), e.g. --shape '(16,16)'");
  bridge::CuteToLinearDims d;
  const linear::DimId thread = linear::internDim("thread");
  d.inDims = {thread, dims::kRegister};
  for (size_t i = 0; i < shape->size(); ++i)
    d.outDims.push_back({dims::dim(int(i)), (*shape)[i]});
  LK_TRY(LinearLayout l, bridge::cuteToLinear(tv, d));
  // The thread bits (lowest in the flattened input): lane, then warp.
  int64_t threads = l.inDimSize(thread);
  int64_t lanes = std::min<int64_t>(threads, 32);
  std::vector<linear::OutDim> ins = {{dims::kLane, lanes}};
  if (threads > lanes)
    ins.push_back({dims::kWarp, threads / lanes});
  ins.push_back({dims::kRegister, l.inDimSize(dims::kRegister)});
  return l.reshapeIns(ins);
}

/// Checks that a layout given with its own out-dims agrees with --shape.
Status checkShape(const LinearLayout &l, const std::vector<int64_t> &shape) {
  bool same = l.numOutDims() == int(shape.size());
  for (int i = 0; same && i < l.numOutDims(); ++i)
    same = l.outDim(i).size() == shape[size_t(i)];
  if (same)
    return Ok{};
  std::string s;
  for (int i = 0; i < l.numOutDims(); ++i)
    s += (i ? "," : "") + std::to_string(l.outDim(i).size());
  return Diagnostic::error("the layout's logical dims have extents (" + s +
                           "), not the --shape given");
}

/// Parameter i (SRC or DST) as a hardware -> logical linear layout.
Expected<LinearLayout> distributedParam(const Invocation &inv, size_t i,
                                        const std::vector<int64_t> *shape) {
  const std::string &text = inv.text(i);
  LayoutModel model = detectModel(text);
  auto read = [&]() -> Expected<LinearLayout> {
    switch (model) {
    case LayoutModel::Standard:
      if (!shape)
        return Diagnostic::error("standard-layout parameters need --shape, "
                                 "the tensor shape, e.g. --shape '(64,64)'");
      return standardLayoutFromJson(text, *shape);
    case LayoutModel::Linear: {
      LK_TRY(LinearLayout l, linear::parseLinearLayout(text));
      if (shape)
        LK_CHECK(checkShape(l, *shape));
      return l;
    }
    case LayoutModel::Tile: {
      LK_TRY(tile::TileLayout t, tile::parseTileLayout(text));
      bridge::TileToLinearDims d;
      if (shape)
        d.shape = *shape;
      return bridge::tileToLinear(t, d);
    }
    case LayoutModel::Cute:
      return cuteTvToLinear(text, shape);
    }
    return Diagnostic::error("unknown layout model");
  };
  Expected<LinearLayout> l = read();
  if (!l) {
    Diagnostic d = inv.inArgument(std::move(l).error(), i);
    d.notes.push_back("read as " + std::string(modelName(model)) +
                      " (the model is told by the first characters: '{\"' "
                      "JSON parameters, '{' linear, 'S[' or 'R[' tile, "
                      "otherwise cute)");
    return d;
  }
  return l;
}

/// A swizzled strided form `Sw<B,M,S> o L` of a layout logical -> offset
/// (its in-dims flattened first in-dim lowest): the first swizzle, in the
/// order of B, then M, then S (B = 0: no swizzle), for which the
/// un-swizzled columns are a strided layout. Empty when there is none.
std::optional<cute::ComposedLayout> swizzledForm(const LinearLayout &toOffset) {
  if (Expected<cute::Layout> plain = bridge::linearToCute(toOffset)) {
    cute::ComposedLayout c;
    c.layout = std::move(*plain);
    return c;
  }
  int bits = toOffset.totalOutBits();
  for (int b = 1; b <= bits; ++b)
    for (int m = 0; b + m <= bits; ++m)
      for (int s = b; b + m + s <= bits; ++s) {
        Expected<cute::Swizzle> sw = cute::Swizzle::make(b, m, s);
        if (!sw)
          continue;
        if (Expected<cute::ComposedLayout> c =
                bridge::linearToCute(toOffset, *sw))
          return std::move(*c);
      }
  return std::nullopt;
}

/// The memory layout (offset -> logical) in the other two models, when
/// representable:
///  * cute: `Sw<B,M,S> o L` over the logical coordinate (dim0, dim1, ...),
///    one mode per dim, colex (dim0 fastest), to the element offset;
///  * tile: `Swizzle(M=..,B=..,S=..) o S[...]`, the row-major flat logical
///    index (the last dim fastest) to the element address on m.
struct MemoryForms {
  std::optional<std::string> cute, tile;
};

MemoryForms memoryForms(const LinearLayout &memory) {
  MemoryForms f;
  Expected<LinearLayout> toOffset = memory.invert();
  if (!toOffset)
    return f;
  if (std::optional<cute::ComposedLayout> c = swizzledForm(*toOffset))
    f.cute = c->str();
  // Row-major: the last logical dim in the lowest bits, as one in-dim.
  std::vector<linear::DimId> reversed;
  for (int i = toOffset->numInDims(); i-- > 0;)
    reversed.push_back(toOffset->inDim(i).id);
  Expected<LinearLayout> rowMajor = toOffset->transposeIns(reversed);
  if (!rowMajor)
    return f;
  std::optional<cute::ComposedLayout> flat =
      swizzledForm(rowMajor->flattenIns());
  if (!flat)
    return f;
  Expected<tile::SwizzleLayout> sw = bridge::swizzleFromCute(flat->swizzle);
  tile::Axis m = tile::Axis::m();
  Expected<tile::TileLayout> t =
      bridge::cuteToTile(flat->layout, std::span<const tile::Axis>(&m, 1));
  if (sw && t)
    f.tile = flat->swizzle.isIdentity()
                 ? t->str()
                 : tile::ComposeLayout(*sw, std::move(*t)).str();
  return f;
}

std::string joinIntegers(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? " " : "") + std::to_string(v[i]);
  return s;
}

JsonValue accessJson(int64_t instructions, int64_t wavefronts,
                     int64_t lowerBound, int lemmaBits) {
  return {{"instructions", instructions},
          {"wavefronts", wavefronts},
          {"lower_bound", lowerBound},
          {"lemma_bits", lemmaBits}};
}

} // namespace

Expected<Reply> runPlan(const Invocation &inv) {
  std::optional<std::string> dtype = inv.option("dtype");
  if (!dtype)
    return Diagnostic::error(
        "--dtype is required: the element type decides "
        "the vector width and the banks, e.g. --dtype f16");
  auto type = cute::ElementTypeRegistry::global().lookup(*dtype);
  if (!type) {
    Diagnostic d = std::move(type).error();
    d.notes.push_back("in option --dtype of 'plan'");
    return d;
  }
  std::optional<std::vector<int64_t>> shape;
  if (std::optional<std::string> s = inv.option("shape")) {
    auto leaves = shapeLeaves(*s);
    if (!leaves)
      return Diagnostic::error("--shape: " + leaves.error().message);
    shape = std::move(*leaves);
  }
  const std::vector<int64_t> *shapePtr = shape ? &*shape : nullptr;
  LK_TRY(LinearLayout src, distributedParam(inv, 0, shapePtr));
  LK_TRY(LinearLayout dst, distributedParam(inv, 1, shapePtr));

  plan::PlanOptions options;
  LK_TRY(options.smemBudgetBytes, inv.integerOption("smem-budget", 0));
  if (options.smemBudgetBytes < 0)
    return Diagnostic::error("--smem-budget must be >= 0 bytes (0: unlimited), "
                             "not " +
                             std::to_string(options.smemBudgetBytes));
  options.matrixInstructions = !inv.option("no-matrix").has_value();
  if (std::optional<std::string> a = inv.option("arch")) {
    Expected<hw::Arch> arch = hw::parseArch(*a);
    if (!arch)
      return Diagnostic::error("--arch: " + arch.error().message);
    options.arch = *arch;
  }
  Expected<plan::Plan> planned =
      plan::planConversion(src, dst, type->bits, options);
  if (!planned) {
    Diagnostic d = std::move(planned).error();
    d.notes.push_back("planning SRC -> DST for " + *dtype + " (" +
                      std::to_string(type->bits) + "-bit elements)");
    return d;
  }
  const plan::Plan &p = *planned;

  Reply r;
  std::string &t = r.text;
  JsonValue &j = r.json;
  j = JsonValue::object();
  t += "strategy: " + std::string(plan::strategyName(p.strategy)) + "\n";
  j["strategy"] = std::string(plan::strategyName(p.strategy));
  j["dtype"] = *dtype;
  j["element_bits"] = p.elementBits;
  j["arch"] = std::string(hw::machine(options.arch).name);
  j["src"] = p.layouts.src.str();
  j["dst"] = p.layouts.dst.str();
  if (p.strategy == plan::Strategy::RegisterPermutation) {
    t += "register sources: " + joinIntegers(p.registerSource) + "\n";
    j["register_sources"] = p.registerSource;
  }
  if (p.strategy == plan::Strategy::WarpShuffle) {
    int64_t vec = p.shuffle ? p.shuffle->vectorElements : 1;
    t += "shuffle rounds: " + std::to_string(p.rounds.size()) + " (" +
         std::to_string(vec) + " x " + *dtype + " per shuffled vector)\n";
    j["shuffle_rounds"] = int64_t(p.rounds.size());
    j["shuffle_vector_elements"] = vec;
  }
  j["shared_memory"] = nullptr;
  if (p.smem) {
    const plan::SharedMemoryPlan &m = *p.smem;
    MemoryForms forms = memoryForms(m.memory);
    t += "vector: " + std::to_string(m.vectorElements) + " x " + *dtype + " (" +
         std::to_string(m.accessBytes) + " B per access)\n";
    t += "memory layout: " + m.memory.str() + "\n";
    t += "memory layout (cute, logical -> offset): " +
         forms.cute.value_or("none (not a swizzled strided layout)") + "\n";
    t += "memory layout (tile, logical -> address): " +
         forms.tile.value_or("none (not a swizzled strided layout)") + "\n";
    t += "store: " + std::to_string(m.storeInstructions) + " instructions, " +
         std::to_string(m.storeWavefronts) + " wavefronts (lower bound " +
         std::to_string(m.storeLowerBound) + ")\n";
    t += "load: " + std::to_string(m.loadInstructions) + " instructions, " +
         std::to_string(m.loadWavefronts) + " wavefronts (lower bound " +
         std::to_string(m.loadLowerBound) + ")\n";
    if (m.registerCopies)
      t += "register copies: " + std::to_string(m.registerCopies) + "\n";
    auto matrixOp = [&](bool used, const char *op, bool trans) {
      return used ? std::string(op) + ".x" + std::to_string(m.matrixCount) +
                        (trans ? ".trans" : "")
                  : std::string();
    };
    std::string stm = matrixOp(m.stmatrixStore, "stmatrix", m.stmatrixTrans);
    std::string ldm = matrixOp(m.ldmatrixLoad, "ldmatrix", m.ldmatrixTrans);
    if (!stm.empty() || !ldm.empty())
      t += "matrix instructions: store " + (stm.empty() ? "st.shared" : stm) +
           ", load " + (ldm.empty() ? "ld.shared" : ldm) + "\n";
    if (m.iterations > 1)
      t += "iterations: " + std::to_string(m.iterations) + " through a " +
           std::to_string(m.bytes) + " B buffer\n";
    JsonValue sm = {{"vector_elements", m.vectorElements},
                    {"access_bytes", m.accessBytes},
                    {"memory_layout", m.memory.str()},
                    {"memory_layout_cute",
                     forms.cute ? JsonValue(*forms.cute) : JsonValue()},
                    {"memory_layout_tile",
                     forms.tile ? JsonValue(*forms.tile) : JsonValue()},
                    {"store", accessJson(m.storeInstructions, m.storeWavefronts,
                                         m.storeLowerBound, m.storeLemmaBits)},
                    {"load", accessJson(m.loadInstructions, m.loadWavefronts,
                                        m.loadLowerBound, m.loadLemmaBits)},
                    {"register_copies", m.registerCopies},
                    {"store_instruction", stm.empty() ? "st.shared" : stm},
                    {"load_instruction", ldm.empty() ? "ld.shared" : ldm},
                    {"iterations", m.iterations},
                    {"bytes", m.bytes}};
    j["shared_memory"] = std::move(sm);
  }
  const plan::Cost &c = p.cost;
  char cycles[32];
  std::snprintf(cycles, sizeof cycles, "%.1f", c.cycles);
  t += "cost: " + std::to_string(c.instructions) + " instructions (" +
       std::to_string(c.registerMoves) + " register moves, " +
       std::to_string(c.selects) + " selects, " + std::to_string(c.shuffles) +
       " shuffles), " + std::to_string(c.wavefronts) + " wavefronts, " +
       std::to_string(c.barriers) +
       (c.barriers == 1 ? " barrier, " : " barriers, ") +
       std::to_string(c.smemBytes) + " B of shared memory, " + cycles +
       " estimated cycles";
  j["cost"] = {
      {"instructions", c.instructions}, {"register_moves", c.registerMoves},
      {"selects", c.selects},           {"shuffles", c.shuffles},
      {"barriers", c.barriers},         {"wavefronts", c.wavefronts},
      {"smem_bytes", c.smemBytes},      {"cycles", c.cycles}};

  std::optional<std::string> out = inv.option("out");
  bool hostMain = inv.option("host-main").has_value();
  if (!inv.option("emit")) {
    if (out || hostMain)
      return Diagnostic::error(std::string(out ? "--out" : "--host-main") +
                               " needs --emit cuda");
    return r;
  }
  plan::CudaEmitOptions emitOptions;
  emitOptions.hostMain = hostMain;
  LK_TRY(std::string code, plan::emitCuda(p, emitOptions));
  if (out) {
    LK_CHECK(writeFile(*out, code));
    t += "\nCUDA C++ written to " + *out;
    j["cuda_file"] = *out;
  } else {
    t += "\n\n" + code;
    while (!t.empty() && t.back() == '\n')
      t.pop_back();
    j["cuda"] = code;
  }
  return r;
}

std::vector<CommandSpec> planCommands() {
  const std::string group = "Plans";
  const char *layoutHelp =
      "a distributed layout (hardware -> logical): standard-layout JSON "
      "parameters as `linear standard` takes them (with --shape), a linear "
      "layout text, a tile layout (S[...] + R[...]) or a cute TV layout "
      "(thread, value) -> index (with --shape)";
  return {
      {"plan",
       group,
       "Plan the conversion of a tensor from one distributed layout to another",
       "Chooses the cheapest correct strategy (no-op, register permutation, "
       "warp shuffle, shared memory; docs/plan.md) and prints it with the "
       "vector width, "
       "the shared-memory layout chosen (as a linear layout and, when they "
       "exist, as a swizzled cute layout logical -> offset and a swizzled "
       "tile layout), the store and "
       "load wavefronts against their lower bounds, the instructions, "
       "barriers, shared-memory bytes and the cost model's estimated cycles "
       "(the number strategies are ranked by). The model of SRC and DST is "
       "told "
       "by their first characters: '{\"' standard-layout parameters, '{' a "
       "linear layout, 'S[' or 'R[' a tile layout (m -> register, laneid -> "
       "lane, warpid -> warp), anything else a cute TV layout (thread, "
       "value) -> element index (thread bits: 5 lane bits, then warp bits; "
       "the index split colex over --shape). --emit cuda adds the CUDA C++ "
       "of the plan (a device function and a self-checking test kernel).",
       {"layoutkit plan '{\"kind\":\"blocked\",\"sizePerThread\":[1,4],"
        "\"threadsPerWarp\":[8,4],\"warpsPerCTA\":[1,1],\"order\":[1,0]}' "
        "'{\"kind\":\"blocked\",\"sizePerThread\":[4,1],\"threadsPerWarp\":"
        "[4,8],\"warpsPerCTA\":[1,1],\"order\":[0,1]}' --shape '(16,16)' "
        "--dtype f32"},
       {{"SRC", std::string("the layout the tensor is held in: ") + layoutHelp,
         Arity::One},
        {"DST", "the layout it must end up in (same tensor, same warps)",
         Arity::One}},
       {{"dtype",
         "TYPE",
         "element type (required), e.g. f16, bf16, f8e4m3, "
         "f32, f64: 8, 16, 32 or 64 bits",
         false,
         {}},
        {"shape",
         "SHAPE",
         "the tensor shape, e.g. (128,128): needed by standard-layout "
         "parameters and cute TV layouts, gives a tile layout the logical "
         "dims dim0.., checked against a linear layout's own",
         false,
         {}},
        {"smem-budget",
         "BYTES",
         "shared memory one CTA may use for the buffer (default 0: "
         "unlimited); a smaller budget repeats through a smaller buffer",
         false,
         {}},
        {"arch", "ARCH",
         "target GPU: sm_80 (ldmatrix but no stmatrix), sm_90 (default) or "
         "sm_100",
         false,
         {}},
        {"no-matrix", "",
         "vectors only: no ldmatrix / stmatrix (16-bit elements use them "
         "where they take fewer instructions)",
         true,
         {}},
        {"emit", "LANG", "also emit the plan's code", false, {"cuda"}},
        {"host-main",
         "",
         "with --emit cuda: also a host main() that runs "
         "the test kernel",
         true,
         {}},
        {"out",
         "FILE",
         "with --emit: write the code to FILE instead",
         false,
         {}}},
       runPlan},
  };
}

} // namespace lk::cli
