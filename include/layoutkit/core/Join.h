//===- Join.h - Integers written as one string ------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// joinIntegers: the decimal integers of a list with a separator between
/// them, the one spelling of shapes, lane lists and register lists in
/// messages and reports.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_JOIN_H
#define LAYOUTKIT_CORE_JOIN_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace lk {

/// v[0] sep v[1] sep ... in decimal; "" for an empty list.
/// Example: joinIntegers({8, 64}, ",") == "8,64"; with "x": "8x64".
inline std::string joinIntegers(std::span<const int64_t> v,
                                std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      s += sep;
    s += std::to_string(v[i]);
  }
  return s;
}

} // namespace lk

#endif // LAYOUTKIT_CORE_JOIN_H
