//===- fuzz_cute_text.cpp - Fuzz CuTe's print form ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The first input byte picks the parser (int-tuple, layout, composed layout,
/// tiler); the rest is the text. A successful parse must print and parse
/// back to an equal value; a failure must carry a diagnostic inside the text.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/cute/Text.h"

#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::cute;

namespace {

template <class T, class Parse, class Print, class Equal>
void roundTrip(std::string_view text, Parse parse, Print print, Equal equal) {
  Expected<T> first = parse(text);
  if (!first) {
    fuzz::checkDiagnostic(first.error(), text);
    return;
  }
  std::string printed = print(*first);
  Expected<T> second = parse(printed);
  LK_FUZZ_CHECK(second.hasValue(), "'%s' does not parse back: %s",
                printed.c_str(), second.error().message.c_str());
  LK_FUZZ_CHECK(equal(*first, *second), "'%s' parses back to '%s'",
                printed.c_str(), print(*second).c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
  switch (data[0] % 4) {
  case 0:
    roundTrip<IntTuple>(
        text, parseIntTuple, [](const IntTuple &t) { return t.str(); },
        [](const IntTuple &a, const IntTuple &b) { return a == b; });
    break;
  case 1:
    roundTrip<Layout>(
        text, parseLayout, [](const Layout &l) { return l.str(); },
        [](const Layout &a, const Layout &b) { return a == b; });
    break;
  case 2:
    roundTrip<ComposedLayout>(
        text, parseComposedLayout,
        [](const ComposedLayout &c) { return c.str(); },
        [](const ComposedLayout &a, const ComposedLayout &b) {
          return a == b;
        });
    break;
  case 3:
    roundTrip<Tiler>(
        text, parseTiler, [](const Tiler &t) { return t.str(); },
        [](const Tiler &a, const Tiler &b) { return a == b; });
    break;
  }
  return 0;
}
