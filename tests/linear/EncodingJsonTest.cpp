//===- EncodingJsonTest.cpp - Triton's layout parameters as JSON text -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The JSON reader gives the encoding the TTGIR reader gives for the same
/// attribute (compared through toLinearLayout); its diagnostics point at
/// the offending character (columns counted by hand in each comment), and
/// its bounds (parent depth, list length) hold. Every oracle case is read
/// through it in tests/tools/TtgirTest.cpp.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/EncodingJson.h"
#include "layoutkit/linear/TtgirText.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;

namespace {

std::string jsonLayoutOf(const Expected<Encoding> &e,
                         std::vector<int64_t> shape) {
  if (!e)
    return "error: " + e.error().message;
  Expected<LinearLayout> l = toLinearLayout(*e, shape);
  return l ? l->str() : "error: " + l.error().message;
}

using JP = std::pair<std::string, size_t>;

/// The message and 1-based column of the reader's diagnostic.
JP jsonErrorOf(std::string_view text) {
  Expected<Encoding> e = parseEncodingJson(text);
  if (e)
    return {"<read>", 0};
  const Diagnostic &d = e.error();
  return {d.message, d.range ? d.range->begin.column : 0};
}

TEST(EncodingJson, SameLayoutsAsTtgirText) {
  Expected<Encoding> json = parseEncodingJson(
      R"({"kind": "blocked", "sizePerThread": [1, 4],
          "threadsPerWarp": [8, 4], "warpsPerCTA": [1, 1], "order": [1, 0]})");
  Expected<TtgirLayout> ttgir = parseTtgir(
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [1, 1], order = [1, 0]}>");
  ASSERT_TRUE(ttgir) << ttgir.error().render();
  // 4 registers along dim1 (order [1,0]: dim1 fastest), 4 lanes along
  // dim1, then 8 lanes along dim0.
  EXPECT_EQ(jsonLayoutOf(json, {8, 16}),
            "{register: [(0,1), (0,2)], lane: [(0,4), (0,8), (1,0), (2,0), "
            "(4,0)], warp: [], block: []} -> {dim0: 8, dim1: 16}");
  EXPECT_EQ(jsonLayoutOf(json, {8, 16}),
            jsonLayoutOf(ttgir->encoding, {8, 16}));

  // A parent object, an escaped member name (\u006b is 'k') and the
  // oracle's CTALayout member (skipped).
  Expected<Encoding> dot = parseEncodingJson(
      R"({"\u006bind": "dot_operand", "opIdx": 0, "kWidth": 2,
          "CTALayout": "ignored", "parent": {"kind": "nvidia_mma",
          "versionMajor": 2, "versionMinor": 0, "warpsPerCTA": [4, 1],
          "instrShape": [16, 8]}})");
  Expected<TtgirLayout> dotText =
      parseTtgir("#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                 "warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n"
                 "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>");
  ASSERT_TRUE(dot) << dot.error().render();
  ASSERT_TRUE(dotText) << dotText.error().render();
  EXPECT_EQ(jsonLayoutOf(dot, {64, 32}),
            jsonLayoutOf(dotText->encoding, {64, 32}));
  EXPECT_EQ(jsonLayoutOf(dot, {64, 32}).rfind("{register: ", 0), 0u);
}

TEST(EncodingJson, DiagnosticsPointAtTheOffendingCharacter) {
  // Offsets: '{' 0, "kind" 1-6, ':' 7, "blocked" 9-17, "order" 20-26,
  // '[' 29, '1' 30, '0' 32 -> column 33.
  EXPECT_EQ(
      jsonErrorOf(R"({"kind": "blocked", "order": [1 0]})"),
      (JP{"expected ',' between list values (or ']') but found '0'", 33}));
  // "slice" 9-15, "dim" starts at 18 -> column 19 (the member).
  EXPECT_EQ(jsonErrorOf(R"({"kind": "slice", "dim": "x"})"),
            (JP{"field 'dim' must be an integer, got a string", 19}));
  // "swizzled_shared" 9-25, "vec" starts at 28 -> column 29.
  EXPECT_EQ(jsonErrorOf(R"({"kind": "swizzled_shared", "vec": 1.5})"),
            (JP{"field 'vec' must be an integer, got a number that is not "
                "an integer",
                29}));
  EXPECT_EQ(jsonErrorOf(R"({"kind": "slice", "dim": null})"),
            (JP{"field 'dim' must be an integer, got null", 19}));
  // The digits start at 25 -> column 26.
  EXPECT_EQ(jsonErrorOf(R"({"kind": "slice", "dim": 99999999999999999999})"),
            (JP{"integer does not fit in 64 bits", 26}));
  // The kind's string starts at 9 -> column 10; a missing field points
  // there too.
  EXPECT_EQ(jsonErrorOf(R"({"kind": "blockd"})"),
            (JP{"unknown layout kind 'blockd'", 10}));
  EXPECT_EQ(jsonErrorOf(R"({"kind": "blocked"})"),
            (JP{"missing field 'sizePerThread' (blocked needs it)", 10}));
  EXPECT_EQ(jsonErrorOf(R"({"order": [0]})"),
            (JP{"expected a layout object with a 'kind'", 1}));
  EXPECT_EQ(jsonErrorOf(R"({"kind)"), (JP{"unclosed string", 2}));
  EXPECT_EQ(jsonErrorOf(R"({"kind": "slice", "dim" 0})"),
            (JP{"expected ':' after the member name but found '0'", 25}));
  EXPECT_EQ(jsonErrorOf("[1]").second, 1u);
  EXPECT_EQ(jsonErrorOf("").first.rfind("expected a JSON object", 0), 0u);
  // A whole, valid object followed by text: the text is refused.
  Expected<Encoding> trailing = parseEncodingJson(
      R"({"kind": "swizzled_shared", "vec": 1, "perPhase": 1,
          "maxPhase": 1, "order": [1, 0]} x)");
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().message.rfind("unexpected trailing text 'x'", 0),
            0u);
}

TEST(EncodingJson, WorkIsBounded) {
  // Nine parents: the ninth '{' is refused before it is read.
  std::string deep = R"({"kind": "slice", "dim": 0, "parent": )";
  std::string text;
  for (int i = 0; i < 9; ++i)
    text += deep;
  text += "{}" + std::string(9, '}');
  EXPECT_EQ(jsonErrorOf(text).first,
            "objects nest deeper than 8 (a layout's parents nest at most 8 "
            "deep)");
  // A value of an unknown field meets the same bound, named the same way.
  std::string under = R"({"kind": "blocked", "x": )";
  for (int i = 0; i < 9; ++i)
    under += R"({"a": )";
  under += "1" + std::string(10, '}');
  EXPECT_EQ(jsonErrorOf(under).first,
            "objects nest deeper than 8 (a layout's parents nest at most 8 "
            "deep)");
  // A list's first value of another kind is named with its position.
  EXPECT_EQ(
      jsonErrorOf(R"({"kind": "blocked", "sizePerThread": [1, 1], )"
                  R"("threadsPerWarp": [8, 4], "warpsPerCTA": [1, 1], )"
                  R"("order": [1, 0.5]})")
          .first,
      "field 'order' must be a list of integers, got a list holding a number "
      "that is not an integer (value 2)");
  EXPECT_EQ(jsonErrorOf(R"({"kind": "slice", "dim": [[[[[0]]]]]})").first,
            "lists nest deeper than 4");
  std::string longList = R"({"kind": "slice", "dim": [0)";
  for (int i = 0; i < 64; ++i)
    longList += ", 0";
  EXPECT_EQ(jsonErrorOf(longList + "]}").first,
            "a list of more than 64 values");
}

} // namespace
