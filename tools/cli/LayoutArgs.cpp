//===- LayoutArgs.cpp - Layout arguments shared by command families -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/LayoutArgs.h"

#include "cli/LinearJson.h"

#include "layoutkit/cute/Text.h"

#include <nlohmann/json.hpp>

namespace lk::cli {

Expected<linear::Encoding> readEncodingJson(std::string_view text) {
  nlohmann::json params =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (params.is_discarded())
    return Diagnostic::error(
        "the standard-layout parameters are not valid JSON");
  return encodingFromJson(params);
}

Expected<api::ParseOptions>
parseOptions(const std::optional<std::string> &shapeText) {
  api::ParseOptions o;
  o.shapeName = "--shape";
  o.readEncoding = readEncodingJson;
  if (shapeText) {
    Expected<IntTuple> shape = cute::parseIntTuple(*shapeText);
    if (!shape)
      return Diagnostic::error("--shape: " + shape.error().message);
    o.shape = std::move(*shape);
  }
  return o;
}

} // namespace lk::cli
