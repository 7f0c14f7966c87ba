//===- PaperCommands.cpp - `layoutkit paper ...` ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The linear-layouts paper's evaluation at the layout level
/// (docs/paper.md): `paper table2|table3|table4` print the tables the
/// paper layer computes, `paper reduce LAYOUT --axis N` plans and simulates
/// one reduction. Argument handling, one library call, presentation.
///
//===----------------------------------------------------------------------===//

#include "cli/Handlers.h"
#include "cli/LayoutArgs.h"

#include "layoutkit/api/DescribePlan.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/paper/Table2.h"
#include "layoutkit/paper/Table3.h"
#include "layoutkit/paper/Table4.h"

#include <cstdio>

namespace lk::cli {

namespace {

std::string pad(std::string s, size_t width) {
  if (s.size() < width)
    s.append(width - s.size(), ' ');
  return s;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  return "[" + joinIntegers(shape, ",") + "]";
}

JsonValue choiceJson(const paper::AccessChoice &c) {
  return {{"layout", c.layout},
          {"elements", c.elements},
          {"instruction", c.instruction},
          {"bitwidth", c.bitwidth}};
}

Expected<Reply> runTable2(const Invocation &) {
  LK_TRY(std::vector<paper::Table2Row> rows, paper::table2());
  Reply r;
  r.json = JsonValue::array();
  r.text = pad("tensor", 14) + pad("per-dim", 16) + pad("across dims", 16) +
           "across-dims layout\n";
  for (const paper::Table2Row &row : rows) {
    std::string type = shapeText(row.shape) + "x" + row.dtype;
    r.text +=
        pad(type, 14) +
        pad(row.perDim.instruction + " " + std::to_string(row.perDim.bitwidth),
            16) +
        pad(row.acrossDims.instruction + " " +
                std::to_string(row.acrossDims.bitwidth),
            16) +
        row.acrossDims.layout + "\n";
    r.json.push_back({{"dtype", row.dtype},
                      {"shape", row.shape},
                      {"instruction", row.acrossDims.instruction},
                      {"bitwidth", row.acrossDims.bitwidth},
                      {"layout", row.acrossDims.layout},
                      {"per_dim", choiceJson(row.perDim)}});
  }
  return r;
}

std::string percentLess(int64_t with, int64_t without) {
  if (without == 0)
    return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%",
                100.0 * double(without - with) / double(without));
  return buf;
}

Expected<Reply> runTable3(const Invocation &) {
  LK_TRY(std::vector<paper::Table3Row> rows, paper::table3());
  Reply r;
  r.json = JsonValue::array();
  r.text = pad("layout", 17) + pad("supported", 11) +
           pad("st.shared (no elim -> elim)", 30) +
           "thread stores (no elim -> elim)\n";
  for (const paper::Table3Row &row : rows) {
    r.text +=
        pad(row.layout, 17) +
        pad(std::to_string(row.supported) + "/" + std::to_string(row.cases),
            11) +
        pad(std::to_string(row.storeInstructionsNoElim) + " -> " +
                std::to_string(row.storeInstructions) + " (-" +
                percentLess(row.storeInstructions,
                            row.storeInstructionsNoElim) +
                ")",
            30) +
        std::to_string(row.storeLanesNoElim) + " -> " +
        std::to_string(row.storeLanes) + " (-" +
        percentLess(row.storeLanes, row.storeLanesNoElim) + ")\n";
    if (!row.firstFailure.empty())
      r.text += "  first failure: " + row.firstFailure + "\n";
    r.json.push_back(
        {{"layout", row.layout},
         {"supported", row.supported},
         {"cases", row.cases},
         {"store_instructions", row.storeInstructions},
         {"store_instructions_no_elim", row.storeInstructionsNoElim},
         {"thread_stores", row.storeLanes},
         {"thread_stores_no_elim", row.storeLanesNoElim},
         {"first_failure", row.firstFailure}});
  }
  return r;
}

Expected<Reply> runTable4(const Invocation &) {
  LK_TRY(paper::Table4 t, paper::table4());
  Reply r;
  r.json = JsonValue::object();
  r.json["passed"] = t.passed;
  r.json["total"] = t.total;
  r.json["rows"] = JsonValue::array();
  r.text = pad("pair", 10) + pad("passed", 10) +
           "no-op / register / shuffle / shared conversions\n";
  for (const paper::Table4Row &row : t.rows) {
    r.text +=
        pad(row.pair, 10) +
        pad(std::to_string(row.passed) + "/" + std::to_string(row.total), 10) +
        std::to_string(row.noOp) + " / " +
        std::to_string(row.registerPermutation) + " / " +
        std::to_string(row.warpShuffle) + " / " +
        std::to_string(row.sharedMemory) + "\n";
    if (!row.firstFailure.empty())
      r.text += "  first failure: " + row.firstFailure + "\n";
    r.json["rows"].push_back({{"pair", row.pair},
                              {"passed", row.passed},
                              {"total", row.total},
                              {"no_op", row.noOp},
                              {"register_permutation", row.registerPermutation},
                              {"warp_shuffle", row.warpShuffle},
                              {"shared_memory", row.sharedMemory},
                              {"first_failure", row.firstFailure}});
  }
  r.text += "total: " + std::to_string(t.passed) + "/" +
            std::to_string(t.total) + "\n";
  return r;
}

Expected<Reply> runReduce(const Invocation &inv) {
  LK_TRY(cute::ElementType type, inv.elementType({0}, "f32"));
  LK_TRY(int64_t axis, inv.integerOption("axis", 0));
  LK_TRY(api::ParseOptions parse, parseOptions(inv.option("shape")));
  LK_TRY(linear::LinearLayout l, distributedParam(inv, 0, parse));
  bool elim = !inv.option("no-dedup").has_value();
  LK_TRY(api::ReductionReport rr, api::reduce(l, axis, type, elim));
  const plan::ReduceSimulation &s = rr.simulation;
  Reply r;
  r.text = "plan: " + rr.plan.describe() + "\n" +
           "result: " + rr.plan.result.str() + "\n" + "simulated: " +
           (s.correct ? std::string("correct") : "WRONG: " + s.firstMismatch) +
           " (" + std::to_string(s.checked) + " registers checked)\n";
  r.json = jsonOf(api::describe(rr));
  if (!s.correct)
    r.exitCode = kExitBadInput;
  return r;
}

} // namespace

std::vector<CommandSpec> paperCommands() {
  const std::string group = "Paper evaluation";
  return {
      {"paper table2",
       group,
       "Table 2: global-access vectorization of f8/f16 [512, k] tensors",
       "For each tensor type, the blocked layout of a coalescing heuristic "
       "(16 bytes per thread where contiguity allows, threads along the "
       "contiguous dim, 4 warps) and the widest access a thread issues: "
       "per-dim (the legacy analysis of the legacy layout) and across dims "
       "(the linear layout's contiguous registers). docs/paper.md compares "
       "them with the paper.",
       {"layoutkit paper table2 --json"},
       {},
       {},
       runTable2},
      {"paper table3",
       group,
       "Table 3: reductions over blocked, mma, dot-operand, sliced and "
       "custom layouts",
       "Every case (16x16..128x128, 1-8 warps, each axis) is planned with "
       "and without duplicate elimination and simulated on distinct values; "
       "prints the supported cases and the shared-memory stores.",
       {"layoutkit paper table3"},
       {},
       {},
       runTable3},
      {"paper table4",
       group,
       "Table 4: mixed-precision dot operands, conversions planned and "
       "simulated",
       "For each (integer, float) pair and its grid, the operands are "
       "loaded in a coalesced blocked layout and converted into their "
       "dot-operand layouts (mma v2, wgmma); a case passes when every "
       "conversion simulates correct.",
       {"layoutkit paper table4 --json"},
       {},
       {},
       runTable4},
      {"paper reduce",
       group,
       "Plan and simulate a reduction of a distributed layout along one axis",
       "In-thread combines, butterfly shuffle rounds and, when warps hold "
       "the axis, a shared-memory exchange storing duplicated data once "
       "(--no-dedup: every lane stores). The layout is read as by "
       "'layoutkit plan'.",
       {"layoutkit paper reduce '{register: [(0,1)], lane: [(0,2), (0,4), "
        "(1,0), (2,0), (4,0)]} -> {dim0: 8, dim1: 8}' --axis 0"},
       {{"LAYOUT",
         "a distributed layout, as for 'layoutkit plan': standard-layout "
         "JSON parameters, Triton's TTGIR text ('#ttg...', 'tensor<...>', "
         "'!ttg.memdesc<...>'), a linear, tile or cute TV layout",
         Arity::One}},
       {{"axis",
         "N",
         "the output dim to reduce along (required)",
         false,
         {},
         true},
        {"dtype", "TYPE", "element type (default f32)"},
        {"shape", "SHAPE",
         "the tensor shape, needed by standard-layout parameters and a "
         "TTGIR attribute without its tensor type ('tensor<...>')"},
        {"no-dedup", "", "store from every lane, register and warp", true}},
       runReduce},
  };
}

} // namespace lk::cli
