//===- DiagnosticTest.cpp - Diagnostics and the shared lexer --------------===//

#include "layoutkit/core/Diagnostic.h"
#include "layoutkit/core/Lexer.h"
#include "layoutkit/core/Utf8.h"

#include <gtest/gtest.h>

namespace {

TEST(Diagnostic, RendersCaretUnderColumn) {
  lk::Diagnostic d = lk::Diagnostic::at("expected ')'", "(8,4:(1,8)", 4);
  EXPECT_EQ(d.range->begin.column, 5u);
  EXPECT_EQ(d.render(), "error: expected ')' at column 5\n"
                        "  (8,4:(1,8)\n"
                        "      ^\n");
}

TEST(Diagnostic, MultiLineAndNotes) {
  std::string text = "(8,4)\n:(1,x)";
  lk::Diagnostic d = lk::Diagnostic::at("bad stride", text, 10, 1);
  EXPECT_EQ(d.range->begin.line, 2u);
  EXPECT_EQ(d.range->begin.column, 5u);
  d.note("strides are integers");
  EXPECT_EQ(d.render(), "error: bad stride at line 2, column 5\n"
                        "  :(1,x)\n"
                        "      ^\n"
                        "note: strides are integers\n");
}

TEST(Diagnostic, WithoutLocation) {
  EXPECT_EQ(lk::Diagnostic::error("boom").render(), "error: boom\n");
}

// A line over 160 bytes is shown as a window of 160 from 60 bytes before
// the range, with "..." where it is cut; the caret stays under the range.
TEST(Diagnostic, LongLinesAreShownAsAWindowAroundTheRange) {
  const std::string text =
      std::string(1000, 'a') + "X" + std::string(1000, 'b');
  lk::Diagnostic d = lk::Diagnostic::at("bad", text, 1000, 5);
  const std::string window =
      "..." + std::string(60, 'a') + "X" + std::string(99, 'b') + "...";
  EXPECT_EQ(d.render(), "error: bad at column 1001\n  " + window + "\n  " +
                            std::string(63, ' ') + "^^^^^\n");
  // At the start: no leading "...", the caret at column 1.
  lk::Diagnostic first = lk::Diagnostic::at("bad", text, 0);
  EXPECT_EQ(first.render(), "error: bad at column 1\n  " +
                                std::string(160, 'a') + "...\n  ^\n");
  // Past the end of a long line: the line's last 160 bytes, one caret
  // after them.
  lk::Diagnostic end = lk::Diagnostic::at("bad", text, text.size());
  EXPECT_EQ(end.render(), "error: bad at column 2002\n  ..." +
                              std::string(160, 'b') + "\n  " +
                              std::string(163, ' ') + "^\n");
  // A range running past the window's cut: the carets stop before "...".
  lk::Diagnostic spread = lk::Diagnostic::at("bad", text, 0, 500);
  EXPECT_EQ(spread.render(), "error: bad at column 1\n  " +
                                 std::string(160, 'a') + "...\n  " +
                                 std::string(160, '^') + "\n");
  // A few bytes over 160 are shown whole ("..." would save nothing).
  const std::string barely(163, 'c');
  EXPECT_EQ(lk::Diagnostic::at("bad", barely, 162).render(),
            "error: bad at column 163\n  " + barely + "\n  " +
                std::string(162, ' ') + "^\n");
  // A cut never splits a UTF-8 character (2-byte letters from byte 0).
  std::string wide;
  for (int i = 0; i < 200; ++i)
    wide += "\xc3\xa9"; // é
  lk::Diagnostic w = lk::Diagnostic::at("bad", wide, 201);
  std::string shown = w.render();
  shown = shown.substr(shown.find('\n') + 3);
  shown = shown.substr(0, shown.find('\n'));
  // Between the dots: whole characters only.
  ASSERT_GT(shown.size(), 6u);
  const std::string inner = shown.substr(3, shown.size() - 6);
  for (size_t i = 0; i < inner.size(); i += 2)
    EXPECT_EQ(lk::utf8Length(inner, i), 2u) << "byte " << i << " of " << inner;
  EXPECT_EQ(inner.size() % 2, 0u);
}

TEST(Diagnostic, ExcerptCutsLongTextAtACharacter) {
  EXPECT_EQ(lk::excerpt("f16"), "f16");
  EXPECT_EQ(lk::excerpt(std::string(40, 'a')), std::string(40, 'a'));
  EXPECT_EQ(lk::excerpt(std::string(5000, 'a'), 8), "aaaaaaaa...");
  // "aé" is 3 bytes: a cut after 2 would split é.
  EXPECT_EQ(lk::excerpt("a\xc3\xa9xyz", 2), "a...");
}

TEST(Lexer, ReadsTokensAndSkipsBlanks) {
  lk::Lexer lx("  ( 12 ,\t-3 )  ");
  EXPECT_TRUE(lx.expect('('));
  EXPECT_EQ(*lx.readUint("count"), 12);
  EXPECT_TRUE(lx.consumeIf(','));
  EXPECT_EQ(*lx.readInt("stride"), -3);
  EXPECT_TRUE(lx.expect(')'));
  EXPECT_TRUE(lx.expectEnd());
}

TEST(Lexer, ExpectReportsWhatAndWhere) {
  lk::Lexer lx("(8;4)");
  ASSERT_TRUE(lx.expect('('));
  ASSERT_TRUE(lx.readInt("shape"));
  auto s = lx.expect(',', "between modes");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "expected ',' between modes but found ';'");
  EXPECT_EQ(s.error().range->begin.column, 3u);
}

TEST(Lexer, IntegerOverflowAndMissingDigits) {
  lk::Lexer big("99999999999999999999");
  auto v = big.readInt("shape");
  ASSERT_FALSE(v);
  EXPECT_NE(v.error().message.find("does not fit in 64 bits"),
            std::string::npos);
  lk::Lexer min("-9223372036854775808");
  EXPECT_EQ(*min.readInt("x"), std::numeric_limits<int64_t>::min());
  lk::Lexer none("x");
  auto n = none.readUint("extent");
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().message,
            "expected extent (a non-negative integer) but found 'x'");
  lk::Lexer neg("-5");
  EXPECT_FALSE(neg.readUint("extent"));
}

TEST(Lexer, IdentifiersAndTrailingText) {
  lk::Lexer lx("elem=nvfp4 )");
  EXPECT_EQ(*lx.readIdent("key"), "elem");
  EXPECT_TRUE(lx.expect('='));
  EXPECT_EQ(*lx.readIdent("element type"), "nvfp4");
  auto end = lx.expectEnd();
  ASSERT_FALSE(end);
  EXPECT_EQ(end.error().range->begin.column, 12u);
}

// "\xC3\xA4" is the 2-byte UTF-8 "ä", "\xC3\xA9" "é" (columns count
// bytes).
TEST(Lexer, WordsWithNonAsciiLettersAreReadWhole) {
  lk::Lexer lx("  l\xC3\xA4ne]");
  EXPECT_EQ(*lx.readWord("an axis name"), "l\xC3\xA4ne");
  EXPECT_EQ(lx.peek(), ']');
  // An identifier must be ASCII: the word fails whole (bytes 1-4, columns
  // 2-6), and the lexer stays at its start.
  lk::Lexer dim("[r\xC3\xA9g]");
  ASSERT_TRUE(dim.expect('['));
  auto id = dim.readIdent("a dim name");
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().message, "expected a dim name but found 'r\xC3\xA9g': a "
                                "name is ASCII letters, digits and '_'");
  EXPECT_EQ(id.error().range->begin.column, 2u);
  EXPECT_EQ(id.error().range->end.column, 6u);
  EXPECT_EQ(dim.pos(), 1u);
  // A byte that is no UTF-8 character (a Latin-1 "\xE4", a surrogate
  // "\xED\xA0\x80", a code point past U+10FFFF "\xF4\x90\x80\x80")
  // in a name is named at its place, never cut the name silently.
  for (const char *text :
       {"l\xE4ne", "la\xED\xA0\x80ne", "la\xF4\x90\x80\x80ne", "\xFF"}) {
    lk::Lexer bad(text);
    auto w = bad.readWord("an axis name");
    ASSERT_FALSE(w) << text;
    size_t at = std::string_view(text).find_first_of("\xE4\xED\xF4\xFF");
    EXPECT_EQ(w.error().range->begin.offset, at) << text;
    EXPECT_NE(w.error().message.find(", which is not UTF-8"), std::string::npos)
        << w.error().message;
  }
  lk::Lexer latin1("l\xE4ne");
  EXPECT_EQ(latin1.readWord("an axis name").error().message,
            "expected an axis name but found byte 0xe4, which is not UTF-8");
  // A control byte in a name (an escape sequence pasted from a terminal)
  // is named at its place too: "la\x1b[31mne" is not the axis "la".
  lk::Lexer escape("la\x1b[31mne");
  auto esc = escape.readWord("an axis name");
  ASSERT_FALSE(esc);
  EXPECT_EQ(esc.error().message,
            "expected an axis name but found byte 0x1b, a control character");
  EXPECT_EQ(esc.error().range->begin.offset, 2u);
  lk::Lexer tab("lane\t");
  EXPECT_EQ(*tab.readWord("an axis name"), "lane"); // a blank ends a name
  lk::Lexer digit("9a");
  EXPECT_FALSE(digit.readWord("a name"));
}

// A control byte in the source line (an escape sequence, a carriage
// return) is shown as '?', one column, so the caret stays under the fault.
TEST(Diagnostic, ControlBytesInTheSourceLineAreShownAsQuestionMarks) {
  lk::Lexer lx("\x1b[31m;x\r");
  lx.reset(5);
  EXPECT_EQ(lx.expect(',').error().render(),
            "error: expected ',' but found ';' at column 6\n"
            "  ?[31m;x?\n"
            "       ^\n");
}

// A control byte quoted in the message or a note (a name the user typed
// with an OSC title sequence, a CR) is shown as '?' too; newlines and tabs
// stay.
TEST(Diagnostic, ControlBytesInTheMessageAndNotesAreShownAsQuestionMarks) {
  lk::Diagnostic d = lk::Diagnostic::error(
      "the layout has no in-dim 'la\x01ne'\n\tsee \x1b]0;T\x07 here\r");
  d.note("in '\x1b[31mx'");
  EXPECT_EQ(d.render(), "error: the layout has no in-dim 'la?ne'\n"
                        "\tsee ?]0;T? here?\n"
                        "note: in '?[31mx'\n");
}

// Code points and columns by the UTF-8 encoding: "\xE9\x80\x9A" is
// 1110_1001 10_000000 10_011010 = 0x901A ("通", CJK: 2 columns);
// "\xCC\x81" is U+0301, a combining acute accent (0 columns).
TEST(Utf8, CodePointsAndColumns) {
  EXPECT_EQ(lk::utf8Length("\xE9\x80\x9A", 0), 3u);
  EXPECT_EQ(lk::codePointAt("\xE9\x80\x9A", 0), char32_t(0x901A));
  EXPECT_EQ(lk::codePointAt("l\xC3\xA4ne", 1), char32_t(0xE4));
  EXPECT_EQ(lk::codePointAt("\xF0\x9F\x98\x80", 0), char32_t(0x1F600));
  EXPECT_EQ(lk::columnsOf(0x901A), 2);
  EXPECT_EQ(lk::columnsOf(0xAC00), 2); // Hangul
  EXPECT_EQ(lk::columnsOf(0xFF21), 2); // fullwidth A
  EXPECT_EQ(lk::columnsOf(0x1F600), 2);
  EXPECT_EQ(lk::columnsOf(0xE4), 1);
  EXPECT_EQ(lk::columnsOf('a'), 1);
  EXPECT_EQ(lk::columnsOf(0x0301), 0);
  EXPECT_EQ(lk::utf8Length("\xCC\x81", 0), 2u);
}

// The caret line of a fault at bytes [offset, offset + length) of `text`
// (the render's last line).
std::string caretUnder(const std::string &text, size_t offset, size_t length) {
  std::string r = lk::Diagnostic::at("fault", text, offset, length).render();
  r.pop_back(); // its newline
  return r.substr(r.rfind('\n') + 1);
}

// The caret stands under what the terminal shows: "通道" (U+901A U+9053,
// 3 bytes and 2 columns each) before the fault takes 4 columns, and a
// fault at the name itself is 4 carets wide; "ä" (2 bytes) one column.
// The message's column counts bytes.
TEST(Diagnostic, CaretsCountColumnsNotBytes) {
  const std::string wide = "S[4:1@\xE9\x80\x9A\xE9\x81\x93]";
  EXPECT_EQ(caretUnder(wide, 6, 6), "        ^^^^");
  EXPECT_EQ(lk::Diagnostic::at("fault", wide, 6, 6).render(),
            "error: fault at column 7\n  " + wide + "\n        ^^^^\n");
  EXPECT_EQ(caretUnder("\xE9\x80\x9A\xE9\x81\x93 x", 7, 1), "       ^");
  EXPECT_EQ(caretUnder("l\xC3\xA4ne x", 6, 1), "       ^");
}

TEST(Lexer, NonPrintableBytesAreDescribed) {
  lk::Lexer lx(std::string_view("\x01", 1));
  EXPECT_EQ(lx.describeNext(), "byte 0x01");
}

} // namespace
