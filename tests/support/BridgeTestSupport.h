//===- BridgeTestSupport.h - Helpers for the bridge tests --------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shared by the bridge tests: layouts of each model read from text (a
/// parse error fails the test and yields an empty layout) and a fixed-seed
/// generator.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_BRIDGETESTSUPPORT_H
#define LAYOUTKIT_TESTS_SUPPORT_BRIDGETESTSUPPORT_H

#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string_view>

namespace lk::bridge::testing {

/// `text` read by `parse`, or a default value after a test failure.
template <class T, class Parse>
T readOrFail(std::string_view text, Parse parse) {
  Expected<T> l = parse(text);
  EXPECT_TRUE(l) << (l ? "" : l.error().render());
  return l ? *l : T();
}

inline cute::Layout cuteOf(std::string_view text) {
  return readOrFail<cute::Layout>(
      text, [](std::string_view t) { return cute::parseLayout(t); });
}
inline cute::ComposedLayout composedOf(std::string_view text) {
  return readOrFail<cute::ComposedLayout>(
      text, [](std::string_view t) { return cute::parseComposedLayout(t); });
}
inline tile::TileLayout tileOf(std::string_view text) {
  return readOrFail<tile::TileLayout>(
      text, [](std::string_view t) { return tile::parseTileLayout(t); });
}
inline linear::LinearLayout linearOf(std::string_view text) {
  return readOrFail<linear::LinearLayout>(
      text, [](std::string_view t) { return linear::parseLinearLayout(t); });
}

/// A fixed-seed random source.
struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool chance(int percent) { return uniform(0, 99) < percent; }
};

} // namespace lk::bridge::testing

#endif // LAYOUTKIT_TESTS_SUPPORT_BRIDGETESTSUPPORT_H
