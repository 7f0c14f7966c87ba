//===- Join.h - Integers written as one string ------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// joinIntegers: the decimal integers of a list with a separator between
/// them, the one spelling of shapes, lane lists and register lists in
/// messages and reports; counted: "1 wavefront", "2 wavefronts".
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

/// n and the noun, plural unless n is 1: the one spelling of counts in
/// messages and reports. Example: counted(1, "wavefront") == "1 wavefront",
/// counted(4, "wavefront") == "4 wavefronts".
inline std::string counted(int64_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

} // namespace lk

#endif // LAYOUTKIT_CORE_JOIN_H
