//===- fuzz_attribute.cpp - Fuzz the layout attribute grammar -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// A parsed attribute must satisfy LayoutAttribute::make, print canonically,
/// and parse back to an equal attribute.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/cute/Attribute.h"

#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::cute;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<LayoutAttribute> attr = parseLayoutAttribute(text);
  if (!attr) {
    fuzz::checkDiagnostic(attr.error(), text);
    return 0;
  }
  std::string printed = attr->str();
  Expected<LayoutAttribute> made =
      LayoutAttribute::make(attr->layout, attr->swizzle, attr->elem);
  LK_FUZZ_CHECK(made.hasValue(), "parsed '%s' that make() rejects: %s",
                printed.c_str(), made.error().message.c_str());
  Expected<LayoutAttribute> again = parseLayoutAttribute(printed);
  LK_FUZZ_CHECK(again.hasValue(), "'%s' does not parse back: %s",
                printed.c_str(), again.error().message.c_str());
  LK_FUZZ_CHECK(*again == *attr, "'%s' parses back to '%s'", printed.c_str(),
                again->str().c_str());
  LK_FUZZ_CHECK(again->str() == printed, "'%s' is not canonical",
                printed.c_str());
  return 0;
}
