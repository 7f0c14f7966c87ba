//===- fuzz_tile_swizzle.cpp - Fuzz swizzle and swizzled tile texts -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The first input byte picks the parser (swizzle layout or swizzled tile
/// layout); the rest is the text. A successful parse must print and parse back
/// to an equal value, and the swizzle must be its own inverse on a few
/// addresses; a failure must carry a diagnostic inside the text.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/tile/SwizzleLayout.h"

#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::tile;

namespace {

void checkSwizzle(const SwizzleLayout &s) {
  for (int64_t m : {int64_t(0), int64_t(1), int64_t(255), int64_t(4097),
                    (int64_t(1) << 40) + 77})
    LK_FUZZ_CHECK(s(s(m)) == m, "%s is not self-inverse at %lld",
                  s.str().c_str(), static_cast<long long>(m));
}

template <class T, class Parse>
void roundTrip(std::string_view text, Parse parse) {
  Expected<T> first = parse(text);
  if (!first) {
    fuzz::checkDiagnostic(first.error(), text);
    return;
  }
  std::string printed = first->str();
  Expected<T> second = parse(printed);
  LK_FUZZ_CHECK(second.hasValue(), "'%s' does not parse back: %s",
                printed.c_str(), second.error().message.c_str());
  LK_FUZZ_CHECK(*first == *second, "'%s' parses back to '%s'", printed.c_str(),
                second->str().c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    roundTrip<SwizzleLayout>(text, parseSwizzleLayout);
    if (auto s = parseSwizzleLayout(text))
      checkSwizzle(*s);
  } else {
    roundTrip<SwizzledTileLayout>(text, parseSwizzledTileLayout);
    if (auto c = parseSwizzledTileLayout(text)) {
      checkSwizzle(c->swizzle());
      for (int64_t i = 0; i < c->size() && i < 64; ++i)
        (void)c->addressAt(i);
    }
  }
  return 0;
}
