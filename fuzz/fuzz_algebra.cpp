//===- fuzz_algebra.cpp - Fuzz the postconditions of the CuTe algebra -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Runs the operations of layoutkit/cute/Algebra.h on small layouts and checks
/// each operation's postcondition against a brute-force reference whenever
/// the operation returns a value (errors are always fine).
///
/// Input: the first byte picks the operation (low 7 bits) and the decoding
/// (bit 7). Binary decoding (bit 7 clear) builds the layouts directly from
/// the following bytes, so the fuzzer explores their structure; see
/// readLayout. Text decoding (bit 7 set) reads `A|B|params`: A is parsed
/// with parseLayout, B with parseTiler (a layout where one is needed), and
/// the bytes after the second '|' are the operation's parameters. A seed
/// such as "\x80(4,2):(1,4)|(2,2):(1,2)" is therefore readable as text.
///
/// Layouts with more than 8 leaves or a size above 4096 are skipped, and the
/// checks that enumerate a result skip results above kMaxPoints, so one input
/// runs in well under 10 ms.
///
/// Every input also runs each operation that has a fast path
/// (FastPaths.cpp) against the general construction (AlgebraGeneral.h):
/// the same layout, or the same diagnostic.
///
/// LK_FUZZ_ALGEBRA_TRACE=1 prints each decoded input (to see what a seed or
/// a crash input means).
///
/// The reference evaluation L(x) splits x colexicographically over the
/// leaves, the last leaf taking whatever is left (Algebra.h's crd2idx
/// rule); it is written independently of the library's evaluator.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/core/Checked.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/AlgebraGeneral.h"
#include "layoutkit/cute/Text.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace lk;
using namespace lk::cute;

namespace {

constexpr int64_t kMaxSize = 4096;
constexpr size_t kMaxLeaves = 8;
/// Largest result enumerated point by point.
constexpr int64_t kMaxPoints = int64_t(1) << 13;

/// The reference evaluators run thousands of times per input; coverage
/// feedback from them is noise, and instrumenting them makes the target
/// several times slower.
#define LK_NO_COVERAGE __attribute__((no_sanitize("coverage")))

//===----------------------------------------------------------------------===//
// Failure reporting
//===----------------------------------------------------------------------===//

const char *gOp = "";
std::string gCtx;

[[noreturn]] void fail(const char *what, const std::string &detail) {
  std::fprintf(stderr,
               "\nfuzz_algebra: postcondition violated\n  op:     %s\n"
               "  inputs: %s\n  check:  %s\n  detail: %s\n",
               gOp, gCtx.c_str(), what, detail.c_str());
  std::abort();
}

#define ALG_CHECK(cond, ...)                                                   \
  do {                                                                         \
    if (!(cond))                                                               \
      fail(#cond, __VA_ARGS__);                                                \
  } while (0)

std::string S(int64_t v) { return std::to_string(v); }

//===----------------------------------------------------------------------===//
// Reference evaluation
//===----------------------------------------------------------------------===//

struct Leaf {
  int64_t shape;
  int64_t stride;
  uint32_t basis; // canonical: trailing @0 levels stripped (plain == @0)
};

uint32_t canonicalBasis(uint32_t raw) {
  BasisPath p = BasisPath::fromRaw(raw);
  int depth = p.depth();
  while (depth > 0 && p.at(depth - 1) == 0) {
    raw &= ~(uint32_t(0xff) << (8 * (depth - 1)));
    p = BasisPath::fromRaw(raw);
    --depth;
  }
  return raw;
}

struct Flat {
  std::vector<Leaf> leaves;
  int64_t size = 1;
  bool basis = false;
};

Flat flatOf(const Layout &l) {
  Flat f;
  auto s = l.shape().leaves();
  auto d = l.stride().leaves();
  for (size_t i = 0; i < s.size(); ++i) {
    uint32_t b = canonicalBasis(d[i].basis);
    f.leaves.push_back(Leaf{s[i].value, d[i].value, b});
    f.basis |= d[i].basis != 0;
    f.size *= s[i].value;
  }
  return f;
}

/// L(x) for integer strides; x may be negative or past size(L). A layout
/// without leaves (an empty tuple, size 1) is 0.
LK_NO_COVERAGE int64_t ev(const Flat &f, int64_t x) {
  int64_t r = 0;
  size_t n = f.leaves.size();
  if (n == 0)
    return 0;
  for (size_t k = 0; k + 1 < n; ++k) {
    r += (x % f.leaves[k].shape) * f.leaves[k].stride;
    x /= f.leaves[k].shape;
  }
  return r + x * f.leaves[n - 1].stride;
}

/// L(x) in a multi-dimensional codomain: (basis, value) terms sorted by
/// basis, no zero terms. Fixed capacity (the bases of a result come from an
/// input of at most kMaxLeaves leaves), so evaluating never allocates.
struct Off {
  int n = 0;
  std::pair<uint32_t, int64_t> t[2 * kMaxLeaves];
  bool operator==(const Off &o) const {
    return n == o.n && std::equal(t, t + n, o.t);
  }
  bool operator<(const Off &o) const {
    return std::lexicographical_compare(t, t + n, o.t, o.t + o.n);
  }
};

LK_NO_COVERAGE Off evo(const Flat &f, int64_t x) {
  Off o;
  auto add = [&](uint32_t b, int64_t v) {
    for (int k = 0; k < o.n; ++k)
      if (o.t[k].first == b) {
        o.t[k].second += v;
        return;
      }
    if (o.n == int(2 * kMaxLeaves))
      std::abort(); // more distinct bases than any input can have
    o.t[o.n++] = {b, v};
  };
  if (!f.basis) { // one plain term
    add(0, ev(f, x));
  } else {
    size_t n = f.leaves.size();
    for (size_t k = 0; k + 1 < n; ++k) {
      add(f.leaves[k].basis, (x % f.leaves[k].shape) * f.leaves[k].stride);
      x /= f.leaves[k].shape;
    }
    add(f.leaves[n - 1].basis, x * f.leaves[n - 1].stride);
  }
  int m = 0;
  for (int k = 0; k < o.n; ++k)
    if (o.t[k].second != 0)
      o.t[m++] = o.t[k];
  o.n = m;
  std::sort(o.t, o.t + o.n);
  return o;
}

std::string offStr(const Off &o) {
  if (o.n == 0)
    return "0";
  std::string s;
  for (int k = 0; k < o.n; ++k)
    s += (s.empty() ? "" : "+") + S(o.t[k].second) +
         BasisPath::fromRaw(o.t[k].first).str();
  return s;
}

LK_NO_COVERAGE bool injective(const Flat &f) {
  std::vector<int64_t> v;
  v.reserve(size_t(f.size));
  for (int64_t i = 0; i < f.size; ++i)
    v.push_back(ev(f, i));
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}

LK_NO_COVERAGE std::vector<int64_t> imageSorted(const Flat &f, bool unique) {
  std::vector<int64_t> v;
  v.reserve(size_t(f.size));
  for (int64_t i = 0; i < f.size; ++i)
    v.push_back(ev(f, i));
  std::sort(v.begin(), v.end());
  if (unique)
    v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

/// A hash of each point of the image, sorted and unique: equal images give
/// equal vectors (sorting the Off values themselves is too slow here).
LK_NO_COVERAGE uint64_t hashOff(const Off &o) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int k = 0; k < o.n; ++k) {
    uint64_t x = (uint64_t(o.t[k].first) << 32) ^ uint64_t(o.t[k].second) ^
                 (uint64_t(o.t[k].second) >> 32) * 0xff51afd7ed558ccdull;
    h = (h ^ x) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
  }
  return h;
}

LK_NO_COVERAGE std::vector<uint64_t> imageSortedOff(const Flat &f) {
  std::vector<uint64_t> v;
  v.reserve(size_t(f.size));
  for (int64_t i = 0; i < f.size; ++i)
    v.push_back(hashOff(evo(f, i)));
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

/// A(x) is the reference's value also for x < 0 only where A is one linear
/// run: coalesce(A) is a single mode and A's last leaf is not a size-1 leaf
/// (which composition keeps to extend A past its size). A without leaves
/// (an empty tuple (), such as a by-mode divide's mode of A) has no run to
/// extend.
bool linearEverywhere(const Layout &a) {
  Flat f = flatOf(a);
  return !f.leaves.empty() && coalesce(a).shape().isLeaf() &&
         f.leaves.back().shape != 1;
}

/// `r` refines `b`: wherever b has a leaf, r has a subtree of the same size.
bool refines(const IntTuple &b, const IntTuple &r) {
  if (b.isLeaf()) {
    auto p = r.product();
    return p && *p == b.value();
  }
  if (r.isLeaf() || r.rank() != b.rank())
    return false;
  for (size_t i = 0; i < b.rank(); ++i)
    if (!refines(b[i], r[i]))
      return false;
  return true;
}

bool small(const Layout &l) {
  size_t leaves = l.shape().leafCount();
  // Basis strides evaluate to tuples, several times slower: smaller bound.
  int64_t bound = l.hasBasisStrides() ? kMaxSize / 4 : kMaxSize;
  return leaves >= 1 && leaves <= kMaxLeaves && l.size() <= bound;
}

//===----------------------------------------------------------------------===//
// Input decoding
//===----------------------------------------------------------------------===//

struct Reader {
  const uint8_t *p;
  size_t n;
  uint8_t byte() {
    if (n == 0)
      return 0;
    --n;
    return *p++;
  }
};

constexpr int64_t kShapes[32] = {1, 2,  2,  4,  4,  8,  8,   16, 3, 6, 12,
                                 2, 4,  8,  32, 64, 1,  2,   4,  8, 5, 7,
                                 9, 10, 16, 2,  4,  24, 128, 3,  2, 4};
constexpr int64_t kStrides[16] = {0,  1,  2,  3,  4,  5,   6,   8,
                                  12, 16, 24, 32, 64, 128, 256, 1024};
constexpr int64_t kMul[4] = {1, 1, 2, 4};

struct LayoutDecoder {
  Reader &r;
  bool useBasis;
  int budget;
  int64_t prefix = 1;
  IntTuple::Builder shape, stride;

  void leaf() {
    --budget;
    int64_t s = kShapes[r.byte() % 32];
    uint8_t db = r.byte();
    int64_t d = 0;
    switch (db >> 6) {
    case 0:
      d = prefix * kMul[db & 3];
      break;
    case 1:
      d = kStrides[db & 15];
      break;
    case 2:
      d = -kStrides[db & 15];
      break;
    case 3:
      d = db & 63;
      break;
    }
    uint32_t basis = 0;
    if (useBasis) {
      uint8_t bb = r.byte();
      if (bb % 4 != 3)
        basis = BasisPath::unit(bb % 4).raw();
    }
    shape.leaf(s);
    stride.leaf(d, basis);
    prefix *= s;
  }

  void node(int depth) {
    uint8_t b = r.byte();
    if (depth < 3 && (b & 3) == 3 && budget >= 2) {
      int rank = 1 + (b >> 2) % 3;
      shape.open();
      stride.open();
      for (int k = 0; k < rank && budget > 0; ++k)
        node(depth + 1);
      shape.close();
      stride.close();
      return;
    }
    leaf();
  }
};

/// Header byte: low 3 bits + 1 = leaf budget; 0x40: an integer (rank-1 leaf)
/// layout; bits 3-4: top-level rank - 1; 0x80: basis strides (when allowed).
bool readLayout(Reader &r, bool allowBasis, Layout &out) {
  uint8_t hdr = r.byte();
  LayoutDecoder d{r, allowBasis && (hdr & 0x80), 1 + hdr % 8, 1, {}, {}};
  if (hdr & 0x40) {
    d.leaf();
  } else {
    int rank = 1 + (hdr >> 3) % 4;
    d.shape.open();
    d.stride.open();
    for (int k = 0; k < rank && d.budget > 0; ++k)
      d.node(1);
    d.shape.close();
    d.stride.close();
  }
  auto s = d.shape.take();
  auto t = d.stride.take();
  if (!s || !t)
    return false;
  auto l = Layout::make(*s, *t);
  if (!l || !small(*l))
    return false;
  out = *l;
  return true;
}

/// 0: a by-mode tuple of up to 3 modes (each `_`, an integer or a layout);
/// 1: an integer; otherwise a layout.
bool readTilerLeaf(Reader &r, Tiler &out, bool allowKeep) {
  uint8_t b = r.byte();
  if (allowKeep && b % 4 == 0) {
    out = Tiler::keep();
    return true;
  }
  if (b % 4 == 1) {
    auto t = Tiler::ofSize(kShapes[(b >> 2) % 32]);
    if (!t)
      return false;
    out = *t;
    return true;
  }
  Layout l;
  if (!readLayout(r, false, l))
    return false;
  out = Tiler::of(l);
  return true;
}

bool readTiler(Reader &r, Tiler &out, bool allowTuple) {
  uint8_t b = r.byte();
  if (allowTuple && b % 3 == 0) {
    std::vector<Tiler> modes;
    int rank = 1 + (b >> 2) % 3;
    for (int k = 0; k < rank; ++k) {
      Tiler m;
      if (!readTilerLeaf(r, m, true))
        return false;
      modes.push_back(m);
    }
    out = Tiler::tuple(modes);
    return true;
  }
  return readTilerLeaf(r, out, false);
}

bool smallTiler(const Tiler &t) {
  switch (t.kind) {
  case Tiler::Kind::Keep:
    return true;
  case Tiler::Kind::Layout:
    return small(t.layout) && !t.layout.hasBasisStrides();
  case Tiler::Kind::Tuple:
    for (const Tiler &m : t.modes)
      if (!smallTiler(m))
        return false;
    return true;
  }
  return false;
}

struct Input {
  Layout a;
  bool haveA = false;
  Tiler t;
  bool haveT = false;
  Reader params{nullptr, 0};
  bool text = false;
};

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// R = composition(A, B): R(i) == A(B(i)) for i < size(B), R refines B.
void checkComposition(const Layout &a, const Layout &b, const Layout &r) {
  std::string ctx = "A=" + a.str() + " B=" + b.str() + " R=" + r.str();
  ALG_CHECK(r.size() == b.size(), ctx);
  ALG_CHECK(refines(b.shape(), r.shape()),
            ctx + " (R's shape does not refine B's)");
  if (r.size() > kMaxPoints)
    return;
  Flat fa = flatOf(a), fb = flatOf(b), fr = flatOf(r);
  bool negOk = linearEverywhere(a);
  for (int64_t i = 0; i < fb.size; ++i) {
    int64_t x = ev(fb, i);
    if (x < 0 && !negOk)
      continue;
    Off want = evo(fa, x), got = evo(fr, i);
    ALG_CHECK(want == got, ctx + ": R(" + S(i) + ") = " + offStr(got) +
                               " but A(B(" + S(i) + ")) = A(" + S(x) +
                               ") = " + offStr(want));
  }
}

void opComposition(const Input &in) {
  gOp = "composition(A, B)";
  if (in.t.kind != Tiler::Kind::Layout || in.t.integer)
    return;
  auto r = composition(in.a, in.t.layout);
  if (r)
    checkComposition(in.a, in.t.layout, *r);
}

/// The layout an integer or layout tiler means for composition.
Layout compositionLayout(const Tiler &t) {
  return t.integer ? Layout::unchecked(t.layout.shape(), IntTuple(1))
                   : t.layout;
}

void opCompositionTiler(const Input &in) {
  gOp = "composition(A, tiler)";
  auto r = composition(in.a, in.t);
  if (!r)
    return;
  switch (in.t.kind) {
  case Tiler::Kind::Keep:
    ALG_CHECK(*r == in.a, r->str());
    return;
  case Tiler::Kind::Layout:
    checkComposition(in.a, compositionLayout(in.t), *r);
    return;
  case Tiler::Kind::Tuple:
    break;
  }
  size_t n = in.t.modes.size();
  ALG_CHECK(r->shape().isTuple() && r->rank() == n,
            "R=" + r->str() + " does not have the tiler's " + S(int64_t(n)) +
                " modes");
  for (size_t i = 0; i < n; ++i) {
    const Tiler &ti = in.t.modes[i];
    Layout ai = in.a.mode(i), ri = r->mode(i);
    if (ti.kind == Tiler::Kind::Keep)
      ALG_CHECK(ri == ai, "mode " + S(int64_t(i)) + ": R_i=" + ri.str() +
                              " A_i=" + ai.str());
    else if (ti.kind == Tiler::Kind::Layout)
      checkComposition(ai, compositionLayout(ti), ri);
  }
}

/// complement(L[, cotarget]).
void checkComplement(const Layout &l, const Layout &c, const std::string &how) {
  std::string ctx = how + " L=" + l.str() + " R=" + c.str();
  if (c.size() > kMaxPoints)
    return;
  ALG_CHECK(!c.hasBasisStrides(), ctx);
  Flat fl = flatOf(l), fc = flatOf(c);
  for (int64_t i = 1; i < fc.size; ++i)
    ALG_CHECK(ev(fc, i) > ev(fc, i - 1),
              ctx + ": R(" + S(i) + ") = " + S(ev(fc, i)) + " <= R(" +
                  S(i - 1) + ") = " + S(ev(fc, i - 1)));
  std::vector<int64_t> li = imageSorted(fl, true);
  for (int64_t i = 0; i < fc.size; ++i) {
    int64_t v = ev(fc, i);
    if (v != 0)
      ALG_CHECK(!std::binary_search(li.begin(), li.end(), v),
                ctx + ": R(" + S(i) + ") = " + S(v) + " is also in L's image");
  }
}

void opComplement(Input &in) {
  gOp = "complement(L, cotarget)";
  uint8_t b = in.params.byte();
  Layout &l = in.a;
  if (b % 3 == 0) {
    gOp = "complement(L)";
    auto c = complement(l);
    if (c)
      checkComplement(l, *c, "complement(L)");
    return;
  }
  IntTuple cot;
  if (b % 3 == 1) {
    cot = IntTuple(int64_t(1 + in.params.byte()) * (1 + (b >> 2) % 8));
  } else {
    int rank = 1 + (b >> 2) % 3;
    for (int k = 0; k < rank; ++k)
      cot.push_back(IntTuple(kShapes[in.params.byte() % 32]));
  }
  auto c = complement(l, cot);
  if (c)
    checkComplement(l, *c, "cotarget=" + cot.str());
}

void opRightInverse(const Input &in) {
  gOp = "right_inverse(L)";
  auto r = right_inverse(in.a);
  if (!r)
    return;
  std::string ctx = "L=" + in.a.str() + " R=" + r->str();
  if (r->size() > kMaxPoints)
    return;
  Flat fl = flatOf(in.a), fr = flatOf(*r);
  ALG_CHECK(!fr.basis, ctx);
  for (int64_t i = 0; i < fr.size; ++i) {
    int64_t x = ev(fr, i);
    ALG_CHECK(x >= 0 && x < fl.size,
              ctx + ": R(" + S(i) + ") = " + S(x) + " is outside L's domain");
    ALG_CHECK(ev(fl, x) == i,
              ctx + ": L(R(" + S(i) + ")) = L(" + S(x) + ") = " + S(ev(fl, x)));
  }
}

void opLeftInverse(const Input &in) {
  gOp = "left_inverse(L)";
  auto r = left_inverse(in.a);
  if (!r)
    return;
  std::string ctx = "L=" + in.a.str() + " R=" + r->str();
  Flat fl = flatOf(in.a), fr = flatOf(*r);
  ALG_CHECK(!fr.basis, ctx);
  bool inj = injective(fl);
  for (int64_t i = 0; i < fl.size; ++i) {
    int64_t y = ev(fl, i);
    int64_t x = ev(fr, y);
    ALG_CHECK(ev(fl, x) == y, ctx + ": L(R(L(" + S(i) + "))) = L(R(" + S(y) +
                                  ")) = L(" + S(x) + ") = " + S(ev(fl, x)));
    if (inj)
      ALG_CHECK(x == i, ctx + " (L injective): R(L(" + S(i) + ")) = R(" + S(y) +
                            ") = " + S(x));
  }
}

void sameFunction(const Layout &l, const Layout &r, const char *what) {
  std::string ctx = std::string(what) + ": L=" + l.str() + " R=" + r.str();
  ALG_CHECK(r.size() == l.size(), ctx + " (sizes differ)");
  Flat fl = flatOf(l), fr = flatOf(r);
  bool plain = !fl.basis && !fr.basis;
  for (int64_t i = 0; i < fl.size; ++i)
    ALG_CHECK(plain ? ev(fl, i) == ev(fr, i) : evo(fl, i) == evo(fr, i),
              ctx + ": at " + S(i) + " L = " + offStr(evo(fl, i)) +
                  ", R = " + offStr(evo(fr, i)));
}

void sameImage(const Layout &l, const Layout &r, const char *what) {
  std::string ctx = std::string(what) + ": L=" + l.str() + " R=" + r.str();
  Flat fl = flatOf(l), fr = flatOf(r);
  if (!fl.basis && !fr.basis)
    ALG_CHECK(imageSorted(fl, true) == imageSorted(fr, true),
              ctx + " (image sets differ)");
  else
    ALG_CHECK(imageSortedOff(fl) == imageSortedOff(fr),
              ctx + " (image sets differ)");
}

/// A profile following l's top modes; a tuple mode gets a tuple profile of
/// its own modes when the byte's bit says so.
IntTuple profileOf(const Layout &l, uint8_t b) {
  if (l.shape().isLeaf() || (b & 1))
    return IntTuple(0);
  IntTuple p;
  for (size_t i = 0; i < l.rank(); ++i) {
    IntTuple m = l.shape()[i];
    if (m.isTuple() && ((b >> (1 + i % 7)) & 1)) {
      IntTuple q;
      for (size_t k = 0; k < m.rank(); ++k)
        q.push_back(IntTuple(0));
      p.push_back(q);
    } else {
      p.push_back(IntTuple(0));
    }
  }
  return p;
}

void opStructure(Input &in) {
  const Layout &l = in.a;
  gOp = "coalesce(L)";
  sameFunction(l, coalesce(l), "coalesce");
  gOp = "flatten(L)";
  sameFunction(l, flatten(l), "flatten");
  uint8_t b = in.params.byte();
  IntTuple profile = profileOf(l, b);
  gOp = "coalesce(L, profile)";
  if (auto c = coalesce(l, profile)) {
    sameFunction(l, *c, ("coalesce profile=" + profile.str()).c_str());
    ALG_CHECK(c->rank() == l.rank() || profile.isLeaf(),
              "profile=" + profile.str() + " L=" + l.str() + " R=" + c->str());
  }
  gOp = "filter_zeros(L)";
  sameImage(l, filter_zeros(l), "filter_zeros");
  gOp = "filter(L)";
  sameImage(l, filter(l), "filter");
  gOp = "filter(L, profile)";
  if (auto f = filter(l, profile))
    sameImage(l, *f, ("filter profile=" + profile.str()).c_str());
  gOp = "group_modes(L, b, e)";
  size_t begin = in.params.byte() % 4, end = begin + 1 + in.params.byte() % 3;
  if (auto g = group_modes(l, begin, end))
    sameFunction(
        l, *g,
        ("group_modes " + S(int64_t(begin)) + " " + S(int64_t(end))).c_str());
}

/// D = logical_divide(A, T) for a layout tiler T:
/// D == A o (T, complement(T, shape(coalesce(A)))) as functions.
void checkDivide(const Layout &a, const Layout &t, const Layout &d) {
  std::string ctx = "A=" + a.str() + " T=" + t.str() + " D=" + d.str();
  auto comp = complement(t, coalesce(a).shape());
  ALG_CHECK(comp.hasValue(), ctx +
                                 ": logical_divide succeeded but "
                                 "complement(T, shape(coalesce(A))) fails: " +
                                 comp.error().message);
  auto tc = makeLayout({t, *comp});
  ALG_CHECK(tc.hasValue(), ctx);
  ctx += " (T, complement)=" + tc->str();
  ALG_CHECK(d.size() == tc->size(), ctx + " (sizes differ)");
  ALG_CHECK(d.shape().isTuple() && d.rank() == 2,
            ctx + " (not a (tile, rest) pair)");
  ALG_CHECK(refines(t.shape(), d.mode(0).shape()),
            ctx + " (tile mode does not refine T)");
  if (d.size() > kMaxPoints)
    return;
  Flat fa = flatOf(a), ftc = flatOf(*tc), fd = flatOf(d);
  bool negOk = linearEverywhere(a);
  for (int64_t i = 0; i < fd.size; ++i) {
    int64_t x = ev(ftc, i);
    if (x < 0 && !negOk)
      continue;
    Off want = evo(fa, x), got = evo(fd, i);
    ALG_CHECK(want == got, ctx + ": D(" + S(i) + ") = " + offStr(got) +
                               " but A((T,C)(" + S(i) + ")) = A(" + S(x) +
                               ") = " + offStr(want));
  }
  // The library's own composition must agree where it returns a value.
  if (auto r = composition(a, *tc)) {
    Flat fr = flatOf(*r);
    ALG_CHECK(fr.size == fd.size, ctx + " composition=" + r->str());
    for (int64_t i = 0; i < fd.size; ++i)
      ALG_CHECK(evo(fr, i) == evo(fd, i), ctx + " composition(A, (T,C))=" +
                                              r->str() + " differs at " + S(i));
  }
}

void sameMultiset(const Layout &l, const Layout &r, const char *what) {
  std::string ctx = std::string(what) + ": " + l.str() + " vs " + r.str();
  ALG_CHECK(l.size() == r.size(), ctx + " (sizes differ)");
  if (l.size() > kMaxPoints || l.hasBasisStrides() || r.hasBasisStrides())
    return;
  ALG_CHECK(imageSorted(flatOf(l), false) == imageSorted(flatOf(r), false),
            ctx + " (images differ)");
}

void opDivide(const Input &in) {
  gOp = "logical_divide(A, T)";
  auto d = logical_divide(in.a, in.t);
  if (!d)
    return;
  const Tiler &t = in.t;
  std::string ctx = "A=" + in.a.str() + " T=" + t.str() + " D=" + d->str();
  switch (t.kind) {
  case Tiler::Kind::Keep:
    ALG_CHECK(*d == in.a, ctx);
    break;
  case Tiler::Kind::Layout:
    checkDivide(in.a, t.layout, *d);
    break;
  case Tiler::Kind::Tuple:
    ALG_CHECK(d->shape().isTuple() &&
                  d->rank() == std::max(in.a.rank(), t.modes.size()),
              ctx + " (rank)");
    for (size_t i = 0; i < d->rank(); ++i) {
      Layout ai = in.a.mode(i), di = d->mode(i);
      if (i >= t.modes.size() || t.modes[i].kind == Tiler::Kind::Keep)
        ALG_CHECK(di == ai, ctx + ": mode " + S(int64_t(i)) + " changed");
      else if (t.modes[i].kind == Tiler::Kind::Layout)
        checkDivide(ai, t.modes[i].layout, di);
    }
    break;
  }
  if (d->hasBasisStrides())
    return;
  gOp = "zipped_divide(A, T)";
  if (auto z = zipped_divide(in.a, t))
    sameMultiset(*d, *z, "zipped_divide vs logical_divide");
  gOp = "tiled_divide(A, T)";
  if (auto z = tiled_divide(in.a, t))
    sameMultiset(*d, *z, "tiled_divide vs logical_divide");
  gOp = "flat_divide(A, T)";
  if (auto z = flat_divide(in.a, t))
    sameMultiset(*d, *z, "flat_divide vs logical_divide");
}

void checkProduct(const Layout &a, const Layout &b, const Layout &p) {
  std::string ctx = "A=" + a.str() + " B=" + b.str() + " P=" + p.str();
  ALG_CHECK(p.size() == a.size() * b.size(), ctx + " (size)");
  ALG_CHECK(p.shape().isTuple() && p.rank() == 2 && p.mode(0) == a,
            ctx + " (not (A, rest))");
  if (p.size() > kMaxPoints)
    return;
  Flat fa = flatOf(a), fb = flatOf(b);
  if (injective(fa) && injective(fb))
    ALG_CHECK(injective(flatOf(p)), ctx + " (A and B injective, P is not)");
}

void opProduct(const Input &in) {
  gOp = "logical_product(A, T)";
  auto p = logical_product(in.a, in.t);
  if (!p)
    return;
  const Tiler &t = in.t;
  std::string ctx = "A=" + in.a.str() + " T=" + t.str() + " P=" + p->str();
  switch (t.kind) {
  case Tiler::Kind::Keep:
    ALG_CHECK(*p == in.a, ctx);
    break;
  case Tiler::Kind::Layout:
    checkProduct(in.a, t.layout, *p);
    break;
  case Tiler::Kind::Tuple:
    ALG_CHECK(p->shape().isTuple() &&
                  p->rank() == std::max(in.a.rank(), t.modes.size()),
              ctx + " (rank)");
    for (size_t i = 0; i < p->rank(); ++i) {
      Layout ai = in.a.mode(i), pi = p->mode(i);
      if (i >= t.modes.size() || t.modes[i].kind == Tiler::Kind::Keep)
        ALG_CHECK(pi == ai, ctx + ": mode " + S(int64_t(i)) + " changed");
      else if (t.modes[i].kind == Tiler::Kind::Layout)
        checkProduct(ai, t.modes[i].layout, pi);
    }
    break;
  }
  gOp = "zipped_product(A, T)";
  if (auto z = zipped_product(in.a, t))
    sameMultiset(*p, *z, "zipped_product vs logical_product");
  gOp = "tiled_product(A, T)";
  if (auto z = tiled_product(in.a, t))
    sameMultiset(*p, *z, "tiled_product vs logical_product");
  gOp = "flat_product(A, T)";
  if (auto z = flat_product(in.a, t))
    sameMultiset(*p, *z, "flat_product vs logical_product");
}

void opRankedProducts(const Input &in) {
  if (in.t.kind != Tiler::Kind::Layout)
    return;
  const Layout &a = in.a, &b = in.t.layout;
  for (int raked = 0; raked < 2; ++raked) {
    gOp = raked ? "raked_product(A, B)" : "blocked_product(A, B)";
    auto p = raked ? raked_product(a, b) : blocked_product(a, b);
    if (!p)
      continue;
    std::string ctx = "A=" + a.str() + " B=" + b.str() + " P=" + p->str();
    ALG_CHECK(p->size() == a.size() * b.size(), ctx + " (size)");
    if (p->size() > kMaxPoints)
      continue;
    if (injective(flatOf(a)) && injective(flatOf(b)))
      ALG_CHECK(injective(flatOf(*p)), ctx + " (A and B injective, P is not)");
  }
}

void opMaxCommon(const Input &in) {
  if (in.t.kind != Tiler::Kind::Layout)
    return;
  const Layout &a = in.a, &b = in.t.layout;
  gOp = "max_common_vector(a, b)";
  auto n = max_common_vector(a, b);
  gOp = "max_common_layout(a, b)";
  auto r = max_common_layout(a, b);
  if (!n || !r)
    return;
  gOp = "max_common_vector(a, b) / max_common_layout(a, b)";
  std::string ctx =
      "a=" + a.str() + " b=" + b.str() + " n=" + S(*n) + " R=" + r->str();
  ALG_CHECK(*n >= 1, ctx);
  ALG_CHECK(r->size() == *n, ctx + " (size(R) != n)");
  Flat fa = flatOf(a), fb = flatOf(b), fr = flatOf(*r);
  for (int64_t i = 0; i < *n && i < kMaxPoints; ++i) {
    int64_t x = ev(fr, i);
    ALG_CHECK(ev(fa, x) == i && ev(fb, x) == i,
              ctx + ": R(" + S(i) + ") = " + S(x) + ", a(R(i)) = " +
                  S(ev(fa, x)) + ", b(R(i)) = " + S(ev(fb, x)));
  }
}

/// A layout with the same function as l built differently: a leaf split in
/// two, a size-1 leaf inserted, or the leaves regrouped.
bool sameFunctionVariant(const Layout &l, Reader &r, Layout &out) {
  Flat f = flatOf(l);
  std::vector<int64_t> s, d;
  for (auto &x : f.leaves) {
    s.push_back(x.shape);
    d.push_back(x.stride);
  }
  uint8_t b = r.byte();
  size_t k = r.byte() % s.size();
  switch (b % 3) {
  case 0: { // split leaf k: s = f*g -> (f, g):(d, d*f)
    int64_t sk = s[k], fct = 0;
    for (int64_t q = 2; q < sk; ++q)
      if (sk % q == 0) {
        fct = q;
        break;
      }
    if (fct == 0)
      return false;
    s[k] = fct;
    s.insert(s.begin() + k + 1, sk / fct);
    d.insert(d.begin() + k + 1, d[k] * fct);
    break;
  }
  case 1: // insert a size-1 leaf with any stride before leaf k
    s.insert(s.begin() + k, 1);
    d.insert(d.begin() + k, kStrides[r.byte() % 16]);
    break;
  case 2: // merge leaves k, k+1 when they form one run
    if (k + 1 >= s.size() || d[k + 1] != d[k] * s[k])
      return false;
    s[k] *= s[k + 1];
    s.erase(s.begin() + k + 1);
    d.erase(d.begin() + k + 1);
    break;
  }
  if (s.size() > kMaxLeaves)
    return false;
  // Group the first g leaves into a nested mode when asked.
  size_t g = r.byte() % (s.size() + 1);
  IntTuple shape, stride;
  if (g >= 2) {
    IntTuple gs, gd;
    for (size_t i = 0; i < g; ++i) {
      gs.push_back(IntTuple(s[i]));
      gd.push_back(IntTuple(d[i]));
    }
    shape.push_back(gs);
    stride.push_back(gd);
  } else {
    g = 0;
  }
  for (size_t i = g; i < s.size(); ++i) {
    shape.push_back(IntTuple(s[i]));
    stride.push_back(IntTuple(d[i]));
  }
  auto m = Layout::make(shape, stride);
  if (!m)
    return false;
  out = *m;
  return true;
}

void opEquivalent(Input &in) {
  gOp = "equivalent(a, b)";
  const Layout &a = in.a;
  if (a.hasBasisStrides())
    return;
  Layout b;
  uint8_t mode = in.params.byte();
  if (mode % 2 == 0 && in.t.kind == Tiler::Kind::Layout && !in.t.integer) {
    b = in.t.layout;
  } else if (!sameFunctionVariant(a, in.params, b)) {
    return;
  }
  auto e = equivalent(a, b);
  if (!e)
    return;
  Flat fa = flatOf(a), fb = flatOf(b);
  bool brute = fa.size == fb.size;
  int64_t at = -1;
  for (int64_t i = 0; brute && i < fa.size; ++i)
    if (ev(fa, i) != ev(fb, i)) {
      brute = false;
      at = i;
    }
  ALG_CHECK(*e == brute,
            "a=" + a.str() + " b=" + b.str() + ": equivalent says " +
                (*e ? "true" : "false") + ", brute force " +
                (brute ? "true" : "false") +
                (at >= 0 ? " (first difference at " + S(at) + ")" : ""));

  // The same with swizzles and offsets.
  gOp = "equivalent(ComposedLayout, ComposedLayout)";
  static const int kSw[6][3] = {{0, 0, 0}, {0, 4, 3}, {1, 4, 3},
                                {2, 4, 3}, {3, 4, 3}, {2, 5, 2}};
  uint8_t s1 = in.params.byte(), s2 = in.params.byte();
  auto sa = Swizzle::make(kSw[s1 % 6][0], (s1 & 0x40) ? 1 : kSw[s1 % 6][1],
                          kSw[s1 % 6][2]);
  auto sb = Swizzle::make(kSw[s2 % 6][0], (s2 & 0x40) ? 1 : kSw[s2 % 6][1],
                          kSw[s2 % 6][2]);
  if (!sa || !sb)
    return;
  ComposedLayout ca{*sa, (s1 & 0x80) ? int64_t(s1 & 0x38) : 0, a};
  ComposedLayout cb{*sb, (s2 & 0x80) ? int64_t(s2 & 0x38) : 0, b};
  auto ce = equivalent(ca, cb);
  if (!ce)
    return;
  bool cbrute = fa.size == fb.size;
  for (int64_t i = 0; cbrute && i < fa.size; ++i)
    if (ca.swizzle(ca.offset + ev(fa, i)) != cb.swizzle(cb.offset + ev(fb, i)))
      cbrute = false;
  ALG_CHECK(*ce == cbrute, ca.str() + " vs " + cb.str() + ": equivalent says " +
                               (*ce ? "true" : "false") + ", brute force " +
                               (cbrute ? "true" : "false"));
}

void opCoordinates(const Input &in) {
  const Layout &a = in.a;
  const IntTuple &shape = a.shape();
  gOp = "crd2idx(idx2crd(i, shape), compact(shape))";
  auto compact = Layout::compact(shape);
  ALG_CHECK(compact.hasValue(), shape.str());
  Flat fa = flatOf(a);
  // At most ~1024 points (each check allocates); always the first and last.
  int64_t step = std::max<int64_t>(1, fa.size / 1024);
  std::vector<int64_t> points;
  for (int64_t i = 0; i < fa.size; i += step)
    points.push_back(i);
  if (points.back() != fa.size - 1)
    points.push_back(fa.size - 1);
  for (int64_t i : points) {
    auto c = idx2crd(i, shape);
    ALG_CHECK(c.hasValue(),
              "shape=" + shape.str() + " i=" + S(i) + ": " + c.error().message);
    ALG_CHECK(congruent(*c, shape),
              "shape=" + shape.str() + " coord=" + c->str());
    auto j = crd2idx(*c, *compact);
    ALG_CHECK(j && *j == i, "shape=" + shape.str() +
                                " compact=" + compact->str() + " i=" + S(i) +
                                " coord=" + c->str() + " back to " +
                                (j ? S(*j) : j.error().message));
    if (fa.basis)
      continue;
    gOp = "crd2idx(coord, L)";
    auto v = crd2idx(*c, a);
    ALG_CHECK(v && *v == ev(fa, i), "L=" + a.str() + " coord=" + c->str() +
                                        " gives " +
                                        (v ? S(*v) : v.error().message) +
                                        ", reference " + S(ev(fa, i)));
    auto v1 = crd2idx(IntTuple(i), a);
    ALG_CHECK(v1 && *v1 == ev(fa, i), "L=" + a.str() + " 1-D coord " + S(i) +
                                          " gives " +
                                          (v1 ? S(*v1) : v1.error().message) +
                                          ", reference " + S(ev(fa, i)));
    ALG_CHECK(evaluate(a, i) == ev(fa, i), "evaluate(L=" + a.str() + ", " +
                                               S(i) +
                                               ") = " + S(evaluate(a, i)));
    // An integer per top-level mode (split colexicographically).
    if (shape.isTuple()) {
      IntTuple mc;
      int64_t x = i;
      for (size_t m = 0; m < a.rank(); ++m) {
        int64_t e = *shape[m].product();
        mc.push_back(IntTuple(m + 1 < a.rank() ? x % e : x));
        x /= e;
      }
      auto v2 = crd2idx(mc, a);
      ALG_CHECK(v2 && *v2 == ev(fa, i), "L=" + a.str() + " coord " + mc.str() +
                                            " gives " +
                                            (v2 ? S(*v2) : v2.error().message) +
                                            ", reference " + S(ev(fa, i)));
    }
    gOp = "crd2idx(idx2crd(i, shape), compact(shape))";
  }
  if (fa.basis)
    return;
  gOp = "crd2idx(i >= size, L)";
  for (int64_t k = 0; k < 3; ++k) {
    int64_t i = fa.size + k * 7;
    auto v = crd2idx(IntTuple(i), a);
    ALG_CHECK(v && *v == ev(fa, i), "L=" + a.str() + " 1-D coord " + S(i) +
                                        " gives " +
                                        (v ? S(*v) : v.error().message) +
                                        ", reference " + S(ev(fa, i)));
  }
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

enum Op {
  kCompose,
  kComposeTiler,
  kComplement,
  kRightInverse,
  kLeftInverse,
  kStructure,
  kDivide,
  kProduct,
  kRanked,
  kMaxCommon,
  kEquivalent,
  kCoordinates,
  kNumOps
};

/// Which inputs an operation takes: A with basis strides allowed, and a
/// second argument (tiler or layout).
bool allowsBasis(int op) {
  return op == kCompose || op == kComposeTiler || op == kStructure ||
         op == kDivide || op == kCoordinates;
}
bool takesTuple(int op) {
  return op == kComposeTiler || op == kDivide || op == kProduct;
}

bool decodeBinary(int op, const uint8_t *data, size_t size, Input &in) {
  Reader r{data, size};
  if (!readLayout(r, allowsBasis(op), in.a))
    return false;
  in.haveA = true;
  if (readTiler(r, in.t, takesTuple(op)))
    in.haveT = smallTiler(in.t);
  in.params = r;
  return true;
}

bool decodeText(const uint8_t *data, size_t size, Input &in) {
  std::string_view all(reinterpret_cast<const char *>(data), size);
  size_t bar1 = all.find('|');
  std::string_view ta = all.substr(0, bar1);
  auto a = parseLayout(ta);
  if (!a || !small(*a))
    return false;
  in.a = *a;
  in.haveA = true;
  in.text = true;
  if (bar1 == std::string_view::npos)
    return true;
  std::string_view rest = all.substr(bar1 + 1);
  size_t bar2 = rest.find('|');
  auto t = parseTiler(rest.substr(0, bar2));
  if (t && smallTiler(*t)) {
    in.t = *t;
    in.haveT = true;
  }
  if (bar2 != std::string_view::npos)
    in.params =
        Reader{reinterpret_cast<const uint8_t *>(rest.data()) + bar2 + 1,
               rest.size() - bar2 - 1};
  return true;
}

//===----------------------------------------------------------------------===//
// Fast paths against the general construction
//===----------------------------------------------------------------------===//

/// The same pre-order nodes, every field (Layout's == compares trees and
/// would miss a wrong span).
bool sameNodes(const IntTuple &x, const IntTuple &y) {
  return x.nodeCount() == y.nodeCount() &&
         std::equal(x.nodes(), x.nodes() + x.nodeCount(), y.nodes(),
                    [](const IntTuple::Node &p, const IntTuple::Node &q) {
                      return p.value == q.value && p.rank == q.rank &&
                             p.span == q.span && p.basis == q.basis;
                    });
}

/// The same layout, node for node, or errors with the same message.
void checkSame(const char *op, const Expected<Layout> &fast,
               const Expected<Layout> &slow) {
  gOp = op;
  if (fast && slow)
    ALG_CHECK(*fast == *slow && sameNodes(fast->shape(), slow->shape()) &&
                  sameNodes(fast->stride(), slow->stride()),
              "fast " + fast->str() + ", general " + slow->str());
  else if (!fast && !slow)
    ALG_CHECK(fast.error().render() == slow.error().render(),
              "fast: " + fast.error().render() +
                  "general: " + slow.error().render());
  else
    ALG_CHECK(
        bool(fast) == bool(slow),
        fast ? "fast " + fast->str() + ", general: " + slow.error().render()
             : "fast: " + fast.error().render() + "general " + slow->str());
}

/// `call` (an operation of Algebra.h) against general::`call`.
#define SAME_AS_GENERAL(call)                                                  \
  checkSame(#call ", fast against general", call, general::call)

/// Every operation with a fast path, on A and the second operand, gives
/// the general construction's answer. The cotarget of the complement is
/// A's size times 4 (room for a rest mode; A's size itself where that
/// overflows) and, as a tuple, (4, size).
void checkFastPaths(const Input &in) {
  const Layout &a = in.a;
  const Tiler &t = in.t;
  SAME_AS_GENERAL(coalesce(a));
  SAME_AS_GENERAL(right_inverse(a));
  SAME_AS_GENERAL(left_inverse(a));
  int64_t n = a.size(), n4;
  if (mulOverflows(n, 4, n4))
    n4 = n;
  for (const IntTuple &cot :
       {IntTuple(n4), IntTuple::tuple({IntTuple(4), IntTuple(n)})})
    SAME_AS_GENERAL(complement(a, cot));
  if (!in.haveT)
    return;
  SAME_AS_GENERAL(composition(a, t));
  SAME_AS_GENERAL(logical_divide(a, t));
  SAME_AS_GENERAL(logical_product(a, t));
  SAME_AS_GENERAL(zipped_divide(a, t));
  SAME_AS_GENERAL(tiled_divide(a, t));
  SAME_AS_GENERAL(flat_divide(a, t));
  SAME_AS_GENERAL(zipped_product(a, t));
  SAME_AS_GENERAL(tiled_product(a, t));
  SAME_AS_GENERAL(flat_product(a, t));
  if (t.kind != Tiler::Kind::Layout)
    return;
  const Layout &b = t.layout;
  SAME_AS_GENERAL(composition(a, b));
  SAME_AS_GENERAL(blocked_product(a, b));
  SAME_AS_GENERAL(raked_product(a, b));
  SAME_AS_GENERAL(max_common_layout(a, b));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  int op = (data[0] & 0x7f) % kNumOps;
  Input in;
  bool ok = (data[0] & 0x80) ? decodeText(data + 1, size - 1, in)
                             : decodeBinary(op, data + 1, size - 1, in);
  if (!ok)
    return 0;
  gCtx = "A=" + in.a.str() + (in.haveT ? " second=" + in.t.str() : "") +
         (in.text ? " (text input)" : " (binary input)");
  bool needsT =
      !(op == kComplement || op == kRightInverse || op == kLeftInverse ||
        op == kStructure || op == kCoordinates || op == kEquivalent);
  if (needsT && !in.haveT)
    return 0;
  if (in.a.hasBasisStrides() && !allowsBasis(op))
    return 0;
  if (!in.haveT)
    in.t = Tiler::keep();
  static const bool trace = std::getenv("LK_FUZZ_ALGEBRA_TRACE") != nullptr;
  if (trace)
    std::fprintf(stderr, "op %d: %s\n", op, gCtx.c_str());
  switch (op) {
  case kCompose:
    opComposition(in);
    break;
  case kComposeTiler:
    opCompositionTiler(in);
    break;
  case kComplement:
    opComplement(in);
    break;
  case kRightInverse:
    opRightInverse(in);
    break;
  case kLeftInverse:
    opLeftInverse(in);
    break;
  case kStructure:
    opStructure(in);
    break;
  case kDivide:
    opDivide(in);
    break;
  case kProduct:
    opProduct(in);
    break;
  case kRanked:
    opRankedProducts(in);
    break;
  case kMaxCommon:
    opMaxCommon(in);
    break;
  case kEquivalent:
    opEquivalent(in);
    break;
  case kCoordinates:
    opCoordinates(in);
    break;
  }
  if (!in.a.hasBasisStrides())
    checkFastPaths(in);
  return 0;
}
