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
    if (!shape) // noted in option --shape (Invocation::locate)
      return std::move(shape).error().about("shape");
    o.shape = std::move(*shape);
  }
  return o;
}

Expected<linear::LinearLayout>
distributedParam(const Invocation &inv, size_t i,
                 const api::ParseOptions &options) {
  return inv.argument(api::parseDistributed(inv.text(i), options), i);
}

} // namespace lk::cli
