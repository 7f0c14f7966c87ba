//===- fuzz_linear_text.cpp - Fuzz the linear-layout text form ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The input is a linear-layout text. A successful parse must print and
/// parse back to an equal layout, and the algebra must keep its laws on it:
/// apply agrees with the bases, a surjective layout's pseudoinverse is a
/// right inverse, an invertible layout's inverse is two-sided. A failure
/// must carry a diagnostic inside the text.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Text.h"

#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::linear;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<LinearLayout> first = parseLinearLayout(text);
  if (!first) {
    fuzz::checkDiagnostic(first.error(), text);
    return 0;
  }
  const LinearLayout &l = *first;
  std::string printed = l.str();
  Expected<LinearLayout> second = parseLinearLayout(printed);
  LK_FUZZ_CHECK(second.hasValue(), "'%s' does not parse back: %s",
                printed.c_str(), second.error().message.c_str());
  LK_FUZZ_CHECK(*second == l, "'%s' parses back to '%s'", printed.c_str(),
                second->str().c_str());
  LK_FUZZ_CHECK(second->hash() == l.hash(),
                "equal layouts hash differently: %s", printed.c_str());

  // A few points: apply is the XOR of the bases of the set bits.
  uint64_t seed = 0x9e3779b97f4a7c15ull ^ size;
  for (int k = 0; k < 4; ++k) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t x = seed & l.inMask();
    uint64_t y = 0;
    for (int j = 0; j < l.totalInBits(); ++j)
      if (x >> j & 1)
        y ^= l.column(j);
    LK_FUZZ_CHECK(l.applyFlat(x) == y, "apply disagrees with the bases: %s",
                  printed.c_str());
  }
  if (l.isSurjective()) {
    Expected<LinearLayout> p = l.pseudoinvert();
    LK_FUZZ_CHECK(p.hasValue(), "surjective but no pseudoinverse: %s",
                  printed.c_str());
    for (int b = 0; b < l.totalOutBits(); ++b)
      LK_FUZZ_CHECK(
          l.applyFlat(p->applyFlat(uint64_t(1) << b)) == uint64_t(1) << b,
          "pseudoinverse is not a right inverse: %s", printed.c_str());
  }
  if (l.isInvertible()) {
    Expected<LinearLayout> inv = l.invert();
    LK_FUZZ_CHECK(inv.hasValue(), "invertible but invert failed: %s",
                  printed.c_str());
    for (int j = 0; j < l.totalInBits(); ++j)
      LK_FUZZ_CHECK(inv->applyFlat(l.column(j)) == uint64_t(1) << j,
                    "inverse is not a left inverse: %s", printed.c_str());
  }
  LK_FUZZ_CHECK(l.rank() <= l.totalInBits() && l.rank() <= l.totalOutBits(),
                "rank out of range: %s", printed.c_str());
  return 0;
}
