//===- TileParserRobustnessTest.cpp - The tile grammar on hostile input ---===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// 30000 deterministic inputs (fixed seed): random bytes, mutations of valid
/// texts (insert / delete / replace / duplicate / swap), huge integers and
/// very long lists. Every parse must return either a layout that round-trips
/// (and evaluates), or a diagnostic whose range lies inside the input.
/// (Crashes and hangs fail the run; the whole test takes well under a second.)
///
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TileText.h"

#include "support/TileTestSupport.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::tile;
using lk::tile::testing::TileGenerator;

namespace {

constexpr std::string_view kAlphabet =
    "SR[]()<>,:@+ -0123456789mlaneidwarpidtid_in_wgTLaneTColPF";

const char *kSeeds[] = {
    "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
    "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]",
    "S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]",
    "S[(8,4,2):(4@laneid,1@laneid,1)]",
    "S[8:1]",
    "S[(16,2):(1@tid_in_wg,32@TCol)] + R[4:32@tid] + R[2:32] + 8@TLane + 5",
    "S[(4):(1)] + R[(2,3):(4@warpid,0)] + 2@m + 5@pid",
};

class Mutator {
public:
  explicit Mutator(uint64_t seed) : g_(seed) {}
  TileGenerator &gen() { return g_; }

  char anyChar() {
    if (g_.chance(75))
      return kAlphabet[size_t(g_.uniform(0, int64_t(kAlphabet.size()) - 1))];
    return char(g_.uniform(0, 255));
  }
  std::string randomBytes() {
    std::string s;
    for (int64_t i = 0, n = g_.uniform(0, 48); i < n; ++i)
      s += anyChar();
    return s;
  }
  std::string mutate(std::string s) {
    for (int64_t k = 0, n = g_.uniform(1, 4); k < n; ++k) {
      size_t pos = s.empty() ? 0 : size_t(g_.uniform(0, int64_t(s.size())));
      switch (g_.uniform(0, 6)) {
      case 0:
        s.insert(pos, 1, anyChar());
        break;
      case 1:
        if (pos < s.size())
          s.erase(pos, size_t(g_.uniform(1, 4)));
        break;
      case 2:
        if (pos < s.size())
          s[pos] = anyChar();
        break;
      case 3: { // duplicate a slice
        size_t len = size_t(g_.uniform(0, 12));
        if (pos < s.size())
          s.insert(pos, s.substr(pos, len));
        break;
      }
      case 4:
        s.insert(pos, g_.chance(50) ? "99999999999999999999"
                                    : "9223372036854775807");
        break;
      case 5:
        s.insert(pos, g_.chance(50) ? "@" : " + ");
        break;
      default:
        if (pos + 1 < s.size())
          std::swap(s[pos], s[pos + 1]);
      }
    }
    return s;
  }

private:
  TileGenerator g_;
};

void check(const std::string &text) {
  Expected<TileLayout> l = parseTileLayout(text);
  if (!l) {
    const Diagnostic &d = l.error();
    ASSERT_FALSE(d.message.empty()) << text;
    ASSERT_TRUE(d.range) << text << ": " << d.message;
    ASSERT_LE(d.range->begin.offset, d.range->end.offset) << text;
    ASSERT_LE(d.range->end.offset, text.size()) << text;
    (void)d.render();
    return;
  }
  std::string printed = l->str();
  Expected<TileLayout> back = parseTileLayout(printed);
  ASSERT_TRUE(back) << text << " -> " << printed;
  ASSERT_EQ(*back, *l) << text << " -> " << printed;
  ASSERT_EQ(back->str(), printed);
  // The forward map of the first and last element is defined.
  CoordSet s;
  if (l->replicaCount() <= 4096) {
    l->evalInto(0, s);
    l->evalInto(l->size() - 1, s);
    ASSERT_EQ(s.size(), size_t(l->replicaCount()));
  }
}

TEST(TileParserRobustness, HostileInputsNeverCrash) {
  Mutator m(0x5eed71e);
  for (int i = 0; i < 30000; ++i) {
    std::string text;
    switch (m.gen().uniform(0, 3)) {
    case 0:
      text = m.randomBytes();
      break;
    case 1:
      text = m.gen().layout(int64_t(1) << 30, 6, 3, 3).str();
      text = m.mutate(text);
      break;
    default:
      text =
          m.mutate(kSeeds[m.gen().uniform(0, int64_t(std::size(kSeeds)) - 1)]);
    }
    check(text);
    if (::testing::Test::HasFatalFailure())
      return;
  }
}

TEST(TileParserRobustness, LongAndDeepInputs) {
  check(std::string(100000, '('));
  check("S[" + std::string(100000, '(') + "8):(1)]");
  std::string many = "S[(2):(1)]";
  for (int i = 0; i < 5000; ++i)
    many += " + R[1:0]";
  check(many); // over the iter limit: diagnosed
  std::string offsets = "S[(2):(1)]";
  for (int i = 0; i < 100; ++i)
    offsets += " + 1@m";
  check(offsets); // second offset on m
  check("S[(9223372036854775807):(9223372036854775807)]");
  check("S[(2):(9223372036854775807)]");
  check("S[(1):(9223372036854775807)] + 9223372036854775807");
}

} // namespace
