//===- Utf8.cpp -----------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Utf8.h"

#include <iterator>

namespace lk {

size_t utf8Length(std::string_view text, size_t at) {
  unsigned char c = static_cast<unsigned char>(text[at]);
  size_t len = c >= 0xC2 && c <= 0xDF   ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
  if (len == 0 || at + len > text.size())
    return 0;
  for (size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(text[at + k]) & 0xC0) != 0x80)
      return 0;
  // The second byte's range where the lead byte narrows it.
  unsigned char c1 = static_cast<unsigned char>(text[at + 1]);
  if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) ||
      (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F))
    return 0;
  return len;
}

char32_t codePointAt(std::string_view text, size_t at) {
  const size_t len = utf8Length(text, at);
  // The lead byte keeps 7 - len bits, each continuation byte 6.
  char32_t c = static_cast<unsigned char>(text[at]) & (0x7F >> len);
  for (size_t k = 1; k < len; ++k)
    c = (c << 6) | (static_cast<unsigned char>(text[at + k]) & 0x3F);
  return c;
}

namespace {
struct Range {
  char32_t first, last;
};

/// East Asian Wide and Fullwidth blocks.
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x2329, 0x232A},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
    {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

/// Combining marks and zero-width characters.
constexpr Range kZero[] = {
    {0x0300, 0x036F}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
    {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
};

bool within(char32_t c, const Range *begin, const Range *end) {
  for (const Range *r = begin; r != end; ++r)
    if (c >= r->first && c <= r->last)
      return true;
  return false;
}
} // namespace

int columnsOf(char32_t c) {
  if (within(c, std::begin(kWide), std::end(kWide)))
    return 2;
  if (within(c, std::begin(kZero), std::end(kZero)))
    return 0;
  return 1;
}

} // namespace lk
