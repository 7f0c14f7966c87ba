//===- AttributeTest.cpp - The layout attribute grammar -------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Attribute.h"

#include "support/GrammarTestSupport.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::cute;
using lk::cute::testing::B;
using lk::cute::testing::failsAt;
using lk::cute::testing::Generator;
using lk::cute::testing::T;

namespace {

TEST(LayoutAttribute, SpecExamples) {
  LayoutAttribute a =
      *parseLayoutAttribute("<(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>");
  EXPECT_EQ(a.layout, Layout::make(T({128, 64}), T({64, 1})).value());
  EXPECT_EQ(a.swizzle, (Swizzle{3, 4, 3}));
  EXPECT_EQ(a.elem, (ElementType{"nvfp4", 4}));

  LayoutAttribute b =
      *parseLayoutAttribute("<((4,32),64),((1,512),16),elem=mxf4>");
  EXPECT_EQ(b.layout,
            Layout::make(T({T({4, 32}), 64}), T({T({1, 512}), 16})).value());
  EXPECT_FALSE(b.swizzle);
  EXPECT_EQ(b.elem->name, "mxf4");

  LayoutAttribute c = *parseLayoutAttribute("<(1,1),(0,0)>");
  EXPECT_EQ(c.layout, Layout::make(T({1, 1}), T({0, 0})).value());
  EXPECT_FALSE(c.swizzle);
  EXPECT_FALSE(c.elem);

  LayoutAttribute d = *parseLayoutAttribute("<(16,16),(1,16),swizzle<2,5,2>>");
  EXPECT_EQ(d.swizzle, (Swizzle{2, 5, 2}));
  EXPECT_FALSE(d.elem);

  LayoutAttribute e = *parseLayoutAttribute("<(16,(8,2)),(1,(16,8))>");
  EXPECT_EQ(e.layout,
            Layout::make(T({16, T({8, 2})}), T({1, T({16, 8})})).value());

  LayoutAttribute f = *parseLayoutAttribute("<(16,16),(1,16)>");
  EXPECT_EQ(f.str(), "<(16,16),(1,16)>");

  for (const char *text :
       {"<(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>",
        "<((4,32),64),((1,512),16),elem=mxf4>", "<(1,1),(0,0)>",
        "<(16,16),(1,16),swizzle<2,5,2>>", "<(16,(8,2)),(1,(16,8))>"})
    EXPECT_EQ(parseLayoutAttribute(text)->str(), text);
}

TEST(LayoutAttribute, EveryHardwareSwizzle) {
  ASSERT_EQ(hardwareSwizzles().size(), 5u);
  for (const Swizzle &s : hardwareSwizzles()) {
    std::string text = "<8,1,swizzle<" + std::to_string(s.B) + "," +
                       std::to_string(s.M) + "," + std::to_string(s.S) + ">>";
    Expected<LayoutAttribute> a = parseLayoutAttribute(text);
    ASSERT_TRUE(a) << text;
    EXPECT_EQ(a->swizzle, s);
    EXPECT_EQ(a->str(), text);
    EXPECT_TRUE(isHardwareSwizzle(s));
  }
  EXPECT_FALSE(isHardwareSwizzle(Swizzle{0, 0, 0}));
  EXPECT_FALSE(isHardwareSwizzle(Swizzle{3, 4, 4}));
}

TEST(LayoutAttribute, BlanksAndIntegerShapes) {
  LayoutAttribute a =
      *parseLayoutAttribute(" < ( 128 , 64 ) ,\t( 64 , 1 ) , swizzle < 3 , 4 , "
                            "3 > , elem = nvfp4 > \n");
  EXPECT_EQ(a.str(), "<(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>");
  LayoutAttribute b = *parseLayoutAttribute("<8,1>");
  EXPECT_EQ(b.layout, Layout::make(8, 1).value());
  EXPECT_EQ(b.str(), "<8,1>");
  LayoutAttribute c = *parseLayoutAttribute("<(8),(1)>");
  EXPECT_EQ(c.layout.shape(), T({8}));
  EXPECT_EQ(c.str(), "<(8),(1)>");
}

TEST(LayoutAttribute, SyntaxDiagnostics) {
  EXPECT_TRUE(failsAt(
      parseLayoutAttribute(""),
      "expected '<' to start a layout attribute but found end of input", 1));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("(8,1)"),
                      "expected '<' to start a layout attribute but found '('",
                      1));
  EXPECT_TRUE(failsAt(
      parseLayoutAttribute("<(2,4),(1,2)"),
      "expected ',' or '>' after the stride but found end of input", 13));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4)>"),
                      "expected ',' between shape and stride but found '>'",
                      7));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4):(1,2)>"),
                      "expected ',' between shape and stride but found ':'",
                      7));
  EXPECT_TRUE(failsAt(
      parseLayoutAttribute("<(2,4),(1,-2)>"),
      "expected a non-negative integer or '(' in stride but found '-'", 11));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1,2@1)>"),
                      "expected ',' or ')' in stride but found '@'", 12));
  EXPECT_TRUE(failsAt(
      parseLayoutAttribute("<(),()>"),
      "expected a non-negative integer or '(' in shape but found ')'", 3));
  EXPECT_TRUE(failsAt(
      parseLayoutAttribute("<(2,4),(1,2),swizle<3,4,3>>"),
      "expected 'swizzle<B,M,S>' or 'elem=<name>' but found 'swizle'", 14));
  // A clause with a non-ASCII letter ("\xC3\xAF", "i" with a diaeresis) is
  // named whole.
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(2,4),(1,2),sw\xC3\xAFzzle<3,4,3>>"),
              "expected 'swizzle<B,M,S>' or 'elem=<name>' but found "
              "'sw\xC3\xAFzzle'",
              14));
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(2,4),(1,2),>"),
              "expected 'swizzle<B,M,S>' or 'elem=<name>' but found '>'", 14));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1,2),swizzle<3,4>>"),
                      "expected ',' after swizzle M but found '>'", 25));
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(2,4),(1,2),swizzle<3,4,-3>>"),
              "expected swizzle S (a non-negative integer) but found '-'", 26));
  EXPECT_TRUE(failsAt(
      parseLayoutAttribute("<(2,4),(1,2),swizzle<3,4,3>,swizzle<3,4,3>>"),
      "expected 'elem=<name>' but found a second 'swizzle' clause", 29));
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(2,4),(1,2),elem=f16,swizzle<3,4,3>>"),
              "expected '>' to close the layout attribute but found ','", 22));
  Expected<LayoutAttribute> order =
      parseLayoutAttribute("<(2,4),(1,2),elem=f16,swizzle<3,4,3>>");
  ASSERT_FALSE(order);
  ASSERT_EQ(order.error().notes.size(), 1u);
  EXPECT_EQ(order.error().notes[0],
            "elem is the last clause: the swizzle comes before it");
  // Other text after elem is only an error: the note is about a swizzle.
  Expected<LayoutAttribute> junk =
      parseLayoutAttribute("<(2,4),(1,2),elem=f16 x>");
  ASSERT_FALSE(junk);
  EXPECT_EQ(junk.error().message,
            "expected '>' to close the layout attribute but found 'x'");
  EXPECT_TRUE(junk.error().notes.empty());
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(2,4),(1,2),elem=f16,elem=f16>"),
              "expected '>' to close the layout attribute but found ','", 22));
  EXPECT_TRUE(parseLayoutAttribute("<(2,4),(1,2),elem=f16,elem=f16>")
                  .error()
                  .notes.empty());
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1,2),elem f16>"),
                      "expected '=' after 'elem' but found 'f'", 19));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1,2),elem=>"),
                      "expected element type (a name) but found '>'", 19));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1,2),elem=8bit>"),
                      "expected element type (a name) but found '8'", 19));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1,2)> x"),
                      "unexpected trailing text 'x'", 15));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1,99999999999999999999)>"),
                      "does not fit in 64 bits", 11));
  std::string deep = "<" + std::string(10000, '(');
  EXPECT_TRUE(failsAt(parseLayoutAttribute(deep),
                      "shape nests deeper than 64 levels", 66));
}

TEST(LayoutAttribute, SemanticDiagnostics) {
  // Congruence: at the stride.
  Expected<LayoutAttribute> c = parseLayoutAttribute("<(2,4),(1),elem=f16>");
  EXPECT_TRUE(failsAt(c, "shape (2,4) and stride (1) are not congruent", 8));
  EXPECT_EQ(c.error().range->end.column, 11u);
  // Positive shape: at the leaf.
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,(0,4)),(1,(2,2))>"),
                      "shape leaf 0 must be positive", 6));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(4294967296,4294967296),(1,1)>"),
                      "does not fit in 64 bits", 2));
  // Swizzle: at the clause, with the supported set in a note.
  Expected<LayoutAttribute> s =
      parseLayoutAttribute("<(16,16),(1,16),swizzle<1,2,3>>");
  EXPECT_TRUE(failsAt(s, "swizzle<1,2,3> is not a hardware swizzle", 17));
  EXPECT_EQ(s.error().range->end.column, 31u);
  ASSERT_EQ(s.error().notes.size(), 1u);
  EXPECT_EQ(s.error().notes[0],
            "supported swizzles: swizzle<0,4,3>, swizzle<1,4,3>, "
            "swizzle<2,4,3>, swizzle<3,4,3>, swizzle<2,5,2>");
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<8,1,swizzle<0,0,0>>"),
                      "swizzle<0,0,0> is not a hardware swizzle", 6));
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<8,1,swizzle<9223372036854775807,4,3>>"),
              "is not a hardware swizzle", 6));
}

TEST(LayoutAttribute, UnknownElementIsReportedFirst) {
  // Unknown name alone.
  Expected<LayoutAttribute> a =
      parseLayoutAttribute("<(128,64),(64,1),elem=fp4>");
  EXPECT_TRUE(failsAt(a, "unknown element type 'fp4'", 23));
  ASSERT_EQ(a.error().notes.size(), 1u);
  EXPECT_NE(a.error().notes[0].find("registered element types: f64, f32"),
            std::string::npos);
  // Even with non-congruent shape/stride.
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1),elem=fp4>"),
                      "unknown element type 'fp4'", 17));
  // Even with an illegal swizzle.
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(2,4),(1,2),swizzle<1,2,3>,elem=fp4>"),
              "unknown element type 'fp4'", 34));
  // Even with a zero shape leaf and everything else wrong.
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(0,4),(1),swizzle<7,7,7>,elem=NVFP4>"),
              "unknown element type 'NVFP4'", 32));
  // But a syntax error comes before it.
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<(2,4),(1),elem=fp4"),
                      "expected '>' to close the layout attribute", 20));
}

TEST(LayoutAttribute, CustomRegistry) {
  ElementTypeRegistry r;
  ASSERT_TRUE(r.add("e3m4", 8));
  Expected<LayoutAttribute> a = parseLayoutAttribute("<8,1,elem=e3m4>", r);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->elem, (ElementType{"e3m4", 8}));
  EXPECT_TRUE(failsAt(parseLayoutAttribute("<8,1,elem=e3m4>"),
                      "unknown element type 'e3m4'", 11));
  ElementTypeRegistry none = ElementTypeRegistry::empty();
  Expected<LayoutAttribute> n = parseLayoutAttribute("<8,1,elem=f16>", none);
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().notes[0], "registered element types: (none)");
}

TEST(LayoutAttribute, Make) {
  Layout l = Layout::make(T({128, 64}), T({64, 1})).value();
  Expected<LayoutAttribute> ok =
      LayoutAttribute::make(l, Swizzle{3, 4, 3}, ElementType{"nvfp4", 4});
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->str(), "<(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>");
  EXPECT_EQ(printLayoutAttribute(*ok), ok->str());
  EXPECT_FALSE(LayoutAttribute::make(l, Swizzle{3, 4, 4}));
  EXPECT_FALSE(LayoutAttribute::make(l, std::nullopt, ElementType{"fp4", 4}));
  EXPECT_FALSE(LayoutAttribute::make(l, std::nullopt, ElementType{"nvfp4", 8}));
  EXPECT_FALSE(
      LayoutAttribute::make(Layout::make(T({2, 4}), T({1, -2})).value()));
  BasisPath p = BasisPath::unit(0);
  EXPECT_FALSE(LayoutAttribute::make(
      Layout::make(T({2, 4}), T({1, IntTuple::leaf(2, p)})).value()));
  EXPECT_FALSE(LayoutAttribute::make(
      Layout::make(T({2, IntTuple()}), T({1, IntTuple()})).value()));
  EXPECT_FALSE(LayoutAttribute::make(Layout::unchecked(T({2, 4}), T({1}))));
}

// The swizzle acts on byte addresses: over element offsets it moves by
// log2(bytes per element), and the attribute's layout moves element e as
// the hardware swizzle moves its byte e * bits / 8.
TEST(LayoutAttribute, SwizzleActsOnBytes) {
  const Swizzle sw128{3, 4, 3};
  EXPECT_EQ(*elementSwizzle(sw128, 8), sw128);
  EXPECT_EQ(*elementSwizzle(sw128, 16), (Swizzle{3, 3, 3}));
  EXPECT_EQ(*elementSwizzle(sw128, 32), (Swizzle{3, 2, 3}));
  EXPECT_EQ(*elementSwizzle(sw128, 64), (Swizzle{3, 1, 3}));
  EXPECT_EQ(*elementSwizzle(sw128, 4), (Swizzle{3, 5, 3}));
  EXPECT_EQ(*elementSwizzle(Swizzle{}, 6), Swizzle{}); // the identity
  EXPECT_EQ(elementSwizzle(sw128, 6).error().message,
            "swizzle<3,4,3> acts on byte addresses, and an element of 6 bits "
            "is no power-of-two part or multiple of a byte");
  EXPECT_EQ(elementSwizzle(sw128, 256).error().message,
            "swizzle<3,4,3> moves 16-byte units, narrower than an element of "
            "256 bits");
  // By definition, on every element of a 128-byte swizzled f16 tile and a
  // 4-bit one: the byte of element e's image is the swizzled byte of e.
  for (auto [elem, bits] : {std::pair<const char *, int64_t>{"f16", 16},
                            {"f32", 32},
                            {"nvfp4", 4}}) {
    const std::string text =
        std::string("<(8,64),(64,1),swizzle<3,4,3>,elem=") + elem + ">";
    ComposedLayout c = *parseLayoutAttribute(text)->elementLayout();
    for (int64_t i = 0; i < 512; ++i) {
      const int64_t e = evaluate(c.layout, i);
      EXPECT_EQ(c.swizzle(e) * bits / 8, sw128(e * bits / 8))
          << text << " at " << i;
      if (bits < 8) { // two elements a byte: the swizzle keeps the nibble
        EXPECT_EQ(c.swizzle(e) % 2, e % 2) << text << " at " << i;
      }
    }
  }
  // Without elem the context's width converts it; without either, the
  // offsets are taken as bytes.
  LayoutAttribute plain =
      *parseLayoutAttribute("<(8,64),(64,1),swizzle<3,4,3>>");
  EXPECT_EQ(plain.elementLayout()->swizzle, sw128);
  EXPECT_EQ(plain.elementLayout(16)->swizzle, (Swizzle{3, 3, 3}));
  EXPECT_EQ(plain.elementLayout(6).error().message,
            "swizzle<3,4,3> acts on byte addresses, and an element of 6 bits "
            "is no power-of-two part or multiple of a byte");
  // elem wins over the context (a tensor of bytes holding f16 pairs).
  EXPECT_EQ(parseLayoutAttribute("<(8,64),(64,1),swizzle<3,4,3>,elem=f16>")
                ->elementLayout(8)
                ->swizzle,
            (Swizzle{3, 3, 3}));
  // A type the swizzle cannot move is refused, at the elem clause.
  EXPECT_TRUE(
      failsAt(parseLayoutAttribute("<(8,64),(64,1),swizzle<3,4,3>,elem=mxf6>"),
              "swizzle<3,4,3> acts on byte addresses, and an element of 6 "
              "bits is no power-of-two part or multiple of a byte",
              36));
  EXPECT_TRUE(parseLayoutAttribute("<(8,64),(64,1),elem=mxf6>"));
  EXPECT_FALSE(
      LayoutAttribute::make(Layout::make(T({8, 64}), T({64, 1})).value(), sw128,
                            ElementType{"mxf6", 6}));
}

TEST(LayoutAttribute, RoundTripProperty) {
  Generator g(0xa77e0001);
  std::vector<ElementType> types = ElementTypeRegistry::global().all();
  for (int i = 0; i < 4000; ++i) {
    LayoutAttribute a = g.attribute(types);
    ASSERT_TRUE(LayoutAttribute::make(a.layout, a.swizzle, a.elem)) << a.str();
    Expected<LayoutAttribute> back = parseLayoutAttribute(a.str());
    ASSERT_TRUE(back) << a.str() << ": " << back.error().message;
    ASSERT_EQ(*back, a) << a.str();
    ASSERT_EQ(back->str(), a.str());
  }
}

} // namespace
