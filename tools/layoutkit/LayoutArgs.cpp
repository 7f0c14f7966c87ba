//===- LayoutArgs.cpp - Layout arguments shared by command families -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/LayoutArgs.h"

#include "layoutkit/LinearJson.h"

#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Standard.h"

#include <nlohmann/json.hpp>

namespace lk::cli {

Expected<std::vector<int64_t>> shapeLeaves(std::string_view text) {
  LK_TRY(IntTuple t, cute::parseIntTuple(text));
  std::vector<int64_t> shape;
  for (const IntTuple::Node &n : t.leaves())
    shape.push_back(n.value);
  return shape;
}

Expected<linear::LinearLayout>
standardLayoutFromJson(std::string_view paramsJson,
                       std::span<const int64_t> shape) {
  nlohmann::json params =
      nlohmann::json::parse(paramsJson, nullptr, /*allow_exceptions=*/false);
  if (params.is_discarded())
    return Diagnostic::error(
        "the standard-layout parameters are not valid JSON");
  LK_TRY(linear::Encoding enc, encodingFromJson(params));
  return linear::toLinearLayout(enc, shape);
}

} // namespace lk::cli
