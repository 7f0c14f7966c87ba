//===- Lexer.h - Character cursor shared by every grammar --------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `Lexer` is the small scanner every LayoutKit text grammar is built on. It
/// walks a string_view, skips blanks (space, tab, and optionally newlines),
/// reads integers with overflow checks and identifiers, and produces
/// diagnostics that point at the current position with a caret.
///
/// Grammars are recursive-descent parsers over a Lexer. They report the
/// *first* error precisely: what was expected and where.
///
/// Examples:
///   Lexer lx("(8, 4)");
///   lx.expect('(')            -> ok
///   lx.readInt("shape")       -> 8
///   lx.expect(',')            -> ok (blanks skipped)
///   lx.expect(')')            -> error "expected ')' but found '4'"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_LEXER_H
#define LAYOUTKIT_CORE_LEXER_H

#include "layoutkit/core/Expected.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lk {

class Lexer {
public:
  explicit Lexer(std::string_view text, bool newlinesAreBlank = true)
      : text_(text), newlinesAreBlank_(newlinesAreBlank) {}

  std::string_view text() const { return text_; }
  size_t pos() const { return pos_; }
  void reset(size_t pos) { pos_ = pos; }

  /// Skips blanks; returns true when the end of the text is reached.
  bool atEnd();
  /// The next non-blank character, or '\0' at the end.
  char peek();
  /// The character `k` places after the next non-blank one (no skipping
  /// inside), or '\0'.
  char peekAt(size_t k);
  /// Consumes `c` (after blanks) when it is next; returns whether it was.
  bool consumeIf(char c);
  /// Consumes the literal word `w` when it is next (after blanks).
  bool consumeIf(std::string_view w);
  /// Consumes `c` or fails with "expected 'c' but found ..." (+ context).
  Status expect(char c, std::string_view context = {});
  /// Consumes the literal `w` or fails.
  Status expect(std::string_view w, std::string_view context = {});

  /// An optionally signed integer that fits int64: decimal, or hexadecimal
  /// after "0x" / "0X" (0x40 = 64, -0x8 = -8). Every grammar and option
  /// reads integers here, so hex is accepted everywhere. Out of range:
  /// "integer does not fit in 64 bits (reading WHAT)".
  Expected<int64_t> readInt(std::string_view what);
  /// An unsigned integer (decimal or 0x hex) that fits int64.
  Expected<int64_t> readUint(std::string_view what);
  /// A name as written: a letter or '_', then letters, digits and '_',
  /// where a letter may be any whole non-ASCII UTF-8 character. For names
  /// looked up in a table, whose "unknown" diagnostic then names the word
  /// whole: on "läne]" it reads "läne", never "l".
  Expected<std::string> readWord(std::string_view what);
  /// An identifier [A-Za-z_][A-Za-z0-9_]*. A word with a non-ASCII letter
  /// fails whole: readIdent("a dim name") on "rég]" gives "expected a dim
  /// name but found 'rég': a name is ASCII letters, digits and '_'" under
  /// all of "rég".
  Expected<std::string> readIdent(std::string_view what);

  /// Fails unless only blanks remain: "unexpected trailing text".
  Status expectEnd(std::string_view what = "end of input");

  /// A diagnostic at `offset` (default: the next non-blank character).
  Diagnostic error(std::string message, size_t offset, size_t length = 1) const;
  Diagnostic error(std::string message);
  /// "expected X but found Y" at the next non-blank character.
  Diagnostic expected(std::string_view what);
  /// Describes the next token for messages: "'x'", "end of input".
  std::string describeNext();

private:
  void skipBlanks();
  std::string_view text_;
  size_t pos_ = 0;
  bool newlinesAreBlank_;
};

} // namespace lk

#endif // LAYOUTKIT_CORE_LEXER_H
