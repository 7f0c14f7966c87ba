//===- LayoutTest.cpp - parseLayout: detection and diagnostics ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Describe.h"

#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace lk::api {
namespace {

bool hasNoteStarting(const Diagnostic &d, const std::string &prefix) {
  return std::any_of(d.notes.begin(), d.notes.end(), [&](const std::string &n) {
    return n.rfind(prefix, 0) == 0;
  });
}

IntTuple tuple(std::string_view text) { return *cute::parseIntTuple(text); }

/// The blocked encoding sizePerThread [1,4], threadsPerWarp [8,4], one warp,
/// order [1,0] (the `linear standard` example of docs/cli.md).
linear::Encoding blocked14() {
  linear::Encoding e;
  e.kind = linear::EncodingKind::Blocked;
  e.sizePerThread = {1, 4};
  e.threadsPerWarp = {8, 4};
  e.warpsPerCTA = {1, 1};
  e.order = {1, 0};
  e.cta = linear::CTALayout::single(2);
  return e;
}

TEST(ApiParseLayout, CandidatesFollowTheFirstCharacters) {
  using V = std::vector<Syntax>;
  EXPECT_EQ(candidateSyntaxes(R"( {"kind":"blocked"})"),
            V{Syntax::StandardParams});
  EXPECT_EQ(candidateSyntaxes("{register: []} -> {dim0: 1}"),
            V{Syntax::LinearText});
  EXPECT_EQ(candidateSyntaxes("S [(4):(1)]"), V{Syntax::TileText});
  EXPECT_EQ(candidateSyntaxes("R[2:1@laneid]"), V{Syntax::TileText});
  EXPECT_EQ(candidateSyntaxes("Swizzle(M=3,B=3,S=3) o S[8:1]"),
            V{Syntax::TileText});
  EXPECT_EQ(candidateSyntaxes("<(2,4),(1,2)>"), V{Syntax::Attribute});
  EXPECT_EQ(candidateSyntaxes("(1@0,1@1)"),
            (V{Syntax::CuteText, Syntax::BasisDescriptor}));
  // "Sw<" is cute's swizzle, not a tile layout; a number is cute.
  EXPECT_EQ(candidateSyntaxes("Sw<3,3,3> o (8,64):(64,1)"),
            V{Syntax::CuteText});
  EXPECT_EQ(candidateSyntaxes("32:1"), V{Syntax::CuteText});
  EXPECT_EQ(candidateSyntaxes(""), V{Syntax::CuteText});
  // Triton's TTGIR: an attribute or alias line, a tensor or memdesc type.
  EXPECT_EQ(candidateSyntaxes(" #ttg.blocked<{}>"), V{Syntax::TtgirText});
  EXPECT_EQ(candidateSyntaxes("#mma = #ttg.nvidia_mma<{}>"),
            V{Syntax::TtgirText});
  EXPECT_EQ(candidateSyntaxes("tensor<8xf16, #b>"), V{Syntax::TtgirText});
  EXPECT_EQ(candidateSyntaxes("!ttg.memdesc<8xf16, #s>"), V{Syntax::TtgirText});
}

/// blocked14() as TTGIR.
const char *kBlocked14 =
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
    "warpsPerCTA = [1, 1], order = [1, 0]}>";

TEST(ApiParseLayout, TtgirTextIsALinearLayoutOverItsShape) {
  int64_t shape[] = {8, 16};
  std::string expect = linear::toLinearLayout(blocked14(), shape)->str();
  // The tensor type gives the shape.
  Expected<AnyLayout> t =
      parseLayout(std::string("tensor<8x16xf16, ") + kBlocked14 + ">");
  ASSERT_TRUE(t.hasValue()) << t.error().render();
  EXPECT_EQ(t->syntax, Syntax::TtgirText);
  EXPECT_EQ(t->model(), Model::Linear);
  EXPECT_EQ(t->str(), expect);
  // Else ParseOptions::shape, named by shapeName when missing.
  ParseOptions o;
  o.shapeName = "--shape";
  Expected<AnyLayout> none = parseLayout(kBlocked14, o);
  ASSERT_FALSE(none.hasValue());
  EXPECT_NE(none.error().message.find("or give --shape"), std::string::npos)
      << none.error().message;
  EXPECT_TRUE(
      hasNoteStarting(none.error(), "read as Triton's TTGIR layout text"));
  o.shape = tuple("(8,16)");
  Expected<AnyLayout> given = parseLayout(kBlocked14, o);
  ASSERT_TRUE(given.hasValue()) << given.error().render();
  EXPECT_EQ(given->str(), expect);
  // Both: they must agree.
  Expected<AnyLayout> both =
      parseLayout(std::string("tensor<8x32xf16, ") + kBlocked14 + ">", o);
  ASSERT_FALSE(both.hasValue());
  EXPECT_EQ(both.error().message,
            "the tensor type's shape (8,32) and --shape (8,16) disagree");
  // A #ttg.linear attribute alone is its own layout.
  Expected<AnyLayout> lin = parseLayout(
      "#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>");
  ASSERT_TRUE(lin.hasValue()) << lin.error().render();
  EXPECT_EQ(lin->str(),
            "{register: [(1)], lane: [(2)], warp: [], block: []} -> {dim0: 4}");
}

/// `n` alias lines, each naming the one before ("#a1 = #a0"), the first
/// kBlocked14, then a tensor type over the last.
std::string aliasChain(int n) {
  std::string s = std::string("#a0 = ") + kBlocked14 + "\n";
  for (int i = 1; i < n; ++i)
    s += "#a" + std::to_string(i) + " = #a" + std::to_string(i - 1) + "\n";
  return s + "tensor<8x16xf16, #a" + std::to_string(n - 1) + ">";
}

TEST(ApiParseLayout, TextLengthIsBoundedAtOneMiB) {
  int64_t shape[] = {8, 16};
  std::string expect = linear::toLinearLayout(blocked14(), shape)->str();
  // 50000 aliases (~0.9 MB) read: each alias is its predecessor's layout.
  std::string chain = aliasChain(50000);
  ASSERT_LT(chain.size(), kMaxLayoutTextBytes);
  // Blanks fill the text to exactly the bound: still read.
  chain.append(kMaxLayoutTextBytes - chain.size(), ' ');
  Expected<AnyLayout> ok = parseLayout(chain);
  ASSERT_TRUE(ok.hasValue()) << ok.error().render();
  EXPECT_EQ(ok->str(), expect);
  // One byte more is refused before reading, whatever the grammar.
  chain += ' ';
  Expected<AnyLayout> over = parseLayout(chain);
  ASSERT_FALSE(over.hasValue());
  EXPECT_EQ(over.error().message,
            "layout text of 1048577 bytes; at most 1048576 (1 MiB) are read");
  ParseOptions forced;
  forced.syntax = Syntax::CuteText;
  ASSERT_FALSE(parseLayout(chain, forced).hasValue());
  // A 200000-alias chain (~3.8 MB) is refused the same way.
  std::string big = aliasChain(200000);
  Expected<AnyLayout> refused = parseLayout(big);
  ASSERT_FALSE(refused.hasValue());
  EXPECT_EQ(refused.error().message,
            "layout text of " + std::to_string(big.size()) +
                " bytes; at most 1048576 (1 MiB) are read");
}

TEST(ApiParseLayout, TensorShapePointsAtTheDimThatIsNoPowerOfTwo) {
  Expected<IntTuple> ok = parseTensorShape("(64,(2,8))");
  ASSERT_TRUE(ok.hasValue()) << ok.error().render();
  EXPECT_EQ(ok->str(), "(64,(2,8))");
  // (text, the bad dim's column and length): the 48 of (64,(2,48)) starts
  // at offset 7.
  struct Case {
    const char *text;
    size_t column, length;
    const char *got;
  };
  for (Case c : {Case{"(0)", 2, 1, "0"}, Case{"(-128)", 2, 4, "-128"},
                 Case{"(64,96)", 5, 2, "96"}, Case{"(64,(2,48))", 8, 2, "48"},
                 Case{"96", 1, 2, "96"}}) {
    Expected<IntTuple> bad = parseTensorShape(c.text);
    ASSERT_FALSE(bad.hasValue()) << c.text;
    EXPECT_EQ(bad.error().message,
              std::string("every tensor dim must be a power of two (got ") +
                  c.got + ")");
    ASSERT_TRUE(bad.error().range.has_value()) << c.text;
    EXPECT_EQ(bad.error().range->begin.column, c.column) << c.text;
    EXPECT_EQ(bad.error().range->end.column - c.column, c.length) << c.text;
  }
  // 2^62 x 64 = 2^68 elements: the element count, with the shape.
  Expected<IntTuple> big = parseTensorShape("(4611686018427387904,64)");
  ASSERT_FALSE(big.hasValue());
  EXPECT_EQ(big.error().message,
            "the tensor's element count, the product of its shape "
            "(4611686018427387904,64), is 2^68; at most 2^62");
  EXPECT_EQ(big.error().parameter, "shape");
  // 2^31 x 2^31 = 2^62 is the largest count allowed.
  EXPECT_TRUE(parseTensorShape("(2147483648,2147483648)").hasValue());
}

TEST(ApiParseLayout, AMultiBufferedMemdescAsksForOneBuffer) {
  // Triton's pipeliner allocates 3 buffers of 128x32 under a rank-2 shared
  // layout: the layout is one buffer's (3 is not a power of two, and the
  // rank differs), so the reader names the buffers and the type to write.
  const std::string shared = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, "
                             "maxPhase = 8, order = [1, 0]}>";
  Expected<AnyLayout> three =
      parseLayout("!ttg.memdesc<3x128x32xf16, " + shared + ", #smem>");
  ASSERT_FALSE(three.hasValue());
  EXPECT_EQ(three.error().message.rfind(
                "a memdesc of 3 buffers of 128x32: the layout is one "
                "buffer's",
                0),
            0u)
      << three.error().message;
  // Two buffers of a 1-D layout (its order has one entry): named too.
  Expected<AnyLayout> two = parseLayout(
      "!ttg.memdesc<2x128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
      "maxPhase = 1, order = [0]}>, #smem, mutable>");
  ASSERT_FALSE(two.hasValue());
  EXPECT_EQ(two.error().message.rfind("a memdesc of 2 buffers of 128: ", 0), 0u)
      << two.error().message;
  // A 2-D type whose leading dim can be a tensor dim is one tile: its own
  // fault (too small for a 128-byte swizzle) is reported, not buffers.
  Expected<AnyLayout> small = parseLayout(
      "!ttg.memdesc<8x32xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
      "transposed = false, elementBitWidth = 16}>, #smem>");
  ASSERT_FALSE(small.hasValue());
  EXPECT_EQ(small.error().message.find("buffers"), std::string::npos)
      << small.error().message;
  EXPECT_NE(small.error().message.find("[8, 64]"), std::string::npos)
      << small.error().message;
  // One buffer reads; a tensor's dim of 3 is refused at the dim.
  EXPECT_TRUE(parseLayout("!ttg.memdesc<128x32xf16, " + shared + ", #smem>")
                  .hasValue());
  Expected<AnyLayout> tensor =
      parseLayout(std::string("tensor<3x16xf16, ") + kBlocked14 + ">");
  ASSERT_FALSE(tensor.hasValue());
  EXPECT_EQ(tensor.error().message,
            "every tensor dim must be a power of two (got 3)");
}

TEST(ApiParseLayout, ElementTypeOfATensorType) {
  auto nameOf = [](const std::string &text) -> std::string {
    Expected<std::optional<cute::ElementType>> e = elementTypeOf(text);
    if (!e)
      return "error: " + e.error().message;
    return *e ? (*e)->name + "/" + std::to_string((*e)->bits) : "none";
  };
  auto typed = [](const char *elem) {
    return std::string("tensor<8x16x") + elem + ", " + kBlocked14 + ">";
  };
  EXPECT_EQ(nameOf(typed("bf16")), "bf16/16");
  EXPECT_EQ(nameOf(typed("f8E4M3FN")), "f8e4m3/8");
  EXPECT_EQ(nameOf(typed("f8E5M2")), "f8e5m2/8");
  // Triton stores a boolean in a byte; a pointer is a 64-bit address.
  EXPECT_EQ(nameOf(typed("i1")), "i8/8");
  EXPECT_EQ(nameOf(typed("!tt.ptr<f16>")), "i64/64");
  // A pointer in an address space, to a pointer, and blanks inside.
  EXPECT_EQ(nameOf(typed("!tt.ptr<f16, 1>")), "i64/64");
  EXPECT_EQ(nameOf(typed("!tt.ptr<!tt.ptr<bf16>>")), "i64/64");
  EXPECT_EQ(nameOf(typed("!tt.ptr< f8E5M2 >")), "i64/64");
  // A pointer to what no element type names, an unclosed one, junk after
  // it and an address space not an int32's digits are no pointer types.
  // The message says what a pointer type is.
  for (const char *bad : {"!tt.ptr<junk>", "!tt.ptr<>", "!tt.ptr<f16>xyz",
                          "!tt.ptr<f16, x>", "!tt.ptr<f16,>", "!tt.ptr<f16,-1>",
                          "!tt.ptr<f16, 99999999999999999999>"})
    EXPECT_EQ(
        nameOf(typed(bad))
            .rfind("error: expected a pointer type !tt.ptr<T> or !tt.ptr<T, "
                   "N>, T an element type LayoutKit reads or a pointer, N a "
                   "decimal address space of at most 9 digits; got '" +
                       std::string(bad) + "'",
                   0),
        0u)
        << bad << ": " << nameOf(typed(bad));
  // A bare attribute, cute text and unparsable text name none.
  EXPECT_EQ(nameOf(kBlocked14), "none");
  EXPECT_EQ(nameOf("(4,8):(8,1)"), "none");
  EXPECT_EQ(nameOf("tensor<8x"), "none");
  EXPECT_EQ(nameOf(typed("f7")).rfind("error: unknown element type 'f7'", 0),
            0u);
  EXPECT_EQ(nameOf(typed("f4E2M1FN")), "f4e2m1/4");
  EXPECT_EQ(nameOf(typed("f8E8M0FNU")), "ue8m0/8");
  // parseLayout refuses the same names, an empty one too, at the name.
  Expected<AnyLayout> bogus = parseLayout(typed("bogus"));
  ASSERT_FALSE(bogus);
  EXPECT_EQ(bogus.error().message.rfind("unknown element type 'bogus'", 0), 0u);
  EXPECT_EQ(bogus.error().range->begin.column, 13u);
  // A long name is quoted in part (the caret marks it all).
  Expected<AnyLayout> longName =
      parseLayout(typed(std::string(5000, 'q').c_str()));
  EXPECT_EQ(longName.error().message.rfind(
                "unknown element type '" + std::string(40, 'q') + "...' (", 0),
            0u);
  Expected<AnyLayout> empty = parseLayout(typed(""));
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message,
            "expected the element type after the dims, e.g. 128x64xf16");
  // The 1 MiB bound of parseLayout holds here too, before any reading.
  std::string big = typed("f16") + std::string(kMaxLayoutTextBytes, ' ');
  EXPECT_EQ(nameOf(big).rfind("error: layout text of", 0), 0u) << nameOf(big);
}

// A dtype a front end takes: a registry name or its TTGIR spelling, the
// same types elementTypeOf reads from a tensor type.
TEST(ApiParseLayout, ElementTypeNamedTakesTtgirSpellings) {
  EXPECT_EQ(elementTypeNamed("f8e4m3")->bits, 8);
  EXPECT_EQ(elementTypeNamed("f8E4M3FN")->name, "f8e4m3");
  EXPECT_EQ(elementTypeNamed("f8E5M2FNUZ")->name, "f8e5m2");
  EXPECT_EQ(elementTypeNamed("i1")->name, "i8");
  EXPECT_EQ(elementTypeNamed("!tt.ptr<f32>")->name, "i64");
  EXPECT_FALSE(elementTypeNamed("!tt.ptr<junk>"));
  EXPECT_FALSE(elementTypeNamed("!tt.ptr<")); // unclosed
  // A nesting as deep as the 1 MiB text bound is read level by level (no
  // recursion, linear time).
  const size_t deep = kMaxLayoutTextBytes / 9;
  std::string nested;
  for (size_t i = 0; i < deep; ++i)
    nested += "!tt.ptr<";
  nested += "f16" + std::string(deep, '>');
  EXPECT_EQ(elementTypeNamed(nested)->name, "i64");
  nested.insert(nested.size() - 1, ", 3");
  EXPECT_EQ(elementTypeNamed(nested)->name, "i64");
  nested.insert(nested.size() - 5, ",");
  EXPECT_FALSE(elementTypeNamed(nested));
  Expected<cute::ElementType> bad = elementTypeNamed("f8E4M3");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "unknown element type 'f8E4M3'");
  EXPECT_EQ(elementTypeNamed(std::string(100000, 'x')).error().message,
            "unknown element type '" + std::string(40, 'x') + "...'");
  ASSERT_EQ(bad.error().notes.size(), 2u); // the registry's, the TTGIR ones
  EXPECT_NE(bad.error().notes[1].find("f8E4M3FN"), std::string::npos);
}

TEST(ApiParseLayout, EachGrammarReadsItsModel) {
  Expected<AnyLayout> c = parseLayout("(4,8):(8,1)");
  ASSERT_TRUE(c.hasValue()) << c.error().message;
  EXPECT_EQ(c->model(), Model::Cute);
  EXPECT_EQ(c->syntax, Syntax::CuteText);
  EXPECT_EQ(c->str(), "(4,8):(8,1)");

  Expected<AnyLayout> sw = parseLayout("Sw<3,3,3> o (8,64):(64,1)");
  ASSERT_TRUE(sw.hasValue()) << sw.error().message;
  EXPECT_EQ(sw->cute()->swizzle.B, 3);
  EXPECT_EQ(sw->str(), "Sw<3,3,3> o (8,64):(64,1)");

  Expected<AnyLayout> t = parseLayout("S[(8,4,2):(4@laneid,1@laneid,1)]");
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(t->model(), Model::Tile);
  EXPECT_EQ(t->tile()->tile(),
            *tile::parseTileLayout("S[(8,4,2):(4@laneid,1@laneid,1)]"));
  EXPECT_TRUE(t->tile()->swizzle().isIdentity());

  Expected<AnyLayout> ts =
      parseLayout("Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]");
  ASSERT_TRUE(ts.hasValue()) << ts.error().message;
  EXPECT_EQ(ts->str(), "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]");

  const char *linearText =
      "{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]} -> "
      "{dim0: 8, dim1: 8}";
  Expected<AnyLayout> l = parseLayout(linearText);
  ASSERT_TRUE(l.hasValue()) << l.error().message;
  EXPECT_EQ(l->model(), Model::Linear);
  EXPECT_EQ(*l->linear(), *linear::parseLinearLayout(linearText));
}

TEST(ApiParseLayout, AByteOrderMarkOpeningTheTextIsBlank) {
  // A pasted file may open with the UTF-8 BOM (EF BB BF): every grammar
  // reads the text after it as it reads the text alone.
  const std::string texts[] = {
      "(4,8):(8,1)", "S[(8,4,2):(4@laneid,1@laneid,1)]",
      "{register: [(1)], lane: [(2)]} -> {dim0: 4}",
      std::string("tensor<8x16xf16, ") + kBlocked14 + ">",
      std::string("#b = ") + kBlocked14 + "\ntensor<8x16xf16, #b>"};
  for (const std::string &text : texts) {
    Expected<AnyLayout> plain = parseLayout(text);
    ASSERT_TRUE(plain.hasValue()) << text << ": " << plain.error().render();
    Expected<AnyLayout> bom = parseLayout("\xEF\xBB\xBF" + text);
    ASSERT_TRUE(bom.hasValue()) << text << ": " << bom.error().render();
    EXPECT_EQ(bom->str(), plain->str());
  }
}

TEST(ApiParseLayout, AttributeKeepsSwizzleAndElementType) {
  Expected<AnyLayout> a = parseLayout("<(16,16),(1,16),swizzle<2,5,2>>");
  ASSERT_TRUE(a.hasValue()) << a.error().message;
  EXPECT_EQ(a->syntax, Syntax::Attribute);
  EXPECT_EQ(a->cute()->layout.str(), "(16,16):(1,16)");
  EXPECT_EQ(a->cute()->swizzle.B, 2);
  EXPECT_EQ(a->cute()->swizzle.M, 5);
  EXPECT_EQ(a->cute()->swizzle.S, 2);
  EXPECT_FALSE(a->elem.has_value());
  Expected<AnyLayout> e = parseLayout("<(128,64),(64,1),elem=nvfp4>");
  ASSERT_TRUE(e.hasValue()) << e.error().message;
  ASSERT_TRUE(e->elem.has_value());
  EXPECT_EQ(e->elem->bits, 4);
}

// Sw<0,M,S> is the identity for every M and S (no bit is XORed: B = 0), and
// the print forms omit identity swizzles; the parsed value keeps the default
// identity, so the print form reads back equal (found by fuzz_api with
// "Sw<0,3,3>o (8364):(31)"). The attribute whitelist's <0,4,3> is such a
// swizzle too.
TEST(ApiParseLayout, IdentitySwizzlesReadBackEqual) {
  for (std::string_view text :
       {"Sw<0,3,3>o (8364):(31)", "<(16,16),(1,16),swizzle<0,4,3>>",
        "Swizzle(M=3,B=0,S=3) o S[(8,64):(64,1)]"}) {
    Expected<AnyLayout> a = parseLayout(text);
    ASSERT_TRUE(a.hasValue()) << text << ": " << a.error().message;
    ParseOptions own;
    own.syntax =
        a->model() == Model::Tile ? Syntax::TileText : Syntax::CuteText;
    Expected<AnyLayout> back = parseLayout(a->str(), own);
    ASSERT_TRUE(back.hasValue()) << a->str();
    if (a->cute()) {
      EXPECT_EQ(a->str(),
                text.front() == '<' ? "(16,16):(1,16)" : "(8364):(31)");
      EXPECT_EQ(*a->cute(), *back->cute()) << text;
    } else {
      EXPECT_EQ(a->str(), "S[(8,64):(64,1)]");
      EXPECT_EQ(*a->tile(), *back->tile()) << text;
    }
  }
}

TEST(ApiParseLayout, BasisDescriptorTakesTheShape) {
  ParseOptions o;
  o.shape = tuple("(4,8)");
  Expected<AnyLayout> b = parseLayout("(1@0,1@1)", o);
  ASSERT_TRUE(b.hasValue()) << b.error().message;
  EXPECT_EQ(b->syntax, Syntax::BasisDescriptor);
  EXPECT_EQ(b->cute()->layout, *cute::parseLayout("(4,8):(1@0,1@1)"));
  // Without a shape both candidates fail; the descriptor says why.
  Expected<AnyLayout> none = parseLayout("(1@0,1@1)");
  ASSERT_FALSE(none.hasValue());
  EXPECT_TRUE(hasNoteStarting(none.error(), "read as a cute layout"))
      << none.error().message;
  EXPECT_TRUE(hasNoteStarting(none.error(), "also tried as a basis descriptor: "
                                            "a basis descriptor gives only "
                                            "strides; it needs a shape"));
}

TEST(ApiParseLayout, StandardParamsAreReadAsJsonOverTheShape) {
  ParseOptions o;
  o.shape = tuple("(8,16)");
  const std::string text =
      R"({"kind": "blocked", "sizePerThread": [1, 4],
          "threadsPerWarp": [8, 4], "warpsPerCTA": [1, 1], "order": [1, 0]})";
  Expected<AnyLayout> s = parseLayout(text, o);
  ASSERT_TRUE(s.hasValue()) << s.error().message;
  EXPECT_EQ(s->syntax, Syntax::StandardParams);
  const int64_t shape[] = {8, 16};
  EXPECT_EQ(*s->linear(), *linear::toLinearLayout(blocked14(), shape));
  // Hand derivation: 4 registers along dim1 (fastest, order [1,0]), then 4
  // lanes along dim1, then 8 lanes along dim0.
  EXPECT_EQ(s->linear()->str(),
            "{register: [(0,1), (0,2)], lane: [(0,4), (0,8), (1,0), (2,0), "
            "(4,0)], warp: [], block: []} -> {dim0: 8, dim1: 16}");

  ParseOptions noShape = o;
  noShape.shape.reset();
  noShape.shapeName = "--shape";
  Expected<AnyLayout> a = parseLayout(R"({"kind":"blocked"})", noShape);
  ASSERT_FALSE(a.hasValue());
  EXPECT_EQ(
      a.error().message.rfind("standard-layout parameters need --shape", 0), 0u)
      << a.error().message;
  EXPECT_TRUE(hasNoteStarting(a.error(), "read as standard-layout parameters"));

  // The JSON reader's diagnostic points into the text: column 10 is the
  // '"' of "blocked" (a missing field points at the kind).
  Expected<AnyLayout> r = parseLayout(R"({"kind": "blocked"})", o);
  ASSERT_FALSE(r.hasValue());
  EXPECT_EQ(r.error().message.rfind("missing field 'sizePerThread'", 0), 0u)
      << r.error().message;
  ASSERT_TRUE(r.error().range);
  EXPECT_EQ(r.error().range->begin.column, 10);
}

TEST(ApiParseLayout, FailureNamesEveryGrammarTried) {
  Expected<AnyLayout> l = parseLayout("{register: [(0,1)");
  ASSERT_FALSE(l.hasValue());
  // The linear grammar's own error, with its column.
  Diagnostic own = linear::parseLinearLayout("{register: [(0,1)").error();
  EXPECT_EQ(l.error().message, own.message);
  ASSERT_TRUE(l.error().range && own.range);
  EXPECT_EQ(l.error().range->begin.column, own.range->begin.column);
  ASSERT_FALSE(l.error().notes.empty());
  EXPECT_EQ(l.error().notes.back().rfind("read as a linear layout", 0), 0u);

  // '(' : cute first (its error is the diagnostic), then the descriptor.
  Expected<AnyLayout> c = parseLayout("(4,8):(8,1");
  ASSERT_FALSE(c.hasValue());
  Expected<cute::ComposedLayout> cuteError =
      cute::parseComposedLayout("(4,8):(8,1");
  EXPECT_EQ(c.error().message, cuteError.error().message);
  ASSERT_TRUE(c.error().range && cuteError.error().range);
  EXPECT_EQ(c.error().range->begin.column,
            cuteError.error().range->begin.column);
  EXPECT_TRUE(hasNoteStarting(c.error(), "read as a cute layout"));
  EXPECT_TRUE(hasNoteStarting(c.error(), "also tried as a basis descriptor: "));
}

TEST(ApiParseLayout, ForcedSyntaxSkipsDetection) {
  ParseOptions o;
  o.syntax = Syntax::CuteText;
  EXPECT_FALSE(parseLayout("S[(4):(1)]", o).hasValue());
  o.syntax = Syntax::TileText;
  Expected<AnyLayout> t = parseLayout("S[(4):(1)]", o);
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(t->model(), Model::Tile);
}

TEST(ApiParseLayout, ShapeLeaves) {
  EXPECT_EQ(*parseShapeLeaves("(8,(2,4))"), (std::vector<int64_t>{8, 2, 4}));
  EXPECT_EQ(*parseShapeLeaves("16"), (std::vector<int64_t>{16}));
  EXPECT_FALSE(parseShapeLeaves("(8,").hasValue());
}

} // namespace
} // namespace lk::api

namespace lk::api {
namespace {

// A value Triton refuses, found only when the layout is built for a shape,
// is pointed at the field the message names, in TTGIR text and in JSON.
TEST(ApiLayout, EncodingValueErrorsPointAtTheirField) {
  ParseOptions o;
  o.shape = IntTuple::tuple({IntTuple(32), IntTuple(32)});
  const std::string ttgir =
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 5], "
      "warpsPerCTA = [4, 1], order = [1, 0]}>";
  Expected<AnyLayout> a = parseLayout(ttgir, o);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message,
            "every entry of threadsPerWarp must be a power of two (got 5)");
  ASSERT_TRUE(a.error().range.has_value());
  EXPECT_EQ(a.error().range->begin.offset, ttgir.find("threadsPerWarp"));
  const std::string json =
      R"j({"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[8,4],)j"
      R"j("warpsPerCTA":[4,1],"order":[1,1]})j";
  Expected<AnyLayout> b = parseLayout(json, o);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message, "order is not a permutation of 0..rank-1");
  ASSERT_TRUE(b.error().range.has_value());
  // The place the JSON reader records for a member: its name (quoted).
  EXPECT_EQ(b.error().range->begin.offset, json.find("\"order\""));
  EXPECT_EQ(b.error().parameter, "order");
}

// Checks that name a parameter the text spells otherwise, or holds inside
// another field, still find it: swizzleSizeInBytes written as
// swizzlingByteWidth, an mma's m and n inside instrShape, the opIdx of a
// wgmma operand B.
TEST(ApiLayout, EncodingChecksFindTheFieldAsWritten) {
  ParseOptions o;
  o.shape = IntTuple::tuple({IntTuple(64), IntTuple(64)});
  struct Case {
    std::string text, field, message;
  };
  const std::string mma3 = "#mma = #ttg.nvidia_mma<{versionMajor = 3, "
                           "versionMinor = 0, warpsPerCTA = [4, 1], "
                           "instrShape = [16, 64, 16]}>\n";
  const Case cases[] = {
      {"#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, "
       "elementBitWidth = 16}>",
       "swizzlingByteWidth", "swizzleSizeInBytes must be"},
      {"#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
       "[4, 1], instrShape = [16, 24, 16]}>",
       "instrShape", "nvidia_mma: instrShape's m and n must be powers of two"},
      {"#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
       "[4, 1], instrShape = [16, 12]}>",
       "instrShape", "nvidia_mma: instrShape's m and n must be powers of two"},
      {mma3 + "#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>", "opIdx",
       "operand B of a wgmma"},
      // Each non-positive swizzle field is named and underlined alone.
      {"#ttg.swizzled_shared<{vec = 8, perPhase = 0, maxPhase = 8, order = "
       "[1, 0]}>",
       "perPhase", "swizzled_shared: perPhase must be positive (got 0)"},
      {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 0, order = "
       "[1, 0]}>",
       "maxPhase", "swizzled_shared: maxPhase must be positive (got 0)"}};
  // An absent kWidth is named as absent, the caret under the dot_op's kind
  // (no field to point at), for an nvidia and an AMD parent alike.
  const std::string mfma =
      "#mma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = "
      "[32, 32], isTransposed = true}>\n";
  const std::string noKWidth = "#ttg.dot_op<{opIdx = 0, parent = #mma}>";
  for (auto [parent, message] :
       {std::pair{mma3, "dot_operand: an mma parent needs kWidth (a power "
                        "of two)"},
        std::pair{mfma, "dot_operand: an AMD parent needs kWidth (a power "
                        "of two)"}}) {
    Expected<AnyLayout> noK = parseLayout(parent + noKWidth, o);
    ASSERT_FALSE(noK);
    EXPECT_EQ(noK.error().message, message);
    EXPECT_EQ(noK.error().parameter, "kWidth");
    ASSERT_TRUE(noK.error().range.has_value()) << noK.error().render();
    EXPECT_EQ(noK.error().range->begin.offset, parent.size() + 5); // dot_op
  }
  // A kWidth written but wrong keeps its own caret.
  std::string k3 = mfma + "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 3}>";
  Expected<AnyLayout> badK = parseLayout(k3, o);
  ASSERT_FALSE(badK);
  EXPECT_EQ(badK.error().message, "dot_operand: kWidth must be a power of two");
  ASSERT_TRUE(badK.error().range.has_value());
  EXPECT_EQ(badK.error().range->begin.offset, k3.rfind("kWidth"));
  for (const Case &c : cases) {
    Expected<AnyLayout> a = parseLayout(c.text, o);
    ASSERT_FALSE(a) << c.text;
    EXPECT_NE(a.error().message.find(c.message), std::string::npos)
        << a.error().message;
    ASSERT_TRUE(a.error().range.has_value()) << a.error().message;
    EXPECT_EQ(a.error().range->begin.offset, c.text.rfind(c.field))
        << a.error().message;
  }
}

// The check that fails names the parameter as data (Diagnostic::parameter),
// so the caret finds it even when the message does not spell it: a rank
// mismatch of one of three lists, and the CTA fields.
TEST(ApiLayout, EncodingChecksNameTheirParameter) {
  ParseOptions o;
  o.shape = IntTuple::tuple({IntTuple(32), IntTuple(32)});
  const std::string blocked =
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [4, 1, 1], order = [1, 0]}>";
  Expected<AnyLayout> a = parseLayout(blocked, o);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().parameter, "warpsPerCTA");
  ASSERT_TRUE(a.error().range.has_value());
  EXPECT_EQ(a.error().range->begin.offset, blocked.find("warpsPerCTA"));
  // "the CTA fields must have the tensor's rank (2)" names no parameter in
  // its text; CTASplitNum is the one of the wrong length here.
  const std::string cta =
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 1], "
      "CTASplitNum = [1, 1, 1], CTAOrder = [1, 0]}>";
  Expected<AnyLayout> c = parseLayout(cta, o);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().parameter, "CTASplitNum");
  ASSERT_TRUE(c.error().range.has_value());
  EXPECT_EQ(c.error().range->begin.offset, cta.find("CTASplitNum"));
  // The record every front end shows carries it.
  EXPECT_EQ(api::toJson(*describe(c.error()).find("parameter")),
            "\"CTASplitNum\"");
  // A failure of the shape (given apart from the text) names "shape", and
  // no caret into the text is invented.
  o.shape = IntTuple::tuple({IntTuple(32), IntTuple(24)});
  Expected<AnyLayout> d = parseLayout(
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [4, 1], order = [1, 0]}>",
      o);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().parameter, "shape");
  EXPECT_FALSE(d.error().range.has_value());
  EXPECT_EQ(api::toJson(*describe(d.error()).find("parameter")), "\"shape\"");
}

} // namespace
} // namespace lk::api
