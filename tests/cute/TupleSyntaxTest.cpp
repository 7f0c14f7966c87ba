//===- TupleSyntaxTest.cpp - The shared located tuple parser --------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Direct tests of the located tuple parser behind Text.cpp and Attribute.cpp
/// (cute/TupleSyntax.h): leaf spans, the grammar options, and where it
/// stops. The grammars' own messages are tested in TextTest and
/// AttributeTest.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/TupleSyntax.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::cute;
using namespace lk::cute::detail;

namespace {

Expected<LocatedTuple> parse(std::string_view text, const TupleGrammar &g) {
  Lexer lx(text);
  return parseLocatedTuple(lx, g);
}

std::string spans(const LocatedTuple &t) {
  std::string out;
  for (const Span &s : t.leaves)
    out +=
        "{" + std::to_string(s.offset) + "," + std::to_string(s.length) + "}";
  return out;
}

TEST(TupleSyntax, RecordsWholeAndLeafSpans) {
  Expected<LocatedTuple> t = parse(" ((2, 4),_8) :", kCuteTuple);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->value.str(), "((2,4),8)");
  EXPECT_EQ(t->whole.offset, 1u);
  EXPECT_EQ(t->whole.length, 11u);
  EXPECT_EQ(spans(*t), "{3,1}{6,1}{9,2}");
}

TEST(TupleSyntax, BasisLeafSpanCoversTheDimensions) {
  Expected<LocatedTuple> t = parse("(1@0@1,-3)", kCuteTuple);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->value.str(), "(1@0@1,-3)");
  EXPECT_EQ(spans(*t), "{1,5}{7,2}");
}

TEST(TupleSyntax, StopsAfterTheTuple) {
  Lexer lx("(2,4):(1,2)");
  Expected<LocatedTuple> t = parseLocatedTuple(lx, kCuteTuple);
  ASSERT_TRUE(t);
  EXPECT_EQ(lx.pos(), 5u);
  EXPECT_EQ(lx.peek(), ':');
}

TEST(TupleSyntax, OptionsSelectTheLeaves) {
  TupleGrammar plain = kAttributeTuple.named("stride");
  EXPECT_TRUE(parse("(1,(2,3))", plain));
  for (std::string_view in : {"-1", "_8", "()", "(1,())"})
    EXPECT_FALSE(parse(in, plain)) << in;
  EXPECT_EQ(parse("-1", plain).error().message,
            "expected a non-negative integer or '(' in stride but found '-'");
  // Without bases, '@' is left for the caller.
  Lexer lx("3@1");
  ASSERT_TRUE(parseLocatedTuple(lx, plain));
  EXPECT_EQ(lx.peek(), '@');

  TupleGrammar signedOnly = plain;
  signedOnly.allowNegative = true;
  EXPECT_EQ(parse("-1", signedOnly)->value, IntTuple(-1));
  EXPECT_EQ(parse("_1", signedOnly).error().message,
            "expected an integer or '(' in stride but found '_'");
}

TEST(TupleSyntax, NestingLimitAndItsWording) {
  TupleGrammar g = kCuteTuple;
  g.maxNesting = 2;
  EXPECT_TRUE(parse("((1))", g));
  Expected<LocatedTuple> deep = parse("(((1)))", g);
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().message, "nesting deeper than 2 levels");
  EXPECT_EQ(deep.error().range->begin.offset, 2u);

  g.nounInLimits = true;
  g.noun = "shape";
  EXPECT_EQ(parse("(((1)))", g).error().message,
            "shape nests deeper than 2 levels");

  // Enclosing depth counts towards the limit.
  Lexer lx("((1))");
  EXPECT_FALSE(parseLocatedTuple(lx, g, /*depth=*/1));
}

TEST(TupleSyntax, StaticPrefixAndSignedIntegers) {
  Lexer lx(" _-12 o");
  EXPECT_TRUE(atInteger(lx, kCuteTuple));
  EXPECT_FALSE(atInteger(lx, kAttributeTuple));
  EXPECT_EQ(*readInteger(lx, "offset", kCuteTuple), -12);
  EXPECT_EQ(lx.peek(), 'o');

  Lexer keep("_ ");
  EXPECT_FALSE(atInteger(keep, kCuteTuple)); // the tiler '_'
}

TEST(TupleSyntax, MakeLocatedLayoutPointsAtTheCulprit) {
  auto make = [](std::string_view shape, std::string_view stride) {
    std::string text = std::string(shape) + ":" + std::string(stride);
    Lexer lx(text);
    LocatedTuple s = *parseLocatedTuple(lx, kCuteTuple.named("shape"));
    EXPECT_TRUE(lx.expect(':'));
    LocatedTuple d = *parseLocatedTuple(lx, kCuteTuple.named("stride"));
    return makeLocatedLayout(lx, s, d);
  };
  EXPECT_TRUE(make("(2,4)", "(1,2)"));
  Expected<Layout> l = make("(2,0)", "(1,2)");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message, "shape leaf 0 must be positive");
  EXPECT_EQ(l.error().range->begin.offset, 3u);
  l = make("(2,4)", "(1)");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().range->begin.offset, 6u);
}

} // namespace
