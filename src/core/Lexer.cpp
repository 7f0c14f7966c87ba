//===- Lexer.cpp ----------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Lexer.h"

#include <cctype>
#include <cstdio>
#include <limits>

namespace lk {

void Lexer::skipBlanks() {
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

Expected<int64_t> Lexer::readInt(std::string_view what) {
  skipBlanks();
  size_t start = pos_;
  bool negative = false;
  if (pos_ < text_.size() && text_[pos_] == '-') {
    negative = true;
    ++pos_;
  }
  if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
    pos_ = start;
    return expected(std::string(what) + " (an integer)");
  }
  // Accumulate as a negative number so INT64_MIN is representable.
  int64_t v = 0;
  while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
    int digit = text_[pos_] - '0';
    if (v < (std::numeric_limits<int64_t>::min() + digit) / 10)
      return error("integer " + std::string(what) + " does not fit in 64 bits",
                   start, pos_ - start + 1);
    v = v * 10 - digit;
    ++pos_;
  }
  if (!negative) {
    if (v == std::numeric_limits<int64_t>::min())
      return error("integer " + std::string(what) + " does not fit in 64 bits",
                   start, pos_ - start);
    v = -v;
  }
  return v;
}

Expected<int64_t> Lexer::readUint(std::string_view what) {
  skipBlanks();
  if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
    return expected(std::string(what) + " (a non-negative integer)");
  return readInt(what);
}

Expected<std::string> Lexer::readIdent(std::string_view what) {
  skipBlanks();
  size_t start = pos_;
  auto isStart = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto isBody = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (pos_ >= text_.size() || !isStart(text_[pos_]))
    return expected(std::string(what) + " (a name)");
  while (pos_ < text_.size() && isBody(text_[pos_]))
    ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

Status Lexer::expectEnd(std::string_view what) {
  if (atEnd())
    return Ok{};
  return error("unexpected trailing text " + describeNext() + " (expected " +
                   std::string(what) + ")",
               pos_, text_.size() - pos_);
}

Diagnostic Lexer::error(std::string message, size_t offset, size_t length) const {
  return Diagnostic::at(std::move(message), text_, offset, length);
}

Diagnostic Lexer::error(std::string message) {
  skipBlanks();
  return error(std::move(message), pos_);
}

} // namespace lk
