//===- ParserRobustnessTest.cpp - The linear-layout parser on hostile input
//===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// 20000 deterministic inputs (fixed seed): random bytes over the grammar's
/// alphabet, mutations of valid texts (insert / delete / replace /
/// duplicate), huge integers and long inputs. Every parse must return either
/// a layout that round-trips, or a diagnostic whose range lies inside the
/// input. (Crashes, hangs and sanitizer reports fail the test run.)
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;

namespace {

constexpr int kInputs = 20000;
constexpr std::string_view kAlphabet =
    "{}[](),:->0123456789 \n_abcdeglnoprstwxyz";

class Mutator {
public:
  explicit Mutator(uint64_t seed) : r_(seed) {}
  lk::linear::testing::Random &rnd() { return r_; }

  char anyChar() {
    if (r_.chance(80))
      return kAlphabet[size_t(r_.uniform(0, int64_t(kAlphabet.size()) - 1))];
    return char(r_.uniform(0, 255));
  }
  std::string randomBytes() {
    std::string s;
    for (int64_t i = 0, n = r_.uniform(0, 60); i < n; ++i)
      s += anyChar();
    return s;
  }
  std::string mutate(std::string s) {
    for (int64_t k = 0, n = r_.uniform(1, 4); k < n; ++k) {
      size_t pos = s.empty() ? 0 : size_t(r_.uniform(0, int64_t(s.size())));
      switch (r_.uniform(0, 5)) {
      case 0:
        s.insert(pos, 1, anyChar());
        break;
      case 1:
        if (pos < s.size())
          s.erase(pos, size_t(r_.uniform(1, 4)));
        break;
      case 2:
        if (pos < s.size())
          s[pos] = anyChar();
        break;
      case 3:
        if (pos < s.size())
          s.insert(pos, s.substr(pos, size_t(r_.uniform(1, 12))));
        break;
      case 4:
        s.insert(pos, "99999999999999999999");
        break;
      default:
        s.insert(pos, std::string(size_t(r_.uniform(1, 3)), ','));
        break;
      }
    }
    return s;
  }

private:
  lk::linear::testing::Random r_;
};

void check(std::string_view text) {
  Expected<LinearLayout> r = parseLinearLayout(text);
  if (!r) {
    const Diagnostic &d = r.error();
    ASSERT_FALSE(d.message.empty()) << text;
    ASSERT_TRUE(d.range.has_value()) << text << ": " << d.message;
    ASSERT_LE(d.range->begin.offset, d.range->end.offset) << text;
    ASSERT_LE(d.range->end.offset, text.size()) << text << ": " << d.message;
    (void)d.render();
    return;
  }
  Expected<LinearLayout> back = parseLinearLayout(r->str());
  ASSERT_TRUE(back) << r->str();
  ASSERT_EQ(*back, *r) << text;
}

TEST(LinearParserRobustness, RandomAndMutatedInputs) {
  Mutator m(2024);
  std::vector<std::string> seeds = {
      "{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}",
      "{} -> {}",
      "{offset: [(1), (2), (4)], block: []} -> {dim0: 8}",
  };
  for (int i = 0; i < 50; ++i) {
    LinearLayout l = m.rnd().layout(int(m.rnd().uniform(0, 12)), 3,
                                    int(m.rnd().uniform(0, 12)), 2);
    seeds.push_back(l.str());
  }
  for (int i = 0; i < kInputs; ++i) {
    std::string text;
    if (i % 4 == 0)
      text = m.randomBytes();
    else
      text = m.mutate(
          seeds[size_t(m.rnd().uniform(0, int64_t(seeds.size()) - 1))]);
    check(text);
    if (::testing::Test::HasFatalFailure())
      return;
  }
}

} // namespace
