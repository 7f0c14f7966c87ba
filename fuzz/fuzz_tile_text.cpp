//===- fuzz_tile_text.cpp - Fuzz the tile layout text form ----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The whole input is the text. A successful parse must print canonically,
/// parse back to an equal layout that prints the same, and evaluate L(x) at
/// the first and last element with one coordinate per replica, each inside
/// the footprint; the holders of L(0)'s first coordinate must include 0. A
/// failure must carry a diagnostic inside the text.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/tile/TileText.h"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::tile;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<TileLayout> first = parseTileLayout(text);
  if (!first) {
    fuzz::checkDiagnostic(first.error(), text);
    return 0;
  }
  const TileLayout &l = *first;
  std::string printed = l.str();
  Expected<TileLayout> second = parseTileLayout(printed);
  LK_FUZZ_CHECK(second.hasValue(), "'%s' does not parse back: %s",
                printed.c_str(), second.error().message.c_str());
  LK_FUZZ_CHECK(*second == l, "'%s' parses back to '%s'", printed.c_str(),
                second->str().c_str());
  LK_FUZZ_CHECK(second->str() == printed, "'%s' prints as '%s'",
                printed.c_str(), second->str().c_str());
  if (l.replicaCount() > 4096)
    return 0;
  CoordSet s;
  for (int64_t x : {int64_t(0), l.size() - 1}) {
    l.evalInto(x, s);
    LK_FUZZ_CHECK(s.size() == size_t(l.replicaCount()),
                  "%zu coordinates for %lld replicas", s.size(),
                  (long long)l.replicaCount());
    for (size_t i = 0; i < s.size(); ++i)
      for (size_t k = 0; k < l.axes().size(); ++k) {
        Footprint f = l.footprint(l.axes()[k]);
        LK_FUZZ_CHECK(s[i][k] >= f.min && s[i][k] <= f.max,
                      "'%s': coordinate outside the footprint",
                      printed.c_str());
      }
  }
  l.evalInto(0, s);
  std::vector<AxisValue> where;
  for (size_t k = 0; k < l.axes().size(); ++k)
    where.push_back(AxisValue{l.axes()[k], s[0][k]});
  Expected<std::vector<int64_t>> h = l.holders(where, 1 << 16);
  if (h)
    LK_FUZZ_CHECK(std::find(h->begin(), h->end(), 0) != h->end(),
                  "'%s': element 0 is not among the holders of L(0)",
                  printed.c_str());
  return 0;
}
