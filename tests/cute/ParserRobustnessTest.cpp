//===- ParserRobustnessTest.cpp - Every parser on hostile input -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// For each grammar, 20000 deterministic inputs (fixed seed): random bytes,
/// mutations of valid texts (insert / delete / replace / duplicate), deep
/// nesting and huge integers. Every parse must return either a value that
/// round-trips, or a diagnostic whose range lies inside the input. (Crashes,
/// hangs and sanitizer reports fail the test run.)
///
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Attribute.h"
#include "layoutkit/cute/BasisDescriptor.h"
#include "layoutkit/cute/Text.h"

#include "support/GrammarTestSupport.h"

#include <gtest/gtest.h>

#include <functional>

using namespace lk;
using namespace lk::cute;
using lk::cute::testing::Generator;
using lk::cute::testing::rangeInside;

namespace {

constexpr int kInputsPerParser = 20000;

/// Characters the grammars care about, so mutations often stay close to
/// valid text.
constexpr std::string_view kAlphabet = "()<>,:@/_-=0123456789 \tSwo_elmswizzle";

class Mutator {
public:
  explicit Mutator(uint64_t seed) : g_(seed) {}
  Generator &gen() { return g_; }

  char anyChar() {
    if (g_.chance(70))
      return kAlphabet[size_t(g_.uniform(0, int64_t(kAlphabet.size()) - 1))];
    return char(g_.uniform(0, 255));
  }

  std::string randomBytes() {
    std::string s;
    for (int64_t i = 0, n = g_.uniform(0, 40); i < n; ++i)
      s += anyChar();
    return s;
  }

  std::string mutate(std::string s) {
    for (int64_t k = 0, n = g_.uniform(1, 4); k < n; ++k) {
      size_t pos = s.empty() ? 0 : size_t(g_.uniform(0, int64_t(s.size())));
      switch (g_.uniform(0, 8)) {
      case 0:
      case 1:
        s.insert(pos, 1, anyChar());
        break;
      case 2:
      case 3:
        if (pos < s.size())
          s.erase(pos, size_t(g_.uniform(1, 3)));
        break;
      case 4:
      case 5:
        if (pos < s.size())
          s[pos] = anyChar();
        break;
      case 6: { // duplicate a slice
        if (s.empty())
          break;
        size_t from = size_t(g_.uniform(0, int64_t(s.size()) - 1));
        size_t len = size_t(g_.uniform(1, int64_t(s.size() - from)));
        s.insert(pos, s.substr(from, len));
        break;
      }
      case 7: // a huge integer
        s.insert(pos, g_.chance(50) ? "99999999999999999999999"
                                    : "-9223372036854775808");
        break;
      case 8: // deep nesting
        s.insert(pos, std::string(size_t(g_.uniform(60, 10000)),
                                  g_.chance(80) ? '(' : '<'));
        break;
      }
    }
    return s;
  }

private:
  Generator g_;
};

/// Runs `parse` on kInputsPerParser inputs built from `valid` texts.
/// `check` receives each input; it returns a failure message or "".
void hammer(uint64_t seed, const std::function<std::string(Mutator &)> &valid,
            const std::function<std::string(const std::string &)> &check) {
  Mutator m(seed);
  int failures = 0;
  for (int i = 0; i < kInputsPerParser && failures < 10; ++i) {
    std::string input;
    switch (i % 10) {
    case 0:
      input = m.randomBytes();
      break;
    case 1:
      input = std::string(size_t(m.gen().uniform(1, 10000)), '(');
      break;
    case 2:
      input = valid(m);
      break;
    default:
      input = m.mutate(valid(m));
    }
    std::string problem = check(input);
    if (!problem.empty()) {
      ADD_FAILURE() << "input #" << i << " '" << input << "': " << problem;
      ++failures;
    }
  }
}

template <class T>
std::string diagnosticProblem(const Expected<T> &r, const std::string &input) {
  if (r)
    return "";
  if (!rangeInside(r.error(), input))
    return "diagnostic '" + r.error().message +
           "' has a range outside the text";
  if (r.error().message.empty())
    return "empty diagnostic message";
  return "";
}

TEST(ParserRobustness, IntTuple) {
  hammer(
      0x0b05700001, [](Mutator &m) { return m.gen().intTuple().str(); },
      [](const std::string &in) -> std::string {
        Expected<IntTuple> r = parseIntTuple(in);
        if (!r)
          return diagnosticProblem(r, in);
        Expected<IntTuple> again = parseIntTuple(r->str());
        if (!again || *again != *r)
          return "does not round-trip: " + r->str();
        return "";
      });
}

TEST(ParserRobustness, Layout) {
  hammer(
      0x0b05700002, [](Mutator &m) { return m.gen().layout().str(); },
      [](const std::string &in) -> std::string {
        Expected<Layout> r = parseLayout(in);
        if (!r)
          return diagnosticProblem(r, in);
        Expected<Layout> again = parseLayout(r->str());
        if (!again || *again != *r)
          return "does not round-trip: " + r->str();
        return "";
      });
}

TEST(ParserRobustness, ComposedLayout) {
  hammer(
      0x0b05700003,
      [](Mutator &m) {
        Generator &g = m.gen();
        int b = int(g.uniform(0, 3));
        ComposedLayout c{*Swizzle::make(b, g.uniform(0, 5), g.uniform(b, 5)),
                         g.chance(70) ? 0 : g.integer(true), g.layout()};
        return c.str();
      },
      [](const std::string &in) -> std::string {
        Expected<ComposedLayout> r = parseComposedLayout(in);
        if (!r)
          return diagnosticProblem(r, in);
        Expected<ComposedLayout> again = parseComposedLayout(r->str());
        if (!again || !(*again == *r))
          return "does not round-trip: " + r->str();
        return "";
      });
}

TEST(ParserRobustness, Tiler) {
  hammer(
      0x0b05700004, [](Mutator &m) { return m.gen().tiler().str(); },
      [](const std::string &in) -> std::string {
        Expected<Tiler> r = parseTiler(in);
        if (!r)
          return diagnosticProblem(r, in);
        Expected<Tiler> again = parseTiler(r->str());
        if (!again || !(*again == *r))
          return "does not round-trip: " + r->str();
        return "";
      });
}

TEST(ParserRobustness, BasisDescriptor) {
  hammer(
      0x0b05700005,
      [](Mutator &m) {
        std::string s = *printBasisDescriptor(m.gen().descriptor());
        // Sometimes write a count as a fraction.
        if (m.gen().chance(30)) {
          size_t at = s.find('@');
          if (at != std::string::npos)
            s.insert(at, "/" + std::to_string(m.gen().uniform(-3, 3)));
        }
        return s;
      },
      [](const std::string &in) -> std::string {
        Expected<BasisDescriptorSyntax> syntax = parseBasisDescriptorSyntax(in);
        if (!syntax)
          return diagnosticProblem(syntax, in);
        Expected<IntTuple> r = normalizeBasisDescriptor(*syntax, in);
        if (!r)
          return diagnosticProblem(r, in);
        Expected<std::string> text = printBasisDescriptor(*r);
        if (!text)
          return "normalized descriptor does not print: " +
                 text.error().message;
        Expected<IntTuple> again = parseBasisDescriptor(*text);
        if (!again || *again != *r)
          return "does not round-trip: " + *text;
        return "";
      });
}

TEST(ParserRobustness, LayoutAttribute) {
  std::vector<ElementType> types = ElementTypeRegistry::global().all();
  hammer(
      0x0b05700006, [&](Mutator &m) { return m.gen().attribute(types).str(); },
      [](const std::string &in) -> std::string {
        Expected<LayoutAttribute> r = parseLayoutAttribute(in);
        if (!r)
          return diagnosticProblem(r, in);
        if (!LayoutAttribute::make(r->layout, r->swizzle, r->elem))
          return "parsed a value make() rejects: " + r->str();
        Expected<LayoutAttribute> again = parseLayoutAttribute(r->str());
        if (!again || !(*again == *r))
          return "does not round-trip: " + r->str();
        return "";
      });
}

TEST(ParserRobustness, EmptyAndBlankInputs) {
  for (std::string in : std::vector<std::string>{
           "", " ", "\t", "\n", std::string(1, '\0'), std::string("(\0)", 3)}) {
    EXPECT_EQ(diagnosticProblem(parseIntTuple(in), in), "");
    EXPECT_EQ(diagnosticProblem(parseLayout(in), in), "");
    EXPECT_EQ(diagnosticProblem(parseComposedLayout(in), in), "");
    EXPECT_EQ(diagnosticProblem(parseTiler(in), in), "");
    EXPECT_EQ(diagnosticProblem(parseBasisDescriptor(in), in), "");
    EXPECT_EQ(diagnosticProblem(parseLayoutAttribute(in), in), "");
    EXPECT_FALSE(parseLayoutAttribute(in));
    EXPECT_FALSE(parseBasisDescriptor(in));
  }
}

} // namespace
