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
/// reading them (the model told by the first characters, the TV -> linear
/// conversion of a cute layout) and the memory layout's cute and tile forms
/// are the front-end API's (api/Plan.h); this file reads the arguments and
/// prints.
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

#include "cli/Handlers.h"
#include "cli/LayoutArgs.h"

#include "layoutkit/api/DescribePlan.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/plan/EmitGather.h"
#include "layoutkit/plan/Gather.h"
#include "layoutkit/plan/PaddedPlan.h"

namespace lk::cli {

using linear::LinearLayout;

namespace {

/// The padding lines of `plan --logical`: each side's waste, the buffer's,
/// and the masked simulation `sim` (plan/PaddedPlan.h).
std::string paddingText(const plan::PaddedPlan &pp,
                        const plan::SimulationResult &sim) {
  std::string t = "\nsource padding: " + pp.srcWaste.str() +
                  "\ndestination padding: " + pp.dstWaste.str();
  if (pp.plan.smem)
    t += "\nbuffer padding: " + std::to_string(pp.maskedSmemOffsets) + " of " +
         std::to_string(pp.smemOffsets) + " offsets never written or read; " +
         std::to_string(pp.unusedBufferSlots) + " of " +
         std::to_string(pp.bufferSlots) + " slots unused (" +
         std::to_string(pp.unusedBufferBytes) + " B)";
  return t + "\nmasked simulation: " +
         std::string(sim.correct ? "correct" : "WRONG") + ", " +
         std::to_string(sim.checked) + " valid registers checked, " +
         std::to_string(sim.maskedAccesses) + " accesses masked, " +
         std::to_string(sim.storeInstructions + sim.loadInstructions) +
         " shared-memory instructions issued, " +
         std::to_string(sim.maskViolations) + " touching padding";
}

/// The text of a plan: the strategy, its steps and its cost.
std::string planText(const api::PlanReport &report) {
  const plan::Plan &p = report.plan;
  const std::string &dtype = report.dtype;
  std::string t =
      "strategy: " + std::string(plan::strategyName(p.strategy)) + "\n";
  if (p.strategy == plan::Strategy::RegisterPermutation)
    t += "register sources: " + joinIntegers(p.registerSource, " ") + "\n";
  if (p.strategy == plan::Strategy::WarpShuffle) {
    int64_t vec = p.shuffle ? p.shuffle->vectorElements : 1;
    t += "shuffle rounds: " + std::to_string(p.rounds.size()) + " (" +
         std::to_string(vec) + " x " + dtype + " per shuffled vector)\n";
  }
  if (p.smem) {
    const plan::SharedMemoryPlan &m = *p.smem;
    const char *none = "none (not a swizzled strided layout)";
    t += "vector: " + std::to_string(m.vectorElements) + " x " + dtype + " (" +
         std::to_string(m.accessBytes) + " B per access)\n";
    t += "memory layout: " + m.memory.str() + "\n";
    t += "memory layout (cute, logical -> offset): " +
         (report.memory.cute ? report.memory.cute->str() : none) + "\n";
    t += "memory layout (tile, logical -> address): " +
         (report.memory.tile ? api::tileText(*report.memory.tile) : none) +
         "\n";
    t += "store: " + counted(m.store.instructions, "instruction") + ", " +
         counted(m.store.wavefronts, "wavefront") + " (lower bound " +
         std::to_string(m.store.lowerBound) + ")\n";
    t += "load: " + counted(m.load.instructions, "instruction") + ", " +
         counted(m.load.wavefronts, "wavefront") + " (lower bound " +
         std::to_string(m.load.lowerBound) + ")\n";
    if (m.registerCopies)
      t += "register copies: " + std::to_string(m.registerCopies) + "\n";
    if (m.store.matrixInstruction || m.load.matrixInstruction)
      t += "matrix instructions: store " + report.storeInstruction + ", load " +
           report.loadInstruction + "\n";
    if (m.iterations > 1)
      t += "iterations: " + std::to_string(m.iterations) + " through a " +
           std::to_string(m.bytes) + " B buffer\n";
  }
  return t + "cost: " + plan::costText(p.cost);
}

/// The emitted code into the reply (whose text ends without a newline):
/// --out FILE writes it there (the text says where; JSON "cuda_file"), --out -
/// puts it alone on stdout in place of the text (for a pipe), else it follows
/// the text after a blank line; JSON "cuda" in both.
Status attachCuda(Reply &r, const std::string &code,
                  const std::optional<std::string> &out) {
  if (out) { // a file (the text says which) or stdout alone
    LK_CHECK(putOutput(r, code, *out, "cuda"));
    if (*out != "-")
      r.text += "\nCUDA C++ written to " + *out + "\n";
    return Ok{};
  }
  r.text += "\n\n" + code;
  r.json["cuda"] = code;
  return Ok{};
}

/// The options --emit cuda, --host-main and --out (the last two need
/// --emit), shared by plan and gather.
std::vector<OptionSpec> emitOptionSpecs() {
  return {{.name = "emit",
           .valueName = "LANG",
           .help = "also emit the plan's code",
           .choices = {"cuda"}},
          {.name = "host-main",
           .help = "with --emit cuda: also a host main() that runs the "
                   "self-checking test kernel (emitted with it)",
           .isFlag = true,
           .needs = "emit"},
          {.name = "out",
           .valueName = "FILE",
           .help = "with --emit: write the code to FILE instead ('-': the "
                   "code alone on stdout)",
           .needs = "emit"}};
}

/// --dtype, or the element type SRC and DST name (api::conversionElementType).
Expected<cute::ElementType> conversionTypeParam(const Invocation &inv) {
  std::optional<cute::ElementType> given, src, dst;
  if (inv.option("dtype")) {
    LK_TRY(given, inv.dtypeOption());
  }
  LK_TRY(src, inv.argument(api::elementTypeOf(inv.text(0)), 0));
  LK_TRY(dst, inv.argument(api::elementTypeOf(inv.text(1)), 1));
  return api::conversionElementType(given, src, dst);
}

Expected<Reply> runPlan(const Invocation &inv) {
  // The layouts first: a fault of theirs, not a missing --dtype, is what
  // stops a tensor type that does not parse.
  LK_TRY(api::ParseOptions parse, parseOptions(inv.option("shape")));
  LK_TRY(LinearLayout src, distributedParam(inv, 0, parse));
  LK_TRY(LinearLayout dst, distributedParam(inv, 1, parse));
  LK_TRY(cute::ElementType type, conversionTypeParam(inv));

  plan::PlanOptions options;
  // A negative budget is refused by api::planTensorConversion, as for
  // every front end.
  LK_TRY(options.smemBudgetBytes, inv.integerOption("smem-budget", 0));
  options.matrixInstructions = !inv.option("no-matrix").has_value();
  if (std::optional<std::string> a = inv.option("arch")) {
    Expected<hw::Arch> arch = hw::parseArch(*a);
    if (!arch)
      return Diagnostic::error("--arch: " + arch.error().message);
    options.arch = *arch;
  }
  LK_TRY(std::vector<int64_t> logical, inv.leavesOption("logical"));
  LK_TRY(api::TensorPlanReport planned,
         api::planTensorConversion(src, dst, type, logical, options));

  Reply r;
  r.text = planText(planned.report);
  plan::SimulationResult sim;
  LK_TRY(api::Record record, api::describe(planned, &sim));
  r.json = jsonOf(record);
  if (planned.padded)
    r.text += paddingText(*planned.padded, sim);

  if (!inv.option("emit"))
    return r;
  plan::CudaEmitOptions emitOptions;
  emitOptions.hostMain = inv.option("host-main").has_value();
  LK_TRY(std::string code,
         planned.padded ? plan::emitCuda(*planned.padded, emitOptions)
                        : plan::emitCuda(planned.report.plan, emitOptions));
  LK_CHECK(attachCuda(r, code, inv.option("out")));
  return r;
}

/// `gather SRC INDEX --axis A --dtype T`: api::gather, printed.
Expected<Reply> runGather(const Invocation &inv) {
  LK_TRY(api::ParseOptions parse, parseOptions(inv.option("shape")));
  LK_TRY(LinearLayout src, distributedParam(inv, 0, parse));
  LK_TRY(LinearLayout index, distributedParam(inv, 1, parse));
  // SRC's tensor type names the data's element type (INDEX holds indices).
  LK_TRY(cute::ElementType type, inv.elementType({0}));
  LK_TRY(int64_t axis, inv.integerOption("axis", 0));
  LK_TRY(plan::GatherPlan p, api::gather(src, index, axis, type));
  Reply r{p.describe(), jsonOf(api::describe(p))}; // the newline: run()'s
  if (!inv.option("emit"))
    return r;
  plan::CudaGatherEmitOptions emitOptions; // a host main brings its kernel
  emitOptions.hostMain = inv.option("host-main").has_value();
  LK_TRY(std::string code, plan::emitGatherCuda(p, emitOptions));
  LK_CHECK(attachCuda(r, code, inv.option("out")));
  return r;
}

} // namespace

std::vector<CommandSpec> planCommands() {
  const std::string group = "Plans";
  const char *layoutHelp =
      "a distributed layout (hardware -> logical): standard-layout JSON "
      "parameters as `linear standard` takes them (with --shape), Triton's "
      "TTGIR text (an attribute '#ttg.blocked<{...}>' with --shape, or a "
      "type 'tensor<128x64xf16, #...>' or '!ttg.memdesc<...>' that gives "
      "the shape; alias lines '#name = #ttg...' before it), a linear "
      "layout text, a tile layout (S[...] + R[...]) or a cute TV layout "
      "(thread, value) -> index (with --shape)";
  std::vector<CommandSpec> specs = {
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
       "lane, warpid -> warp), '<' a layout attribute, '#', 'tensor<' or "
       "'!ttg.memdesc<' Triton's TTGIR text and anything else a "
       "cute TV layout (thread, value) -> element index (thread bits: 5 "
       "lane bits, then warp bits; the index split colex over --shape). "
       "--emit cuda adds the CUDA C++ of the plan (a device function and a "
       "self-checking test kernel).",
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
         "element type (it decides the vector width and the banks), e.g. "
         "f16, bf16, f8e4m3, f32, f64: 8, 16, 32 or 64 bits; required "
         "unless SRC or DST is a Triton tensor type, which names its own "
         "(a --dtype or a second type that differs is refused)",
         false,
         {},
         false},
        {"logical", "SHAPE",
         "the logical shape when it is not a power of two, e.g. (48,24): "
         "SRC and DST are layouts of its padded shape (each extent rounded "
         "up to a power of two, as --shape), the padding is masked (never "
         "read or written; no matrix instructions) and the plan is "
         "simulated masked; prints each side's and the buffer's waste"},
        {"shape", "SHAPE",
         "the tensor shape, e.g. (128,128): needed by standard-layout "
         "parameters, a TTGIR attribute without its tensor type and cute TV "
         "layouts, gives a tile layout the logical dims dim0.., checked "
         "against a linear layout's own and a TTGIR tensor type's"},
        {"smem-budget", "BYTES",
         "shared memory one CTA may use for the buffer (default: all the "
         "--arch has, 232448 on sm_90); a buffer over it repeats through a "
         "smaller one"},
        {"arch", "ARCH",
         "target GPU: sm_80 (ldmatrix but no stmatrix), sm_90 (default) or "
         "sm_100"},
        {"no-matrix", "",
         "vectors only: no ldmatrix / stmatrix (16-bit elements use them "
         "where they take fewer instructions)",
         true}},
       runPlan},
      {"gather",
       group,
       "Plan out = gather(src, index, axis) on distributed layouts",
       "The gather planner (docs/plan.md): thread-local when the axis stays "
       "in each thread's registers, warp shuffles when it stays in a warp, "
       "shared memory otherwise; prints the strategy and its instruction "
       "counts. SRC and INDEX are read as `plan` reads its layouts. --emit "
       "cuda adds the CUDA C++ of the plan (a device function; "
       "plan/EmitGather.h); --host-main adds a self-checking test kernel "
       "and a main() that runs it.",
       {"layoutkit gather '{register: [(0,1)], lane: [(0,2),(0,4),(1,0),"
        "(2,0),(4,0)]} -> {dim0: 8, dim1: 8}' '{register: [(0,1)], lane: "
        "[(0,2),(0,4),(1,0),(2,0),(4,0)]} -> {dim0: 8, dim1: 8}' --axis 1 "
        "--dtype f32"},
       {{"SRC", std::string("the source tensor's layout: ") + layoutHelp,
         Arity::One},
        {"INDEX",
         "the index tensor's layout (the output's), read as SRC is (JSON "
         "parameters, TTGIR text, linear, tile or cute text)",
         Arity::One}},
       {{"axis", "A", "the gathered dim (default 0)"},
        {"dtype",
         "TYPE",
         "element type, 8, 16, 32 or 64 bits; required unless SRC is a "
         "Triton tensor type, which names its own",
         false,
         {},
         false},
        {"shape", "SHAPE", "the tensor shape, as for plan"}},
       runGather},
  };
  // Both commands emit CUDA the same way.
  for (CommandSpec &c : specs)
    for (OptionSpec &o : emitOptionSpecs())
      c.options.push_back(std::move(o));
  return specs;
}

} // namespace lk::cli
