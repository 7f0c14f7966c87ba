//===- TtgirTest.cpp - TTGIR text against the linear oracle, and the CLI --===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every linear_standard case of tests/data/linear-public.jsonl that has a
// TTGIR form is read from its JSON, printed as TTGIR (printTtgir), read
// back (parseTtgir) and laid out over the case's shape: the bases must be
// the oracle's, as through the JSON form. Then the CLI: the linear
// subcommands and both sides of plan take TTGIR text.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include "layoutkit/linear/EncodingFields.h"
#include "layoutkit/linear/EncodingJson.h"
#include "layoutkit/linear/TtgirText.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

using namespace lk;
using namespace lk::linear;
using lk::cli::testing::CliRun;
using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;
using nlohmann::json;

namespace {

/// Whether the kind (or a parent) has no TTGIR form in Triton's GPU dialect.
bool hasTtgirForm(const Encoding &e) {
  if (e.kind == EncodingKind::IntelDpas ||
      e.kind == EncodingKind::ShmemForRegToReg)
    return false;
  return !e.parent || hasTtgirForm(*e.parent);
}

json basesOf(const LinearLayout &l) {
  json bases = json::object();
  for (int i = 0; i < l.numInDims(); ++i)
    bases[std::string(dimName(l.inDim(i).id))] = l.bases(i);
  return bases;
}

TEST(TtgirOracle, EveryKindGivesTheOraclesBasesThroughTtgirText) {
  std::ifstream in(std::string(LK_TEST_DATA_DIR) + "/linear-public.jsonl");
  ASSERT_TRUE(in) << "missing oracle";
  std::string line;
  int checked = 0, skipped = 0;
  std::set<std::string> kinds;
  while (std::getline(in, line)) {
    json c = json::parse(line);
    if (c["op"] != "linear_standard" || !c["expect"].contains("bases"))
      continue;
    Expected<Encoding> e = parseEncodingJson(c["args"][0].dump());
    ASSERT_TRUE(e) << c["id"] << ": " << e.error().message;
    if (!hasTtgirForm(*e)) {
      ++skipped;
      continue;
    }
    Expected<std::string> text = printTtgir(*e);
    ASSERT_TRUE(text) << c["id"] << ": " << text.error().message;
    Expected<TtgirLayout> back = parseTtgir(*text);
    ASSERT_TRUE(back) << c["id"] << ": " << back.error().render() << *text;
    std::vector<int64_t> shape = c["args"][1].get<std::vector<int64_t>>();
    Expected<LinearLayout> l = toLinearLayout(back->encoding, shape);
    ASSERT_TRUE(l) << c["id"] << ": " << l.error().message << "\n" << *text;
    EXPECT_EQ(basesOf(*l), c["expect"]["bases"]) << c["id"] << "\n" << *text;
    // The same text inside its tensor type gives the shape itself.
    std::string type = "tensor<";
    for (int64_t s : shape)
      type += std::to_string(s) + "x";
    Expected<TtgirLayout> typed = parseTtgir(type + "f16, " + *text + ">");
    ASSERT_TRUE(typed) << typed.error().render();
    EXPECT_EQ(*typed->shape, shape);
    for (const Encoding *k = &*e; k; k = k->parent.get())
      kinds.insert(std::string(encodingKindName(k->kind)));
    ++checked;
  }
  // 70 cases; shmem_for_reg_to_reg has no TTGIR form. The kinds, parents
  // included (amd_mfma and amd_wmma come as dot_operand parents):
  EXPECT_EQ(checked, 69);
  EXPECT_EQ(skipped, 1);
  EXPECT_EQ(kinds,
            (std::set<std::string>{"amd_mfma", "amd_wmma", "blocked",
                                   "dot_operand", "nvidia_mma", "nvmma_shared",
                                   "slice", "swizzled_shared"}));
}

// The blocked layout B = sizePerThread [1, 4], threadsPerWarp [8, 4],
// warpsPerCTA [1, 1], order [1, 0] on (8, 16): registers take dim1 0..3
// ((0,1), (0,2)), lanes dim1 4..15 ((0,4), (0,8)) then dim0 ((1,0), (2,0),
// (4,0)): the CTA tile is exactly 8 x 16.
const std::string kBlockedText =
    "{register: [(0,1), (0,2)], lane: [(0,4), (0,8), (1,0), (2,0), (4,0)], "
    "warp: [], block: []} -> {dim0: 8, dim1: 16}";
const std::string kBlockedAttr =
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
    "warpsPerCTA = [1, 1], order = [1, 0]}>";

TEST(CliTtgir, LinearStandardTakesTtgirOrJson) {
  EXPECT_EQ(resultOf({"linear", "standard", kBlockedAttr, "(8,16)"}),
            kBlockedText);
  EXPECT_EQ(resultOf({"linear", "standard",
                      "{\"kind\":\"blocked\",\"sizePerThread\":[1,4],"
                      "\"threadsPerWarp\":[8,4],\"warpsPerCTA\":[1,1],"
                      "\"order\":[1,0]}",
                      "(8,16)"}),
            kBlockedText);
  // A tensor type whose shape disagrees with SHAPE.
  CliRun r = runCli({"linear", "standard",
                     "tensor<8x32xf16, " + kBlockedAttr + ">", "(8,16)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the tensor type's shape (8,32) and SHAPE (8,16) "
                       "disagree"),
            std::string::npos)
      << r.err;
  // The tensor type alone gives the shape; an attribute alone needs SHAPE.
  EXPECT_EQ(resultOf({"linear", "standard",
                      "tensor<8x16xf16, " + kBlockedAttr + ">"}),
            kBlockedText);
  r = runCli({"linear", "standard", kBlockedAttr});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("needs the tensor shape"), std::string::npos) << r.err;
}

TEST(CliTtgir, LinearStandardBlamesABadShapeOnShape) {
  // The dim that is no power of two gets the caret, in SHAPE (not PARAMS).
  CliRun r = runCli({"linear", "standard", kBlockedAttr, "(64,96)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("error: every tensor dim must be a power of two (got "
                       "96) at column 5\n  (64,96)\n      ^^\n"
                       "note: in argument SHAPE of 'linear standard'"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("PARAMS"), std::string::npos) << r.err;
  for (std::string s : {"(0)", "(-128)"}) {
    r = runCli({"linear", "standard", kBlockedAttr, s});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(
        r.err.find("  " + s + "\n   " + std::string(s.size() - 2, '^') + "\n"),
        std::string::npos)
        << r.err;
  }
}

TEST(CliTtgir, LinearLayoutArgumentsTakeTtgirText) {
  std::string typed = "tensor<8x16xf16, " + kBlockedAttr + ">";
  // lane 9 = bits 0 and 3 -> (0,4) ^ (2,0) = (2,4).
  EXPECT_EQ(resultOf({"linear", "apply", typed, "lane=9"}), "dim0=2 dim1=4");
  CliRun r = runCli({"linear", "bases", typed, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["text"], kBlockedText);
  // Alias lines of a dump, then the use.
  std::string dump = "#blocked = " + kBlockedAttr +
                     "\n#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], "
                     "threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = "
                     "[0, 1]}>\ntensor<8x16xf16, #blocked>";
  EXPECT_EQ(resultOf({"linear", "bases", dump, "--json"}).find(kBlockedText) !=
                std::string::npos,
            true);
  // A diagnostic points into the dump: line 3, the unknown alias.
  std::string bad =
      "#blocked = " + kBlockedAttr + "\ntensor<8x16xf16, #blocked2>";
  r = runCli({"linear", "bases", bad});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown alias '#blocked2'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("at line 2, column 18"), std::string::npos) << r.err;
  // Without a shape, an attribute alone is refused with what to give.
  r = runCli({"linear", "bases", kBlockedAttr});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("needs the tensor shape"), std::string::npos) << r.err;
  // linear bases takes no --shape, so the message does not offer one.
  EXPECT_EQ(r.err.find("--shape"), std::string::npos) << r.err;
}

TEST(CliTtgir, HwAnalyseReadsTheTileFormOfTtgir) {
  // The distributed side of hw analyse: a TTGIR tensor type is analysed as
  // its tile form (`linear to-tile`), with the same record.
  const std::string typed = "tensor<8x16xf16, " + kBlockedAttr + ">";
  CliRun tile = runCli({"linear", "to-tile", typed, "--json"});
  ASSERT_EQ(tile.status, 0) << tile.err;
  const std::string tileText = tile.json()["result"];
  CliRun a = runCli({"hw", "analyse", typed, "S[(8,16):(16,1)]", "--json"});
  CliRun b = runCli({"hw", "analyse", tileText, "S[(8,16):(16,1)]", "--json"});
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a.json()["result"], b.json()["result"]);
}

TEST(CliTtgir, LinearPadBuildsTritonLayoutsOverThePaddedShape) {
  // A bare attribute with --shape (6,12): built over (8,16) and masked to
  // (6,12); the tensor type alone: its own shape, nothing padded.
  CliRun r =
      runCli({"linear", "pad", kBlockedAttr, "--shape", "(6,12)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["padded"], kBlockedText);
  EXPECT_EQ(r.json()["result"]["logical_shape"], (json{6, 12}));
  CliRun typed = runCli(
      {"linear", "pad", "tensor<8x16xf16, " + kBlockedAttr + ">", "--json"});
  ASSERT_EQ(typed.status, 0) << typed.err;
  EXPECT_EQ(typed.json()["result"]["logical_shape"], (json{8, 16}));
  EXPECT_EQ(typed.json()["result"]["steps"].size(), 0u);
  // A --shape of rank 3 for the rank-2 attribute is --shape's fault.
  CliRun rank = runCli({"linear", "pad", kBlockedAttr, "--shape", "(6,12,2)"});
  EXPECT_EQ(rank.status, 1);
  EXPECT_NE(rank.err.find("but the tensor shape has 3 dims"), std::string::npos)
      << rank.err;
  EXPECT_NE(rank.err.find("note: in option --shape of 'linear pad'"),
            std::string::npos)
      << rank.err;
}

TEST(CliTtgir, TileSubcommandsReadTtgirAsItsTileForm) {
  // Element (3,5) of the 8x16 blocked tile: dim1 is fastest (order [1,0]);
  // 5 = 4*1 + 1 gives lane column 1 and register 1, row 3 lane row 3, so
  // lane 3*4 + 1 = 13 holds it at register (m) 1.
  CliRun r = runCli({"tile", "owners", "tensor<8x16xf16, " + kBlockedAttr + ">",
                     "(8,16)", "(3,5)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  json owners = r.json()["result"]["owners"];
  ASSERT_EQ(owners.size(), 1u) << r.out;
  EXPECT_EQ(owners[0]["owner"]["laneid"], 13);
  EXPECT_EQ(owners[0]["at"]["m"], 1);
  // A bare attribute takes SHAPE as its tensor shape; a type or a linear
  // layout whose shape is not SHAPE is refused (read row-major over (16,8),
  // element (3,5) would be another element of the 8x16 tensor).
  r = runCli({"tile", "owners", kBlockedAttr, "(8,16)", "(3,5)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["owners"][0]["owner"]["laneid"], 13);
  r = runCli({"tile", "owners", "tensor<8x16xf16, " + kBlockedAttr + ">",
              "(16,8)", "(3,5)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the tensor type's shape (8,16) and SHAPE (16,8) "
                       "disagree"),
            std::string::npos)
      << r.err;
  r = runCli({"tile", "eval", kBlockedText, "(16,8)", "(3,5)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the layout's logical shape (8,16) and SHAPE (16,8) "
                       "disagree"),
            std::string::npos)
      << r.err;
  // A cute layout over a SHAPE of its modes: element (1,0) is CuTe's
  // coordinate (1,0), offset 1*8 + 0*1 = 8, as `show` draws it; the tile
  // form lists the modes in order.
  r = runCli({"tile", "eval", "(4,8):(8,1)", "(4,8)", "(1,0)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["layout"], "S[(4,8):(8,1)]") << r.out;
  EXPECT_EQ(r.json()["result"]["points"][0]["m"], 8) << r.out;
  // Over one dim, the index is CuTe's 1-D index: 1 is coordinate (1,0).
  r = runCli({"tile", "eval", "(4,8):(8,1)", "32", "1", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["layout"], "S[(8,4):(1,8)]") << r.out;
  EXPECT_EQ(r.json()["result"]["points"][0]["m"], 8) << r.out;
  // The transposed SHAPE would read the tile transposed: refused.
  r = runCli({"tile", "eval", "(4,8):(8,1)", "(8,4)", "(1,0)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("mode 0 of (4,8):(8,1) has size 4 but dim 0 of "
                       "SHAPE is 8"),
            std::string::npos)
      << r.err;
  // A row-major 8x64 tile in either grammar: lanes reading column 0 meet
  // an 8-way conflict (rows 64 halfwords = 32 words apart: one bank).
  for (const char *tile : {"(8,64):(64,1)", "S[(8,64):(64,1)]"}) {
    r = runCli({"tile", "conflicts", tile, "(8,64)", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.json()["result"]["ways"], 8) << tile << r.out;
  }
  // A malformed SHAPE is blamed on SHAPE, not on the attribute.
  r = runCli({"tile", "show", kBlockedAttr, "(8,x)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("in argument SHAPE"), std::string::npos) << r.err;
  // So is a SHAPE the encoding cannot take (Triton's dims are powers of
  // two), though the reader finds it while reading the attribute.
  r = runCli({"tile", "show", kBlockedAttr, "(8,12)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("every tensor dim must be a power of two (got 12)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("note: in argument SHAPE of 'tile show'"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("argument LAYOUT"), std::string::npos) << r.err;
}

TEST(CliTtgir, SharedLayoutsReadAsTheirAddressForm) {
  // swizzled_shared vec 8, perPhase 1, maxPhase 8 over 8x64 f16: row r's
  // 8-element chunks are XORed with r, so (1,0) (chunk 0 of row 1) sits at
  // chunk 1: offset 64 + 8 = 72; a lane per row reading column 0 meets no
  // conflict (each row's chunk 0 lies in another 16-byte bank group).
  const std::string memdesc =
      "!ttg.memdesc<8x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, "
      "maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory, mutable>";
  CliRun r = runCli({"tile", "eval", memdesc, "(8,64)", "(1,0)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["points"][0]["m"], 72) << r.out;
  r = runCli(
      {"tile", "conflicts", memdesc, "(8,64)", "--lanes", "8", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["conflict_free"], true) << r.out;
  // hw analyse takes it as MEMORY.
  r = runCli({"hw", "analyse", "tensor<8x64xf16, " + kBlockedAttr + ">",
              memdesc, "--dtype", "f16"});
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(CliTtgir, SharedLayoutsTakeTheirTypesElementType) {
  // 16 lanes read column 0 of an f32 16x32 swizzled tile (vec 4, perPhase 2,
  // maxPhase 4): rows 2r and 2r+1 share phase r, so rows 0,1 / 8,9 / ... put
  // their first 16 B in one bank group: 4-way, as with --dtype f32.
  const std::string f32 = "!ttg.memdesc<16x32xf32, #ttg.swizzled_shared<{vec "
                          "= 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>, "
                          "#ttg.shared_memory, mutable>";
  CliRun named =
      runCli({"tile", "conflicts", f32, "(16,32)", "--lanes", "16", "--json"});
  ASSERT_EQ(named.status, 0) << named.err;
  CliRun given = runCli({"tile", "conflicts", f32, "(16,32)", "--lanes", "16",
                         "--dtype", "f32", "--json"});
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_EQ(named.json()["result"], given.json()["result"]);
  EXPECT_EQ(
      runCli({"tile", "conflicts", f32, "(16,32)", "--dtype", "f16"}).status,
      1);
  // An unswizzled tile is row-major memory: 8 lanes down column 0 of an
  // 8x64 f16 tile hit one bank (128 B rows): 8-way.
  CliRun plain = runCli(
      {"tile", "conflicts",
       "!ttg.memdesc<8x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
       "maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>",
       "(8,64)", "--json"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.json()["result"]["conflict_free"], false) << plain.out;
  // nvmma_shared's elementBitWidth must be the type's element width; a
  // pipelined allocation names its buffers before SHAPE is compared.
  CliRun width = runCli(
      {"tile", "eval",
       "!ttg.memdesc<8x32xf32, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
       "transposed = false, elementBitWidth = 16}>, #smem>",
       "(8,32)", "(1,0)"});
  EXPECT_EQ(width.status, 1);
  EXPECT_NE(width.err.find("elementBitWidth 16 and the memdesc's element "
                           "type f32 (32 bits) disagree"),
            std::string::npos)
      << width.err;
  CliRun buffers = runCli(
      {"tile", "banks",
       "!ttg.memdesc<2x128x32xf16, #ttg.swizzled_shared<{vec = 8, perPhase "
       "= 1, maxPhase = 8, order = [1, 0]}>, #smem, mutable>",
       "(128,32)"});
  EXPECT_EQ(buffers.status, 1);
  EXPECT_NE(buffers.err.find("a memdesc of 2 buffers of 128x32"),
            std::string::npos)
      << buffers.err;
}

TEST(CliTtgir, PlanTakesTtgirOnBothSides) {
  // The same layout on both sides (TTGIR and its linear text) plans to no-op.
  CliRun r = runCli({"plan", "tensor<8x16xf16, " + kBlockedAttr + ">",
                     kBlockedText, "--dtype", "f16", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["strategy"], "no-op") << r.out;
  // --shape gives the shape of a bare attribute.
  r = runCli({"plan", kBlockedAttr, kBlockedAttr, "--shape", "(8,16)",
              "--dtype", "f16", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["strategy"], "no-op") << r.out;
}

} // namespace
