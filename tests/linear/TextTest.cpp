//===- TextTest.cpp - The linear-layout text form -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;

namespace {

/// Fails at 1-based `column` with a message containing `substring`.
::testing::AssertionResult
failsAt(std::string_view text, const std::string &substring, size_t column) {
  Expected<LinearLayout> r = parseLinearLayout(text);
  if (r)
    return ::testing::AssertionFailure() << "parsed as " << r->str();
  const Diagnostic &d = r.error();
  if (d.message.find(substring) == std::string::npos)
    return ::testing::AssertionFailure()
           << "message '" << d.message << "' lacks '" << substring << "'";
  if (!d.range || d.range->begin.column != column)
    return ::testing::AssertionFailure()
           << "column " << (d.range ? d.range->begin.column : 0)
           << " instead of " << column << " for '" << d.message << "'";
  return ::testing::AssertionSuccess();
}

TEST(LinearText, ParsesAndPrints) {
  LinearLayout l =
      ok(parseLinearLayout("{ register : [ (0, 1) ],\n lane: [(0,2),(1,0)] } "
                           "-> { dim0 : 2 , dim1: 4 }"));
  EXPECT_EQ(l.str(),
            "{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}");
  EXPECT_EQ(ok(parseLinearLayout(l.str())), l);
  EXPECT_EQ(ok(parseLinearLayout("{} -> {}")), LinearLayout());
  EXPECT_EQ(ok(parseLinearLayout("{lane: [(), ()]} -> {}")).totalInBits(), 2);
  // Names are interned on parse.
  LinearLayout custom = ok(parseLinearLayout("{thread_x: [(1)]} -> {row: 2}"));
  EXPECT_EQ(dimName(custom.inDim(0).id), "thread_x");
}

TEST(LinearText, Diagnostics) {
  EXPECT_TRUE(failsAt("", "expected '{'", 1));
  EXPECT_TRUE(failsAt("{lane [(1)]} -> {dim0: 2}", "expected ':'", 7));
  EXPECT_TRUE(failsAt("{lane: [(1)} -> {dim0: 2}", "expected ']' or ','", 12));
  EXPECT_TRUE(failsAt("{lane: [(1)]} {dim0: 2}", "expected '->'", 15));
  EXPECT_TRUE(
      failsAt("{lane: [(1,0)]} -> {dim0: 3}", "not a power of two", 27));
  EXPECT_TRUE(failsAt("{lane: [(4)]} -> {dim0: 4}",
                      "value 4 is outside output dim 'dim0'", 10));
  EXPECT_TRUE(failsAt("{lane: [(1,0)]} -> {dim0: 2}", "basis has 2 values", 9));
  EXPECT_TRUE(failsAt("{lane: [(1)], lane: [(0)]} -> {dim0: 2}",
                      "duplicate input dim", 15));
  EXPECT_TRUE(failsAt("{lane: [(1)]} -> {dim0: 2, dim0: 2}",
                      "duplicate output dim", 28));
  EXPECT_TRUE(failsAt("{lane: [(-1)]} -> {dim0: 2}", "basis value", 10));
  EXPECT_TRUE(
      failsAt("{lane: [(1)]} -> {dim0: 2} x", "unexpected trailing text", 28));
  EXPECT_TRUE(failsAt("{lane: [(99999999999999999999)]} -> {dim0: 2}",
                      "does not fit", 10));
  EXPECT_TRUE(failsAt("{1lane: [(1)]} -> {dim0: 2}", "input dim name", 2));
}

TEST(LinearText, LimitsAreDiagnosed) {
  std::string many = "{lane: [";
  for (int i = 0; i < 65; ++i)
    many += std::string(i ? ", " : "") + "(0)";
  many += "]} -> {dim0: 1}";
  EXPECT_TRUE(failsAt(many, "more than 64 bases", 1 + many.find("(0)]")));
  EXPECT_TRUE(failsAt("{} -> {a: 4294967296, b: 4294967296, c: 2}",
                      "exceed 64 bits", 41));
}

TEST(LinearText, RandomLayoutsRoundTrip) {
  lk::linear::testing::Random rnd(7);
  for (int i = 0; i < 500; ++i) {
    int in = int(rnd.uniform(0, 20)), out = int(rnd.uniform(0, 20));
    LinearLayout l =
        rnd.layout(in, int(rnd.uniform(1, 4)), out, int(rnd.uniform(1, 4)));
    Expected<LinearLayout> back = parseLinearLayout(l.str());
    ASSERT_TRUE(back) << l.str() << ": " << back.error().message;
    EXPECT_EQ(*back, l) << l.str();
  }
}

} // namespace
