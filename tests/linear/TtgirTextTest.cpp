//===- TtgirTextTest.cpp - Triton's layout attributes as TTGIR text -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// TTGIR strings written in the form Triton's IR dumps print (alias lines,
/// tensor and memdesc types, both CTA spellings) read to the encoding a
/// test builds field by field; the layouts are then compared through
/// toLinearLayout, whose bases the oracle pins (tests/tools/TtgirTest.cpp
/// runs every oracle case through TTGIR). Then every diagnostic with its
/// column, and makeEncoding's checks shared with the JSON reader.
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/EncodingFields.h"
#include "layoutkit/linear/TtgirText.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;

namespace {

TtgirLayout read(std::string_view text) {
  Expected<TtgirLayout> t = parseTtgir(text);
  EXPECT_TRUE(t) << t.error().render();
  return t ? *t : TtgirLayout{};
}

std::string layoutOf(const Encoding &e, std::vector<int64_t> shape) {
  Expected<LinearLayout> l = toLinearLayout(e, shape);
  return l ? l->str() : "error: " + l.error().message;
}

Encoding blocked(std::vector<unsigned> spt, std::vector<unsigned> tpw,
                 std::vector<unsigned> wpc, std::vector<unsigned> order) {
  Encoding e;
  e.kind = EncodingKind::Blocked;
  e.sizePerThread = std::move(spt);
  e.threadsPerWarp = std::move(tpw);
  e.warpsPerCTA = std::move(wpc);
  e.order = std::move(order);
  return e;
}

Encoding mmaV2Encoding(std::vector<unsigned> warps) {
  Encoding e;
  e.kind = EncodingKind::NvidiaMma;
  e.versionMajor = 2;
  e.warpsPerCTA = std::move(warps);
  e.instrShape = {16, 8};
  return e;
}

TEST(TtgirText, BlockedWithHandDerivedBases) {
  TtgirLayout t = read("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp "
                       "= [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>");
  EXPECT_FALSE(t.shape);
  EXPECT_EQ(t.encoding.kind, EncodingKind::Blocked);
  // 32x16: dim1 fastest; registers dim1 0..3, 4 lanes dim1 4..15, 8 lanes
  // dim0 0..7, 4 warps dim0 8..31.
  EXPECT_EQ(layoutOf(t.encoding, {32, 16}),
            "{register: [(0,1), (0,2)], lane: [(0,4), (0,8), (1,0), (2,0), "
            "(4,0)], warp: [(8,0), (16,0)], block: []} -> {dim0: 32, dim1: "
            "16}");
}

TEST(TtgirText, DumpWithAliasesAndATensorType) {
  // As an IR dump prints it: aliases first (a comment between), then a use.
  TtgirLayout t =
      read("#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
           "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
           "#loc = loc(\"kernel.py\":12:0)\n"
           "// the accumulator\n"
           "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
           "warpsPerCTA = [2, 2], instrShape = [16, 8]}>\n"
           "#smem = #ttg.shared_memory\n"
           "tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = "
           "2}>>");
  ASSERT_TRUE(t.shape);
  EXPECT_EQ(*t.shape, (std::vector<int64_t>{128, 64}));
  Encoding dot;
  dot.kind = EncodingKind::DotOperand;
  dot.opIdx = 0;
  dot.kWidth = 2;
  dot.parent = std::make_shared<const Encoding>(mmaV2Encoding({2, 2}));
  EXPECT_EQ(layoutOf(t.encoding, *t.shape), layoutOf(dot, {128, 64}));
  EXPECT_EQ(t.encoding.parent->warpsPerCTA, (std::vector<unsigned>{2, 2}));
}

TEST(TtgirText, AliasUsedAsTheTypesLayoutAndInAParent) {
  TtgirLayout t =
      read("#mma = #triton_gpu.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
           "warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>\n"
           "#slice = #ttg.slice<{dim = 1, parent = #mma}>\n"
           "tensor<128xf32, #slice>");
  EXPECT_EQ(*t.shape, (std::vector<int64_t>{128}));
  Encoding mma;
  mma.kind = EncodingKind::NvidiaMma;
  mma.versionMajor = 3;
  mma.warpsPerCTA = {4, 1};
  mma.instrShape = {16, 64, 16};
  Encoding slice;
  slice.kind = EncodingKind::Slice;
  slice.dim = 1;
  slice.parent = std::make_shared<const Encoding>(mma);
  EXPECT_EQ(layoutOf(t.encoding, {128}), layoutOf(slice, {128}));
  // Only alias lines: the last one is the layout.
  TtgirLayout last = read("#a = #ttg.blocked<{sizePerThread = [1], "
                          "threadsPerWarp = [32], warpsPerCTA = [4], order = "
                          "[0]}>\n#b = #ttg.slice<{dim = 0, parent = #a}>");
  EXPECT_EQ(last.encoding.kind, EncodingKind::Slice);
  EXPECT_EQ(last.encoding.parent->kind, EncodingKind::Blocked);
  EXPECT_FALSE(last.shape);
}

TEST(TtgirText, AmdKindsInOldAndNewSpellings) {
  Encoding mfma;
  mfma.kind = EncodingKind::AmdMfma;
  mfma.warpsPerCTA = {2, 2};
  mfma.mDim = mfma.nDim = 32;
  mfma.isTransposed = true;
  for (const char *text :
       {"#ttg.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
        "[2, 2], instrShape = [32, 32], isTransposed = true}>",
        "#ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, "
        "32, 16], isTransposed = true}>"}) {
    TtgirLayout t = read(text);
    EXPECT_EQ(t.encoding.mDim, 32) << text;
    EXPECT_EQ(layoutOf(t.encoding, {64, 64}), layoutOf(mfma, {64, 64})) << text;
  }
  Encoding wmma;
  wmma.kind = EncodingKind::AmdWmma;
  wmma.version = 2;
  wmma.isTransposed = true;
  wmma.warpsPerCTA = {1, 2};
  // Test files write `kWidth=8` without blanks; a dot operand of the mfma.
  TtgirLayout d = read("#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, "
                       "2], instrShape = [32, 32], isTransposed = true}>\n"
                       "#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth=8}>");
  Encoding dot;
  dot.kind = EncodingKind::DotOperand;
  dot.opIdx = 1;
  dot.kWidth = 8;
  dot.parent = std::make_shared<const Encoding>(mfma);
  EXPECT_EQ(d.encoding.kWidth, 8);
  EXPECT_EQ(layoutOf(d.encoding, {64, 64}), layoutOf(dot, {64, 64}));
  TtgirLayout w = read("#ttg.amd_wmma<{version = 2, isTranspose = true, "
                       "warpsPerCTA = [1, 2]}>");
  EXPECT_TRUE(w.encoding.isTransposed);
  EXPECT_EQ(layoutOf(w.encoding, {32, 32}), layoutOf(wmma, {32, 32}));
}

TEST(TtgirText, SharedKindsAndAMemdescType) {
  TtgirLayout s = read("!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = "
                       "8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, "
                       "#smem, mutable>");
  EXPECT_EQ(*s.shape, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(s.encoding.vec, 8);
  EXPECT_EQ(s.encoding.maxPhase, 8);
  // The fields after the layout: a memory space, mutable and an allocation
  // shape, each once; anything else is refused at it.
  const std::string head = "!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec "
                           "= 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>";
  EXPECT_TRUE(parseTtgir(head + ", #ttg.shared_memory, mutable, 3x64x64>"));
  // Each refused at the field: the message and the column of its start.
  const size_t field = head.size() + 3; // past ", " (columns count from 1)
  EXPECT_EQ(parseTtgir(head + ", #smem, garbage_word>").error().message,
            "expected a memdesc field: a memory space '#smem', 'mutable' or "
            "an allocation shape '3x128x64' but found 'g'");
  Expected<TtgirLayout> twice = parseTtgir(head + ", mutable, mutable>");
  EXPECT_EQ(twice.error().message, "this memdesc field is given twice");
  EXPECT_EQ(twice.error().range->begin.column, field + 9);
  EXPECT_EQ(parseTtgir(head + ", 2x64x64, 3x64x64>").error().message,
            "this memdesc field is given twice");
  // The allocation shape holds the type: its last dims at least the
  // type's, one or more leading dims counting buffers; no dim is 0.
  EXPECT_TRUE(parseTtgir(head + ", #smem, 2x3x64x64>"));
  // A subview (last dims above the type's) has the allocation's layout,
  // which LayoutKit does not build: refused at the shape.
  Expected<TtgirLayout> view = parseTtgir(head + ", #smem, 64x128>");
  EXPECT_EQ(view.error().message,
            "the type 64x64 views part of the allocation 64x128, whose layout "
            "is the allocation's; LayoutKit reads a memdesc whose last dims "
            "are its allocation's: write the allocation's");
  EXPECT_EQ(view.error().range->begin.column, field + 7);
  Expected<TtgirLayout> small = parseTtgir(head + ", #smem, 2x32x32>");
  EXPECT_EQ(small.error().message,
            "the allocation shape 2x32x32 does not hold the type's 64x64 "
            "(its last dims must be the type's)");
  EXPECT_EQ(small.error().range->begin.column, field + 7);
  EXPECT_EQ(small.error().range->end.column, field + 14);
  EXPECT_EQ(parseTtgir(head + ", 64>")
                .error()
                .message.rfind("the allocation shape 64 does not hold", 0),
            0u); // fewer dims than the type
  for (const char *zero : {", 0x64x64>", ", 2x0x64>", ", 2x>"})
    EXPECT_EQ(parseTtgir(head + zero).error().message,
              "expected an allocation dim (a decimal integer from 1)")
        << zero;
  EXPECT_EQ(parseTtgir(head + ", 1x1x1x1x1x1x1x1x64x64>").error().message,
            "an allocation shape of more than 8 dims");
  // The memory space of a shared layout: shared memory or an alias of it;
  // an alias the text does not define is taken as one.
  const std::string smem = "#smem = #ttg.shared_memory\n";
  const std::string tmem = "#smem = #ttng.tensor_memory\n";
  EXPECT_TRUE(parseTtgir(smem + head + ", #smem>"));
  EXPECT_TRUE(parseTtgir(head + ", #triton_gpu.shared_memory>"));
  EXPECT_EQ(parseTtgir(head + ", #ttng.tensor_memory>").error().message,
            "a shared layout's memory space is '#ttg.shared_memory' (or an "
            "alias of it, '#smem'), not '#ttng.tensor_memory'");
  EXPECT_EQ(parseTtgir(tmem + head + ", #smem>").error().message,
            "a shared layout's memory space is '#ttg.shared_memory' (or an "
            "alias of it, '#smem'), not '#smem', which is "
            "'#ttng.tensor_memory'");
  // An alias of a layout is no memory space either.
  const std::string shared = "#shared = #ttg.swizzled_shared<{vec = 8, "
                             "perPhase = 1, maxPhase = 8, order = [1, 0]}>\n";
  EXPECT_EQ(parseTtgir(shared + head + ", #shared>").error().message,
            "a shared layout's memory space is '#ttg.shared_memory' (or an "
            "alias of it, '#smem'), not '#shared', which is a layout");
  // A register layout is no memdesc's: refused at the attribute.
  Expected<TtgirLayout> regs =
      parseTtgir("!ttg.memdesc<8x16xf16, #ttg.blocked<{sizePerThread = [1, "
                 "1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = "
                 "[1, 0]}>, #smem>");
  EXPECT_EQ(regs.error().message,
            "a memdesc's layout is a shared one (#ttg.swizzled_shared, "
            "#ttg.nvmma_shared); #ttg.blocked places a tensor in registers: "
            "write 'tensor<...>'");
  EXPECT_EQ(regs.error().range->begin.column, 24u);
  EXPECT_EQ(parseTtgir(head + ", #>")
                .error()
                .message.rfind("expected a memory space name", 0),
            0u);
  TtgirLayout n = read("#ttg.nvmma_shared<{swizzlingByteWidth = 128, "
                       "transposed = false, elementBitWidth = 16}>");
  Encoding nv;
  nv.kind = EncodingKind::NvmmaShared;
  nv.swizzleSizeInBytes = 128;
  nv.elementBitWidth = 16;
  EXPECT_EQ(layoutOf(n.encoding, {64, 64}), layoutOf(nv, {64, 64}));
  // Row r of a 128-byte swizzle XORs its 16-byte chunk with r mod 8: row 1
  // starts at column 8 of the 64 16-bit columns.
  EXPECT_NE(layoutOf(n.encoding, {64, 64}).find("(1,8)"), std::string::npos);
}

TEST(TtgirText, BothCtaSpellingsGiveOneLayout) {
  // Two CTAs split dim0 of a 256-element tensor: block -> (128).
  std::string base = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = "
                     "[32], warpsPerCTA = [4], order = [0], ";
  TtgirLayout oldForm =
      read(base + "CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]}>");
  TtgirLayout newForm = read(base + "CGALayout = [[1]]}>");
  ASSERT_TRUE(newForm.encoding.cta.blockBases);
  std::string split = layoutOf(oldForm.encoding, {256});
  EXPECT_NE(split.find("block: [(128)]"), std::string::npos) << split;
  EXPECT_EQ(layoutOf(newForm.encoding, {256}), split);
  // A broadcast CTA: both hold the whole tensor.
  TtgirLayout bOld =
      read(base + "CTAsPerCGA = [2], CTASplitNum = [1], CTAOrder = [0]}>");
  TtgirLayout bNew = read(base + "CGALayout = [[0]]}>");
  std::string bc = layoutOf(bOld.encoding, {128});
  EXPECT_NE(bc.find("block: [(0)]"), std::string::npos) << bc;
  EXPECT_EQ(layoutOf(bNew.encoding, {128}), bc);
  // printTtgir keeps the spelling it was given.
  EXPECT_NE(ok(printTtgir(newForm.encoding)).find("CGALayout = [[1]]"),
            std::string::npos);
}

TEST(TtgirText, ExplicitLinearLayout) {
  const char *text = "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, "
                     "4], [1, 0], [2, 0], [4, 0], [8, 0]], warp = [[16, 0]], "
                     "block = []}>";
  TtgirLayout t = read(text);
  ASSERT_EQ(t.encoding.kind, EncodingKind::Linear);
  const char *expect = "{register: [(0,1), (0,2)], lane: [(0,4), (1,0), "
                       "(2,0), (4,0), (8,0)], warp: [(16,0)], block: []} -> "
                       "{dim0: 32, dim1: 8}";
  EXPECT_EQ(t.encoding.linear->str(), expect);
  EXPECT_EQ(layoutOf(t.encoding, {32, 8}), expect);
  // On a tensor twice as wide, registers repeat over dim1: (0,8) added.
  EXPECT_NE(layoutOf(t.encoding, {32, 16})
                .find("register: [(0,1), (0,2), "
                      "(0,8)]"),
            std::string::npos);
  // It prints back as it was read.
  EXPECT_EQ(ok(printTtgir(t.encoding)), text);
  // Repetitions follow the register order: registers move dim1 first
  // ((0,1)) then dim0 ((8,0)), so on a tensor twice as wide and twice as
  // tall the dim1 repeat (0,8) comes before the dim0 repeat (32,0), as in
  // Triton (repeats in getRepOrder = the register order, not dim order).
  TtgirLayout both =
      read("#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, "
           "4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0]], block = []}>");
  EXPECT_EQ(layoutOf(both.encoding, {64, 16}),
            "{register: [(0,1), (8,0), (0,8), (32,0)], lane: [(0,2), (0,4), "
            "(1,0), (2,0), (4,0)], warp: [(16,0)], block: []} -> {dim0: 64, "
            "dim1: 16}");
  // A register order starting at dim0 repeats dim0 first.
  TtgirLayout rows =
      read("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2], [0, "
           "4], [2, 0], [4, 0]], warp = [], block = []}>");
  EXPECT_NE(
      layoutOf(rows.encoding, {16, 16}).find("register: [(1,0), (8,0), (0,8)]"),
      std::string::npos);
}

/// The message and 1-based column of the error reading `text`.
std::pair<std::string, size_t> errorOf(std::string_view text) {
  Expected<TtgirLayout> t = parseTtgir(text);
  if (t)
    return {"<read>", 0};
  const Diagnostic &d = t.error();
  return {d.message, d.range ? d.range->begin.column : 0};
}

TEST(TtgirText, DiagnosticsPointAtTheField) {
  using P = std::pair<std::string, size_t>;
  //          1         2         3         4         5         6
  // 123456789012345678901234567890123456789012345678901234567890123
  // #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
  const std::string ok1 = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, "
                          "maxPhase = 8, order = [1, 0]}>";
  EXPECT_EQ(errorOf(ok1).first, "<read>");
  EXPECT_EQ(errorOf("#ttg.swizzled_shared<{vec = 8, perPhas = 1, maxPhase = "
                    "8, order = [1, 0]}>"),
            (P{"swizzled_shared has no field 'perPhas'", 32}));
  EXPECT_EQ(errorOf("#ttg.swizzled_shared<{vec = 8, maxPhase = 8, order = "
                    "[1, 0]}>"),
            (P{"missing field 'perPhase' (swizzled_shared needs it)", 6}));
  EXPECT_EQ(errorOf("#ttg.swizzled_shared<{vec = [8], perPhase = 1, maxPhase "
                    "= 8, order = [1, 0]}>"),
            (P{"field 'vec' must be an integer, got a list of integers", 23}));
  EXPECT_EQ(errorOf("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = "
                    "8, order = [1, 4294967296]}>"),
            (P{"field 'order' must be in 0..2^30, got 4294967296", 60}));
  EXPECT_EQ(errorOf("#ttg.swizled_shared<{vec = 8}>"),
            (P{"unknown layout kind 'swizled_shared'", 6}));
  EXPECT_EQ(errorOf("#ttng.tensor_memory_encoding<{blockM = 128}>"),
            (P{"unknown dialect 'ttng': layouts are '#ttg.<kind>'", 2}));
  EXPECT_EQ(errorOf("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>"),
            (P{"unknown alias '#mma' (define it on an earlier line: '#mma = "
               "#ttg...')",
               34}));
  EXPECT_EQ(errorOf("#smem = #ttg.shared_memory\ntensor<4xf16, #smem>"),
            (P{"alias '#smem' is '#ttg.shared_memory', not a layout "
               "LayoutKit reads",
               15}));
  EXPECT_EQ(errorOf("#ttg.blocked<{sizePerThread = [1] threadsPerWarp = "
                    "[32]}>"),
            (P{"expected ',' between fields (or '}' to close them) but found "
               "'t'",
               35}));
  EXPECT_EQ(errorOf("tensor<?x4xf16, #blocked>").second, 8u);
  // Triton's tensor dims are powers of two: 0 and 48 are refused at the dim
  // (column 8 is the first dim, column 10 the second of "0x48").
  EXPECT_EQ(errorOf("tensor<0x4xf16, #blocked>"),
            (P{"every tensor dim must be a power of two (got 0)", 8}));
  EXPECT_EQ(errorOf("tensor<4x48xf16, #blocked>"),
            (P{"every tensor dim must be a power of two (got 48)", 10}));
  // Consistency (checkEncoding) points at the parameter at fault: the list
  // whose length differs from the others'.
  EXPECT_EQ(errorOf("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
                    "[32], warpsPerCTA = [4], order = [0]}>"),
            (P{"blocked: sizePerThread, threadsPerWarp, warpsPerCTA and "
               "order must have one length (the rank)",
               15})); // sizePerThread, column 15
  EXPECT_EQ(errorOf("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = "
                    "[32], warpsPerCTA = [4], order = [0], CGALayout = [[1]], "
                    "CTAOrder = [0]}>")
                .first,
            "CGALayout and CTAsPerCGA/CTASplitNum/CTAOrder are two spellings "
            "of one field; give one");
  // An mfma version past Triton's 0..4, at the field as written.
  //          1         2         3
  // 1234567890123456789012345678901234
  // #ttg.amd_mfma<{version = 7, ...
  EXPECT_EQ(errorOf("#ttg.amd_mfma<{version = 7, warpsPerCTA = [2, 2], "
                    "instrShape = [32, 32], isTransposed = true}>"),
            (P{"amd_mfma: version must be 0 to 4, got 7", 16}));
}

/// The message of the error building `text`'s layout over `shape`, and the
/// 1-based column of its caret (0: none).
std::pair<std::string, size_t> buildErrorOf(std::string_view text,
                                            std::vector<int64_t> shape) {
  TtgirLayout t = read(text);
  Expected<LinearLayout> l = toLinearLayout(t.encoding, shape);
  if (l)
    return {"<built>", 0};
  Diagnostic d = placeAtField(std::move(l).error(), t.encoding, text);
  return {d.message, d.range ? d.range->begin.column : 0};
}

TEST(TtgirText, CgaBasesMustReachEveryCtaTile) {
  // Over the smallest grid holding its bases, [[3, 0]] reaches CTA tiles 0
  // and 3 of 4 along dim0 and [[1, 1]] tiles (0,0) and (1,1) of 2x2: rows
  // or tiles no CTA holds. [[0, 1], [0, 0]] (a broadcast CTA) reaches both
  // tiles of its 1x2 grid.
  const std::string head = "#ttg.blocked<{sizePerThread = [1, 8], "
                           "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                           "order = [1, 0], CGALayout = ";
  // "CGALayout = " (12 characters) ends `head`: the field starts at the
  // 1-based column head.size() - 12 + 1.
  for (const char *bad : {"[[3, 0]]", "[[1, 1]]"}) {
    auto [message, column] = buildErrorOf(head + bad + "}>", {128, 64});
    EXPECT_EQ(message.rfind("CGALayout must reach every CTA tile", 0), 0u)
        << message;
    EXPECT_EQ(column, head.size() - 12 + 1) << bad;
  }
  for (const char *good : {"[[1, 0]]", "[[0, 1], [0, 0]]"})
    EXPECT_EQ(buildErrorOf(head + good + "}>", {128, 64}).first, "<built>");
}

TEST(TtgirText, SliceOfASharedLayoutIsRefused) {
  //          1         2         3
  // 1234567890123456789012345678901234
  // #ttg.slice<{dim = 0, parent = #s}>    (line 2)
  auto [message, column] = buildErrorOf(
      "#s = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
      "order = [1, 0]}>\n#ttg.slice<{dim = 0, parent = #s}>",
      {64});
  EXPECT_EQ(message, "slice: the parent must be a distributed (register) "
                     "layout, not swizzled_shared");
  EXPECT_EQ(column, 22u);
}

TEST(TtgirText, DiagnosticsKeepTheLineOfADump) {
  Expected<TtgirLayout> t = parseTtgir(
      "#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], "
      "instrShape = [16, 8]}>\n"
      "#mma = #ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], "
      "instrShape = [16, 8, 16]}>\n");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message, "alias '#mma' is defined twice");
  EXPECT_EQ(t.error().range->begin.line, 2u);
  EXPECT_EQ(t.error().range->begin.column, 2u);
  // Parents nest at most 8 deep; the 9th is refused before any recursion.
  std::string deep = "#a0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp "
                     "= [32], warpsPerCTA = [4], order = [0]}>\n";
  std::string use = "#a0";
  for (int i = 0; i < 10; ++i)
    use = "#ttg.slice<{dim = 0, parent = " + use + "}>";
  Expected<TtgirLayout> d = parseTtgir(deep + use);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("nest deeper than 8"), std::string::npos);
}

TEST(EncodingFields, OneValidationForEverySyntax) {
  using V = std::vector<int64_t>;
  std::vector<EncodingField> f = {{"vec", int64_t(8)},
                                  {"perPhase", int64_t(1)},
                                  {"maxPhase", int64_t(8)},
                                  {"order", V{1, 0}}};
  Encoding e = ok(makeEncoding(EncodingKind::SwizzledShared, f));
  EXPECT_EQ(e.vec, 8);
  EXPECT_EQ(e.order, (std::vector<unsigned>{1, 0}));
  // 2^31 would wrap in an int: refused before narrowing.
  f[0].value = int64_t(1) << 31;
  Expected<Encoding> big = makeEncoding(EncodingKind::SwizzledShared, f);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().message,
            "field 'vec' must be in 0..2^30, got 2147483648");
  EXPECT_FALSE(big.error().range); // no source: no caret
  f[0].value = OtherValue{"a string"};
  EXPECT_EQ(makeEncoding(EncodingKind::SwizzledShared, f).error().message,
            "field 'vec' must be an integer, got a string");
  // checkEncoding also guards encodings built in C++.
  Encoding b = blocked({1, 1}, {32}, {4}, {0});
  EXPECT_FALSE(checkEncoding(b));
  Encoding dot;
  dot.kind = EncodingKind::DotOperand;
  EXPECT_EQ(checkEncoding(dot).error().message,
            "dot_operand needs a parent layout");
  EXPECT_TRUE(checkEncoding(blocked({1}, {32}, {4}, {0})));
}

TEST(TtgirText, PrintReadsBack) {
  Encoding dot;
  dot.kind = EncodingKind::DotOperand;
  dot.opIdx = 1;
  dot.kWidth = 4;
  dot.parent = std::make_shared<const Encoding>(mmaV2Encoding({4, 1}));
  std::string text = ok(printTtgir(dot));
  EXPECT_EQ(text, "#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{"
                  "versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], "
                  "instrShape = [16, 8]}>, kWidth = 4}>");
  EXPECT_EQ(layoutOf(read(text).encoding, {64, 32}), layoutOf(dot, {64, 32}));
  Encoding dpas;
  dpas.kind = EncodingKind::IntelDpas;
  EXPECT_FALSE(printTtgir(dpas));
}

} // namespace

namespace {

/// Every prefix, and 5000 seeded one-byte mutations, of a dump that uses
/// each construct: the reader returns an encoding or a diagnostic whose
/// range lies inside the text (crashes and hangs fail the run).
TEST(TtgirText, HostileInputGetsADiagnostic) {
  const std::string dump =
      "#loc = loc(\"k.py\":1:0)\n"
      "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
      "warpsPerCTA = [2, 2], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], "
      "CTAOrder = [1, 0], instrShape = [16, 8]}>\n"
      "// the operand\n"
      "#lin = #ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], "
      "block = []}>\n"
      "tensor<64x32x!tt.ptr<f16>, #ttg.slice<{dim = 0, parent = "
      "#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>}>>";
  auto check = [](const std::string &text) {
    Expected<TtgirLayout> t = parseTtgir(text);
    if (!t && t.error().range) {
      EXPECT_LE(t.error().range->begin.offset, text.size()) << text;
    }
  };
  for (size_t n = 0; n <= dump.size(); ++n)
    check(dump.substr(0, n));
  lk::linear::testing::Random r(31);
  const std::string alphabet = "#<>{}[],=.x0123456789-! \n";
  for (int i = 0; i < 5000; ++i) {
    std::string m = dump;
    size_t at = size_t(r.uniform(0, int64_t(m.size()) - 1));
    char c = alphabet[size_t(r.uniform(0, int64_t(alphabet.size()) - 1))];
    if (r.chance(50))
      m[at] = c;
    else
      m.insert(m.begin() + at, c);
    check(m);
  }
}

/// A dump ending in an alias that is no layout uses the last layout alias.
TEST(TtgirText, LastLayoutAliasOfADump) {
  TtgirLayout t = read("#blocked = #ttg.blocked<{sizePerThread = [1], "
                       "threadsPerWarp = [32], warpsPerCTA = [4], order = "
                       "[0]}>\n#smem = #ttg.shared_memory\n");
  EXPECT_EQ(t.encoding.kind, EncodingKind::Blocked);
}

} // namespace

// A dot operand's parent is checked as the parent alone would be: a
// blocked parent with sizePerThread [1, 3] is refused (it gave a layout
// with zero lane bases), the caret on the parent's field and the
// parameter under "parent.".
TEST(TtgirText, DotOperandParentIsCheckedAsItself) {
  const std::string text =
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = "
      "[1, 3], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = "
      "[1, 0]}>}>";
  Expected<TtgirLayout> t = parseTtgir(text);
  ASSERT_TRUE(t) << t.error().render();
  const int64_t shape[] = {32, 32};
  Expected<LinearLayout> l = toLinearLayout(t->encoding, shape);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message,
            "every entry of sizePerThread must be a power of two (got 3)");
  EXPECT_EQ(l.error().parameter, "parent.sizePerThread");
  Diagnostic placed = placeAtField(l.error(), t->encoding, text);
  ASSERT_TRUE(placed.range.has_value());
  EXPECT_EQ(placed.range->begin.offset, text.find("sizePerThread"));
}

namespace {

// A name with non-ASCII letters is named whole, and the caret line keeps
// the source line's tabs and draws one blank or caret per UTF-8 character
// (not per byte), so it stays under the name on a terminal.
TEST(TtgirText, NamesAsWrittenAndCaretsUnderTabsAndUtf8) {
  // "ö" is 2 bytes: "#ttg.blöcked" - the kind starts at byte 23 of
  // "tensor<64x64xf16, #ttg.blöcked<{}>>" (column 24), 8 bytes, 7 letters.
  Expected<TtgirLayout> kind = parseTtgir("tensor<64x64xf16, #ttg.bl\xC3\xB6"
                                          "cked<{}>>");
  ASSERT_FALSE(kind);
  EXPECT_EQ(kind.error().message, "unknown layout kind 'bl\xC3\xB6"
                                  "cked'");
  EXPECT_EQ(kind.error().range->begin.column, 24u);
  EXPECT_EQ(kind.error().range->end.column, 32u);
  std::string shown = kind.error().render();
  EXPECT_NE(
      shown.find("\n  " + std::string(23, ' ') + std::string(7, '^') + "\n"),
      std::string::npos)
      << shown;
  // An alias name may hold non-ASCII letters, defined and used alike.
  Expected<TtgirLayout> alias = parseTtgir(
      "#bl\xC3\xB6"
      "ck = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [1, 1], order = [1, 0]}>\ntensor<8x16xf16, #bl\xC3\xB6"
      "ck>");
  EXPECT_TRUE(alias) << alias.error().message;
  // A field name: "sizePerThröad" whole, not "expected '='".
  Expected<TtgirLayout> field = parseTtgir("#ttg.blocked<{sizePerThr\xC3\xB6"
                                           "ad = [1, 8]}>");
  ASSERT_FALSE(field);
  EXPECT_EQ(field.error().message, "blocked has no field 'sizePerThr\xC3\xB6"
                                   "ad'");
  // A tab before the fault is copied into the caret line: in
  // "\t#ttg.nokind<{}>" the kind is at byte 6 (column 7), so the caret
  // line is "  " (the indent), the tab, 5 blanks for "#ttg.", 6 carets.
  Expected<TtgirLayout> tab = parseTtgir("\t#ttg.nokind<{}>");
  ASSERT_FALSE(tab);
  EXPECT_EQ(tab.error().range->begin.column, 7u);
  shown = tab.error().render();
  EXPECT_NE(shown.find("\n  \t#ttg.nokind<{}>\n  \t     ^^^^^^\n"),
            std::string::npos)
      << shown;
}

} // namespace
