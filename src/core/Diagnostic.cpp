//===- Diagnostic.cpp -----------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Diagnostic.h"

#include "layoutkit/core/Utf8.h"

#include <algorithm>

namespace lk {

SourceLocation SourceLocation::of(std::string_view text, size_t offset) {
  SourceLocation loc;
  loc.offset = std::min(offset, text.size());
  for (size_t i = 0; i < loc.offset; ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

Diagnostic Diagnostic::error(std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  return d;
}

Diagnostic Diagnostic::at(std::string message, std::string_view text,
                          size_t offset, size_t length) {
  Diagnostic d;
  d.message = std::move(message);
  d.source = std::string(text);
  offset = std::min(offset, text.size());
  size_t end = std::min(text.size(), offset + std::max<size_t>(length, 1));
  d.range = SourceRange{SourceLocation::of(text, offset),
                        SourceLocation::of(text, end)};
  return d;
}

std::string excerpt(std::string_view text, size_t max) {
  if (text.size() <= max)
    return std::string(text);
  size_t cut = max; // back to a character's first byte
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) >> 6) == 2)
    --cut;
  return std::string(text.substr(0, cut)) + "...";
}

Diagnostic &Diagnostic::note(std::string text) & {
  notes.push_back(std::move(text));
  return *this;
}

Diagnostic &&Diagnostic::note(std::string text) && {
  notes.push_back(std::move(text));
  return std::move(*this);
}

Diagnostic &&Diagnostic::about(std::string name) && {
  parameter = std::move(name);
  return std::move(*this);
}

namespace {

/// The columns the byte line[i] starts on screen: 0 for a continuation
/// byte (its character counted at its lead byte), a UTF-8 character's
/// columnsOf (2 for a CJK letter), 1 for any other byte (one replacement
/// glyph for a byte that is no UTF-8).
int columnsAt(std::string_view line, size_t i) {
  const unsigned char c = static_cast<unsigned char>(line[i]);
  if (c < 0x80)
    return 1;
  if ((c >> 6) == 2)
    return 0;
  return utf8Length(line, i) ? columnsOf(codePointAt(line, i)) : 1;
}

/// The caret line under `line` for bytes [col, col + width): the bytes
/// before it become as many blanks as the columns they take on screen
/// (columnsAt), a tab stays a tab (so the caret lines up whatever the
/// terminal's tab stops), and the carets cover the columns of the bytes in
/// the range (one a byte past the line's end; at least one).
/// Example: under "S[4:1@通道]" a fault at the name (bytes 6-11) is
/// 6 blanks and 4 carets.
std::string caretLine(std::string_view line, size_t col, size_t width) {
  std::string out;
  for (size_t i = 0; i < col && i < line.size(); ++i)
    out.append(size_t(columnsAt(line, i)), line[i] == '\t' ? '\t' : ' ');
  if (col > line.size())
    out.append(col - line.size(), ' ');
  size_t carets = 0;
  for (size_t i = col; i < col + width; ++i)
    carets += i >= line.size() ? 1 : size_t(columnsAt(line, i));
  return out + std::string(std::max<size_t>(1, carets), '^');
}

/// `text` as shown: a control byte (other than a tab or a newline) is '?',
/// one column as on screen, so that hostile text quoted in a message or a
/// source line cannot drive the terminal (an escape sequence, a carriage
/// return) and the caret line stays under the source line.
std::string shown(std::string_view text) {
  std::string out(text);
  for (char &c : out)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') ||
        c == 0x7f)
      c = '?';
  return out;
}

/// What render shows of a source line: the line, or a window of it.
struct Excerpt {
  std::string text;
  size_t column = 0, width = 1; // the range's bytes in `text`
};

/// `line` with the range [col, col + width) as shown: whole up to
/// kWindowBytes (and a few bytes more, which "..." would not save), else a
/// window of kWindowBytes from kLeadBytes before the range, or the line's
/// last kWindowBytes near its end (cut at characters' first bytes), with
/// "..." where it cuts, so that a hostile argument of megabytes is not
/// echoed whole. The carets stop at the window's end (one past the line's
/// end may be the range).
Excerpt windowOf(std::string_view line, size_t col, size_t width) {
  constexpr size_t kWindowBytes = 160, kLeadBytes = 60, kSlack = 6;
  if (line.size() <= kWindowBytes + kSlack)
    return {std::string(line), col, width};
  auto start = [&](size_t i) { // back to a character's first byte
    while (i > 0 && i < line.size() &&
           (static_cast<unsigned char>(line[i]) >> 6) == 2)
      --i;
    return i;
  };
  const size_t lead = col > kLeadBytes ? col - kLeadBytes : 0;
  const size_t from = start(std::min(lead, line.size() - kWindowBytes));
  const size_t to = std::min(line.size(), start(from + kWindowBytes));
  Excerpt e;
  const std::string dots = from > 0 ? "..." : "";
  e.text = dots + std::string(line.substr(from, to - from)) +
           (to < line.size() ? "..." : "");
  e.column = dots.size() + (col - from);
  const size_t room = to - col + (to == line.size() ? 1 : 0); // col < to here
  e.width = std::max<size_t>(1, std::min(width, room));
  return e;
}

} // namespace

std::string Diagnostic::render() const {
  std::string out = "error: " + shown(message);
  if (range) {
    const SourceLocation &b = range->begin;
    bool multiline = source.find('\n') != std::string::npos;
    out += multiline ? " at line " + std::to_string(b.line) + ", column " +
                           std::to_string(b.column)
                     : " at column " + std::to_string(b.column);
    out += '\n';
    // The line holding the start of the range, or a window of it.
    size_t lineStart = b.offset - (b.column - 1);
    size_t lineEnd = source.find('\n', lineStart);
    if (lineEnd == std::string::npos)
      lineEnd = source.size();
    size_t width = 1;
    if (range->end.line == b.line && range->end.column > b.column)
      width = range->end.column - b.column;
    const Excerpt e = windowOf(
        std::string_view(source).substr(lineStart, lineEnd - lineStart),
        b.column - 1, width);
    out += "  " + shown(e.text) + "\n";
    out += "  " + caretLine(e.text, e.column, e.width) + "\n";
  } else {
    out += '\n';
  }
  for (const std::string &n : notes)
    out += "note: " + shown(n) + "\n";
  return out;
}

} // namespace lk
