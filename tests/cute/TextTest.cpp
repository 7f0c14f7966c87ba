//===- TextTest.cpp - CuTe print form: parse and print --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Text.h"

#include "support/GrammarTestSupport.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::cute;
using lk::cute::testing::B;
using lk::cute::testing::failsAt;
using lk::cute::testing::Generator;
using lk::cute::testing::T;

namespace {

//===----------------------------------------------------------------------===//
// IntTuple
//===----------------------------------------------------------------------===//

TEST(TextIntTuple, Examples) {
  EXPECT_EQ(*parseIntTuple("8"), IntTuple(8));
  EXPECT_EQ(*parseIntTuple("(8)"), T({8}));
  EXPECT_EQ(*parseIntTuple("((2,4),8)"), T({T({2, 4}), 8}));
  EXPECT_EQ(*parseIntTuple("()"), IntTuple());
  EXPECT_EQ(*parseIntTuple("-3"), IntTuple(-3));
  EXPECT_EQ(*parseIntTuple("3@1"), B(3, {1}));
  EXPECT_EQ(*parseIntTuple("1@0@1"), B(1, {0, 1}));
  EXPECT_EQ(*parseIntTuple(" ( 2 , ( 3@1 , _4 ) ) "),
            T({2, T({B(3, {1}), 4})}));
  EXPECT_EQ(*parseIntTuple("_-2"), IntTuple(-2));
  EXPECT_EQ(*parseIntTuple("-9223372036854775808"),
            IntTuple(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(*parseIntTuple("9223372036854775807"),
            IntTuple(std::numeric_limits<int64_t>::max()));
}

TEST(TextIntTuple, NestedBasisIsOutermostFirst) {
  IntTuple t = *parseIntTuple("1@0@1");
  ASSERT_TRUE(t.isLeaf());
  EXPECT_EQ(t.basis().depth(), 2);
  EXPECT_EQ(t.basis().at(0), 0);
  EXPECT_EQ(t.basis().at(1), 1);
  EXPECT_EQ(t.str(), "1@0@1");
}

TEST(TextIntTuple, Diagnostics) {
  EXPECT_TRUE(failsAt(
      parseIntTuple(""),
      "expected an integer or '(' in int-tuple but found end of input", 1));
  EXPECT_TRUE(failsAt(parseIntTuple("(2,4"),
                      "expected ',' or ')' in int-tuple but found end of input",
                      5));
  EXPECT_TRUE(failsAt(parseIntTuple("(2;4)"),
                      "expected ',' or ')' in int-tuple but found ';'", 3));
  EXPECT_TRUE(failsAt(parseIntTuple("(2,)"),
                      "expected an integer or '(' in int-tuple but found ')'",
                      4));
  EXPECT_TRUE(
      failsAt(parseIntTuple("(2,4) x"), "unexpected trailing text 'x'", 7));
  EXPECT_TRUE(failsAt(parseIntTuple("99999999999999999999"),
                      "does not fit in 64 bits", 1));
  EXPECT_TRUE(failsAt(parseIntTuple("3@"), "basis index", 3));
  EXPECT_TRUE(failsAt(parseIntTuple("(1,3@255)"),
                      "basis index 255 out of range [0, 254]", 6));
  EXPECT_TRUE(failsAt(parseIntTuple("1@0@0@0@0@0"),
                      "basis path deeper than 4 levels", 11));
  EXPECT_TRUE(failsAt(parseIntTuple("_"),
                      "expected an integer or '(' in int-tuple but found '_'",
                      1));
  EXPECT_TRUE(failsAt(parseIntTuple("(\x01)"), "found byte 0x01", 2));
}

TEST(TextIntTuple, NestingLimit) {
  std::string ok = std::string(64, '(') + "1" + std::string(64, ')');
  EXPECT_TRUE(parseIntTuple(ok));
  std::string deep = std::string(65, '(') + "1" + std::string(65, ')');
  EXPECT_TRUE(
      failsAt(parseIntTuple(deep), "nesting deeper than 64 levels", 65));
  std::string huge(10000, '(');
  EXPECT_TRUE(
      failsAt(parseIntTuple(huge), "nesting deeper than 64 levels", 65));
}

TEST(TextIntTuple, NodeLimit) {
  // 65534 leaves + the root = 65535 nodes is the largest tuple.
  std::string ok = "(1";
  for (int i = 1; i < 32767; ++i)
    ok += ",1";
  ok += ")";
  Expected<IntTuple> r = parseIntTuple(ok);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->rank(), 32767u);
  std::string wide = "(1";
  for (int i = 1; i < 32768; ++i)
    wide += ",1";
  wide += ")";
  EXPECT_TRUE(
      failsAt(parseIntTuple(wide), "more than 32767 modes", 2 * 32767 + 2));
  // Nested to avoid the rank limit: 300 groups of 300 leaves = 90301 nodes.
  std::string many = "(";
  for (int g = 0; g < 300; ++g) {
    many += g ? ",(" : "(";
    for (int i = 0; i < 300; ++i)
      many += i ? ",1" : "1";
    many += ")";
  }
  many += ")";
  Expected<IntTuple> m = parseIntTuple(many);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("more than 65535 nodes"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

TEST(TextLayout, Examples) {
  Layout l = *parseLayout("((2,4),8):((1,16),2)");
  EXPECT_EQ(l.shape(), T({T({2, 4}), 8}));
  EXPECT_EQ(l.stride(), T({T({1, 16}), 2}));
  EXPECT_EQ(l.str(), "((2,4),8):((1,16),2)");

  Layout b = *parseLayout("(4,8):(1@0,1@1)");
  EXPECT_EQ(b.stride(), T({B(1, {0}), B(1, {1})}));
  EXPECT_TRUE(b.hasBasisStrides());

  EXPECT_EQ(*parseLayout("8:1"), Layout::make(8, 1).value());
  EXPECT_EQ(*parseLayout("(_2,_4):(_1,_2)"),
            Layout::make(T({2, 4}), T({1, 2})).value());
  EXPECT_EQ(*parseLayout("(2,4):(-1,-2)"),
            Layout::make(T({2, 4}), T({-1, -2})).value());
  EXPECT_EQ(*parseLayout("():()"),
            Layout::make(IntTuple(), IntTuple()).value());
  EXPECT_EQ(
      *parseLayout("(4,(2,2)):(1@0@1,(3@1,0))"),
      Layout::make(T({4, T({2, 2})}), T({B(1, {0, 1}), T({B(3, {1}), 0})}))
          .value());
  EXPECT_EQ(*parseLayout(" ( 2 ,\t4 ) :\n( 1 , 2 ) "),
            Layout::make(T({2, 4}), T({1, 2})).value());
}

TEST(TextLayout, Diagnostics) {
  // The congruence error points at the stride text.
  EXPECT_TRUE(failsAt(parseLayout("(2,4):(1)"),
                      "shape (2,4) and stride (1) are not congruent", 7));
  Expected<Layout> c = parseLayout("(2,4):(1)");
  EXPECT_EQ(c.error().range->end.column, 10u);
  EXPECT_TRUE(failsAt(parseLayout("((2,4),8):(1,2)"), "are not congruent", 11));
  EXPECT_TRUE(failsAt(parseLayout("(8,4:(1,8)"),
                      "expected ',' or ')' in shape but found ':'", 5));
  EXPECT_TRUE(failsAt(
      parseLayout("(8,4)"),
      "expected ':' between shape and stride but found end of input", 6));
  EXPECT_TRUE(failsAt(parseLayout("(8,4);(1,8)"),
                      "expected ':' between shape and stride but found ';'",
                      6));
  EXPECT_TRUE(failsAt(parseLayout("(8,4):(1,8"),
                      "expected ',' or ')' in stride but found end of input",
                      11));
  EXPECT_TRUE(failsAt(parseLayout("(8,4):(1,x)"),
                      "expected an integer or '(' in stride but found 'x'",
                      10));
  // Shape leaves must be positive, plain integers: pointed at the leaf.
  EXPECT_TRUE(
      failsAt(parseLayout("(8,0):(1,8)"), "shape leaf 0 must be positive", 4));
  EXPECT_TRUE(failsAt(parseLayout("(8,(2, -3)):(1,(8,16))"),
                      "shape leaf -3 must be positive", 8));
  EXPECT_TRUE(failsAt(parseLayout("(8,2@1):(1,8)"),
                      "shape leaf 2@1 cannot have a basis", 4));
  EXPECT_TRUE(failsAt(parseLayout("(4294967296,4294967296):(1,1)"),
                      "does not fit in 64 bits", 1));
  EXPECT_TRUE(failsAt(parseLayout("8:1 o"), "unexpected trailing text 'o'", 5));
}

//===----------------------------------------------------------------------===//
// ComposedLayout
//===----------------------------------------------------------------------===//

TEST(TextComposed, Examples) {
  ComposedLayout c = *parseComposedLayout("Sw<3,4,3> o (8,64):(64,1)");
  EXPECT_EQ(c.swizzle, (Swizzle{3, 4, 3}));
  EXPECT_EQ(c.offset, 0);
  EXPECT_EQ(c.layout, Layout::make(T({8, 64}), T({64, 1})).value());
  EXPECT_EQ(c.str(), "Sw<3,4,3> o (8,64):(64,1)");

  ComposedLayout o = *parseComposedLayout("Sw<3,4,3> o 32 o (8,64):(64,1)");
  EXPECT_EQ(o.offset, 32);
  EXPECT_EQ(o.str(), "Sw<3,4,3> o 32 o (8,64):(64,1)");

  // CuTe prints static offsets with an underscore.
  ComposedLayout u = *parseComposedLayout("Sw<2,4,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(u.offset, 0);
  EXPECT_EQ(u.swizzle, (Swizzle{2, 4, 3}));

  // A layout starting with an integer is not mistaken for an offset.
  ComposedLayout i = *parseComposedLayout("Sw<1,4,3> o 8:1");
  EXPECT_EQ(i.offset, 0);
  EXPECT_EQ(i.layout, Layout::make(8, 1).value());

  // A plain layout is the identity swizzle composed with it.
  ComposedLayout p = *parseComposedLayout("(8,64):(64,1)");
  EXPECT_EQ(p.swizzle, (Swizzle{0, 0, 0}));
  EXPECT_EQ(p.offset, 0);
  EXPECT_EQ(*parseComposedLayout(p.str()), p);
  EXPECT_EQ(*parseComposedLayout("Sw<0,4,3>o-5o 8:1"),
            (ComposedLayout{Swizzle{0, 4, 3}, -5, Layout::make(8, 1).value()}));
}

// A swizzle or an offset acts on integers: not over basis strides, refused
// where the value is made (the text at the layout, make()); alone, such a
// layout is itself.
TEST(TextComposed, NoSwizzleOverBasisStrides) {
  const std::string basis = "(8,64):(1@0,1@1)";
  const Layout l = *parseLayout(basis);
  const std::string why = "a swizzle or an offset acts on integer offsets; "
                          "the layout (8,64):(1@0,1@1) has basis strides";
  EXPECT_TRUE(failsAt(parseComposedLayout("Sw<3,4,3> o " + basis), why, 13));
  EXPECT_TRUE(
      failsAt(parseComposedLayout("Sw<0,4,3> o 2 o " + basis), why, 17));
  EXPECT_EQ(ComposedLayout::make(Swizzle{3, 4, 3}, 0, l).error().message, why);
  EXPECT_EQ(ComposedLayout::make(Swizzle{}, 0, l)->layout, l);
  EXPECT_EQ(parseComposedLayout("Sw<0,4,3> o " + basis)->layout, l);
}

TEST(TextComposed, Diagnostics) {
  // Swizzle validation is reported at the swizzle (whole "Sw<...>").
  Expected<ComposedLayout> bad = parseComposedLayout("Sw<3,4,2> o 8:1");
  EXPECT_TRUE(failsAt(bad, "|S| must be >= B", 1));
  EXPECT_EQ(bad.error().range->end.column, 10u);
  // A negative S with |S| >= B is CuTe's other direction; -70 is refused
  // before the sum B + M + |S| is formed.
  EXPECT_TRUE(parseComposedLayout("Sw<2,4,-3> o 8:1"));
  EXPECT_TRUE(
      failsAt(parseComposedLayout("Sw<3,4,-2> o 8:1"), "|S| must be >= B", 1));
  EXPECT_TRUE(failsAt(parseComposedLayout("Sw<1,10,-70> o 8:1"),
                      "B + M + |S| must be at most 62", 1));
  EXPECT_TRUE(failsAt(parseComposedLayout("  Sw<-1,4,3> o 8:1"),
                      "B and M must be non-negative", 3));
  EXPECT_TRUE(failsAt(parseComposedLayout("Sw<1,60,3> o 8:1"),
                      "B + M + |S| must be at most 62", 1));
  EXPECT_TRUE(
      failsAt(parseComposedLayout(
                  "Sw<1,9223372036854775807,9223372036854775807> o 8:1"),
              "B + M + |S| must be at most 62", 1));
  EXPECT_TRUE(failsAt(parseComposedLayout("Sw<3,4> o 8:1"),
                      "expected ',' after swizzle M but found '>'", 7));
  EXPECT_TRUE(failsAt(parseComposedLayout("Sw(3,4,3) o 8:1"),
                      "expected '<' after 'Sw' but found '('", 3));
  EXPECT_TRUE(failsAt(parseComposedLayout("Sw<3,4,3> (8,64):(64,1)"),
                      "expected 'o'", 11));
  EXPECT_TRUE(failsAt(
      parseComposedLayout("Sw<3,4,3> o 32 o"),
      "expected an integer or '(' in shape but found end of input", 17));
  EXPECT_TRUE(failsAt(parseComposedLayout("Sw<3,4,3> o (8,64):(64)"),
                      "not congruent", 20));
}

//===----------------------------------------------------------------------===//
// Tiler
//===----------------------------------------------------------------------===//

TEST(TextTiler, Examples) {
  Tiler t = *parseTiler("(4:1,_,8)");
  ASSERT_EQ(t.kind, Tiler::Kind::Tuple);
  ASSERT_EQ(t.modes.size(), 3u);
  EXPECT_EQ(t.modes[0].kind, Tiler::Kind::Layout);
  EXPECT_EQ(t.modes[0].layout, Layout::make(4, 1).value());
  EXPECT_EQ(t.modes[1].kind, Tiler::Kind::Keep);
  EXPECT_EQ(t.modes[2].kind, Tiler::Kind::Layout);
  EXPECT_EQ(t.modes[2].layout, Layout::make(8, 1).value());
  // A bare integer prints back as written: it composes as n:1 even for
  // n = 1, unlike the layout 1:0 (Tiler::integer).
  EXPECT_TRUE(t.modes[2].integer);
  EXPECT_FALSE(t.modes[0].integer);
  EXPECT_EQ(t.str(), "(4:1,_,8)");

  EXPECT_EQ(parseTiler("_")->kind, Tiler::Kind::Keep);
  // An integer n is Tiler::ofSize(n): n:1, and 1:0 for n = 1.
  EXPECT_EQ(parseTiler("8")->layout, Layout::make(8, 1).value());
  EXPECT_EQ(parseTiler("_8")->layout, Layout::make(8, 1).value());
  EXPECT_EQ(parseTiler("1")->layout, Layout::make(1, 0).value());
  EXPECT_EQ(*parseTiler("8"), *Tiler::ofSize(8));
  EXPECT_EQ(*parseTiler("1"), *Tiler::ofSize(1));

  // A parenthesized tuple followed by ':' is a layout.
  Tiler l = *parseTiler("((2,4),8):((1,16),2)");
  ASSERT_EQ(l.kind, Tiler::Kind::Layout);
  EXPECT_EQ(l.layout.str(), "((2,4),8):((1,16),2)");
  // Without ':' it is a by-mode tuple.
  Tiler m = *parseTiler("((2,4),8)");
  ASSERT_EQ(m.kind, Tiler::Kind::Tuple);
  ASSERT_EQ(m.modes[0].kind, Tiler::Kind::Tuple);
  EXPECT_EQ(m.str(), "((2,4),8)");

  Tiler n = *parseTiler("(8:1, _, (2:1, (4,2):(1,4)))");
  EXPECT_EQ(n.str(), "(8:1,_,(2:1,(4,2):(1,4)))");
}

TEST(TextTiler, Diagnostics) {
  EXPECT_TRUE(failsAt(parseTiler("()"),
                      "expected a tiler ('_', an integer, a layout or a '(' "
                      "tuple) but found ')'",
                      2));
  EXPECT_TRUE(
      failsAt(parseTiler("(4:1,_"),
              "expected ',' or ')' in tiler tuple but found end of input", 7));
  EXPECT_TRUE(failsAt(parseTiler("0"), "tiler size 0 must be positive", 1));
  EXPECT_TRUE(
      failsAt(parseTiler("(8,-2)"), "tiler size -2 must be positive", 4));
  EXPECT_TRUE(
      failsAt(parseTiler("3@1"), "tiler size 3@1 cannot have a basis", 1));
  EXPECT_TRUE(failsAt(parseTiler("(2,4):(1)"), "not congruent", 7));
  EXPECT_TRUE(failsAt(parseTiler("(x)"), "expected a tiler", 2));
  EXPECT_TRUE(failsAt(parseTiler("_ _"), "unexpected trailing text '_'", 3));
  std::string deep(10000, '(');
  EXPECT_TRUE(failsAt(parseTiler(deep), "nesting deeper than 64 levels", 65));
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

TEST(TextRoundTrip, IntTuples) {
  Generator g(0x5eed0001);
  for (int i = 0; i < 3000; ++i) {
    IntTuple t = g.intTuple();
    Expected<IntTuple> r = parseIntTuple(t.str());
    ASSERT_TRUE(r) << t.str() << ": " << r.error().message;
    ASSERT_EQ(*r, t) << t.str();
  }
}

TEST(TextRoundTrip, Layouts) {
  Generator g(0x5eed0002);
  for (int i = 0; i < 3000; ++i) {
    Layout l = g.layout();
    Expected<Layout> r = parseLayout(l.str());
    ASSERT_TRUE(r) << l.str() << ": " << r.error().message;
    ASSERT_EQ(*r, l) << l.str();
  }
}

TEST(TextRoundTrip, ComposedLayouts) {
  Generator g(0x5eed0003);
  for (int i = 0; i < 2000; ++i) {
    int b = int(g.uniform(0, 5));
    Swizzle sw = *Swizzle::make(b, g.uniform(0, 8), g.uniform(b, 10));
    ComposedLayout c{sw, g.chance(50) ? 0 : g.integer(true), g.layout()};
    if (!ComposedLayout::make(c.swizzle, c.offset, c.layout))
      c.layout = Layout(); // a swizzle over basis strides has no text
    Expected<ComposedLayout> r = parseComposedLayout(c.str());
    ASSERT_TRUE(r) << c.str() << ": " << r.error().message;
    ASSERT_EQ(*r, c) << c.str();
  }
}

TEST(TextRoundTrip, Tilers) {
  Generator g(0x5eed0004);
  for (int i = 0; i < 2000; ++i) {
    Tiler t = g.tiler();
    Expected<Tiler> r = parseTiler(t.str());
    ASSERT_TRUE(r) << t.str() << ": " << r.error().message;
    ASSERT_EQ(*r, t) << t.str() << " vs " << r->str();
  }
}

} // namespace
