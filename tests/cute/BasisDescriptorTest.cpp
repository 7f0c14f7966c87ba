//===- BasisDescriptorTest.cpp - The basis descriptor grammar -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/BasisDescriptor.h"

#include "support/GrammarTestSupport.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::cute;
using lk::cute::testing::B;
using lk::cute::testing::failsAt;
using lk::cute::testing::Generator;
using lk::cute::testing::T;

namespace {

TEST(BasisDescriptor, SpecExamples) {
  EXPECT_EQ(*parseBasisDescriptor("(1@0, 1@1)"), T({B(1, {0}), B(1, {1})}));
  EXPECT_EQ(*parseBasisDescriptor("(16@0, 1@1)"), T({B(16, {0}), B(1, {1})}));
  EXPECT_EQ(*parseBasisDescriptor("((1@0, 8@1), 1@2)"),
            T({T({B(1, {0}), B(8, {1})}), B(1, {2})}));
  EXPECT_EQ(*parseBasisDescriptor("(1@0@1)"), T({B(1, {0, 1})}));
  EXPECT_EQ(*parseBasisDescriptor("()"), IntTuple());
  // (1/2@0, 4@1) parses syntactically, normalization rejects it.
  Expected<BasisDescriptorSyntax> s =
      parseBasisDescriptorSyntax("(1/2@0, 4@1)");
  ASSERT_TRUE(s);
  ASSERT_EQ(s->entries.size(), 2u);
  EXPECT_EQ(s->entries[0].numerator, 1);
  EXPECT_EQ(s->entries[0].denominator, 2);
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1/2@0, 4@1)"),
                      "basis count 1/2 is not an integer", 2));
}

TEST(BasisDescriptor, Whitespace) {
  IntTuple want = T({T({B(1, {0}), B(8, {1})}), B(1, {2})});
  EXPECT_EQ(*parseBasisDescriptor("((1@0,8@1),1@2)"), want);
  EXPECT_EQ(*parseBasisDescriptor(" \t( ( 1 @ 0 ,\t8@ 1 ) , 1 @2 )\t "), want);
  EXPECT_EQ(*parseBasisDescriptor("( 4 / 2 @ 0 )"), T({B(2, {0})}));
  EXPECT_EQ(*parseBasisDescriptor("( )"), IntTuple());
  // A newline is not a blank in this grammar.
  EXPECT_TRUE(failsAt(
      parseBasisDescriptor("(1@0,\n1@1)"),
      "expected a basis 'N@d' or '(' in basis descriptor but found byte 0x0a",
      6));
}

TEST(BasisDescriptor, Normalization) {
  EXPECT_EQ(*parseBasisDescriptor("(2/2@0)"), T({B(1, {0})}));
  EXPECT_EQ(*parseBasisDescriptor("(-4/2@1)"), T({B(-2, {1})}));
  EXPECT_EQ(*parseBasisDescriptor("(4/-2@1)"), T({B(-2, {1})}));
  EXPECT_EQ(*parseBasisDescriptor("(-6/-3@0@2)"), T({B(2, {0, 2})}));
  EXPECT_EQ(*parseBasisDescriptor("(0@3)"), T({B(0, {3})}));
  EXPECT_EQ(*parseBasisDescriptor("(0/5@3)"), T({B(0, {3})}));
  EXPECT_EQ(*parseBasisDescriptor("(-9223372036854775808@0)"),
            T({B(std::numeric_limits<int64_t>::min(), {0})}));
  // Two stages can be run separately.
  std::string text = "((6/3@0), 1@254@0@1@2)";
  Expected<BasisDescriptorSyntax> s = parseBasisDescriptorSyntax(text);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->entries[0].entries[0].numerator, 6);
  EXPECT_EQ(s->entries[0].entries[0].denominator, 3);
  EXPECT_EQ(s->entries[1].dims.size(), 4u);
  EXPECT_EQ(*normalizeBasisDescriptor(*s, text),
            T({T({B(2, {0})}), B(1, {254, 0, 1, 2})}));
}

TEST(BasisDescriptor, NormalizationDiagnostics) {
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1/0@0)"),
                      "zero denominator in basis count 1/0", 4));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@0, 7/ 0@1)"),
                      "zero denominator in basis count 7/0", 10));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@0, (3/2@1))"),
                      "basis count 3/2 is not an integer (it is 3/2)", 8));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(2/4@0)"),
                      "basis count 2/4 is not an integer (it is 1/2)", 2));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(-9223372036854775808/-1@0)"),
                      "does not fit in 64 bits", 2));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@255)"),
                      "basis index 255 out of range [0, 254]", 4));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@0@1@2@3@4)"),
                      "basis path deeper than 4 levels", 12));
  // The zero denominator is reported by normalization, not by the syntax.
  EXPECT_TRUE(parseBasisDescriptorSyntax("(1/0@0)"));
  // Hand-built syntax that is not a group.
  BasisDescriptorSyntax leaf;
  leaf.isGroup = false;
  EXPECT_FALSE(normalizeBasisDescriptor(leaf, ""));
}

TEST(BasisDescriptor, SyntaxDiagnostics) {
  EXPECT_TRUE(failsAt(
      parseBasisDescriptor(""),
      "expected '(' to start a basis descriptor but found end of input", 1));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("1@0"),
                      "expected '(' to start a basis descriptor but found '1'",
                      1));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1, 2)"),
                      "expected '@' after basis count but found ','", 3));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@)"),
                      "expected basis dimension (a non-negative integer) after "
                      "'@' but found ')'",
                      4));
  EXPECT_TRUE(
      failsAt(parseBasisDescriptor("(1@-1)"), "expected basis dimension", 4));
  EXPECT_TRUE(failsAt(
      parseBasisDescriptor("(1@0 1@1)"),
      "expected ',' or ')' in basis descriptor group but found '1'", 6));
  EXPECT_TRUE(failsAt(
      parseBasisDescriptor("(1@0,)"),
      "expected a basis 'N@d' or '(' in basis descriptor but found ')'", 6));
  EXPECT_TRUE(
      failsAt(parseBasisDescriptor("(1/@0)"),
              "expected denominator (an integer) after '/' but found '@'", 4));
  EXPECT_TRUE(failsAt(
      parseBasisDescriptor("(1@0"),
      "expected ',' or ')' in basis descriptor group but found end of input",
      5));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@0) x"),
                      "unexpected trailing text 'x'", 7));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@0)(1@1)"),
                      "unexpected trailing text '('", 6));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(99999999999999999999@0)"),
                      "does not fit in 64 bits", 2));
  EXPECT_TRUE(failsAt(parseBasisDescriptor("(1@99999999999999999999)"),
                      "does not fit in 64 bits", 4));
  std::string deep(10000, '(');
  EXPECT_TRUE(
      failsAt(parseBasisDescriptor(deep), "nests deeper than 64 groups", 65));
  std::string ok = std::string(64, '(') + std::string(64, ')');
  EXPECT_TRUE(parseBasisDescriptor(ok));
}

TEST(BasisDescriptor, Print) {
  EXPECT_EQ(*printBasisDescriptor(T({B(1, {0}), B(1, {1})})), "(1@0, 1@1)");
  EXPECT_EQ(*printBasisDescriptor(T({T({B(1, {0}), B(8, {1})}), B(1, {2})})),
            "((1@0, 8@1), 1@2)");
  EXPECT_EQ(*printBasisDescriptor(T({B(1, {0, 1})})), "(1@0@1)");
  EXPECT_EQ(*printBasisDescriptor(IntTuple()), "()");
  EXPECT_EQ(*printBasisDescriptor(T({B(-3, {2}), IntTuple()})), "(-3@2, ())");
  Expected<std::string> leaf = printBasisDescriptor(B(1, {0}));
  ASSERT_FALSE(leaf);
  EXPECT_NE(leaf.error().message.find("is a leaf"), std::string::npos);
  Expected<std::string> plain = printBasisDescriptor(T({B(1, {0}), 4}));
  ASSERT_FALSE(plain);
  EXPECT_NE(plain.error().message.find("without a basis dimension"),
            std::string::npos);
}

TEST(BasisDescriptor, RoundTripProperty) {
  Generator g(0xba515001);
  for (int i = 0; i < 4000; ++i) {
    IntTuple d = g.descriptor();
    Expected<std::string> text = printBasisDescriptor(d);
    ASSERT_TRUE(text) << d.str();
    Expected<IntTuple> back = parseBasisDescriptor(*text);
    ASSERT_TRUE(back) << *text << ": " << back.error().message;
    ASSERT_EQ(*back, d) << *text;
    ASSERT_EQ(*printBasisDescriptor(*back), *text);
  }
}

TEST(BasisDescriptor, FractionProperty) {
  // k*q / q always normalizes to k; (k*q + r) / q with 0 < r < q never does.
  Generator g(0xba515002);
  for (int i = 0; i < 2000; ++i) {
    int64_t k = g.uniform(-1000, 1000), q = g.uniform(1, 1000);
    int64_t sign = g.chance(50) ? 1 : -1;
    std::string whole = "(" + std::to_string(sign * k * q) + "/" +
                        std::to_string(sign * q) + "@1)";
    ASSERT_EQ(*parseBasisDescriptor(whole), T({B(k, {1})})) << whole;
    if (q > 1) {
      int64_t r = g.uniform(1, q - 1);
      std::string frac =
          "(" + std::to_string(k * q + r) + "/" + std::to_string(q) + "@1)";
      ASSERT_TRUE(failsAt(parseBasisDescriptor(frac), "is not an integer", 2))
          << frac;
    }
  }
}

} // namespace
