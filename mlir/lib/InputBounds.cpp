//===- InputBounds.cpp - Bounds layoutkit-opt checks before parsing -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/InputBounds.h"

namespace lk::tileas {

/// Index just past the string literal that starts at `i` (a `"`), with
/// backslash escapes; the end of `text` when it is not closed.
static size_t skipString(llvm::StringRef text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '"')
      return i + 1;
  }
  return text.size();
}

std::optional<size_t> firstTooDeep(llvm::StringRef text, unsigned limit) {
  size_t depth = 0;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '"') {
      i = skipString(text, i);
      continue;
    }
    if (c == '/' && next == '/') {
      size_t eol = text.find('\n', i);
      i = eol == llvm::StringRef::npos ? text.size() : eol + 1;
      continue;
    }
    if ((c == '-' && next == '>') || ((c == '<' || c == '>') && next == '=')) {
      i += 2; // an arrow or a comparison, not a bracket
      continue;
    }
    if (c == '{' || c == '(' || c == '[' || c == '<') {
      if (++depth > limit)
        return i;
    } else if ((c == '}' || c == ')' || c == ']' || c == '>') && depth > 0) {
      --depth;
    }
    ++i;
  }
  return std::nullopt;
}

} // namespace lk::tileas
