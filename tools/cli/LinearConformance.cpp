//===- LinearConformance.cpp - Conformance ops of the linear model --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The op of linear-public.jsonl: `linear_standard` reads a Triton layout
// attribute (a JSON object named by `kind`, parameters named as Triton names
// them) and a tensor shape, and answers with the layout's bases per input
// dim and its output dims.
//
//===----------------------------------------------------------------------===//

#include "cli/ConformanceOps.h"
#include "cli/Json.h"

#include "layoutkit/api/Describe.h"
#include "layoutkit/linear/EncodingJson.h"
#include "layoutkit/linear/Standard.h"

namespace lk::cli {

using nlohmann::json;
using namespace lk::linear;

namespace {

Expected<json> linearStandard(const json &args) {
  LK_CHECK(arity(args, 2, 2));
  if (!args[0].is_object())
    return Diagnostic::error("expected a layout object, got " + args[0].dump());
  LK_TRY(Encoding e, parseEncodingJson(args[0].dump()));
  if (!args[1].is_array())
    return Diagnostic::error("expected a shape array, got " + args[1].dump());
  std::vector<int64_t> shape;
  for (const json &s : args[1]) {
    LK_TRY(int64_t v, intFromJson(s));
    shape.push_back(v);
  }
  LK_TRY(LinearLayout l, toLinearLayout(e, shape));
  json r = jsonOf(api::describe(l)); // the oracle's cases have no "text"
  r.erase("text");
  return r;
}

} // namespace

void addLinearOps(ConformanceOps &ops) {
  ops["linear_standard"] = {linearStandard, nullptr};
}

} // namespace lk::cli
