//===- Algebra.cpp - The CuTe layout algebra ------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Each operation follows the construction CuTe uses, so results agree with
// CuTe to the stride of size-1 modes (the oracle compares structurally).
// Where CuTe's own checks are weaker than the operation's postcondition, an
// extra check turns the would-be wrong layout into a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/core/Checked.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace lk::cute {

namespace {

/// One flattened mode of a layout.
struct Mode {
  int64_t shape;
  int64_t stride;
  uint32_t basis;
};
using Modes = SmallVector<Mode, 16>;

Modes flatModes(const Layout &l) {
  Modes out;
  const IntTuple::Node *s = l.shape().nodes();
  const IntTuple::Node *d = l.stride().nodes();
  for (size_t k = 0, n = l.shape().nodeCount(); k < n; ++k)
    if (s[k].rank == IntTuple::kLeaf)
      out.push_back(Mode{s[k].value, d[k].value, d[k].basis});
  return out;
}

/// A flat layout from modes; a single mode gives an integer layout when
/// `unwrapSingle` is set (CuTe's unwrap / integral results).
/// Emits modes into builders: one leaf, or a flat tuple.
void emitModes(const Modes &modes, bool unwrapSingle, IntTuple::Builder &shape,
               IntTuple::Builder &stride) {
  bool tuple = !(unwrapSingle && modes.size() == 1);
  if (tuple) {
    shape.open();
    stride.open();
  }
  for (const Mode &m : modes) {
    shape.leaf(m.shape);
    stride.leaf(m.stride, m.basis);
  }
  if (tuple) {
    shape.close();
    stride.close();
  }
}

Expected<Layout> fromModes(const Modes &modes, bool unwrapSingle) {
  IntTuple::Builder shape, stride;
  emitModes(modes, unwrapSingle, shape, stride);
  return Layout::fromBuilders(shape, stride);
}

/// "shape:stride" of flat modes, for diagnostics.
std::string modesText(const Modes &modes, bool unwrapSingle) {
  bool tuple = !(unwrapSingle && modes.size() == 1);
  std::string shape = tuple ? "(" : "", stride = tuple ? "(" : "";
  for (size_t i = 0; i < modes.size(); ++i) {
    shape += (i ? "," : "") + std::to_string(modes[i].shape);
    stride += (i ? "," : "") + std::to_string(modes[i].stride) +
              BasisPath::fromRaw(modes[i].basis).str();
  }
  return shape + (tuple ? ")" : "") + ":" + stride + (tuple ? ")" : "");
}

Diagnostic opError(const char *op, std::string message) {
  return Diagnostic::error(std::string(op) + ": " + message);
}

std::string modeStr(const Mode &m) {
  return std::to_string(m.shape) + ":" + std::to_string(m.stride) +
         BasisPath::fromRaw(m.basis).str();
}

/// CuTe's backward coalesce over flat modes. With `keepLastExtent`, a trailing
/// size-1 mode still contributes its stride (CuTe's coalesce_x: the function is
/// preserved outside the domain too, which composition relies on).
/// The coalesced modes; `integral` tells whether CuTe's result is an integer
/// layout (a single mode never prepended to). The trivial result 1:0 comes
/// back as one mode 1:0.
Modes coalescedModes(const Modes &modes, bool keepLastExtent, bool &integral) {
  size_t r = modes.size();
  if (r == 0) { // the empty layout (), like 1:0
    integral = true;
    return Modes{Mode{1, 0, 0}};
  }
  Modes out; // built back to front, reversed at the end
  integral = true;
  Mode front = modes[r - 1];
  if (keepLastExtent && front.shape == 1)
    front.shape = 2;
  out.push_back(front);
  Arith ar; // shapes multiply to at most size(layout): cannot overflow
  for (size_t k = r - 1; k-- > 0;) {
    const Mode &m = modes[k];
    Mode &f = out.back();
    if (m.shape == 1)
      continue;
    if (integral && f.shape == 1) {
      f = m;
      continue;
    }
    int64_t reach;
    if (!mulOverflows(m.shape, m.stride, reach) && reach == f.stride &&
        (m.basis == f.basis || f.stride == 0)) {
      f.shape = ar.mul(m.shape, f.shape);
      f.stride = m.stride;
      f.basis = m.basis;
      continue;
    }
    out.push_back(m);
    integral = false;
  }
  std::reverse(out.begin(), out.end());
  if (integral && out[0].shape == 1)
    out[0] = Mode{1, 0, 0};
  return out;
}

Expected<Layout> coalesceModes(const Modes &modes, bool keepLastExtent) {
  bool integral;
  Modes out = coalescedModes(modes, keepLastExtent, integral);
  return fromModes(out, integral);
}

/// Modes of filter(l): broadcast leaves dropped, then coalesced.
Modes filteredModes(const Layout &l, bool &integral) {
  Modes m = flatModes(l);
  for (Mode &x : m)
    if (x.stride == 0)
      x.shape = 1;
  return coalescedModes(m, false, integral);
}

//===----------------------------------------------------------------------===//
// Composition core
//===----------------------------------------------------------------------===//

struct Composer {
  Modes lhs;        // A after coalesce_x
  bool lhsIntegral; // A's coalesced form is an integer layout
  const Layout *a = nullptr; // for diagnostics only; null when A is given
                             // by its coalesced modes alone

  std::string describeA() const {
    std::string coalesced = modesText(lhs, lhsIntegral);
    return a ? "A = " + a->str() + ", coalesced: " + coalesced
             : "A = " + coalesced;
  }
  /// For each coalesced mode of A but the last, the largest coordinate that
  /// B's leaves together can reach along it. Composing B leaf by leaf is
  /// only right if these sums never carry into the next mode of A. It
  /// accumulates over every compose() call, so one Composer serves exactly
  /// one B (possibly composed in several pieces, as logical_divide does).
  mutable SmallVector<int64_t, 16> reach;

  /// Fails when two of B's leaves together overflow a mode of A: then
  /// A(B(c)) != sum of A(B-leaf(c_j)) for some c.
  template <class Describe> Status checkDistributive(Describe describeB) const {
    for (size_t i = 0; i + 1 < lhs.size(); ++i)
      if (reach[i] >= lhs[i].shape)
        return opError("composition",
                       "B = " + describeB() + " reaches coordinate " +
                           std::to_string(reach[i]) +
                           " along A's coalesced mode " + std::to_string(i) +
                           " (" + modeStr(lhs[i]) +
                           ") when its modes are combined; the carry into "
                           "the next mode would break R(c) = A(B(c))")
            .note(describeA());
    return Ok{};
  }

  /// Composes A with B's subtree at (shape, stride) and appends the result
  /// (a leaf, or a tuple following B's structure) to the builders.
  Status compose(const IntTuple::Node *shape, const IntTuple::Node *stride,
                 IntTuple::Builder &rs, IntTuple::Builder &rd) const {
    if (shape->rank != IntTuple::kLeaf) {
      rs.open();
      rd.open();
      const IntTuple::Node *si = shape + 1, *di = stride + 1;
      for (int k = 0; k < shape->rank; ++k) {
        LK_CHECK(compose(si, di, rs, rd));
        si += si->span;
        di += di->span;
      }
      rs.close();
      rd.close();
      return Ok{};
    }
    if (stride->basis != 0)
      return opError("composition", "B's stride " +
                                        IntTuple::leaf(stride->value, BasisPath::fromRaw(stride->basis)).str() +
                                        " is a basis stride; B must have "
                                        "integer strides");
    return composeLeaf(shape->value, stride->value, rs, rd);
  }

  /// Composes A with the single mode s:d of B.
  Status composeLeaf(int64_t s, int64_t d, IntTuple::Builder &rs,
                     IntTuple::Builder &rd) const {
    if (d < 0 && !lhsIntegral)
      // A negative step walks A's modes backwards; splitting it mode by
      // mode (and summing it with other modes of B) borrows across modes,
      // which the construction cannot express.
      return opError("composition",
                     "B's mode " + std::to_string(s) + ":" + std::to_string(d) +
                         " has a negative stride, which is only supported "
                         "when A coalesces to a single mode")
          .note(describeA());
    if (d == 0) {
      rs.leaf(s);
      rd.leaf(0);
      return Ok{};
    }
    Arith ar;
    if (lhsIntegral) {
      rs.leaf(s);
      rd.leaf(ar.mul(d, lhs[0].stride), lhs[0].basis);
      if (!ar.ok())
        return Arith::diagnostic("composition");
      return Ok{};
    }
    Modes result;
    int64_t restShape = s;
    int64_t restStride = d;
    size_t r = lhs.size();
    auto leafText = [&] { return std::to_string(s) + ":" + std::to_string(d); };
    auto where = [&] { return describeA(); };
    for (size_t i = 0; i + 1 < r; ++i) {
      int64_t cs = lhs[i].shape;
      int64_t cd = lhs[i].stride;
      int64_t absStride = absValue(restStride);
      if (!(absStride % cs == 0 || absStride < cs))
        return opError("composition",
                       "stride divisibility condition fails: B's mode " +
                           leafText() + " reaches A's coalesced mode " +
                           std::to_string(i) + " (" + modeStr(lhs[i]) +
                           ") with stride " + std::to_string(restStride) +
                           ", which neither divides nor is divisible by " +
                           std::to_string(cs))
            .note(where());
      int64_t nextShape = ceilDiv(cs, absStride);
      int64_t nextStride = ceilDiv(absStride, cs) * signum(restStride);
      if (nextShape == 1 || restShape == 1) {
        restStride = nextStride;
        continue;
      }
      int64_t newShape = std::min(nextShape, restShape);
      if (restShape % newShape != 0)
        return opError("composition",
                       "shape divisibility condition fails: B's mode " +
                           leafText() + " has " + std::to_string(restShape) +
                           " elements left at A's coalesced mode " +
                           std::to_string(i) + " (" + modeStr(lhs[i]) +
                           "), not a multiple of " + std::to_string(newShape))
            .note(where());
      if (cs % absStride != 0 && restShape > newShape)
        // CuTe accepts this, but the elements of B cross A's mode i at a
        // point that is not a multiple of the stride: R(c) != A(B(c)).
        return opError("composition",
                       "B's mode " + leafText() + " steps by " +
                           std::to_string(restStride) +
                           " across A's coalesced mode " + std::to_string(i) +
                           " (" + modeStr(lhs[i]) + ") whose extent " +
                           std::to_string(cs) +
                           " is not a multiple of that step; the result "
                           "would break R(c) = A(B(c))")
            .note(where());
      result.push_back(Mode{newShape, ar.mul(restStride, cd), lhs[i].basis});
      reach[i] = ar.add(reach[i], ar.mul(newShape - 1, absStride));
      restShape /= newShape;
      restStride = nextStride;
    }
    const Mode &last = lhs[r - 1];
    if (result.empty() || restShape != 1)
      result.push_back(Mode{restShape, ar.mul(restStride, last.stride), last.basis});
    if (!ar.ok())
      return Arith::diagnostic("composition");
    emitModes(result, /*unwrapSingle=*/true, rs, rd);
    return Ok{};
  }
};

Composer makeComposer(const Layout &a, const Modes &flat) {
  Composer c;
  c.lhs = coalescedModes(flat, /*keepLastExtent=*/true, c.lhsIntegral);
  c.a = &a;
  c.reach.resize(c.lhs.size(), 0);
  return c;
}

Status requireIntegerStrides(const char *op, const Layout &l) {
  if (l.hasBasisStrides())
    return opError(op, "layout " + l.str() +
                           " has basis strides; this operation needs "
                           "integer strides");
  return Ok{};
}

/// CuTe's append<R>: pads a layout to rank r with 1:0 modes. An integer
/// layout counts as rank 1 and stays an integer layout when r == 1.
Expected<Layout> padToRank(const Layout &l, size_t r) {
  if (l.rank() >= r)
    return l;
  ModeBuilder modes;
  for (size_t i = 0; i < l.rank(); ++i)
    modes.append(l.mode(i));
  while (modes.size() < r)
    modes.append(Layout());
  return modes.build();
}

/// Fails when the size of `l` does not fit in int64; results that combine
/// the sizes of two inputs (divides, products) can overflow.
Status checkSize(const char *op, const Layout &l) {
  if (!l.shape().product())
    return opError(op, "the size of the result " + l.shape().str() +
                           " does not fit in 64 bits");
  return Ok{};
}

/// Appends the modes a by-mode tiler makes of `a` to the builders: `_` keeps
/// a mode, a layout tiler calls `apply`, a tuple tiler recurses; modes of
/// `a` past the tiler are kept. Results are built in place, without a
/// layout per mode.
template <class Apply>
Status byModeInto(const char *op, const Layout &a, const Tiler &t,
                  bool keepRest, IntTuple::Builder &rs, IntTuple::Builder &rd,
                  Apply apply) {
  switch (t.kind) {
  case Tiler::Kind::Keep:
    rs.subtree(a.shape());
    rd.subtree(a.stride());
    return Ok{};
  case Tiler::Kind::Layout:
    return apply(a, t, rs, rd);
  case Tiler::Kind::Tuple:
    break;
  }
  if (t.modes.size() > a.rank())
    return opError(op, "the tiler has " + std::to_string(t.modes.size()) +
                           " modes but the layout " + a.str() + " has only " +
                           std::to_string(a.rank()));
  rs.open();
  rd.open();
  size_t last = keepRest ? a.rank() : t.modes.size();
  // Mode i of a tuple starts at pre-order node `at`; an integer layout is
  // its own mode 0.
  size_t at = a.shape().isLeaf() ? 0 : 1;
  for (size_t i = 0; i < last; ++i) {
    Layout mode = a.subtree(at);
    at += a.shape().nodes()[at].span;
    if (i < t.modes.size()) {
      LK_CHECK(byModeInto(op, mode, t.modes[i], keepRest, rs, rd, apply));
    } else {
      rs.subtree(mode.shape());
      rd.subtree(mode.stride());
    }
  }
  rs.close();
  rd.close();
  return Ok{};
}

/// Builds the result of byModeInto; its size must fit in int64.
template <class Apply>
Expected<Layout> byModeResult(const char *op, const Layout &a, const Tiler &t,
                              bool keepRest, Apply apply) {
  if (t.kind == Tiler::Kind::Keep)
    return a;
  IntTuple::Builder rs, rd;
  LK_CHECK(byModeInto(op, a, t, keepRest, rs, rd, apply));
  Expected<Layout> r = Layout::fromBuilders(rs, rd);
  if (r)
    LK_CHECK(checkSize(op, *r));
  return r;
}

/// CuTe's zip2_by (tile_unzip): follows the tiler's profile and gathers the
/// rank-2 (tile, rest) modes into ((tiles...), (rests..., other modes...)).
Expected<Layout> unzipByTiler(const char *op, const Layout &l, const Tiler &t) {
  if (t.kind != Tiler::Kind::Tuple) {
    if (l.rank() != 2 || l.shape().isLeaf())
      return opError(op, "expected a rank-2 (tile, rest) mode but found " + l.str());
    return l;
  }
  if (l.rank() < t.modes.size() || l.shape().isLeaf())
    return opError(op, "layout " + l.str() + " has fewer modes than the tiler " + t.str());
  ModeBuilder first, second;
  for (size_t i = 0; i < t.modes.size(); ++i) {
    LK_TRY(Layout split, unzipByTiler(op, l.mode(i), t.modes[i]));
    first.append(split.mode(0));
    second.append(split.mode(1));
  }
  for (size_t i = t.modes.size(); i < l.rank(); ++i)
    second.append(l.mode(i));
  LK_TRY(Layout tiles, first.build());
  LK_TRY(Layout rests, second.build());
  return makeLayout({tiles, rests});
}

/// Unpacks a mode into its children when it has rank > 1 (CuTe slicing with
/// repeat<R>(_): a rank-1 mode stays whole).
void unpackInto(const Layout &mode, ModeBuilder &out) {
  if (mode.shape().isTuple() && mode.rank() > 1)
    for (size_t i = 0; i < mode.rank(); ++i)
      out.append(mode.mode(i));
  else
    out.append(mode);
}

Expected<Layout> tiledRegroup(const Layout &zipped) {
  if (zipped.mode(1).shape().isLeaf() || zipped.mode(1).rank() <= 1)
    return zipped;
  ModeBuilder out;
  out.append(zipped.mode(0));
  unpackInto(zipped.mode(1), out);
  return out.build();
}

Expected<Layout> flatRegroup(const Layout &zipped) {
  ModeBuilder out;
  unpackInto(zipped.mode(0), out);
  unpackInto(zipped.mode(1), out);
  return out.build();
}

} // namespace

//===----------------------------------------------------------------------===//
// Tiler
//===----------------------------------------------------------------------===//

Expected<Tiler> Tiler::ofSize(int64_t n) {
  if (n < 1)
    return Diagnostic::error("tiler size " + std::to_string(n) +
                             " must be positive");
  LK_TRY(Layout l, Layout::compact(IntTuple(n)));
  Tiler t = Tiler::of(std::move(l));
  t.integer = true;
  return t;
}

std::string Tiler::str() const {
  switch (kind) {
  case Kind::Layout:
    return integer ? layout.shape().str() : layout.str();
  case Kind::Keep:
    return "_";
  case Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < modes.size(); ++i)
      s += (i ? "," : "") + modes[i].str();
    return s + ")";
  }
  }
  return "_";
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

int64_t evaluate(const Layout &layout, int64_t i) {
  const IntTuple::Node *s = layout.shape().nodes();
  const IntTuple::Node *d = layout.stride().nodes();
  size_t n = layout.shape().nodeCount();
  size_t last = n - 1; // pre-order: the last node is the last leaf
  int64_t r = 0;
#pragma GCC unroll 4
  for (size_t k = 0; k < last; ++k) {
    if (s[k].rank != IntTuple::kLeaf)
      continue;
    int64_t e = s[k].value;
    // Power-of-two extents (the usual case on GPUs) split with a mask and a
    // shift instead of a 64-bit division; both agree for i >= 0.
    if ((e & (e - 1)) == 0 && i >= 0) {
      r += (i & (e - 1)) * d[k].value;
      i >>= __builtin_ctzll(uint64_t(e));
      continue;
    }
    r += (i % e) * d[k].value;
    i /= e;
  }
  if (s[last].rank == IntTuple::kLeaf)
    r += i * d[last].value;
  return r;
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
    return Diagnostic::error("crd2idx: layout " + layout.str() +
                             " has basis strides (or the coordinate has a "
                             "basis leaf); its value is a tuple (use crd2offset)");
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
    return Arith::diagnostic("crd2offset");
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

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

Layout flatten(const Layout &l) {
  // A layout has at most IntTuple::kMaxRank leaves: flattening succeeds.
  return Layout::unchecked(*l.shape().flatten(), *l.stride().flatten());
}

Expected<Layout> group_modes(const Layout &l, size_t begin, size_t end) {
  if (!(begin < end && end <= l.rank()))
    return opError("group_modes", "mode range [" + std::to_string(begin) + ", " +
                                      std::to_string(end) +
                                      ") is empty or outside the " +
                                      std::to_string(l.rank()) + " modes of " +
                                      l.str());
  ModeBuilder out, group;
  for (size_t i = 0; i < begin; ++i)
    out.append(l.mode(i));
  for (size_t i = begin; i < end; ++i)
    group.append(l.mode(i));
  LK_TRY(Layout grouped, group.build());
  out.append(grouped);
  for (size_t i = end; i < l.rank(); ++i)
    out.append(l.mode(i));
  return out.build();
}

Layout filter_zeros(const Layout &l) {
  SmallVector<int64_t, 16> shapes;
  auto s = l.shape().leaves();
  auto d = l.stride().leaves();
  for (size_t i = 0; i < s.size(); ++i)
    shapes.push_back(d[i].value == 0 ? 1 : s[i].value);
  return Layout::unchecked(l.shape().withLeaves(shapes.data()), l.stride());
}

Layout coalesce(const Layout &l) {
  Modes m = flatModes(l);
  if (m.empty())
    return Layout();
  // At most as many modes as l has leaves: always representable.
  return *coalesceModes(m, /*keepLastExtent=*/false);
}

namespace {

/// Applies `f` at the terminals of `profile` (CuTe's transform over a target
/// profile): a leaf profile applies `f` to the whole layout; a tuple profile
/// recurses into modes i < rank(profile) and keeps the other modes.
template <class F>
Expected<Layout> atProfile(const char *op, const Layout &l,
                           const IntTuple &profile, F f) {
  if (profile.isLeaf())
    return f(l);
  if (profile.rank() > l.rank())
    return opError(op, "profile " + profile.str() + " has more modes than " + l.str());
  ModeBuilder out;
  for (size_t i = 0; i < profile.rank(); ++i) {
    LK_TRY(Layout m, atProfile(op, l.mode(i), profile[i], f));
    out.append(m);
  }
  for (size_t i = profile.rank(); i < l.rank(); ++i)
    out.append(l.mode(i));
  return out.build();
}

} // namespace

Expected<Layout> coalesce(const Layout &l, const IntTuple &profile) {
  return atProfile("coalesce", l, profile,
                   [](const Layout &m) { return coalesce(m); });
}

Layout filter(const Layout &l) { return coalesce(filter_zeros(l)); }

Expected<Layout> filter(const Layout &l, const IntTuple &profile) {
  return atProfile("filter", l, profile,
                   [](const Layout &m) { return filter(m); });
}

//===----------------------------------------------------------------------===//
// Composition, complement, inverses
//===----------------------------------------------------------------------===//

namespace {

/// A o B appended to the builders (B's structure).
Status composeInto(const Layout &a, const Layout &b, IntTuple::Builder &rs,
                   IntTuple::Builder &rd) {
  if (b.hasBasisStrides())
    return opError("composition", "B = " + b.str() +
                                      " has basis strides; B must have "
                                      "integer strides");
  Composer c = makeComposer(a, flatModes(a));
  LK_CHECK(c.compose(b.shape().nodes(), b.stride().nodes(), rs, rd));
  return c.checkDistributive([&] { return b.str(); });
}

/// composition with a layout tiler: a bare integer n composes as n:1 (also
/// for n == 1), as CuTe does.
Status composeTilerInto(const Layout &a, const Tiler &t, IntTuple::Builder &rs,
                        IntTuple::Builder &rd) {
  if (t.integer)
    return composeInto(a, Layout::unchecked(t.layout.shape(), IntTuple(1)), rs, rd);
  return composeInto(a, t.layout, rs, rd);
}

} // namespace

Expected<Layout> composition(const Layout &a, const Layout &b) {
  IntTuple::Builder rs, rd;
  LK_CHECK(composeInto(a, b, rs, rd));
  return Layout::fromBuilders(rs, rd);
}

Expected<Layout> composition(const Layout &a, const Tiler &t) {
  // By-mode: modes of A past the tiler are dropped (CuTe C++ behaviour).
  return byModeResult("composition", a, t, /*keepRest=*/false, composeTilerInto);
}

namespace {

/// complement(l, cotarget) where the cotarget is given by its leaves (only
/// they matter: CuTe's ceil_div fold through nested modes equals the fold
/// through the leaves). @pre every leaf >= 1
/// Flat modes and whether CuTe's result is an integer layout.
struct FlatLayout {
  Modes modes;
  bool integral = true;
};

Expected<FlatLayout> complementModes(const Layout &l, const int64_t *cotarget,
                                     size_t cotargetLeaves) {
  LK_CHECK(requireIntegerStrides("complement", l));
  bool filteredIntegral;
  Modes modes = filteredModes(l, filteredIntegral);
  for (const Mode &m : modes)
    if (m.stride < 0)
      return opError("complement", "layout " + l.str() +
                                       " has a negative stride; complement "
                                       "needs non-negative strides");
  if (filteredIntegral && modes[0].stride == 0) {
    Arith ar;
    int64_t total = 1;
    for (size_t k = 0; k < cotargetLeaves; ++k)
      total = ar.mul(total, cotarget[k]);
    if (!ar.ok())
      return Arith::diagnostic("complement");
    // compact(total): total:1, or 1:0 for a cotarget of 1.
    return FlatLayout{Modes{Mode{total, total == 1 ? 0 : 1, 0}}, true};
  }
  Arith ar;
  Modes result;
  SmallVector<int64_t, 16> resultStride;
  resultStride.push_back(1);
  Modes rest = modes;
  auto nonInjective = [&](const Mode &m, int64_t prev) {
    return opError("complement",
                   "the modes of " + l.str() + " do not nest: mode " +
                       modeStr(m) + " starts inside the extent " +
                       std::to_string(prev) +
                       " covered by its smaller-stride modes (CuTe: "
                       "non-injective layout detected)");
  };
  while (rest.size() > 1) {
    size_t minIdx = 0;
    for (size_t k = 1; k < rest.size(); ++k)
      if (rest[k].stride < rest[minIdx].stride)
        minIdx = k;
    Mode m = rest[minIdx];
    int64_t newShape = m.stride / resultStride.back();
    if (newShape == 0)
      return nonInjective(m, resultStride.back());
    result.push_back(Mode{newShape, resultStride.back(), 0});
    resultStride.push_back(ar.mul(m.stride, m.shape));
    rest.erase(minIdx);
  }
  const Mode &m = rest[0];
  int64_t newShape = m.stride / resultStride.back();
  if (newShape == 0)
    return nonInjective(m, resultStride.back());
  result.push_back(Mode{newShape, resultStride.back(), 0});
  int64_t newStride = ar.mul(m.stride, m.shape);
  if (!ar.ok())
    return Arith::diagnostic("complement");
  // rest = size(ceil_div(cotarget, newStride)): CuTe folds the divisor
  // through the cotarget's modes; nested ceilings compose, so the fold runs
  // over the leaves.
  int64_t restShape = 1, divisor = newStride;
  for (size_t k = 0; k < cotargetLeaves; ++k) {
    restShape = ar.mul(restShape, ceilDiv(cotarget[k], divisor));
    divisor = ceilDiv(divisor, cotarget[k]);
  }
  if (!ar.ok())
    return Arith::diagnostic("complement");
  result.push_back(Mode{restShape, restShape == 1 ? 0 : newStride, 0});
  FlatLayout out;
  out.modes = coalescedModes(result, /*keepLastExtent=*/false, out.integral);
  return out;
}

Expected<Layout> complementImpl(const Layout &l, const int64_t *cotarget,
                                size_t cotargetLeaves) {
  LK_TRY(FlatLayout c, complementModes(l, cotarget, cotargetLeaves));
  return fromModes(c.modes, c.integral);
}

} // namespace

Expected<Layout> complement(const Layout &l, const IntTuple &cotarget) {
  SmallVector<int64_t, 16> leaves;
  for (const IntTuple::Node &n : cotarget.leaves()) {
    if (n.value < 1 || n.basis != 0)
      return opError("complement", "cotarget " + cotarget.str() +
                                       " must have positive integer leaves");
    leaves.push_back(n.value);
  }
  return complementImpl(l, leaves.data(), leaves.size());
}

Expected<Layout> complement(const Layout &l) {
  LK_CHECK(requireIntegerStrides("complement", l));
  // cosize(filter(l)) = 1 + sum (s-1)*|d| over the filtered modes.
  bool integral;
  Arith ar;
  int64_t cosz = 1;
  for (const Mode &m : filteredModes(l, integral))
    cosz = ar.add(cosz, ar.mul(m.shape - 1, absValue(m.stride)));
  if (!ar.ok())
    return Arith::diagnostic("complement");
  return complement(l, IntTuple(cosz));
}

namespace {

/// Coalesced modes, their exclusive prefix products and the stable order of
/// their strides: the common start of both inverses.
struct SortedModes {
  Modes modes;
  SmallVector<int64_t, 16> prefix;
  SmallVector<size_t, 16> order;
};

SortedModes sortedModes(const Layout &l) {
  SortedModes s;
  bool integral;
  s.modes = coalescedModes(flatModes(l), false, integral);
  int64_t p = 1;
  for (const Mode &m : s.modes) {
    s.prefix.push_back(p);
    p *= m.shape; // bounded by size(l)
  }
  for (size_t i = 0; i < s.modes.size(); ++i)
    s.order.push_back(i);
  // Ascending strides with CuTe's exchange sort: for each position i, any
  // later element with a strictly smaller stride is swapped in. It is not
  // stable, and which of two equal strides comes first decides which mode
  // an inverse uses, so the exact procedure is reproduced.
  for (size_t i = 0; i < s.order.size(); ++i)
    for (size_t j = i + 1; j < s.order.size(); ++j)
      if (s.modes[s.order[j]].stride < s.modes[s.order[i]].stride)
        std::swap(s.order[i], s.order[j]);
  return s;
}

/// Largest layout size for which a left inverse that the stride test cannot
/// vouch for is verified point by point.
constexpr int64_t kLeftInverseCheckLimit = int64_t(1) << 22;

/// CuTe's left_inverse decodes an offset in the mixed radix of the sorted
/// non-zero strides. That is exact when each mode ends before the next one
/// starts (s_k * d_k <= d_(k+1)) and there is no broadcast mode; otherwise
/// the postcondition L(R(L(i))) = L(i) is checked on every i.
Status checkLeftInverse(const Layout &l, const Layout &r, const SortedModes &s) {
  bool exact = true;
  const Mode *prev = nullptr;
  for (size_t i : s.order) {
    const Mode &m = s.modes[i];
    if (m.stride == 0) {
      exact = false;
      continue;
    }
    int64_t extent;
    if (prev && (mulOverflows(prev->shape, prev->stride, extent) || extent > m.stride))
      exact = false;
    prev = &m;
  }
  if (exact)
    return Ok{};
  int64_t n = l.size();
  if (n > kLeftInverseCheckLimit)
    return opError("left_inverse",
                   "layout " + l.str() +
                       " has overlapping or broadcast modes and is too large (" +
                       std::to_string(n) + " elements) to verify a left inverse");
  for (int64_t i = 0; i < n; ++i) {
    int64_t li = evaluate(l, i);
    if (li < 0 || evaluate(l, evaluate(r, li)) != li)
      return opError("left_inverse",
                     "layout " + l.str() + " has no left inverse: CuTe's "
                     "construction " + r.str() + " gives L(R(L(" +
                     std::to_string(i) + "))) = " +
                     std::to_string(evaluate(l, evaluate(r, li))) +
                     " instead of " + std::to_string(li));
  }
  return Ok{};
}

} // namespace

Expected<Layout> right_inverse(const Layout &l) {
  LK_CHECK(requireIntegerStrides("right_inverse", l));
  SortedModes s = sortedModes(l);
  Modes out{Mode{1, 0, 0}};
  int64_t curr = 1;
  Arith ar;
  for (size_t i : s.order) {
    const Mode &m = s.modes[i];
    if (m.stride == curr) {
      out.push_back(Mode{m.shape, s.prefix[i], 0});
      curr = ar.mul(m.shape, m.stride);
    }
  }
  if (!ar.ok())
    return Arith::diagnostic("right_inverse");
  return coalesceModes(out, false);
}

Expected<Layout> left_inverse(const Layout &l) {
  LK_CHECK(requireIntegerStrides("left_inverse", l));
  SortedModes s = sortedModes(l);
  SmallVector<int64_t, 16> shapes;
  SmallVector<int64_t, 16> strides{0};
  int64_t covered = 1; // size of the result shape so far
  Arith ar;
  for (size_t i : s.order) {
    const Mode &m = s.modes[i];
    if (m.stride == 0)
      continue;
    if (m.stride < 0 || m.stride % covered != 0)
      return opError("left_inverse",
                     "left inverse divisibility condition fails: stride " +
                         std::to_string(m.stride) + " of mode " + modeStr(m) +
                         " of coalesce(" + l.str() +
                         ") is not a multiple of the extent " +
                         std::to_string(covered) + " already inverted");
    shapes.push_back(m.stride / covered);
    strides.push_back(s.prefix[i]);
    covered = ar.mul(covered, m.stride / covered);
  }
  shapes.push_back(s.modes[s.order.back()].shape);
  Modes out;
  for (size_t i = 0; i < shapes.size(); ++i)
    out.push_back(Mode{shapes[i], strides[i], 0});
  if (!ar.ok())
    return Arith::diagnostic("left_inverse");
  LK_TRY(Layout r, coalesceModes(out, false));
  LK_CHECK(checkLeftInverse(l, r, s));
  return r;
}

Expected<Layout> max_common_layout(const Layout &a, const Layout &b) {
  LK_TRY(Layout invB, right_inverse(b));
  LK_TRY(Layout common0, composition(a, invB));
  Layout common = coalesce(common0);
  Layout first = common.mode(0);
  if (!(first.shape().isLeaf() && first.stride().value() == 1 &&
        first.stride().basis().raw() == 0))
    return Layout();
  return composition(invB, first);
}

Expected<int64_t> max_common_vector(const Layout &a, const Layout &b) {
  LK_TRY(Layout invB, right_inverse(b));
  LK_TRY(Layout common0, composition(a, invB));
  Layout common = coalesce(common0);
  Layout first = common.mode(0);
  if (first.shape().isLeaf() && first.stride().value() == 1 &&
      first.stride().basis().raw() == 0)
    return first.shape().value();
  return int64_t(1);
}

//===----------------------------------------------------------------------===//
// Divides and products
//===----------------------------------------------------------------------===//

namespace {

/// logical_divide(A, T) for a layout T, appended as one (tile, rest) mode.
Status divideInto(const Layout &a, const Tiler &t, IntTuple::Builder &rs,
                  IntTuple::Builder &rd) {
  const Layout &tile = t.layout;
  // rest = complement(T, shape(coalesce(A))), then A o (T, rest), composed
  // mode by mode into one result without building (T, rest).
  Modes flat = flatModes(a);
  Composer c = makeComposer(a, flat);
  // coalesce(A) equals the composer's coalesce_x(A) unless A ends in a
  // size-1 mode, which coalesce_x keeps to remember its stride.
  bool integral;
  Modes plain;
  bool endsInOne = !flat.empty() && flat.back().shape == 1;
  if (endsInOne)
    plain = coalescedModes(flat, false, integral);
  const Modes &ca = endsInOne ? plain : c.lhs;
  SmallVector<int64_t, 16> cotarget;
  for (const Mode &m : ca)
    cotarget.push_back(m.shape);
  LK_TRY(FlatLayout rest, complementModes(tile, cotarget.data(), cotarget.size()));
  rs.open();
  rd.open();
  LK_CHECK(c.compose(tile.shape().nodes(), tile.stride().nodes(), rs, rd));
  if (!rest.integral) {
    rs.open();
    rd.open();
  }
  for (const Mode &m : rest.modes)
    LK_CHECK(c.composeLeaf(m.shape, m.stride, rs, rd));
  if (!rest.integral) {
    rs.close();
    rd.close();
  }
  rs.close();
  rd.close();
  LK_CHECK(c.checkDistributive([&] {
    return "(" + tile.str() + ", " + modesText(rest.modes, rest.integral) + ")";
  }));
  return Ok{};
}

} // namespace

Expected<Layout> logical_divide(const Layout &a, const Tiler &t) {
  return byModeResult("logical_divide", a, t, /*keepRest=*/true, divideInto);
}

Expected<Layout> zipped_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout d, logical_divide(a, t));
  return unzipByTiler("zipped_divide", d, t);
}

Expected<Layout> tiled_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_divide(a, t));
  return tiledRegroup(z);
}

Expected<Layout> flat_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_divide(a, t));
  return flatRegroup(z);
}

namespace {

/// logical_product(A, B) for a layout B, appended as one (A, rest) mode.
Status productInto(const Layout &a, const Tiler &t, IntTuple::Builder &rs,
                   IntTuple::Builder &rd) {
  const Layout &tile = t.layout;
  LK_CHECK(requireIntegerStrides("logical_product", a));
  LK_CHECK(requireIntegerStrides("logical_product", tile));
  LK_TRY(int64_t cosz, tile.cosize());
  LK_TRY(int64_t target, checkedMul(a.size(), cosz, "logical_product"));
  LK_TRY(FlatLayout comp, complementModes(a, &target, 1));
  int64_t compSize = 1;
  for (const Mode &m : comp.modes)
    compSize *= m.shape; // at most the cotarget
  // B's image must stay inside the complement's domain; past it, the
  // composition continues along the complement's last mode into A's image
  // and the copies of A overlap. (CuTe does not check; an inexact complement
  // of a gapped A is smaller than cosize(B).)
  if (cosz > compSize)
    return opError("logical_product",
                   "the complement of " + a.str() + " in " +
                       std::to_string(target) + " is " +
                       modesText(comp.modes, comp.integral) + ", of size " +
                       std::to_string(compSize) + ", too small for " +
                       tile.str() + " (cosize " + std::to_string(cosz) +
                       "): the copies of A would overlap");
  // rest = complement o B, composed straight into the result.
  Composer c;
  c.lhs = coalescedModes(comp.modes, /*keepLastExtent=*/true, c.lhsIntegral);
  c.reach.resize(c.lhs.size(), 0);
  rs.open();
  rd.open();
  rs.subtree(a.shape());
  rd.subtree(a.stride());
  LK_CHECK(c.compose(tile.shape().nodes(), tile.stride().nodes(), rs, rd));
  LK_CHECK(c.checkDistributive([&] { return tile.str(); }));
  rs.close();
  rd.close();
  return Ok{};
}

} // namespace

Expected<Layout> logical_product(const Layout &a, const Tiler &t) {
  return byModeResult("logical_product", a, t, /*keepRest=*/true, productInto);
}

Expected<Layout> zipped_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout p, logical_product(a, t));
  return unzipByTiler("zipped_product", p, t);
}

Expected<Layout> tiled_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_product(a, t));
  return tiledRegroup(z);
}

Expected<Layout> flat_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_product(a, t));
  return flatRegroup(z);
}

namespace {

Expected<Layout> rankedProduct(const Layout &a, const Layout &b, bool raked) {
  size_t r = std::max(a.rank(), b.rank());
  LK_TRY(Layout pa, padToRank(a, r));
  LK_TRY(Layout pb, padToRank(b, r));
  LK_TRY(Layout p, logical_product(pa, Tiler::of(pb)));
  // CuTe zips (first, second) = (A', X) for blocked and (X, A') for raked:
  // an integer first layout gives the single mode (first, second); a tuple
  // pairs mode i of both, which needs the second to be a tuple as well.
  Layout first = raked ? p.mode(1) : p.mode(0);
  Layout second = raked ? p.mode(0) : p.mode(1);
  if (first.shape().isLeaf()) {
    LK_TRY(Layout pair, makeLayout({first, second}));
    return makeLayout({pair});
  }
  if (second.shape().isLeaf() || second.rank() != first.rank())
    return opError(raked ? "raked_product" : "blocked_product",
                   "cannot pair the modes of " + first.str() + " with " +
                       second.str() + ": ranks differ");
  ModeBuilder modes;
  for (size_t i = 0; i < first.rank(); ++i) {
    LK_TRY(Layout pair, makeLayout({first.mode(i), second.mode(i)}));
    modes.append(pair);
  }
  return modes.build();
}

} // namespace

Expected<Layout> blocked_product(const Layout &a, const Layout &b) {
  return rankedProduct(a, b, /*raked=*/false);
}

Expected<Layout> raked_product(const Layout &a, const Layout &b) {
  return rankedProduct(a, b, /*raked=*/true);
}

//===----------------------------------------------------------------------===//
// Shape arithmetic
//===----------------------------------------------------------------------===//

namespace {

/// The mode a shape_div step works on, for diagnostics: "0.1" is mode 1 of
/// mode 0. Kept as indices; formatted only when an error is reported.
using ModePath = SmallVector<int, 8>;

std::string atMode(const ModePath &path) {
  if (path.empty())
    return "";
  std::string s = " at mode ";
  for (size_t i = 0; i < path.size(); ++i)
    s += (i ? "." : "") + std::to_string(path[i]);
  return s;
}

Expected<int64_t> divLeaf(int64_t a, int64_t b, Rounding mode, const ModePath &path) {
  if (b <= 0)
    return Diagnostic::error("shape_div: divisor " + std::to_string(b) +
                             " must be positive" + atMode(path));
  switch (mode) {
  case Rounding::Exact:
    if (a % b != 0 && b % a != 0)
      return Diagnostic::error("shape_div: " + std::to_string(b) +
                               " does not divide " + std::to_string(a) +
                               " (nor the reverse)" + atMode(path));
    return a % b == 0 ? a / b : int64_t(1);
  case Rounding::Floor:
    return a / b;
  case Rounding::Ceil:
    return ceilDiv(a, b);
  }
  return a;
}

Expected<IntTuple> shapeDivImpl(const IntTuple &a, const IntTuple &b,
                                Rounding mode, ModePath &path) {
  if (a.isTuple()) {
    if (b.isTuple()) {
      if (b.rank() > a.rank())
        return Diagnostic::error("shape_div: divisor " + b.str() +
                                 " has more modes than the shape " + a.str());
      IntTuple out;
      for (size_t i = 0; i < a.rank(); ++i) {
        path.push_back(int(i));
        LK_TRY(IntTuple m, shapeDivImpl(a[i], i < b.rank() ? b[i] : IntTuple(1),
                                        mode, path));
        path.pop_back();
        out.push_back(m);
      }
      return out;
    }
    IntTuple out;
    int64_t rest = b.value();
    for (size_t i = 0; i < a.rank(); ++i) {
      IntTuple ai = a[i];
      path.push_back(int(i));
      LK_TRY(IntTuple m, shapeDivImpl(ai, IntTuple(rest), mode, path));
      out.push_back(m);
      LK_TRY(int64_t extent, ai.product());
      // The divisor left for the next mode: how much of it this mode did
      // not absorb (CuTe's fold).
      LK_TRY(int64_t next, divLeaf(rest, extent,
                                   mode == Rounding::Exact ? Rounding::Exact : Rounding::Ceil,
                                   path));
      path.pop_back();
      rest = next;
    }
    return out;
  }
  if (b.isTuple()) {
    LK_TRY(int64_t pb, b.product());
    return shapeDivImpl(a, IntTuple(pb), mode, path);
  }
  LK_TRY(int64_t r, divLeaf(a.value(), b.value(), mode, path));
  return IntTuple(r);
}

} // namespace

Expected<IntTuple> shape_div(const IntTuple &shape, const IntTuple &divisor,
                             Rounding mode) {
  ModePath path;
  return shapeDivImpl(shape, divisor, mode, path);
}

Expected<IntTuple> ceil_div(const IntTuple &a, const IntTuple &b) {
  return shape_div(a, b, Rounding::Ceil);
}

//===----------------------------------------------------------------------===//
// Equivalence
//===----------------------------------------------------------------------===//

Expected<bool> equivalent(const Layout &a, const Layout &b) {
  if (a.size() != b.size())
    return false;
  // The coalesced form is canonical: its first mode is fixed by the run of
  // the function's first differences, and so on recursively.
  return coalesce(a) == coalesce(b);
}

Expected<bool> equivalent(const ComposedLayout &a, const ComposedLayout &b) {
  if (a.layout.size() != b.layout.size())
    return false;
  bool plainA = a.swizzle.isIdentity(), plainB = b.swizzle.isIdentity();
  if ((a.swizzle == b.swizzle || (plainA && plainB)) && a.offset == b.offset)
    return equivalent(a.layout, b.layout);
  if (a.layout.hasBasisStrides() || b.layout.hasBasisStrides())
    return Diagnostic::error("equivalent: a swizzle cannot apply to basis strides");
  int64_t n = a.layout.size();
  if (n > kEquivalencePointLimit)
    return Diagnostic::error("equivalent: " + a.str() + " and " + b.str() +
                             " differ in swizzle or offset and have " +
                             std::to_string(n) + " points; at most " +
                             std::to_string(kEquivalencePointLimit) +
                             " are compared one by one");
  for (int64_t i = 0; i < n; ++i) {
    int64_t x, y;
    // Layout::make bounds every offset; the offsets themselves may not.
    if (addOverflows(evaluate(a.layout, i), a.offset, x) ||
        addOverflows(evaluate(b.layout, i), b.offset, y))
      return Arith::diagnostic("equivalent");
    if (a.swizzle(x) != b.swizzle(y))
      return false;
  }
  return true;
}

} // namespace lk::cute
