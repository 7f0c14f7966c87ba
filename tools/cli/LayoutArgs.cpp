//===- LayoutArgs.cpp - Layout arguments shared by command families -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/LayoutArgs.h"

#include "layoutkit/api/Plan.h"
#include "layoutkit/cute/Text.h"

namespace lk::cli {

Expected<api::ParseOptions>
parseOptions(const std::optional<std::string> &shapeText) {
  api::ParseOptions o;
  o.shapeName = "--shape";
  if (shapeText) {
    Expected<IntTuple> shape = cute::parseIntTuple(*shapeText);
    if (!shape)
      return Diagnostic::error("--shape: " + shape.error().message);
    o.shape = std::move(*shape);
  }
  return o;
}

Expected<linear::LinearLayout>
distributedParam(const Invocation &inv, size_t i,
                 const api::ParseOptions &options) {
  auto l = api::parseDistributed(inv.text(i), options);
  if (!l && options.shape && l.error().parameter == "shape")
    return inv.inOption(std::move(l).error(), "shape");
  return inv.argument(std::move(l), i);
}

} // namespace lk::cli
