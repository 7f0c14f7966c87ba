//===- CliShowTest.cpp - `layoutkit show`: tables and SVG -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include "cli/Show.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

using lk::cli::testing::CliRun;
using lk::cli::testing::runCli;

namespace {

/// Checks that `svg` is a well-formed tag tree (every element closed in
/// order, one root) and counts the elements by name.
testing::AssertionResult wellFormed(const std::string &svg,
                                    std::map<std::string, int> &counts) {
  std::vector<std::string> open;
  int roots = 0;
  size_t i = 0;
  while ((i = svg.find('<', i)) != std::string::npos) {
    size_t end = svg.find('>', i);
    if (end == std::string::npos)
      return testing::AssertionFailure() << "unterminated tag at " << i;
    std::string tag = svg.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty())
      return testing::AssertionFailure() << "empty tag";
    if (tag[0] == '?' || tag[0] == '!')
      continue; // XML declaration, comment
    if (tag[0] == '/') {
      std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return testing::AssertionFailure() << "unbalanced </" << name << ">";
      open.pop_back();
      continue;
    }
    bool selfClosing = tag.back() == '/';
    std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    ++counts[name];
    if (open.empty())
      ++roots;
    if (!selfClosing)
      open.push_back(name);
  }
  if (!open.empty())
    return testing::AssertionFailure() << "<" << open.back() << "> not closed";
  if (roots != 1)
    return testing::AssertionFailure() << roots << " root elements";
  return testing::AssertionSuccess();
}

/// The fill attributes of the <rect> elements, in document order.
std::vector<std::string> rectFills(const std::string &svg) {
  std::vector<std::string> fills;
  std::regex rect(R"re(<rect [^>]*fill="([^"]*)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect);
       it != std::sregex_iterator(); ++it)
    fills.push_back((*it)[1]);
  return fills;
}

TEST(CliShow, RowMajorTableOfRank2Layout) {
  // (2,3):(3,1): cell (r,c) = 3r + c -> rows [0,1,2] and [3,4,5].
  CliRun r = runCli({"show", "(2,3):(3,1)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "(2,3):(3,1)\n"
                   "    0   1   2\n"
                   "  +---+---+---+\n"
                   "0 | 0 | 1 | 2 |\n"
                   "  +---+---+---+\n"
                   "1 | 3 | 4 | 5 |\n"
                   "  +---+---+---+\n");
}

TEST(CliShow, HierarchicalModesAreIndexedOneDimensionally) {
  // ((2,2),4):((1,8),2): row r splits as (r mod 2, r div 2) over (2,2), so
  // cell (r,c) = (r mod 2)*1 + (r div 2)*8 + 2c.
  CliRun r = runCli({"show", "((2,2),4):((1,8),2)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = r.json();
  EXPECT_EQ(j["result"]["rows"], 4);
  EXPECT_EQ(j["result"]["cols"], 4);
  EXPECT_EQ(j["result"]["table"],
            nlohmann::json::parse("[[0,2,4,6],[1,3,5,7],"
                                  "[8,10,12,14],[9,11,13,15]]"));
}

TEST(CliShow, Rank1IsOneRow) {
  // 8:2 -> one row 0,2,...,14.
  CliRun r = runCli({"show", "8:2", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["table"],
            nlohmann::json::parse("[[0,2,4,6,8,10,12,14]]"));
}

TEST(CliShow, SwizzledLayout) {
  // Sw<1,0,1> XORs bit 1 into bit 0. (2,2):(1,2) gives r + 2c:
  // (0,0)=0->0, (1,0)=1->1, (0,1)=2->3, (1,1)=3->2.
  CliRun r = runCli({"show", "Sw<1,0,1> o (2,2):(1,2)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["table"],
            nlohmann::json::parse("[[0,3],[1,2]]"));

  // Sw<3,4,3> o (8,64):(64,1): cell (2,0) = Sw(128): bit 7 -> bit 4 = 144;
  // cell (2,16) = Sw(144) = 128 (self-inverse); cell (1,0) = Sw(64) = 64.
  r = runCli({"show", "Sw<3,4,3> o (8,64):(64,1)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json t = r.json()["result"]["table"];
  EXPECT_EQ(t[2][0], 144);
  EXPECT_EQ(t[2][16], 128);
  EXPECT_EQ(t[1][0], 64);
  EXPECT_EQ(r.json()["result"]["layout"]["swizzle"],
            nlohmann::json::parse(R"({"B":3,"M":4,"S":3})"));
}

TEST(CliShow, BasisStridesShowCodomainTuples) {
  // (4,3):(1@0,1@1) is the identity of a 4x3 coordinate space.
  CliRun r = runCli({"show", "(4,3):(1@0,1@1)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json t = r.json()["result"]["table"];
  EXPECT_EQ(t[3][2], nlohmann::json::parse("[3,2]"));
  EXPECT_EQ(t[0][1], nlohmann::json::parse("[0,1]"));
}

TEST(CliShow, Rank3SuggestsGroupModes) {
  CliRun r = runCli({"show", "(2,2,2):(1,2,4)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("rank 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("group_modes"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CliShow, SvgIsWellFormedWithOneRectPerCell) {
  CliRun r = runCli({"show", "(2,3):(3,1)", "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, int> counts;
  ASSERT_TRUE(wellFormed(r.out, counts)) << r.out;
  EXPECT_EQ(counts["svg"], 1);
  EXPECT_EQ(counts["rect"], 6);
  // 6 cell labels + 2 row headers + 3 column headers.
  EXPECT_EQ(counts["text"], 6 + 2 + 3);
  EXPECT_NE(r.out.find("xmlns=\"http://www.w3.org/2000/svg\""),
            std::string::npos);
  EXPECT_NE(r.out.find("version=\"1.1\""), std::string::npos);
  EXPECT_NE(r.out.find("viewBox=\"0 0 "), std::string::npos);
  // The labels are the offsets 0..5.
  for (int v = 0; v < 6; ++v)
    EXPECT_NE(r.out.find(">" + std::to_string(v) + "</text>"),
              std::string::npos);
}

TEST(CliShow, SvgFillDependsOnOffsetModulo8) {
  // 16:1: cell i holds offset i; cells 0 and 8 share a fill, 0 and 1 do not.
  CliRun r = runCli({"show", "16:1", "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> fills = rectFills(r.out);
  ASSERT_EQ(fills.size(), 16u);
  EXPECT_EQ(fills[0], fills[8]);
  EXPECT_EQ(fills[3], fills[11]);
  for (int i = 1; i < 8; ++i)
    EXPECT_NE(fills[0], fills[size_t(i)]) << i;
}

TEST(CliShow, SvgEscapesTheSwizzleTitle) {
  CliRun r = runCli({"show", "Sw<3,4,3> o (8,64):(64,1)", "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, int> counts;
  ASSERT_TRUE(wellFormed(r.out, counts));
  EXPECT_EQ(counts["rect"], 8 * 64);
  EXPECT_EQ(counts["text"], 8 * 64 + 8 + 64);
  EXPECT_NE(r.out.find("<title>Sw&lt;3,4,3&gt; o (8,64):(64,1)</title>"),
            std::string::npos);
}

TEST(CliShow, SvgFileIsWrittenAndTableStillPrinted) {
  std::string path = ::testing::TempDir() + "layoutkit_show_test.svg";
  CliRun r = runCli({"show", "(2,2):(1,2)", "--svg", path, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["svg_file"], path);
  std::ifstream file(path);
  std::string svg((std::istreambuf_iterator<char>(file)), {});
  std::map<std::string, int> counts;
  ASSERT_TRUE(wellFormed(svg, counts));
  EXPECT_EQ(counts["rect"], 4);
  std::remove(path.c_str());
}

TEST(CliShow, TileShowColoursByThreadNumber) {
  // S[(2,24):(1@warpid,1@laneid)]: cell (r, c) is lane c of warp r, thread
  // c + 32 r (api::threadIndex); the twelve fills repeat every 12 threads.
  CliRun r = runCli({"tile", "show", "S[(2,24):(1@warpid,1@laneid)]", "(2,24)",
                     "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> fills = rectFills(r.out);
  ASSERT_EQ(fills.size(), 48u);
  EXPECT_EQ(fills[0], fills[12]); // threads 0 and 12
  EXPECT_NE(fills[0], fills[1]);  // threads 0 and 1
  EXPECT_EQ(fills[24], fills[8]); // thread 32 = 8 mod 12
  EXPECT_NE(fills[24], fills[0]); // threads 32 and 0
}

TEST(CliShow, UnwritableSvgPathIsAnInputError) {
  CliRun r = runCli({"show", "4:1", "--svg", "/nonexistent-dir/x.svg"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
}

TEST(ShowLibrary, TabulateAndPalette) {
  lk::cute::ComposedLayout c;
  c.layout = lk::cute::Layout::unchecked(lk::IntTuple::tuple({2, 3}),
                                         lk::IntTuple::tuple({3, 1}));
  auto table = lk::api::tabulate(c);
  ASSERT_TRUE(table);
  EXPECT_EQ(table->rows, 2);
  EXPECT_EQ(table->cols, 3);
  EXPECT_EQ(table->at(1, 2), lk::IntTuple(5)); // 3*1 + 2
  EXPECT_EQ(lk::cli::paletteSlot(lk::IntTuple(13)), 5);
  EXPECT_EQ(lk::cli::paletteSlot(lk::IntTuple(-1)), 7);
}

TEST(ShowLibrary, TooManyCellsIsRefused) {
  // 512 x 512 = 262144 cells > api::kMaxTableCells.
  CliRun r = runCli({"show", "(512,512):(1,512)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cells"), std::string::npos) << r.err;
}

} // namespace
