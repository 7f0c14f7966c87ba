//===- Lexer.cpp ----------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Lexer.h"

#include "layoutkit/core/Utf8.h"

#include <cctype>
#include <cstdio>
#include <limits>

namespace lk {

void Lexer::skipBlanks() {
  // A UTF-8 byte-order mark opening the text (a pasted file) is blank.
  if (pos_ == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF")
    pos_ = 3;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\r' || (newlinesAreBlank_ && c == '\n'))
      ++pos_;
    else
      break;
  }
}

bool Lexer::atEnd() {
  skipBlanks();
  return pos_ >= text_.size();
}

char Lexer::peek() {
  skipBlanks();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

char Lexer::peekAt(size_t k) {
  skipBlanks();
  return pos_ + k < text_.size() ? text_[pos_ + k] : '\0';
}

bool Lexer::consumeIf(char c) {
  if (peek() == c && !atEnd()) {
    ++pos_;
    return true;
  }
  return false;
}

bool Lexer::consumeIf(std::string_view w) {
  skipBlanks();
  if (text_.substr(pos_, w.size()) == w) {
    pos_ += w.size();
    return true;
  }
  return false;
}

std::string Lexer::describeNext() {
  skipBlanks();
  if (pos_ >= text_.size())
    return "end of input";
  unsigned char c = static_cast<unsigned char>(text_[pos_]);
  if (std::isprint(c))
    return std::string("'") + char(c) + "'";
  // A whole UTF-8 character, never half of one.
  if (size_t len = utf8Length(text_, pos_))
    return "'" + std::string(text_.substr(pos_, len)) + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
  return buf;
}

Diagnostic Lexer::expected(std::string_view what) {
  std::string found = describeNext();
  return error("expected " + std::string(what) + " but found " + found, pos_);
}

Status Lexer::expect(char c, std::string_view context) {
  if (consumeIf(c))
    return Ok{};
  std::string what = std::string("'") + c + "'";
  if (!context.empty())
    what += " " + std::string(context);
  return expected(what);
}

Status Lexer::expect(std::string_view w, std::string_view context) {
  if (consumeIf(w))
    return Ok{};
  std::string what = "'" + std::string(w) + "'";
  if (!context.empty())
    what += " " + std::string(context);
  return expected(what);
}

namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

} // namespace

Expected<int64_t> Lexer::readInt(std::string_view what) {
  skipBlanks();
  size_t start = pos_;
  bool negative = false;
  if (pos_ < text_.size() && text_[pos_] == '-') {
    negative = true;
    ++pos_;
  }
  if (pos_ >= text_.size() ||
      !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
    pos_ = start;
    return expected(std::string(what) + " (an integer)");
  }
  // "0x" followed by a hex digit starts a hexadecimal integer (0x40 = 64).
  int base = 10;
  if (text_[pos_] == '0' && pos_ + 2 < text_.size() &&
      (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X') &&
      hexDigit(text_[pos_ + 2]) >= 0) {
    base = 16;
    pos_ += 2;
  }
  auto tooBig = [&] {
    return error("integer does not fit in 64 bits" +
                     (what.empty() ? std::string()
                                   : " (reading " + std::string(what) + ")"),
                 start, pos_ - start + 1);
  };
  // Accumulate as a negative number so INT64_MIN is representable.
  int64_t v = 0;
  while (pos_ < text_.size()) {
    int digit = base == 16
                    ? hexDigit(text_[pos_])
                    : (std::isdigit(static_cast<unsigned char>(text_[pos_]))
                           ? text_[pos_] - '0'
                           : -1);
    if (digit < 0)
      break;
    if (v < (std::numeric_limits<int64_t>::min() + digit) / base)
      return tooBig();
    v = v * base - digit;
    ++pos_;
  }
  if (!negative) {
    if (v == std::numeric_limits<int64_t>::min()) {
      --pos_;
      return tooBig();
    }
    v = -v;
  }
  return v;
}

Expected<int64_t> Lexer::readUint(std::string_view what) {
  skipBlanks();
  if (pos_ >= text_.size() ||
      !std::isdigit(static_cast<unsigned char>(text_[pos_])))
    return expected(std::string(what) + " (a non-negative integer)");
  return readInt(what);
}

Expected<std::string> Lexer::readWord(std::string_view what) {
  skipBlanks();
  size_t start = pos_, end = pos_;
  while (end < text_.size()) {
    unsigned char c = static_cast<unsigned char>(text_[end]);
    if (std::isalpha(c) || c == '_' || (end > start && std::isdigit(c)))
      ++end;
    else if (size_t len = utf8Length(text_, end))
      end += len;
    else
      break;
  }
  const unsigned char next =
      end < text_.size() ? static_cast<unsigned char>(text_[end]) : ' ';
  const bool control = (next < 0x20 && !std::isspace(next)) || next == 0x7f;
  if (next >= 0x80 || control) {
    // A byte that is no UTF-8 character, or a control byte, in or at the
    // start of a name: the name is not cut short there.
    pos_ = end;
    std::string found = describeNext();
    pos_ = start;
    return error(
        "expected " + std::string(what) + " but found " + found +
            (control ? ", a control character" : ", which is not UTF-8"),
        end);
  }
  if (end == start)
    return expected(std::string(what) + " (a name)");
  pos_ = end;
  return std::string(text_.substr(start, end - start));
}

Expected<std::string> Lexer::readIdent(std::string_view what) {
  LK_TRY(std::string word, readWord(what));
  for (char c : word)
    if (static_cast<unsigned char>(c) >= 0x80) {
      pos_ -= word.size();
      return error("expected " + std::string(what) + " but found '" + word +
                       "': a name is ASCII letters, digits and '_'",
                   pos_, word.size());
    }
  return word;
}

Status Lexer::expectEnd(std::string_view what) {
  if (atEnd())
    return Ok{};
  return error("unexpected trailing text " + describeNext() + " (expected " +
                   std::string(what) + ")",
               pos_, text_.size() - pos_);
}

Diagnostic Lexer::error(std::string message, size_t offset,
                        size_t length) const {
  return Diagnostic::at(std::move(message), text_, offset, length);
}

Diagnostic Lexer::error(std::string message) {
  skipBlanks();
  return error(std::move(message), pos_);
}

} // namespace lk
