//===- Invocation.cpp - Typed access to subcommand arguments --------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the argument texts of a subcommand with the cute text grammar
/// (Text.h) and attaches the parameter name to every diagnostic.
///
//===----------------------------------------------------------------------===//

#include "cli/Command.h"

#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/api/Query.h"
#include "layoutkit/cute/Text.h"

#include <algorithm>
#include <cctype>

namespace lk::cli {

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

} // namespace

bool looksSwizzled(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && isBlank(text[i]))
    ++i;
  return text.substr(i, 3) == "Sw<";
}

std::optional<std::string> Invocation::option(std::string_view name) const {
  for (size_t i = 0; i < spec->options.size(); ++i)
    if (spec->options[i].name == name && i < optionValues.size())
      return optionValues[i];
  return std::nullopt;
}

Diagnostic Invocation::locate(Diagnostic d) const {
  std::string p = d.parameter, upper = p;
  if (p.empty() || (!d.notes.empty() && d.notes.back().rfind("in ", 0) == 0))
    return d;
  std::replace(p.begin(), p.end(), '_', '-'); // smem_budget: --smem-budget
  if (option(p))
    return inOption(std::move(d), p);
  for (char &c : upper)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  for (const ParamSpec &q : spec->params)
    if (q.name == upper)
      d.notes.push_back("in argument " + q.name + " of '" + spec->name + "'");
  return d;
}

Diagnostic Invocation::inArgument(Diagnostic d, size_t i) const {
  size_t notes = d.notes.size();
  if (d = locate(std::move(d)); d.notes.size() == notes)
    d.notes.push_back("in argument " + spec->params[i].name + " of '" +
                      spec->name + "'");
  return d;
}

Diagnostic Invocation::inOption(Diagnostic d, std::string_view name) const {
  d.notes.push_back("in option --" + std::string(name) + " of '" + spec->name +
                    "'");
  return d;
}

Expected<cute::Layout> Invocation::layout(size_t i) const {
  return argument(cute::parseLayout(text(i)), i);
}

Expected<cute::ComposedLayout> Invocation::composedLayout(size_t i) const {
  if (!looksSwizzled(text(i))) {
    // A plain layout: parsed with the plain grammar so that its errors
    // speak about layouts, then wrapped in the identity swizzle.
    LK_TRY(cute::Layout l, layout(i));
    cute::ComposedLayout c;
    c.layout = std::move(l);
    return c;
  }
  return argument(cute::parseComposedLayout(text(i)), i);
}

Expected<cute::Tiler> Invocation::tiler(size_t i) const {
  return argument(cute::parseTiler(text(i)), i);
}

Expected<IntTuple> Invocation::intTuple(size_t i) const {
  return argument(cute::parseIntTuple(text(i)), i);
}

Expected<int64_t> Invocation::integer(size_t i) const {
  return argument(api::parseInteger(text(i)), i);
}

Expected<int64_t> Invocation::integerOption(std::string_view name,
                                            int64_t fallback) const {
  std::optional<std::string> value = option(name);
  if (!value)
    return fallback;
  auto n = api::parseInteger(*value);
  return n ? n : inOption(std::move(n).error(), name);
}

Expected<cute::ElementType>
Invocation::elementType(std::initializer_list<size_t> layouts,
                        const char *fallback) const {
  std::optional<cute::ElementType> given, byDefault;
  if (option("dtype")) {
    LK_TRY(given, dtypeOption());
  }
  if (fallback) {
    LK_TRY(byDefault, dtypeOption(fallback));
  }
  std::vector<std::optional<cute::ElementType>> named;
  for (size_t i : layouts) {
    LK_TRY(std::optional<cute::ElementType> n,
           argument(api::elementTypeOf(text(i)), i));
    named.push_back(std::move(n));
  }
  return api::callElementType(given, named, byDefault);
}

Expected<cute::ElementType>
Invocation::dtypeOption(const char *fallback) const {
  std::optional<std::string> name = option("dtype");
  if (!name && !fallback)
    return Diagnostic::error(
        "--dtype is required: the element type decides "
        "the vector width and the banks, e.g. --dtype f16");
  auto type = api::elementTypeNamed(name.value_or(fallback));
  if (!type)
    return inOption(std::move(type).error(), "dtype");
  return type;
}

Expected<std::vector<int64_t>>
Invocation::leavesOption(std::string_view name) const {
  std::optional<std::string> value = option(name);
  if (!value)
    return std::vector<int64_t>{};
  auto leaves = api::parseShapeLeaves(*value);
  return leaves ? leaves : inOption(std::move(leaves).error(), name);
}

Expected<IntTuple> Invocation::intTupleOption(std::string_view name) const {
  std::optional<std::string> value = option(name);
  if (!value)
    return Diagnostic::error("option --" + std::string(name) + " is not set");
  auto t = cute::parseIntTuple(*value);
  return t ? t : inOption(std::move(t).error(), name);
}

} // namespace lk::cli
