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

#include "layoutkit/linear/EncodingJson.h"
#include "layoutkit/linear/Standard.h"

namespace lk::cli {

using nlohmann::json;
using namespace lk::linear;

namespace {

json layoutToJson(const LinearLayout &l) {
  json bases = json::object();
  for (int i = 0; i < l.numInDims(); ++i)
    bases[std::string(dimName(l.inDim(i).id))] = l.bases(i);
  json outs = json::array();
  for (int k = 0; k < l.numOutDims(); ++k)
    outs.push_back({std::string(dimName(l.outDim(k).id)), l.outDim(k).size()});
  return {{"bases", bases}, {"out_dims", outs}};
}

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
  return layoutToJson(l);
}

} // namespace

void addLinearOps(ConformanceOps &ops) {
  ops["linear_standard"] = {linearStandard, nullptr};
}

} // namespace lk::cli
