//===- Evaluate.cpp - Evaluating cute layouts -----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// evaluate, crd2idx, crd2offset and idx2crd: a layout as a function of
// its index or coordinate.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Algebra.h"

#include "AlgebraSupport.h"

#include "layoutkit/core/Checked.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace lk::cute {

using namespace detail;

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

int64_t detail::evaluateAt(Ref r, int64_t i) {
  const Node *s = r.s, *d = r.d;
  const size_t last = r.span() - 1; // pre-order: the last node is a leaf
  int64_t v = 0;
#pragma GCC unroll 4
  for (size_t k = 0; k < last; ++k) {
    if (s[k].rank != IntTuple::kLeaf)
      continue;
    const int64_t e = s[k].value;
    // Power-of-two extents (the usual case on GPUs) split with a mask and a
    // shift instead of a 64-bit division; both agree for i >= 0.
    if ((e & (e - 1)) == 0 && i >= 0) {
      v += (i & (e - 1)) * d[k].value;
      i >>= __builtin_ctzll(uint64_t(e));
      continue;
    }
    v += (i % e) * d[k].value;
    i /= e;
  }
  if (s[last].rank == IntTuple::kLeaf)
    v += i * d[last].value;
  return v;
}

int64_t evaluate(const Layout &layout, int64_t i) {
  return evaluateAt(Ref(layout), i);
}

namespace {

/// Accumulates sum c_leaf * d_leaf over (coord, shape, stride) into `terms`.
Status collectTerms(const IntTuple &coord, const IntTuple &shape,
                    const IntTuple &stride,
                    std::vector<std::pair<BasisPath, int64_t>> &terms,
                    Arith &ar) {
  if (coord.isTuple()) {
    if (shape.isLeaf() || shape.rank() != coord.rank())
      return Diagnostic::error("coordinate " + coord.str() +
                               " is not congruent to the shape " + shape.str());
    for (size_t i = 0; i < coord.rank(); ++i)
      LK_CHECK(collectTerms(coord[i], shape[i], stride[i], terms, ar));
    return Ok{};
  }
  if (coord.basis().raw() != 0)
    return Diagnostic::error("coordinate " + coord.str() + " has a basis leaf");
  int64_t c = coord.value();
  if (shape.isLeaf()) {
    terms.push_back({stride.basis(), ar.mul(c, stride.value())});
    return Ok{};
  }
  // An integer for a tuple mode: split colexicographically, last mode takes
  // the rest.
  size_t r = shape.rank();
  for (size_t i = 0; i < r; ++i) {
    IntTuple si = shape[i];
    int64_t ci = c;
    if (i + 1 < r) {
      LK_TRY(int64_t extent, si.product());
      ci = c % extent;
      c = c / extent;
    }
    LK_CHECK(collectTerms(IntTuple(ci), si, stride[i], terms, ar));
  }
  return Ok{};
}

void buildOffset(const std::vector<std::pair<BasisPath, int64_t>> &terms,
                 int level, IntTuple &out, Arith &ar) {
  int width = 0;
  for (const auto &[path, v] : terms)
    if (path.depth() > level)
      width = std::max(width, path.at(level) + 1);
  if (width == 0) {
    int64_t sum = 0;
    for (const auto &[path, v] : terms)
      sum = ar.add(sum, v);
    out = IntTuple(sum);
    return;
  }
  IntTuple t;
  for (int j = 0; j < width; ++j) {
    std::vector<std::pair<BasisPath, int64_t>> sub;
    for (const auto &[path, v] : terms) {
      int idx = path.depth() > level ? path.at(level) : 0;
      if (idx == j)
        sub.push_back({path, v});
    }
    IntTuple child;
    buildOffset(sub, level + 1, child, ar);
    t.push_back(child);
  }
  out = t;
}

} // namespace

namespace {

using Node = IntTuple::Node;

/// Adds L(c) for a leaf coordinate c over the subtree (s, d) of `span`
/// nodes: split colexicographically over the leaves, the last takes the rest.
void accumulateLeaf(int64_t c, const Node *s, const Node *d, size_t span,
                    int64_t &acc, Arith &ar, uint32_t &bases) {
  size_t last = span - 1;
  for (size_t k = 0; k < last; ++k) {
    if (s[k].rank != IntTuple::kLeaf)
      continue;
    acc = ar.add(acc, ar.mul(c % s[k].value, d[k].value));
    bases |= d[k].basis;
    c /= s[k].value;
  }
  if (s[last].rank == IntTuple::kLeaf) {
    acc = ar.add(acc, ar.mul(c, d[last].value));
    bases |= d[last].basis;
  }
}

/// Adds L(coord); false when coord is not weakly congruent to the shape.
/// Walks the coordinate and the shape in pre-order in lockstep: a tuple node
/// of the coordinate matches a tuple node of the shape, a leaf consumes a
/// whole shape subtree.
bool accumulate(const IntTuple &coord, const Node *s, const Node *d,
                int64_t &acc, Arith &ar, uint32_t &bases) {
  const Node *c = coord.nodes();
  size_t n = coord.nodeCount(), si = 0;
  uint32_t coordBases = 0;
  for (size_t ci = 0; ci < n; ++ci) {
    const Node &cn = c[ci];
    if (cn.rank != IntTuple::kLeaf) {
      if (s[si].rank != cn.rank)
        return false;
      ++si;
      continue;
    }
    coordBases |= cn.basis;
    if (s[si].rank == IntTuple::kLeaf) { // the common, congruent case
      acc = ar.add(acc, ar.mul(cn.value, d[si].value));
      bases |= d[si].basis;
      ++si;
      continue;
    }
    size_t span = s[si].span;
    accumulateLeaf(cn.value, s + si, d + si, span, acc, ar, bases);
    si += span;
  }
  return coordBases == 0;
}

/// The bytes of a node after its value: rank, span and basis.
uint64_t nodeTail(const Node &n) {
  uint64_t t;
  std::memcpy(&t, reinterpret_cast<const char *>(&n) + sizeof(int64_t),
              sizeof t);
  return t;
}
static_assert(sizeof(Node) == 2 * sizeof(uint64_t));

/// The common case of a coordinate congruent to the shape, as one branch-free
/// pass: same node count, and every coordinate node has the rank, span and
/// (absent) basis of the shape node at its place -- one 8-byte comparison per
/// node, which also refuses basis leaves in the coordinate. Tuple nodes hold
/// value 0, so all nodes enter the sum without a test for leaves.
/// Returns false, leaving `r` alone, when the trees differ or the sum
/// overflows; the general path then decides (and diagnoses).
bool congruentSum(const IntTuple &coord, const Layout &layout, int64_t &r,
                  uint32_t &bases) {
  size_t n = coord.nodeCount();
  if (n != layout.shape().nodeCount())
    return false;
  const Node *c = coord.nodes(), *s = layout.shape().nodes(),
             *d = layout.stride().nodes();
  uint64_t mismatch = 0;
  uint32_t b = 0;
  int64_t sum = 0;
#pragma GCC unroll 4
  for (size_t k = 0; k < n; ++k) {
    int64_t p;
    if (__builtin_expect(__builtin_mul_overflow(c[k].value, d[k].value, &p) ||
                             __builtin_add_overflow(sum, p, &sum),
                         0))
      return false;
    mismatch |= nodeTail(c[k]) ^ nodeTail(s[k]);
    b |= d[k].basis;
  }
  if (mismatch != 0)
    return false;
  r = sum;
  bases = b;
  return true;
}

} // namespace

Expected<int64_t> crd2idx(const IntTuple &coord, const Layout &layout) {
  Arith ar;
  int64_t r = 0;
  uint32_t bases = 0;
  if (!congruentSum(coord, layout, r, bases)) {
    if (!accumulate(coord, layout.shape().nodes(), layout.stride().nodes(), r,
                    ar, bases))
      return Diagnostic::error("crd2idx: coordinate " + coord.str() +
                               " is not congruent to the shape " +
                               layout.shape().str());
  }
  if (bases != 0) // every stride leaf was visited
    return Diagnostic::error(
        "crd2idx: layout " + layout.str() +
        " has basis strides (or the coordinate has a "
        "basis leaf); its value is a tuple, not an index (evaluate the "
        "layout instead)");
  if (!ar.ok())
    return Arith::diagnostic("crd2idx");
  return r;
}

Expected<int64_t> crd2idx(const IntTuple &coord, const ComposedLayout &layout) {
  LK_TRY(int64_t inner, crd2idx(coord, layout.layout));
  int64_t shifted;
  if (addOverflows(inner, layout.offset, shifted))
    return Arith::diagnostic("the offset of " + layout.str());
  return layout.swizzle(shifted);
}

Expected<IntTuple> crd2offset(const IntTuple &coord, const Layout &layout) {
  std::vector<std::pair<BasisPath, int64_t>> terms;
  Arith ar;
  LK_CHECK(collectTerms(coord, layout.shape(), layout.stride(), terms, ar));
  IntTuple out;
  if (!layout.hasBasisStrides()) {
    int64_t r = 0;
    for (const auto &t : terms)
      r = ar.add(r, t.second);
    out = IntTuple(r);
  } else {
    buildOffset(terms, 0, out, ar);
  }
  if (!ar.ok())
    return Arith::diagnostic("the layout's value");
  return out;
}

Expected<IntTuple> idx2crd(int64_t i, const IntTuple &shape) {
  for (const IntTuple::Node &n : shape.leaves())
    if (n.value < 1 || n.basis != 0)
      return Diagnostic::error("idx2crd: shape " + shape.str() +
                               " must have positive integer leaves");
  LK_TRY(int64_t size, shape.product());
  if (i < 0 || i >= size)
    return Diagnostic::error("idx2crd: index " + std::to_string(i) +
                             " is outside [0, " + std::to_string(size) +
                             ") of shape " + shape.str());
  SmallVector<int64_t, 16> coords;
  for (const IntTuple::Node &n : shape.leaves()) {
    coords.push_back(i % n.value);
    i /= n.value;
  }
  return shape.withLeaves(coords.data());
}

} // namespace lk::cute
