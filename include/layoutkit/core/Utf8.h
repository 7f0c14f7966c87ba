//===- Utf8.h - UTF-8 characters and their columns on screen ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one UTF-8 reader of the text front ends: the length of the
/// character starting at a byte (0 where none starts: a stray or truncated
/// byte, an overlong form, a surrogate U+D800..U+DFFF, a code point past
/// U+10FFFF), its code point, and the terminal columns it takes, so that a
/// diagnostic's caret stands under a name such as "通道":
///
///   utf8Length("l\xC3\xA4ne", 1) == 2   ("ä", U+00E4)
///   codePointAt("\xE9\x80\x9A", 0) == 0x901A ("通")
///   columnsOf(U'通') == 2, columnsOf(U'ä') == 1, columnsOf(U+0301) == 0
///
/// columnsOf follows the Unicode East Asian Width property in ranges: the
/// wide and fullwidth blocks (CJK, Hangul, kana, fullwidth forms, the
/// common emoji blocks) take 2 columns, combining marks and zero-width
/// spaces 0, everything else 1.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_UTF8_H
#define LAYOUTKIT_CORE_UTF8_H

#include <cstddef>
#include <string_view>

namespace lk {

/// The length (2-4) of the non-ASCII UTF-8 character at text[at], 0 where
/// none starts there (an ASCII byte included).
size_t utf8Length(std::string_view text, size_t at);

/// The code point of the character at text[at].
/// @pre utf8Length(text, at) > 0
char32_t codePointAt(std::string_view text, size_t at);

/// The terminal columns of code point `c`: 0, 1 or 2.
int columnsOf(char32_t c);

} // namespace lk

#endif // LAYOUTKIT_CORE_UTF8_H
