//===- ExactAgreementTest.cpp - Exact answers where CuTe has one ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Products of layouts with holes (the copies of A placed at the rest's
/// offsets), max_common_vector on every pair of equal size, and results out
/// of the 64-bit range. Expected values are hand derivations written beside
/// each case; the random tests compare with brute-force computations that
/// share no code with the library's algebra (evaluation by the definition,
/// CuTe's complement arithmetic written out, 128-bit sizes).
///
//===----------------------------------------------------------------------===//

#include "support/AlgebraTestSupport.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

using namespace lk;
using namespace lk::cute;
using namespace lk::cute::testing;

namespace {

std::string str(const Expected<Layout> &l) {
  return l ? l->str() : "error: " + l.error().message;
}

/// L(i) by the definition: i split colexicographically over the leaves.
int64_t refEval(const Layout &l, int64_t i) {
  int64_t off = 0;
  auto s = l.shape().leaves(), d = l.stride().leaves();
  for (size_t k = 0; k < s.size(); ++k) {
    off += (i % s[k].value) * d[k].value;
    i /= s[k].value;
  }
  return off;
}

/// True when copies of A at two different offsets of `rest` share a point.
bool copiesOverlap(const Layout &a, const Layout &rest) {
  std::set<int64_t> offs;
  for (int64_t j = 0; j < rest.size(); ++j)
    offs.insert(refEval(rest, j));
  std::map<int64_t, int64_t> owner;
  for (int64_t o : offs)
    for (int64_t i = 0; i < a.size(); ++i) {
      auto [it, fresh] = owner.emplace(refEval(a, i) + o, o);
      if (!fresh && it->second != o)
        return true;
    }
  return false;
}

/// CuTe's complement(A, M) written out: sort A's non-trivial modes by
/// stride, fill each gap with stride/current (integer division), then
/// ceil(M / current). Modes as (shape, stride); empty when A is not
/// injective in CuTe's sense (a gap of 0).
std::vector<std::pair<int64_t, int64_t>> refComplement(const Layout &a,
                                                       int64_t m) {
  std::vector<std::pair<int64_t, int64_t>> modes, out;
  auto s = a.shape().leaves(), d = a.stride().leaves();
  for (size_t k = 0; k < s.size(); ++k)
    if (s[k].value > 1 && d[k].value != 0)
      modes.push_back({d[k].value, s[k].value});
  std::stable_sort(modes.begin(), modes.end());
  int64_t curr = 1;
  for (auto [stride, shape] : modes) {
    if (stride / curr == 0)
      return {};
    out.push_back({stride / curr, curr});
    curr = shape * stride;
  }
  out.push_back({(m + curr - 1) / curr, curr});
  return out;
}

TEST(ExactProduct, CopiesOfAGappedLayoutDoNotOverlap) {
  // A = (3,4):(1,5) covers {0,1,2, 5,6,7, ..., 15,16,17}: cosize 18.
  // complement(A, 12*3 = 36): 3:1 ends at 3, the gap 5/3 = 1 adds 1:3,
  // 4:5 ends at 20, then ceil(36/20) = 2: coalesced 2:20. B = 3:1 needs 3
  // offsets of it: composition continues along 2:20 to 3:20, and copies at
  // 0, 20, 40 do not meet since 18 <= 20.
  EXPECT_EQ(str(logical_product(L("(3,4):(1,5)"), T("3:1"))),
            "((3,4),3):((1,5),20)");
  // Neighbours: inside the complement (2 <= 2 offsets) and further out.
  EXPECT_EQ(str(logical_product(L("(3,4):(1,5)"), T("2:1"))),
            "((3,4),2):((1,5),20)");
  EXPECT_EQ(str(logical_product(L("(3,4):(1,5)"), T("4:1"))),
            "((3,4),4):((1,5),20)");
  // B = 3:2 has cosize 5: complement(A, 60) = 3:20, composed with 3:2 the
  // offsets 0, 40, 80.
  EXPECT_EQ(str(logical_product(L("(3,4):(1,5)"), T("3:2"))),
            "((3,4),3):((1,5),40)");
}

TEST(ExactProduct, ProductsBuiltOnLogicalProductAgree) {
  // tiled, zipped, flat, blocked and raked regroup logical_product's result:
  // the same offsets, each once.
  Layout a = L("(3,4):(1,5)");
  auto sorted = [](const Layout &l) {
    std::vector<int64_t> v = values(l);
    std::sort(v.begin(), v.end());
    return v;
  };
  Layout p = *logical_product(a, T("3:1"));
  for (auto *op : {&zipped_product, &tiled_product, &flat_product}) {
    Expected<Layout> r = (*op)(a, T("3:1"));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(sorted(*r), sorted(p)) << r->str();
  }
  for (auto *op : {&blocked_product, &raked_product}) {
    Expected<Layout> r = (*op)(a, L("3:1"));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(sorted(*r), sorted(p)) << r->str();
  }
}

TEST(ExactProduct, RealOverlapIsStillAnError) {
  // (3,5):(3,17): complement in 60 coalesces to 3:1 (3 ends at 9, the gap
  // 17/9 = 1 and the last mode ceil(60/85) = 1 are size 1). B = 4:1 goes on
  // to offset 3, where A(1,0) = 3 already is.
  Expected<Layout> r = logical_product(L("(3,5):(3,17)"), T("4:1"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("overlap"), std::string::npos)
      << r.error().message;
  // B = 4:0 puts all copies at 0: they coincide, which CuTe allows.
  EXPECT_EQ(str(logical_product(L("(3,5):(3,17)"), T("4:0"))),
            "((3,5),4):((3,17),0)");
}

TEST(ExactProduct, CopiesStackedByAStrideZeroComplementAreAnError) {
  // A = (2,8,2):(1,3,32), size 32, image {0..22} + {0,32}: complement in
  // size(A)*cosize(B) = 64 has size 1 (1:0). B = 2:1 continues it with
  // stride 0, so both copies sit at offset 0 although B(0) != B(1): the
  // product would not be injective (found by fuzz_algebra, with a size-1
  // mode of stride -6 in front).
  for (const char *a : {"(2,8,2):(1,3,32)", "(1,2,8,2):(-6,1,3,32)"}) {
    Expected<Layout> r = logical_product(L(a), T("2:1"));
    ASSERT_FALSE(r) << a << " -> " << r->str();
    EXPECT_NE(r.error().message.find("overlap"), std::string::npos)
        << r.error().message;
  }
}

TEST(ExactProduct, RandomProductsAgreeWithBruteForce) {
  LayoutGen g(1601);
  int checked = 0, continued = 0, overlapping = 0;
  for (int t = 0; t < 20000; ++t) {
    Layout a = g.any(3, 5, 12);
    Layout b = g.any(2, 4, 6);
    Expected<Layout> r = logical_product(a, Tiler::of(b));
    int64_t cosB = *b.cosize();
    auto comp = refComplement(a, a.size() * cosB);
    if (!r) {
      if (r.error().message.find("overlap") == std::string::npos)
        continue; // CuTe's divisibility or injectivity conditions
      // Rebuild the rest by CuTe's arithmetic: comp o B, continuing past
      // the complement along its last non-trivial mode.
      ASSERT_FALSE(comp.empty()) << a.str();
      std::vector<std::pair<int64_t, int64_t>> cm;
      for (auto m : comp)
        if (m.first > 1)
          cm.push_back(m);
      if (cm.empty())
        cm.push_back({1, 0});
      std::vector<int64_t> restShape, restStride;
      std::set<int64_t> offs;
      for (int64_t j = 0; j < b.size(); ++j) {
        int64_t k = refEval(b, j), off = 0;
        for (size_t q = 0; q < cm.size(); ++q) {
          int64_t digit = q + 1 == cm.size() ? k : k % cm[q].first;
          off += digit * cm[q].second;
          k /= cm[q].first;
        }
        offs.insert(off);
      }
      std::map<int64_t, int64_t> owner;
      bool overlap = false;
      for (int64_t o : offs)
        for (int64_t i = 0; i < a.size(); ++i) {
          auto [it, fresh] = owner.emplace(refEval(a, i) + o, o);
          overlap |= !fresh && it->second != o;
        }
      EXPECT_TRUE(overlap) << a.str() << " x " << b.str() << ": "
                           << r.error().message;
      ++overlapping;
      continue;
    }
    ++checked;
    ASSERT_EQ(r->rank(), 2u) << r->str();
    EXPECT_EQ(r->mode(0), a) << r->str();
    Layout rest = r->mode(1);
    EXPECT_FALSE(copiesOverlap(a, rest))
        << a.str() << " x " << b.str() << " = " << r->str();
    // Inside the complement, rest(j) = comp(B(j)) exactly.
    int64_t compSize = 1;
    for (auto m : comp)
      compSize *= m.first;
    if (cosB > compSize) {
      ++continued;
      continue;
    }
    for (int64_t j = 0; j < b.size(); ++j) {
      int64_t k = refEval(b, j), off = 0;
      for (auto [s, d] : comp) {
        off += (k % s) * d;
        k /= s;
      }
      EXPECT_EQ(refEval(rest, j), off) << a.str() << " x " << b.str();
    }
  }
  // The generator reaches every branch.
  EXPECT_GT(checked, 2000);
  EXPECT_GT(continued, 50);
  EXPECT_GT(overlapping, 3);
  std::cout << checked << " products, " << continued << " past the complement, "
            << overlapping << " overlapping\n";
}

/// The common contiguous prefix by brute force, for an injective B:
/// N = the largest n with A(B^-1(j)) = j for all j < n, stopping where j is
/// not an offset of B.
int64_t refCommon(const Layout &a, const Layout &b) {
  std::map<int64_t, int64_t> inv;
  for (int64_t i = 0; i < b.size(); ++i)
    inv[refEval(b, i)] = i;
  int64_t n = 0;
  while (true) {
    auto it = inv.find(n);
    if (it == inv.end() || refEval(a, it->second) != n)
      break;
    ++n;
  }
  return std::max<int64_t>(n, 1);
}

TEST(ExactCommon, OracleRejectedPairsHaveAnAnswer) {
  // B = (35,4,4):(16,1,4): right_inverse = (4,4,35):(35,140,1), so
  // invB(1) = 35. A(35) = A at ((3,4),(0,0),0) = 3*840 + 4*42 = 2688 != 1:
  // the common vector is 1 (A o invB fails CuTe's stride divisibility).
  EXPECT_EQ(*max_common_vector(L("((8,5),(2,7),1):((840,42),(21,1),210)"),
                               L("(35,4,4):(16,1,4)")),
            1);
  // A = (2,12,32):(2,1024,8): A(1) = 2, so nothing beyond offset 0 is
  // shared with B = ((2),128,3):((3),6,1), whose invB(1) = 256.
  EXPECT_EQ(str(max_common_layout(L("(2,12,32):(2,1024,8)"),
                                  L("((2),128,3):((3),6,1)"))),
            "1:0");
}

TEST(ExactCommon, LongCommonPrefixWhereCompositionFails) {
  // A = (4,6):(1,4) is 24:1 on [0,24); B = (4,3,2):(1,4,12) is also 24:1.
  // Both agree on everything: 24.
  EXPECT_EQ(*max_common_vector(L("(4,6):(1,4)"), L("(4,3,2):(1,4,12)")), 24);
  // A = (4,3,2):(1,4,13): 12 contiguous, then 13. B = 24:1: invB = 24:1,
  // A o 24:1 = A, first mode 12:1.
  EXPECT_EQ(*max_common_vector(L("(4,3,2):(1,4,13)"), L("24:1")), 12);
  EXPECT_EQ(str(max_common_layout(L("(4,3,2):(1,4,13)"), L("24:1"))), "12:1");
}

TEST(ExactCommon, NeverFailsOnEqualSizes) {
  LayoutGen g(1602);
  int injective = 0, undefined = 0;
  for (int t = 0; t < 4000; ++t) {
    Layout a = t % 2 ? g.any(4, 6, 40) : g.injective(4, 6, t % 4 == 0);
    // B: the shape of A's size split into random factors, any strides.
    int64_t n = a.size();
    std::vector<int64_t> shape;
    for (int64_t f = 2; f <= n; ++f)
      while (n % f == 0 && g.pick(0, 1)) {
        shape.push_back(f);
        n /= f;
      }
    if (n > 1)
      shape.push_back(n);
    if (shape.empty())
      shape.push_back(1);
    std::shuffle(shape.begin(), shape.end(), g.rng());
    std::string bs = "(", bd = "(";
    int64_t run = 1;
    bool inj = g.pick(0, 1);
    for (size_t k = 0; k < shape.size(); ++k) {
      bs += (k ? "," : "") + std::to_string(shape[k]);
      int64_t d = inj ? run : g.pick(0, 30);
      bd += (k ? "," : "") + std::to_string(d);
      run *= shape[k];
    }
    Layout b = L(bs + "):" + bd + ")");
    if (inj) {
      // A permutation of the compact strides keeps B injective.
      std::vector<size_t> perm(shape.size());
      for (size_t k = 0; k < perm.size(); ++k)
        perm[k] = k;
      std::shuffle(perm.begin(), perm.end(), g.rng());
      std::vector<int64_t> d(shape.size());
      int64_t r = 1;
      for (size_t k : perm) {
        d[k] = r;
        r *= shape[k];
      }
      b = Layout::unchecked(b.shape(), b.shape().withLeaves(d.data()));
    }
    // The class that failed: A o right_inverse(B) undefined.
    if (!composition(a, *right_inverse(b)))
      ++undefined;
    Expected<int64_t> v = max_common_vector(a, b);
    ASSERT_TRUE(v) << a.str() << " " << b.str() << ": " << v.error().message;
    Expected<Layout> m = max_common_layout(a, b);
    ASSERT_TRUE(m) << a.str() << " " << b.str() << ": " << m.error().message;
    EXPECT_GE(*v, 1);
    EXPECT_LE(*v, a.size());
    // The common layout R has A(R(i)) = B(R(i)) = i.
    for (int64_t i = 0; i < m->size(); ++i) {
      int64_t x = refEval(*m, i);
      ASSERT_LT(x, a.size());
      EXPECT_EQ(refEval(a, x), i) << a.str() << " " << b.str();
      EXPECT_EQ(refEval(b, x), i) << a.str() << " " << b.str();
    }
    if (inj) {
      ++injective;
      EXPECT_EQ(*v, refCommon(a, b)) << a.str() << " " << b.str();
    }
  }
  EXPECT_GT(injective, 1000);
  EXPECT_GT(undefined, 200);
  std::cout << undefined << " pairs where A o right_inverse(B) is undefined\n";
}

/// size and cosize in 128 bits: the reference for the range check.
bool fits(const Layout &l) {
  __int128 size = 1, reach = 1;
  auto s = l.shape().leaves(), d = l.stride().leaves();
  for (size_t k = 0; k < s.size(); ++k) {
    size *= s[k].value;
    __int128 dv = d[k].value < 0 ? -__int128(d[k].value) : d[k].value;
    reach += (s[k].value - 1) * dv;
    if (size > INT64_MAX || reach > INT64_MAX)
      return false;
  }
  return true;
}

TEST(ExactRange, ResultsBeyondSixtyFourBitsAreDiagnostics) {
  // left_inverse(2^62:2) = (2,2^62):(0,1) has size 2^63.
  Expected<Layout> r = left_inverse(L("4611686018427387904:2"));
  ASSERT_FALSE(r) << r->str();
  EXPECT_NE(r.error().message.find("does not fit in 64 bits"),
            std::string::npos)
      << r.error().message;
  // Neighbours: 2^61:2 inverts to (2,2^61):(0,1) (size 2^62 fits).
  EXPECT_EQ(str(left_inverse(L("2305843009213693952:2"))),
            "(2,2305843009213693952):(0,1)");
  // A product of size 2^62 * 2 does not fit either.
  EXPECT_FALSE(logical_product(L("4611686018427387904:1"), T("2:1")));
  EXPECT_FALSE(blocked_product(L("4611686018427387904:1"), L("2:1")));
}

TEST(ExactRange, EveryResultFitsOrIsADiagnostic) {
  LayoutGen g(1603);
  auto big = [&] {
    Layout l = g.any(3, 6, 8);
    std::vector<int64_t> s, d;
    for (const IntTuple::Node &n : l.shape().leaves())
      s.push_back(g.pick(0, 3) == 0 ? int64_t(1) << g.pick(20, 40) : n.value);
    for (const IntTuple::Node &n : l.stride().leaves())
      d.push_back(g.pick(0, 3) == 0 ? int64_t(1) << g.pick(10, 40) : n.value);
    Expected<Layout> r = Layout::make(l.shape().withLeaves(s.data()),
                                      l.shape().withLeaves(d.data()));
    return r ? *r : l;
  };
  int results = 0;
  for (int t = 0; t < 3000; ++t) {
    Layout a = big(), b = big();
    std::vector<Expected<Layout>> rs;
    rs.push_back(left_inverse(a));
    rs.push_back(right_inverse(a));
    rs.push_back(complement(a, IntTuple(int64_t(1) << g.pick(30, 62))));
    rs.push_back(composition(a, b));
    rs.push_back(logical_product(a, Tiler::of(b)));
    rs.push_back(blocked_product(a, b));
    rs.push_back(raked_product(a, b));
    rs.push_back(logical_divide(a, Tiler::of(b)));
    rs.push_back(max_common_layout(a, b));
    for (const Expected<Layout> &r : rs)
      if (r) {
        ++results;
        EXPECT_TRUE(fits(*r))
            << r->str() << " from " << a.str() << ", " << b.str();
      }
  }
  EXPECT_GT(results, 3000);
}

} // namespace
