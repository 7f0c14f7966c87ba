//===- Diagnostic.h - Errors as values ---------------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A `Diagnostic` describes why an operation failed: a one-line message, an
/// optional source range into the text that was being parsed, and free-form
/// notes. No LayoutKit API throws; failures travel as `lk::Expected<T>`
/// (see Expected.h) carrying a Diagnostic.
///
/// Examples:
///   Diagnostic d = Diagnostic::at("expected ')'", text, 7);
///   d.render() ==
///     "error: expected ')' at column 8\n"
///     "  (8,4:(1,8)\n"
///     "         ^\n"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_DIAGNOSTIC_H
#define LAYOUTKIT_CORE_DIAGNOSTIC_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lk {

/// A position in a text: 0-based byte offset, 1-based line and column.
struct SourceLocation {
  size_t offset = 0;
  size_t line = 1;
  size_t column = 1;

  /// Computes line and column of `offset` inside `text`.
  /// @pre offset <= text.size()
  static SourceLocation of(std::string_view text, size_t offset);
};

/// A half-open range [begin, end) of a text.
struct SourceRange {
  SourceLocation begin;
  SourceLocation end;
};

/// An error message with an optional location and notes.
struct Diagnostic {
  std::string message;
  /// The range the message is about, when the error comes from a text.
  std::optional<SourceRange> range;
  /// The text the range points into (kept so the diagnostic can be rendered
  /// with a caret long after the parser is gone).
  std::string source;
  std::vector<std::string> notes;
  /// The named parameter of the input the failure is about, when the check
  /// knows it (e.g. "threadsPerWarp" of a Triton encoding); empty otherwise.
  /// A reader that kept where each parameter is written points the
  /// diagnostic there (linear::placeAtField).
  std::string parameter;

  /// A diagnostic without location.
  static Diagnostic error(std::string message);
  /// A diagnostic pointing at `offset` (length `length`, at least one caret)
  /// of `text`.
  static Diagnostic at(std::string message, std::string_view text,
                       size_t offset, size_t length = 1);

  /// Adds a note and returns *this (for chaining).
  Diagnostic &note(std::string text) &;
  Diagnostic &&note(std::string text) &&;
  /// Sets `parameter` and returns *this:
  /// Diagnostic::error("...").about("order").
  Diagnostic &&about(std::string name) &&;

  /// Human-readable form: "error: <message> at column C" (and line when the
  /// text has several lines), then the offending line with a caret under the
  /// range, then one "note: ..." line per note. Always ends with '\n'. A
  /// line over 160 bytes (a few more are shown whole) is shown as a
  /// 160-byte window from 60 bytes before the range (the line's last 160
  /// bytes near its end), "..." where it is cut.
  /// A control byte other than a tab or a newline, in the message, the
  /// line or a note, is shown as '?' (quoted text cannot drive a terminal).
  std::string render() const;
};

/// User text as a message quotes it: whole up to `max` bytes, else its
/// first `max` bytes (cut at a UTF-8 character's start) and "...", so a
/// hostile argument cannot make a message as long as itself.
/// Example: excerpt(std::string(5000, 'a'), 8) == "aaaaaaaa...".
std::string excerpt(std::string_view text, size_t max = 40);

} // namespace lk

#endif // LAYOUTKIT_CORE_DIAGNOSTIC_H
