//===- FastPaths.cpp - The algebra's fast paths and public entries --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every public operation of Algebra.h below first runs a fast path and hands
// the call to the general construction (AlgebraGeneral.h) when it declines.
// A fast path handles operands of at most kLeaves leaves with integer
// strides; it works on fixed arrays of coalesced modes, does each of the
// general path's checks once on those modes, and writes the result's
// pre-order nodes in place into the returned layout: through a Writer,
// which records the tuple structure as it goes, or, for the rank-1 closed
// forms and the common flat shapes (composeFlat, productWhole,
// rankedProduct, divideModes), directly at positions known up front.
// It declines -- never fails -- on anything the general path reports as an
// error (and on any overflow), so every diagnostic comes from one place and
// a fast result always equals the general one; tests/cute/FastPathTest.cpp
// compares both on random layouts.
//
// The public operations at the end of this file are the dispatch table:
// per operation, the closed forms in the order they are tried, each with
// the operand class it serves, then the general construction. Each records
// the general::Path that served the call (general::lastPath), and
// FastPathTest checks that every closed form serves its class. zipped,
// tiled and flat divides and products of leaf modes by leaf tiles write
// each mode's closed form straight into the grouping (groupLeaves), and
// the by-mode divide of leaf modes into its own layout (divideLeafModes);
// others run the public divide or product and regroup its nodes
// (regroupModes) without building a Layout per part.
//
// Example: composition((4,8):(8,1), (8,4):(4,1)): A's coalesced modes are
// [4:8, 8:1]; B's leaf 8:4 skips A's first mode (4 divides 4) and becomes
// 8:1, the leaf 4:1 stays inside it and becomes 4:8: result (8,4):(1,8).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/AlgebraGeneral.h"

#include "layoutkit/core/Checked.h"

#include "FastInverse.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace lk::cute {
namespace {

using general::Path;
using Node = IntTuple::Node;
constexpr int16_t kLeaf = IntTuple::kLeaf;

/// A leaf node, and a tuple node of `rank` children and `span` nodes (the
/// same node in the shape and the stride), for results written directly.
Node leafNode(int64_t v) { return Node{v, kLeaf, 1, 0}; }
Node tupleNode(int rank, int span) {
  return Node{0, int16_t(rank), uint16_t(span), 0};
}
/// Writes the node {v, rank, span, 0} as two 8-byte stores (assigning a
/// Node let GCC split its rank, span and basis into three).
[[gnu::always_inline]] inline void putNode(Node *p, int64_t v, int rank = kLeaf,
                                           int span = 1) {
  static_assert(sizeof(Node) == 16 && offsetof(Node, rank) == 8 &&
                offsetof(Node, span) == 10 && offsetof(Node, basis) == 12);
  const uint64_t meta = uint64_t(uint16_t(rank)) | uint64_t(span) << 16;
  std::memcpy(&p->value, &v, 8);
  std::memcpy(&p->rank, &meta, 8);
}

/// Writes the tuple node {0, rank, span, 0} at the same place of the shape
/// (`s`) and the stride (`d`): one 16-byte value stored twice (two
/// putNode calls made GCC zero a register per store).
[[gnu::always_inline]] inline void putTuple(Node *s, Node *d, int rank,
                                            int span) {
  const uint64_t w[2] = {0, uint64_t(uint16_t(rank)) | uint64_t(span) << 16};
  std::memcpy(static_cast<void *>(s), w, 16);
  std::memcpy(static_cast<void *>(d), w, 16);
}

/// The second 8 bytes of a leaf node with an integer value: rank kLeaf,
/// span 1, basis 0 (putNode's layout). One compare tests all three.
constexpr uint64_t kLeafMeta = uint64_t(uint16_t(kLeaf)) | uint64_t(1) << 16;
[[gnu::always_inline]] inline bool isIntegerLeaf(const Node &n) {
  uint64_t meta;
  std::memcpy(&meta, &n.rank, 8);
  return meta == kLeafMeta;
}

/// Most leaves of an operand a fast path takes.
constexpr int kLeaves = 8;
/// Room for modes derived from an operand (a complement adds one).
constexpr int kModes = kLeaves + 2;
/// Most nodes of a fast result, and its deepest nesting.
constexpr int kNodes = 48;
/// Nodes a result holds without the heap (IntTuple's inline storage).
constexpr int kInline = int(IntTuple::kInlineNodes);
constexpr int kDepth = 12;

/// Flat modes shape:stride, integer strides only.
struct Modes {
  int n = 0;
  int64_t s[kModes];
  int64_t d[kModes];
};

/// A subtree of a layout: its shape and stride nodes.
struct View {
  const Node *s;
  const Node *d;
};
View viewOf(const Layout &l) { return {l.shape().nodes(), l.stride().nodes()}; }

/// The leaves of `v`; false on a basis stride or more than kLeaves leaves.
bool leavesOf(View v, Modes &m) {
  m.n = 0;
  for (int k = 0, e = v.s->span; k < e; ++k) {
    if (v.s[k].rank != kLeaf)
      continue;
    if (v.d[k].basis != 0 || m.n == kLeaves)
      return false;
    m.s[m.n] = v.s[k].value;
    m.d[m.n] = v.d[k].value;
    ++m.n;
  }
  return true;
}

/// CuTe's coalesce, as detail::coalescedModes: size-1 modes are dropped,
/// s1:d1 merges into the mode s0:d0 before it when s0*d0 == d1; with
/// `keepLastExtent` a trailing size-1 mode keeps its stride (as size 2; a
/// merged extent past int64 saturates at INT64_MAX, as composition reads
/// the extent of every mode but the last). One result mode is an integer
/// layout; none left gives 1:0. Merging depends only on neighbouring pairs, so
/// a front-to-back walk gives the modes CuTe's back-to-front one does, without
/// reversing them afterwards (which reloads just-written stores as vectors).
/// Example: [2:1, 1:7, 4:2, 3:16] -> [8:1, 3:16].
/// @pre m.n <= kModes; `out` may be `m`
[[gnu::always_inline]] inline void
coalesceModes(const Modes &m, bool keepLastExtent, Modes &out) {
  int n = 0, count = m.n;
  int64_t reach = 0; // s*d of the last mode merged or kept
  bool reachOk = false;
  for (int k = 0; k < count; ++k) {
    int64_t s = m.s[k], d = m.d[k];
    if (s == 1) {
      if (!(keepLastExtent && k + 1 == count))
        continue;
      s = 2;
      if (n > 0 && reachOk && reach == d) { // the last merge
        if (mulOverflows(out.s[n - 1], 2, out.s[n - 1]))
          out.s[n - 1] = INT64_MAX; // saturates, as coalescedModes
        break;
      }
    }
    if (n > 0 && reachOk && reach == d) {
      out.s[n - 1] *= s; // shapes multiply to at most the size
    } else {
      out.s[n] = s;
      out.d[n] = d;
      ++n;
    }
    reachOk = !mulOverflows(s, d, reach);
  }
  if (n == 0) {
    out.s[0] = 1;
    out.d[0] = 0;
    n = 1;
  }
  out.n = n;
}

/// True when the size and the cosize 1 + sum (s-1)*|d| of the layout of n
/// pre-order shape and stride nodes fit in int64 (Layout's invariant, as
/// Layout::checkRange states it).
[[gnu::always_inline]] inline bool fitsInt64(const Node *s, const Node *d,
                                             int n) {
  int64_t size = 1, hi = 1, t;
  for (int k = 0; k < n; ++k) {
    if (s[k].rank != kLeaf)
      continue;
    int64_t dv = d[k].value;
    if (dv == INT64_MIN || mulOverflows(size, s[k].value, size) ||
        mulOverflows(s[k].value - 1, absValue(dv), t) ||
        addOverflows(hi, t, hi))
      return false;
  }
  return true;
}

/// Stores n pre-order shape and stride nodes in `out`; declines when the
/// result's size or an offset would not fit in int64 (Layout's invariant).
[[gnu::always_inline]] inline bool storeNodes(const Node *s, const Node *d,
                                              int n, Layout &out) {
  if (!fitsInt64(s, d, n))
    return false;
  out.assignNodes(s, d, size_t(n));
  return true;
}

/// Copies the subtree v to s/d.
[[gnu::always_inline]] inline void copyTree(View v, Node *s, Node *d) {
  for (int k = 0, c = v.s->span; k < c; ++k) {
    s[k] = v.s[k];
    d[k] = v.d[k];
  }
}

/// cosize(B) = 1 + sum (s-1)*|d| and size(B) = prod s, leaf by leaf.
struct Extent {
  int64_t cosize = 1, size = 1;
  /// Adds the leaf s:d; false on an overflow or d == INT64_MIN.
  [[gnu::always_inline]] bool add(int64_t s, int64_t d) {
    int64_t t;
    return d != INT64_MIN && !mulOverflows(s - 1, absValue(d), t) &&
           !addOverflows(cosize, t, cosize) && !mulOverflows(size, s, size);
  }
  /// add() for a stride d >= 0 (a complement's modes): no sign to drop.
  [[gnu::always_inline]] bool addNonNegative(int64_t s, int64_t d) {
    int64_t t;
    return !mulOverflows(s - 1, d, t) && !addOverflows(cosize, t, cosize) &&
           !mulOverflows(size, s, size);
  }
};

/// Copies the subtree v to s/d with every leaf stride e replaced by e*x;
/// false on a basis stride, an overflow or a stride of INT64_MIN (out of a
/// layout's range), where the caller declines. With `ext` it also adds
/// each copied leaf s:e to it (false when that overflows): the products
/// that write their rest before they know cosize(B) walk B only once.
[[gnu::always_inline]] inline bool scaledCopy(View v, int64_t x, Node *s,
                                              Node *d, Extent *ext = nullptr) {
  bool ok = true;
  for (int k = 0, c = v.s->span; k < c; ++k) {
    // Each node as its value and its 8 bytes of rank, span and basis
    // (a whole Node's copy took 8 instructions a node).
    int64_t sv = v.s[k].value, dv = v.d[k].value;
    uint64_t sm, dm;
    std::memcpy(&sm, &v.s[k].rank, 8);
    std::memcpy(&dm, &v.d[k].rank, 8);
    if (dm == kLeafMeta)
      ok &= (!ext || ext->add(sv, dv)) && !mulOverflows(dv, x, dv) &&
            dv != INT64_MIN;
    else
      ok &= v.d[k].rank != kLeaf; // a basis stride declines
    std::memcpy(&s[k].value, &sv, 8);
    std::memcpy(&s[k].rank, &sm, 8);
    std::memcpy(&d[k].value, &dv, 8);
    std::memcpy(&d[k].rank, &dm, 8);
  }
  return ok;
}

/// Pre-order shape and stride nodes of a result, written in place into the
/// result layout's own storage: inline for up to kInline nodes, grown once
/// to kNodes (on the heap, as any larger layout is) when a result needs
/// more (a grown result keeps its 48-node block). Any write past kNodes or
/// kDepth makes finish() decline; a declined writer leaves `out`
/// unspecified, and the caller assigns the general construction's result
/// to it.
struct Writer {
  explicit Writer(Layout &out) : out_(out) {
    out.nodesForOverwrite(kInline, s, d);
  }

  // The counters (at most kNodes) have an integer type that no Node field
  // has: long long where int64_t is long, else long. A store into a node
  // then cannot alias them, so they stay in registers; with `int`, every
  // store of a node's `basis` (an unsigned int) made the compiler reload
  // them.
  using Count =
      std::conditional_t<std::is_same_v<int64_t, long>, long long, long>;
  static_assert(!std::is_same_v<Count, int64_t> && !std::is_same_v<Count, int>);
  Layout &out_;
  Node *s;
  Node *d;
  Count n = 0;
  Count cap = kInline;
  Count depth = 0;
  Count open_[kDepth];
  bool ok = true;

  /// Room for c more nodes, growing the storage once if needed.
  bool room(Count c) { return n + c <= cap || grow(n + c); }
  [[gnu::noinline]] bool grow(Count need) {
    if (!ok || need > kNodes)
      return ok = false;
    out_.nodesForOverwrite(kNodes, s, d); // keeps the nodes written so far
    cap = kNodes;
    return true;
  }
  void child() {
    if (depth)
      ++s[open_[depth - 1]].rank;
  }
  void open() {
    if (!ok || depth == kDepth || !room(1)) {
      ok = false;
      return;
    }
    child();
    open_[depth++] = n;
    s[n++] = Node{0, 0, 1, 0};
  }
  void close() {
    if (!ok)
      return;
    Count at = open_[--depth];
    s[at].span = uint16_t(n - at);
    d[at] = Node{0, s[at].rank, s[at].span, 0};
  }
  [[gnu::always_inline]] void leaf(int64_t sv, int64_t dv) {
    if (!ok || !room(1)) {
      ok = false;
      return;
    }
    child();
    s[n] = Node{sv, kLeaf, 1, 0};
    d[n] = Node{dv, kLeaf, 1, 0};
    ++n;
  }
  void subtree(View v) {
    Count c = v.s->span;
    if (!ok || !room(c)) {
      ok = false;
      return;
    }
    child();
    copyTree(v, s + n, d + n);
    n += c;
  }
  /// The subtree v with every leaf stride d replaced by d*x; what
  /// scaledCopy refuses (a basis stride, an overflow, INT64_MIN) makes
  /// finish() decline.
  void scaled(View v, int64_t x) {
    Count c = v.s->span;
    if (!ok || !room(c)) {
      ok = false;
      return;
    }
    child();
    ok = scaledCopy(v, x, s + n, d + n);
    n += c;
  }
  /// Modes as one leaf, or a flat tuple of several.
  void modes(const Modes &m) {
    if (m.n == 1)
      return leaf(m.s[0], m.d[0]);
    open();
    for (int i = 0; i < m.n; ++i)
      leaf(m.s[i], m.d[i]);
    close();
  }
  /// Sets the result's node count; declines when a write failed or when
  /// the result's size or an offset would not fit in int64 (Layout's
  /// invariant).
  bool finish() {
    if (!ok || !fitsInt64(s, d, int(n)))
      return false;
    out_.nodesForOverwrite(size_t(n), s, d);
    return true;
  }
};

/// Nodes written at positions known up front, with no structure to
/// record: the Composer's sink for composeFlat, and storeModes'.
struct NodeSink {
  Node *s, *d;
  int n; // the next node
  void leaf(int64_t sv, int64_t dv) {
    s[n] = leafNode(sv);
    d[n++] = leafNode(dv);
  }
  /// The tuple node of `rank` children at node `at`, kept before they
  /// were written: its span runs to the next node.
  void tuple(int at, int rank) {
    s[at] = tupleNode(rank, n - at);
    d[at] = tupleNode(rank, n - at);
  }
  /// Modes as one leaf, or a flat tuple of m.n leaves.
  void modes(const Modes &m) {
    if (m.n == 1)
      return leaf(m.s[0], m.d[0]);
    s[n] = tupleNode(m.n, m.n + 1);
    d[n++] = tupleNode(m.n, m.n + 1);
    for (int i = 0; i < m.n; ++i)
      leaf(m.s[i], m.d[i]);
  }
};

/// composeFlat's sink: a whole composition A o B, whose range the
/// Composer bounds (Composer::fits).
struct WholeSink : NodeSink {
  int64_t tail = 0;
  /// Adds the last-mode term (s-1)*|st| to tail; false on an overflow or
  /// st == INT64_MIN (out of a layout's range).
  bool addTail(int64_t s, int64_t st) {
    int64_t t;
    return st != INT64_MIN && !mulOverflows(s - 1, absValue(st), t) &&
           !addOverflows(tail, t, tail);
  }
};

/// Stores modes m as the whole result (NodeSink::modes), in place;
/// declines when the result would not fit in int64, a check the caller
/// skips (`knownToFit`) where the modes' size and cosize are bounded by
/// an operand's.
/// Example: [4:2, 2:32] -> (4,2):(2,32); [8:1] -> 8:1.
[[gnu::always_inline]] inline bool storeModes(const Modes &m, Layout &out,
                                              bool knownToFit = false) {
  static_assert(kModes + 1 <= kInline);
  NodeSink w{nullptr, nullptr, 0};
  out.nodesForOverwrite(m.n == 1 ? 1 : size_t(m.n) + 1, w.s, w.d);
  w.modes(m);
  return knownToFit || fitsInt64(w.s, w.d, w.n);
}

/// The composer of AlgebraSupport.h over fixed arrays: A after coalesce_x,
/// and for each of A's modes but the last the coordinate B's leaves reach
/// together along it (the distributivity check).
struct Composer {
  Modes lhs;
  /// Zeroed whole: a loop bounded by lhs.n becomes a `rep stos`, whose
  /// start-up costs more than the ten stores.
  int64_t reach[kModes] = {};

  explicit Composer(const Modes &flatA) {
    coalesceModes(flatA, /*keepLastExtent=*/true, lhs);
  }

  /// The cosize of a whole composition A o B (whose size is size(B))
  /// fits in int64, from the sum `tail` of its terms (s-1)*|d| along A's
  /// last mode (or its only one), where B may pass A's domain, which a
  /// bounding sink (WholeSink) adds up: the terms along A's other modes i
  /// sum to reach[i]*|d_i| <= (s_i-1)*|d_i| (distributive), A's own. In
  /// place of a pass over the result's nodes.
  /// @pre distributive(), and every leaf went through the bounding sink
  bool fits(int64_t tail) const {
    int64_t hi = 1, t;
    for (int i = 0; i + 1 < lhs.n; ++i)
      if (mulOverflows(reach[i], absValue(lhs.d[i]), t) ||
          addOverflows(hi, t, hi))
        return false;
    return !addOverflows(hi, tail, t);
  }

  /// A composed with B's mode s:d, following composeLeaf's checks,
  /// appended to `w`: a Writer, or any sink with the same leaf(s, d) and
  /// modes(m) (composeFlat's NodeSink). Inlined where GCC decides.
  template <class Sink> bool leaf(int64_t s, int64_t d, Sink &w) {
    return leafInline<false>(s, d, w);
  }
  /// leaf(), always inlined, with leafOfTwo's straight-line step for an
  /// A of two modes (`two`): for the compositions and divides called
  /// once per leaf of B (out of line, or with the loop, it cost 15-40
  /// instructions more a leaf).
  template <bool two = true, class Sink>
  [[gnu::always_inline]] inline bool leafInline(int64_t s, int64_t d, Sink &w) {
    constexpr bool bound = requires(Sink & x) { x.addTail(s, d); };
    int r = lhs.n;
    if (d < 0 && r != 1)
      return false;
    if (d == 0) {
      w.leaf(s, 0);
      return true;
    }
    int64_t st;
    if (r == 1) {
      if (mulOverflows(d, lhs.d[0], st))
        return false;
      if constexpr (bound)
        if (!w.addTail(s, st))
          return false;
      w.leaf(s, st);
      return true;
    }
    if (two && r == 2)
      return leafOfTwo(s, d, w);
    Modes out;
    // d > 0 here (d < 0 needs r == 1), and every step keeps the stride
    // positive: no signs to carry.
    int64_t restShape = s, restStride = d;
    for (int i = 0; i + 1 < r; ++i) {
      // composeLeaf's step with its ceilings resolved: a stride at least
      // the extent cs must be a multiple of it and skips the mode (next
      // stride restStride/cs); a smaller one steps inside it (next stride
      // 1), with ceil(cs/restStride) from one division's quotient and
      // remainder.
      const int64_t cs = lhs.s[i];
      if (restStride >= cs) {
        const int64_t q = restStride / cs;
        if (restStride - q * cs != 0)
          return false;
        restStride = q;
        continue;
      }
      const int64_t abs = restStride;
      restStride = 1;
      if (restShape == 1)
        continue;
      const int64_t q = cs / abs, rem = cs - q * abs;
      int64_t newShape = std::min(q + (rem != 0), restShape), step;
      if (restShape % newShape != 0 || (restShape > newShape && rem != 0) ||
          mulOverflows(abs, lhs.d[i], st) ||
          mulOverflows(newShape - 1, abs, step) ||
          addOverflows(reach[i], step, reach[i]))
        return false;
      out.s[out.n] = newShape;
      out.d[out.n++] = st;
      restShape /= newShape;
    }
    if (out.n == 0 || restShape != 1) {
      if (mulOverflows(restStride, lhs.d[r - 1], st))
        return false;
      if constexpr (bound)
        if (!w.addTail(restShape, st))
          return false;
      out.s[out.n] = restShape;
      out.d[out.n++] = st;
    }
    w.modes(out);
    return true;
  }

  /// leaf() for A of two modes s0:d0, s1:d1 and d > 0, its one step
  /// written out (a tile under a TV layout, the 2-D tiles):
  ///  * d >= s0 (or s == 1): B's leaf skips (or never leaves) mode 0, one
  ///    mode s:(d/s0)*d1 (s:d1), d a multiple of s0;
  ///  * otherwise it starts inside mode 0: n0 = min(ceil(s0/d), s) steps
  ///    n0:d*d0 there (reach[0] grows by (n0-1)*d), and for n0 < s the
  ///    rest s/n0:d1 (s a multiple of n0, s0 of d).
  /// The same modes and declines as the loop of leaf().
  template <class Sink> bool leafOfTwo(int64_t s, int64_t d, Sink &w) {
    constexpr bool bound = requires(Sink & x) { x.addTail(s, d); };
    const int64_t s0 = lhs.s[0], d1 = lhs.d[1];
    int64_t st;
    if (d >= s0 || s == 1) {
      int64_t q = 1;
      if (d >= s0) {
        q = d / s0;
        if (d - q * s0 != 0)
          return false;
      }
      if (mulOverflows(q, d1, st))
        return false;
      if constexpr (bound)
        if (!w.addTail(s, st))
          return false;
      w.leaf(s, st);
      return true;
    }
    const int64_t q = s0 / d, rem = s0 - q * d;
    const int64_t n0 = std::min(q + (rem != 0), s);
    int64_t step;
    if (s % n0 != 0 || (s > n0 && rem != 0) || mulOverflows(d, lhs.d[0], st) ||
        mulOverflows(n0 - 1, d, step) || addOverflows(reach[0], step, reach[0]))
      return false;
    if (n0 == s) {
      w.leaf(s, st);
      return true;
    }
    if constexpr (bound)
      if (!w.addTail(s / n0, d1))
        return false;
    Modes out;
    out.n = 2;
    out.s[0] = n0;
    out.d[0] = st;
    out.s[1] = s / n0;
    out.d[1] = d1;
    w.modes(out);
    return true;
  }

  /// A composed with B's subtree, following B's structure.
  bool tree(View b, Writer &w) {
    if (b.s->rank == kLeaf)
      return b.d->basis == 0 && leaf(b.s->value, b.d->value, w);
    w.open();
    View c{b.s + 1, b.d + 1};
    for (int k = 0; k < b.s->rank; ++k) {
      if (!tree(c, w))
        return false;
      c.s += c.s->span;
      c.d += c.d->span;
    }
    w.close();
    return true;
  }

  /// No two of B's leaves together carry into A's next mode.
  bool distributive() const {
    for (int i = 0; i + 1 < lhs.n; ++i)
      if (reach[i] >= lhs.s[i])
        return false;
    return true;
  }
};

/// The complement's last shape for modes reaching `cur`: restShape =
/// prod ceilDiv(c_k, divisor_k), divisor_k+1 = ceilDiv(divisor_k, c_k),
/// divisor_0 = cur, with every c_k >= 1 (callers pass shapes) and divisor
/// >= 1, so one of the two quotients is always 1: c >= divisor gives
/// ceilDiv(divisor, c) = 1, c < divisor gives ceilDiv(c, divisor) = 1. At
/// most one division per mode, none once the divisor is 1; false on an
/// overflow.
[[gnu::always_inline]] inline bool restShapeOf(int64_t cur, const int64_t *cot,
                                               int nc, int64_t &restShape) {
  restShape = 1;
  int64_t divisor = cur;
  for (int k = 0; k < nc; ++k) {
    const int64_t c = cot[k];
    if (c >= divisor) {
      if (mulOverflows(restShape, divisor == 1 ? c : ceilDiv(c, divisor),
                       restShape))
        return false;
      divisor = 1;
    } else {
      divisor = ceilDiv(divisor, c);
    }
  }
  return true;
}

/// Ends a complement's modes: the rest mode restShape:cur unless its size
/// is 1, then 1:0 when no mode is left (every mode had size 1).
[[gnu::always_inline]] inline void
closeComplement(Modes &out, int64_t restShape, int64_t cur) {
  if (restShape != 1) {
    out.s[out.n] = restShape;
    out.d[out.n++] = cur;
  }
  if (out.n == 0) {
    out.s[0] = 1;
    out.d[0] = 0;
    out.n = 1;
  }
}

/// complement(l, cotarget) as detail::complementModes, the cotarget given
/// by its leaves. Stable ascending strides: the general path's repeated
/// "first smallest remaining stride". A leaf s:d with s > 1, d > 0 (a
/// divide's leaf tile) in closed form: [d:1, restShape:s*d], the modes of
/// size 1 dropped (1:0 when both are), which is what the walk below
/// gives (the two never merge: s > 1).
/// The modes fit in int64 (the caller stores them unchecked): the sorted
/// strides satisfy d_i+1 >= cur_i = s_i*d_i (else a shape d_i+1/cur_i is 0
/// and this declines), so the terms (d_i/cur_i-1 - 1)*cur_i-1 <= d_i -
/// cur_i-1 telescope to at most cur - 1, and with the last mode's the
/// cosize is at most restShape*cur, as is the size; this declines when
/// that product overflows (`Stored`: only the caller that stores the
/// modes pays for the check). The compact A (stride 0 only) gives total:1.
/// complementModes for a flat pair of integer leaves s0:d0, s1:d1 with
/// s >= 2 and d >= 1 (a tile such as (2,4):(1,16)), the walk below
/// written out: sorted by stride to a, b, the modes [da:1, db/cur:cur,
/// restShape:db*sb] with cur = sa*da, those of size 1 dropped (1:0 when
/// all are). A pair that merges (s0*d0 == d1: the walk coalesces it to
/// (s0*s1):d0 first) gets db/cur = 1, the leaf's [d0:1, restShape:
/// s0*s1*d0]: the same modes. 1 or 0 for the walk's result (its modes,
/// or its decline), -1 for any other pair (the walk takes it).
template <bool Stored>
[[gnu::always_inline]] inline int complementPair(View l, const int64_t *cot,
                                                 int nc, Modes &out) {
  if (!isIntegerLeaf(l.s[1]) || !isIntegerLeaf(l.d[1]) ||
      !isIntegerLeaf(l.s[2]) || !isIntegerLeaf(l.d[2]))
    return -1;
  int64_t sa = l.s[1].value, da = l.d[1].value, sb = l.s[2].value,
          db = l.d[2].value, cur;
  if (sa < 2 || sb < 2 || da < 1 || db < 1 || mulOverflows(sa, da, cur))
    return -1;
  if (db < da) {
    std::swap(sa, sb);
    std::swap(da, db);
    if (mulOverflows(sa, da, cur))
      return 0;
  }
  out.n = 0;
  if (da != 1) {
    out.s[0] = da;
    out.d[0] = 1;
    out.n = 1;
  }
  const int64_t n1 = db / cur;
  if (n1 == 0)
    return 0;
  if (n1 != 1) {
    out.s[out.n] = n1;
    out.d[out.n++] = cur;
  }
  int64_t restShape, reach;
  if (mulOverflows(db, sb, cur) || !restShapeOf(cur, cot, nc, restShape) ||
      (Stored && mulOverflows(restShape, cur, reach)))
    return 0;
  closeComplement(out, restShape, cur);
  return 1;
}

template <bool Stored = false>
bool complementModes(View l, const int64_t *cot, int nc, Modes &out) {
  if (l.s->rank == 2 && l.s->span == 3)
    if (const int r = complementPair<Stored>(l, cot, nc, out); r >= 0)
      return r == 1;
  if (l.s->rank == kLeaf && l.d->basis == 0 && l.s->value > 1 &&
      l.d->value > 0) {
    const int64_t d = l.d->value;
    int64_t cur, restShape, reach;
    if (mulOverflows(d, l.s->value, cur) ||
        !restShapeOf(cur, cot, nc, restShape) ||
        (Stored && mulOverflows(restShape, cur, reach)))
      return false;
    out.n = 0;
    if (d > 1) {
      out.s[0] = d;
      out.d[0] = 1;
      out.n = 1;
    }
    closeComplement(out, restShape, cur); // restShape >= 1
    return true;
  }
  // One pass over l's leaves gives coalesce(l) with stride-0 modes as
  // size 1: size-1 leaves are dropped, a leaf s:d merges into the mode
  // before it when that mode's s*d == d, and a mode left with d < 0 is
  // the general path's error (a negative leaf that merges had a negative
  // mode before it).
  Modes m;
  int64_t reach = 0;
  bool reachOk = false;
  for (int k = 0, e = l.s->span, leaves = 0; k < e; ++k) {
    if (l.s[k].rank != kLeaf)
      continue;
    const int64_t s = l.s[k].value, d = l.d[k].value;
    if (l.d[k].basis != 0 || ++leaves > kLeaves)
      return false;
    if (s == 1 || d == 0)
      continue;
    if (m.n > 0 && reachOk && reach == d) {
      m.s[m.n - 1] *= s; // shapes multiply to at most the size
    } else {
      if (d < 0)
        return false;
      m.s[m.n] = s;
      m.d[m.n++] = d;
    }
    reachOk = !mulOverflows(s, d, reach);
  }
  if (m.n == 0) { // stride 0 only: compact(cotarget)
    int64_t total = 1;
    for (int k = 0; k < nc; ++k)
      if (mulOverflows(total, cot[k], total))
        return false;
    out.n = 1;
    out.s[0] = total;
    out.d[0] = total == 1 ? 0 : 1;
    return true;
  }
  // Insertion sort: stable, linear when sorted. The held mode moves once
  // (swapping pairs let the compiler reload just-written strides as one
  // vector, which stalls). Two modes (a tile (2,4)) compare once.
  if (m.n == 2) {
    if (m.d[1] < m.d[0]) {
      std::swap(m.s[0], m.s[1]);
      std::swap(m.d[0], m.d[1]);
    }
  } else {
    for (int i = 1; i < m.n; ++i) {
      int64_t ks = m.s[i], kd = m.d[i];
      int j = i;
      for (; j > 0 && kd < m.d[j - 1]; --j) {
        m.s[j] = m.s[j - 1];
        m.d[j] = m.d[j - 1];
      }
      m.s[j] = ks;
      m.d[j] = kd;
    }
  }
  // The result's modes d_i/cur:cur, then restShape:cur, coalesced: no two
  // merge (a mode's shape times its stride is at most d_i < d_i*s_i, the
  // next stride, for s_i >= 2), so coalescing only drops the size-1 modes
  // (all of them: 1:0). The divisions form one dependent chain, and each
  // 64-bit idiv takes 10+ cycles, so the first, by cur = 1, is skipped.
  out.n = 0;
  int64_t cur = 1;
  for (int i = 0; i < m.n; ++i) {
    int64_t newShape = i == 0 ? m.d[0] : m.d[i] / cur;
    if (newShape == 0)
      return false;
    if (newShape != 1) {
      out.s[out.n] = newShape;
      out.d[out.n++] = cur;
    }
    if (mulOverflows(m.d[i], m.s[i], cur))
      return false;
  }
  int64_t restShape;
  if (!restShapeOf(cur, cot, nc, restShape) ||
      (Stored && mulOverflows(restShape, cur, reach)))
    return false;
  closeComplement(out, restShape, cur);
  return true;
}

/// composition(A, B) appended to `w`.
bool composeInto(View a, View b, Writer &w) {
  Modes fa;
  if (!leavesOf(a, fa))
    return false;
  Composer c(fa);
  return c.tree(b, w) && c.distributive();
}

/// composition(A, B) for a flat B = (s_0:d_0, ..., s_r-1:d_r-1) of integer
/// leaves, written in place without a Writer: a root of r modes, mode i
/// the composer's modes for s_i:d_i. Declines when the result could pass
/// IntTuple's inline nodes (1 + r * (1 + modes of coalesced A)).
/// Example: (4,8):(8,1) o (8,4):(4,1): 8:4 steps over A's first mode to
/// 8:1, 4:1 stays inside it as 4:8: result (8,4):(1,8).
bool composeFlat(const Layout &a, const Layout &b, Layout &out) {
  const Node *bs = b.shape().nodes(), *bd = b.stride().nodes();
  int r = bs->rank;
  Modes fa;
  if (r < 1 || bs->span != r + 1 || !leavesOf(viewOf(a), fa))
    return false;
  Composer c(fa);
  if (1 + r * (1 + c.lhs.n) > kInline)
    return false;
  WholeSink w{{nullptr, nullptr, 1}}; // node 0, the root, is written last
  out.nodesForOverwrite(kInline, w.s, w.d);
  for (int i = 1; i <= r; ++i) // a child of span 1 is a leaf or ()
    if (bs[i].rank != kLeaf || bd[i].basis != 0 ||
        !c.leafInline(bs[i].value, bd[i].value, w))
      return false;
  Node *s = w.s, *d = w.d;
  int n = w.n;
  s[0] = tupleNode(r, n);
  d[0] = tupleNode(r, n);
  out.nodesForOverwrite(size_t(n), s, d);
  return c.distributive() &&
         c.fits(w.tail); // size(B); fits() bounds the cosize
}

/// composeNested's sink: a NodeSink of its own type, so that the
/// composer's leaf for it is a function of its own, inlined there, and
/// composeFlat's and the divides' stays inlined in theirs (one more caller
/// made GCC call it out of line: 10-50 instructions more per divide).
struct NestedSink : WholeSink {};

/// The composer's modes for B's subtree `b`, appended to `w` following
/// B's structure; false on a basis stride and when a write could pass
/// IntTuple's inline nodes. One pass over B's pre-order nodes, no
/// recursion: a tuple keeps its result node (its position, rank and the
/// end of its B nodes) on a stack, written once its last B node is, so a
/// tuple of any depth closes in order. Every open tuple holds one result
/// node, so at most kInline are open.
[[gnu::noinline]] bool composeNodes(Composer &c, View b, NestedSink &w) {
  struct Open {
    int at, rank, end;
  } open[kInline];
  int depth = 0;
  for (int k = 0, count = b.s->span; k < count; ++k) {
    const Node &s = b.s[k], &d = b.d[k];
    if (s.rank == kLeaf) {
      if (d.basis != 0 || w.n + 1 + c.lhs.n > kInline ||
          !c.leaf(s.value, d.value, w))
        return false;
    } else {
      if (w.n + 1 > kInline)
        return false;
      open[depth++] = Open{w.n++, s.rank, k + s.span};
    }
    while (depth > 0 && open[depth - 1].end == k + 1) {
      --depth;
      w.tuple(open[depth].at, open[depth].rank);
    }
  }
  return true;
}

/// composeNodes for a tuple B, its modes walked directly: a leaf or a
/// flat tuple of leaves (a TV layout's modes) without the stack of open
/// tuples, a deeper mode by composeNodes. Same writes, same declines.
bool composeModesOf(Composer &c, View b, NestedSink &w) {
  const int rank = b.s->rank;
  // A leaf's nodes: 1, or 1 + lhs.n for a tuple of the composer's modes.
  const int room = kInline - 1 - c.lhs.n;
  w.n = 1; // the root's node, written last
  View m{b.s + 1, b.d + 1};
  for (int i = 0; i < rank; ++i) {
    const int span = m.s->span, modeRank = m.s->rank;
    View l = m; // the mode's leaves: itself, or its children
    int leaves = 1, at = -1;
    m.s += span;
    m.d += span;
    if (modeRank != kLeaf) {
      if (span != modeRank + 1) { // deeper than a tuple of leaves
        if (!composeNodes(c, l, w))
          return false;
        continue;
      }
      if (w.n + 1 > kInline) // (), or a tuple of leaves
        return false;
      at = w.n++;
      ++l.s;
      ++l.d;
      leaves = modeRank;
    }
    for (int j = 0; j < leaves; ++j) {
      if (l.s[j].rank != kLeaf) { // a child (): its tuple node
        if (w.n + 1 > kInline)
          return false;
        const int empty = w.n++;
        w.tuple(empty, 0);
      } else if (l.d[j].basis != 0 || w.n > room ||
                 !c.leafInline(l.s[j].value, l.d[j].value, w)) {
        return false;
      }
    }
    if (at >= 0)
      w.tuple(at, modeRank);
  }
  w.tuple(0, rank);
  return true;
}

/// composition(A, B) for a nested tuple B of integer leaves, written in
/// place without a Writer as composeFlat writes, B's structure kept;
/// declines a result past IntTuple's inline nodes.
/// Example: ((4,2),(4,2)):((1,16),(4,32)) o ((2,2),(2,4)):((1,8),(2,16))
///          = ((2,2),(2,4)):((1,64),(4,128)).
bool composeNested(const Layout &a, const Layout &b, Layout &out) {
  Modes fa;
  if (b.shape().isLeaf() || !leavesOf(viewOf(a), fa))
    return false;
  Composer c(fa);
  NestedSink w{{{nullptr, nullptr, 0}}};
  out.nodesForOverwrite(kInline, w.s, w.d);
  if (!composeModesOf(c, viewOf(b), w) || !c.distributive() || !c.fits(w.tail))
    return false;
  Node *s = w.s, *d = w.d;
  out.nodesForOverwrite(size_t(w.n), s, d);
  return true; // size(B), and c.fits() bounds the cosize
}

/// composition(A, B) for any B of integer leaves, through a Writer.
bool composeTree(const Layout &a, const Layout &b, Layout &out) {
  Writer w(out);
  return composeInto(viewOf(a), viewOf(b), w) && w.finish();
}

/// The rest of logical_divide(A, T) for a layout T, before A's composer
/// `c` composes it: complement(T, shape(coalesce(A))) as modes, for A's
/// leaves `fa` (coalesced again without keeping a last size-1 extent when
/// fa ends in one, where c's modes differ from coalesce(A)'s).
[[gnu::always_inline]] inline bool divideRest(const Modes &fa, const Modes &lhs,
                                              View tile, Modes &rest) {
  Modes plain;
  const Modes *ca = &lhs;
  if (fa.n > 0 && fa.s[fa.n - 1] == 1) {
    coalesceModes(fa, false, plain);
    ca = &plain;
  }
  return complementModes(tile, ca->s, ca->n, rest);
}
[[gnu::always_inline]] inline bool
divideRest(const Modes &fa, const Composer &c, View tile, Modes &rest) {
  return divideRest(fa, c.lhs, tile, rest);
}

/// logical_divide(A, T) for a layout T: (A o T, A o complement(T,
/// shape(coalesce(A)))), one composer for both, as divideInto.
bool divideInto(View a, const Layout &tile, Writer &w) {
  Modes fa, rest;
  if (!leavesOf(a, fa))
    return false;
  Composer c(fa);
  if (!divideRest(fa, c, viewOf(tile), rest))
    return false;
  w.open();
  if (!c.tree(viewOf(tile), w))
    return false;
  if (rest.n > 1)
    w.open();
  for (int i = 0; i < rest.n; ++i)
    if (!c.leaf(rest.s[i], rest.d[i], w))
      return false;
  if (rest.n > 1)
    w.close();
  w.close();
  return c.distributive();
}

/// logical_divide(A, T) for a layout tile T and an A whose coalesced
/// modes (the Composer's) are one mode s:x: A composes leaf by leaf, y
/// becoming y*x, so the result is (T with strides times x, complement(T,
/// s) with strides times x) as divideInto builds it, written in place
/// out of line: T's nodes copied scaled (scaledCopy), the rest's modes a
/// leaf or a flat tuple. Declines other operands, results past the inline
/// nodes, and what scaledCopy or fitsInt64 refuses.
/// Example: logical_divide((64,64):(1,64), (2,4):(1,16))
///          = ((2,4),(8,64)):((1,16),(2,64)).
[[gnu::noinline]] bool divideWhole(const Layout &a, const Tiler &t,
                                   Layout &out) {
  Modes fa, rest;
  if (t.kind != Tiler::Kind::Layout || !leavesOf(viewOf(a), fa))
    return false;
  Modes lhs; // the Composer's modes of A, without its reach
  coalesceModes(fa, /*keepLastExtent=*/true, lhs);
  const View tv = viewOf(t.layout);
  const int nt = tv.s->span;
  if (lhs.n != 1 || !divideRest(fa, lhs, tv, rest))
    return false;
  const int size = 1 + nt + rest.n + (rest.n > 1);
  if (size > kInline)
    return false;
  const int64_t x = lhs.d[0];
  Node *s, *d;
  out.nodeStorage(s, d); // size <= kInline; the root and count last
  Extent e; // of (T, rest) unscaled: T's fits (a layout's), the rest's
  if (!scaledCopy(tv, x, s + 1, d + 1, &e))
    return false;
  int k = 1 + nt;
  if (rest.n > 1) {
    putTuple(s + k, d + k, rest.n, rest.n + 1);
    ++k;
  }
  bool exact = true;
  for (int i = 0; i < rest.n; ++i, ++k) {
    int64_t st;
    if (mulOverflows(rest.d[i], x, st))
      return false;
    exact &= e.addNonNegative(rest.s[i], rest.d[i]); // a complement's
    putNode(s + k, rest.s[i]);
    putNode(d + k, st);
  }
  putTuple(s, d, 2, size); // `out` reads as before until here
  Node *ns, *nd;
  out.inlineNodesForOverwrite(size_t(size), ns, nd);
  // (T, rest) of size S = size(A) and cosize S (terms S-1): the result's
  // terms are |x|*(S-1), A's own, and it fits as A does.
  const int64_t sizeA = fa.n == 0 || fa.s[fa.n - 1] == 1 ? 0 : lhs.s[0];
  return (exact && e.size == sizeA && e.cosize == sizeA) ||
         fitsInt64(s, d, size);
}

/// The extent of B's leaves; false on a basis stride, more than kLeaves
/// leaves, or an overflow.
bool extentOf(View b, Extent &e) {
  for (int k = 0, n = b.s->span, leaves = 0; k < n; ++k) {
    if (b.s[k].rank != kLeaf)
      continue;
    if (++leaves > kLeaves || b.d[k].basis != 0 ||
        !e.add(b.s[k].value, b.d[k].value))
      return false;
  }
  return true;
}

/// The size n of an A whose image is exactly [0, n) (see productRest): its
/// leaves of size > 1, sorted by stride, have the strides 1, s_0, s_0*s_1,
/// ... (column-major compact A in any mode order: the row-major atom
/// (8,8):(8,1) too); false for any other A and for n == 1. The leaves of
/// size 1 add nothing and are skipped.
bool bijectiveSize(View a, int64_t &n) {
  int64_t shape[kLeaves], stride[kLeaves];
  int m = 0;
  for (int k = 0, e = a.s->span, leaves = 0; k < e; ++k) {
    if (a.s[k].rank != kLeaf)
      continue;
    if (++leaves > kLeaves || a.d[k].basis != 0)
      return false;
    if (a.s[k].value == 1)
      continue;
    // Insertion by stride: at most kLeaves entries.
    int i = m++;
    for (; i > 0 && stride[i - 1] > a.d[k].value; --i) {
      shape[i] = shape[i - 1];
      stride[i] = stride[i - 1];
    }
    shape[i] = a.s[k].value;
    stride[i] = a.d[k].value;
  }
  n = 1; // the next stride of a compact layout, then its size
  for (int i = 0; i < m; ++i)
    if (stride[i] != n || mulOverflows(n, shape[i], n))
      return false;
  return n != 1;
}

/// Whether the rest of a product of an A onto [0, n) by a B of
/// extent e has productRest's bound: n*cosize(B) and n*size(B) fit.
bool restFits(int64_t n, const Extent &e) {
  int64_t t;
  return !mulOverflows(n, e.cosize, t) && !mulOverflows(n, e.size, t);
}

/// The scale x of logical_product's rest, complement(A, size(A)*cosize(B))
/// o B, for an A whose image is [0, n) (bijectiveSize: no holes, no
/// broadcast, any mode order; complement sorts A's modes by stride, so it
/// is that of n:1): the complement is exactly cosize(B):n (1:0 when
/// cosize(B) == 1), one
/// integer mode, which B composes with leaf by leaf and without any
/// divisibility condition: B's leaf s:d becomes s:d*x with x = n (x = 0
/// for cosize 1), B's structure kept. Declines for any other A, and when
/// n*cosize(B) or n*size(B) does not fit in int64 (the general path then
/// decides).
/// Example: A = (4,8):(1,4), B = (2,2):(1,2): cosize 4, x = 32, rest
/// (2,2):(32,64).
/// @post any layout of A's leaves and the rest's leaves fits in int64 (no
/// fitsInt64 pass needed): its size is n*size(B), and every offset is at
/// most (n-1) + x*(cosize(B)-1) <= n*cosize(B) - 1 in magnitude, since a
/// bijective A's terms (s-1)*d sum to n-1. Only the strides d*x of B's size-1
/// leaves, which add nothing to an offset, can still overflow: the copy
/// checks them.
bool productRest(View a, View b, int64_t &x) {
  int64_t n;
  Extent e;
  if (!bijectiveSize(a, n) || !extentOf(b, e) || !restFits(n, e))
    return false;
  x = e.cosize == 1 ? 0 : n;
  return true;
}

/// A mode divided or multiplied in closed form: its first part (the
/// tile; A's mode in a product) one leaf, its rest one leaf or a pair.
struct LeafQuotient {
  int64_t tileShape, tileStride;
  int restModes; // 1 or 2
  int64_t restShape[2], restStride[2];
};

/// productAnyInto for leaves A = s:d, B = t:e with s, t >= 2, d >= 1 and
/// e >= 1, in closed form. complement(s:d, s*cosize(B)) is [d:1, q:s*d]
/// with q = ceil(cosize(B)/d) (a mode of size 1 dropped), of size >=
/// cosize(B): the copies never pass it. The composer then takes t:e to
///  * t:e when q == 1 (one mode, stride 1);
///  * t:e*s when e >= d, e a multiple of d (e/d steps over d:1);
///  * (n0, t/n0):(e, s*d) with n0 = min(ceil(d/e), t) when e < d, t a
///    multiple of n0 and d of e unless t == n0 (t/n0 == 1 drops its mode);
/// and declines elsewhere, as the composer does (the general error).
/// Example: A = 8:8, B = 4:1: q = 1, result (8:8, 4:1).
/// leafProductRest gives (A's mode, rest); productLeafModeInto writes it.
[[gnu::always_inline]] inline bool
leafProductRest(int64_t s, int64_t d, int64_t t, int64_t e, LeafQuotient &q) {
  int64_t cosB, target, sd;
  if (mulOverflows(t - 1, e, cosB) || addOverflows(cosB, 1, cosB) ||
      mulOverflows(s, cosB, target) || mulOverflows(s, d, sd))
    return false;
  q.tileShape = s;
  q.tileStride = d;
  q.restModes = 1;
  q.restShape[0] = t;
  if (cosB <= d) {
    q.restStride[0] = e;
  } else if (e >= d) {
    if (e % d != 0 || mulOverflows(e, s, q.restStride[0]))
      return false;
  } else {
    int64_t n0 = std::min((d + e - 1) / e, t);
    if (t % n0 != 0 || (t > n0 && d % e != 0))
      return false;
    q.restStride[0] = e;
    if (t > n0) {
      q.restModes = 2;
      q.restShape[0] = n0;
      q.restShape[1] = t / n0;
      q.restStride[1] = sd;
    }
  }
  return true;
}

bool productLeafModeInto(int64_t s, int64_t d, int64_t t, int64_t e,
                         Writer &w) {
  LeafQuotient q;
  if (!leafProductRest(s, d, t, e, q))
    return false;
  w.open();
  w.leaf(s, d);
  if (q.restModes == 1) {
    w.leaf(q.restShape[0], q.restStride[0]);
  } else {
    w.open();
    w.leaf(q.restShape[0], q.restStride[0]);
    w.leaf(q.restShape[1], q.restStride[1]);
    w.close();
  }
  w.close();
  return true;
}

/// logical_product(A, B) for any A of integer strides, as the general
/// path builds it but on mode arrays: rest = complement(A, size(A) *
/// cosize(B)) o B by complementModes and the Composer, checked once.
/// Where B's image passes the complement's domain (cosize(B) > its size)
/// the copies of A stay apart when cosize(A) plus the extent of the
/// composer's modes below its last one is at most that mode's stride;
/// otherwise this declines (the general path compares the images).
/// Example: A = 8:8, B = 4:1: complement(8:8, 32) = 8:1, rest 4:1, result
/// (8:8, 4:1) as CuTe builds it.
bool productAnyInto(View a, View b, Writer &w) {
  if (a.s->rank == kLeaf && b.s->rank == kLeaf && a.d->basis == 0 &&
      b.d->basis == 0) {
    int64_t s = a.s->value, d = a.d->value, t = b.s->value, e = b.d->value;
    if (s >= 2 && d >= 1 && t >= 2 && e >= 1)
      return productLeafModeInto(s, d, t, e, w);
  }
  Extent ea, eb;
  int64_t target, compSize = 1;
  Modes comp;
  if (!extentOf(a, ea) || !extentOf(b, eb) ||
      mulOverflows(ea.size, eb.cosize, target) ||
      !complementModes(a, &target, 1, comp))
    return false;
  for (int i = 0; i < comp.n; ++i)
    compSize *= comp.s[i]; // at most the cotarget
  Composer c(comp);
  if (eb.cosize > compSize) {
    int64_t below = ea.cosize, t;
    for (int i = 0; i + 1 < c.lhs.n; ++i)
      if (mulOverflows(c.lhs.s[i] - 1, absValue(c.lhs.d[i]), t) ||
          addOverflows(below, t, below))
        return false;
    if (below > absValue(c.lhs.d[c.lhs.n - 1]))
      return false;
  }
  w.open();
  w.subtree(a);
  if (!c.tree(b, w))
    return false;
  w.close();
  return c.distributive();
}

/// logical_product(A, B) for a layout B: (A, rest), A onto [0, n).
bool productInto(View a, const Layout &tile, Writer &w) {
  int64_t x;
  if (!productRest(a, viewOf(tile), x))
    return false;
  w.open();
  w.subtree(a);
  w.scaled(viewOf(tile), x);
  w.close();
  return true;
}

/// logical_product(A, B) for a layout tiler B, written in place without a
/// Writer: the root, A's nodes, then B's with every stride scaled by
/// productRest's x. Declines an A not onto [0, n), B of cosize 1, results past
/// kNodes or past productRest's bound (checked after the copy measured B),
/// and what scaledCopy refuses. B's leaves are bounded by kNodes only.
/// Example: logical_product((4,8):(1,4), (2,2):(1,2))
///          = ((4,8),(2,2)):((1,4),(32,64)).
bool productWhole(const Layout &a, const Tiler &t, Layout &out) {
  View va = viewOf(a), vb = viewOf(t.layout);
  int64_t x; // size(A)
  if (t.kind != Tiler::Kind::Layout || !bijectiveSize(va, x))
    return false;
  int na = va.s->span, nb = vb.s->span, n = 1 + na + nb;
  if (n > kNodes) // as for the Writer; past 65535 nodes is the general error
    return false;
  Node *s, *d;
  out.nodesForOverwrite(size_t(n), s, d);
  s[0] = tupleNode(2, n);
  d[0] = tupleNode(2, n);
  copyTree(va, s + 1, d + 1);
  Extent e;
  return scaledCopy(vb, x, s + 1 + na, d + 1 + na, &e) && e.cosize != 1 &&
         restFits(x, e); // fits: productRest's @post
}

/// The by-mode walk of byModeInto: `_` keeps a mode, a layout tiler calls
/// `apply`, a tuple recurses; A's modes past the tiler are kept
/// (`keepRest`) or dropped.
template <class Apply>
bool byModeInto(const View &a, const Tiler &t, bool keepRest, Writer &w,
                Apply apply) {
  switch (t.kind) {
  case Tiler::Kind::Keep:
    w.subtree(a);
    return true;
  case Tiler::Kind::Layout:
    return apply(a, t, w);
  case Tiler::Kind::Tuple:
    break;
  }
  bool leaf = a.s->rank == kLeaf;
  size_t rank = leaf ? 1 : size_t(a.s->rank);
  if (t.modes.size() > rank)
    return false;
  w.open();
  size_t last = keepRest ? rank : t.modes.size();
  View m{a.s + !leaf, a.d + !leaf}; // a leaf is its own mode 0
  for (size_t i = 0; i < last; ++i) {
    if (i < t.modes.size()) {
      if (!byModeInto(m, t.modes[i], keepRest, w, apply))
        return false;
    } else {
      w.subtree(m);
    }
    m.s += m.s->span;
    m.d += m.d->span;
  }
  w.close();
  return true;
}

bool composeTiler(View a, const Tiler &t, Writer &w) {
  if (t.integer) { // n composes as n:1, also for n == 1
    Node one{1, kLeaf, 1, 0};
    return t.layout.shape().isLeaf() &&
           composeInto(a, View{t.layout.shape().nodes(), &one}, w);
  }
  return composeInto(a, viewOf(t.layout), w);
}

/// logical_divide(s:d, t:e) of two integer leaves in closed form:
/// A o (T, complement(T, s)) with A = s:d, T = t:e. A single mode composes
/// leaf by leaf with no divisibility condition: x:y becomes x:y*d (x:0 for
/// y == 0). So
///  * the tile is t:e*d (t:0 for e == 0);
///  * for an image of T that is {0} (t == 1 or e == 0) the rest is
///    compact(s), composed s:d (1:0 for s == 1);
///  * otherwise the rest is [e:1, R:t*e] with R = ceil(s / (t*e)), size-1
///    modes dropped (e == 1 the first, R == 1 the second, both: 1:0),
///    composed [e:d, R:t*e*d].
/// False for e < 0 (the complement's error) and on any overflow, where the
/// general path decides.
/// Example: logical_divide(128:1, 32:1) = (32,4):(1,32).
[[gnu::always_inline]] inline bool
divideLeaves(int64_t s, int64_t d, int64_t ts, int64_t te, LeafQuotient &q) {
  int64_t tile, span, rd;
  if (te < 0 || mulOverflows(te, d, tile))
    return false;
  q.tileShape = ts;
  q.tileStride = tile;
  q.restModes = 1;
  if (ts == 1 || te == 0) { // T's image is {0}: the rest is A
    q.restShape[0] = s;
    q.restStride[0] = s == 1 ? 0 : d;
    return true;
  }
  if (mulOverflows(ts, te, span) || mulOverflows(span, d, rd))
    return false;
  int64_t r = ceilDiv(s, span);
  if (te == 1 || r == 1) { // one rest mode, or none (1:0)
    q.restShape[0] = te == 1 ? r : te;
    q.restStride[0] = te == 1 ? (r == 1 ? 0 : rd) : d;
    return true;
  }
  q.restModes = 2;
  q.restShape[0] = te;
  q.restStride[0] = d;
  q.restShape[1] = r;
  q.restStride[1] = rd;
  return true;
}

/// The nodes of the divided leaf mode q at s/d: (tile, rest), the rest one
/// leaf or a pair. Returns how many it wrote, 3 or 5.
[[gnu::always_inline]] inline int writeQuotient(const LeafQuotient &q, Node *s,
                                                Node *d) {
  int n = q.restModes == 1 ? 3 : 5;
  putNode(s, 0, 2, n); // not chained: d[0] = s[0] would reload the store
  putNode(d, 0, 2, n);
  putNode(s + 1, q.tileShape);
  putNode(d + 1, q.tileStride);
  if (n == 3) {
    putNode(s + 2, q.restShape[0]);
    putNode(d + 2, q.restStride[0]);
    return n;
  }
  putNode(s + 2, 0, 2, 3);
  putNode(d + 2, 0, 2, 3);
  for (int k = 0; k < 2; ++k) {
    putNode(s + 3 + k, q.restShape[k]);
    putNode(d + 3 + k, q.restStride[k]);
  }
  return n;
}

/// The quotient of the integer leaf as:ad by a tiler that is an integer
/// leaf layout; false for anything else or where divideLeaves declines.
[[gnu::always_inline]] inline bool
leafQuotient(const Node &as, const Node &ad, const Tiler &t, LeafQuotient &q) {
  const Node &ts = *t.layout.shape().nodes(), &td = *t.layout.stride().nodes();
  return t.kind == Tiler::Kind::Layout && as.rank == kLeaf && ad.basis == 0 &&
         ts.rank == kLeaf && td.basis == 0 &&
         divideLeaves(as.value, ad.value, ts.value, td.value, q);
}

/// A mode divided by a layout tile; a leaf by a leaf in closed form (the
/// common case of a by-mode tiler such as (8:1,4:1)), the nodes
/// writeQuotient writes, through the Writer. (Writing them with
/// writeQuotient into a buffer and copying it made GCC inline divideInto
/// here: logical_divide_2l 1904 -> 1972 instructions.)
bool divideTiler(View a, const Tiler &t, Writer &w) {
  LeafQuotient q;
  if (!leafQuotient(*a.s, *a.d, t, q))
    return divideInto(a, t.layout, w);
  w.open();
  w.leaf(q.tileShape, q.tileStride);
  if (q.restModes == 2)
    w.open();
  for (int i = 0; i < q.restModes; ++i)
    w.leaf(q.restShape[i], q.restStride[i]);
  if (q.restModes == 2)
    w.close();
  w.close();
  return true;
}

/// Whether the leaf quotient q of A's mode s:d keeps its size and cosize
/// terms: its shapes multiply to s (T's span divides s, or T's image is
/// {0} with t == 1). Then the terms telescope to A's own: (t-1)*e*|d| +
/// (e-1)*|d| + (R-1)*t*e*|d| = (t*e*R - 1)*|d| = (s-1)*|d|, and a layout
/// of such quotients and A's other modes fits in int64 as A does.
[[gnu::always_inline]] inline bool quotientKeepsMode(const LeafQuotient &q,
                                                     int64_t s) {
  int64_t shapes;
  return !mulOverflows(q.tileShape, q.restShape[0], shapes) &&
         (q.restModes == 1 || !mulOverflows(shapes, q.restShape[1], shapes)) &&
         shapes == s;
}

/// Mode A_i divided by the tile T (its leaves `tl`, a leaf or a flat
/// tuple) when A_i coalesces to one mode of stride x: A_i composes leaf by
/// leaf, y becoming y*x (0 for y == 0), so the pair is (T scaled by x,
/// rest scaled by x) with rest = complement(T, size(A_i)). When A_i's
/// size S is known (`size` > 0) and (T, rest) has shapes multiplying to S
/// and terms sum (t-1)*e equal to S-1 (T's strides are >= 0: complement
/// declines others), the pair's size S and terms |x|*(S-1) are A_i's own
/// and `exact` stays.
/// Declines an overflow and a result past kInline nodes.
/// Example: (8,8):(8,64) = 64:8 by (4,2):(1,8): rest (2,4):(4,16), pair
/// ((4,2),(2,4)):((8,64),(32,128)), exact.
[[gnu::always_inline]] inline bool
divideOneModeInto(View tl, int leaves, bool leaf, int64_t x, const Modes &rest,
                  int64_t size, NodeSink &w, bool &exact) {
  const int nodes = 1 + (leaf ? 1 : 1 + leaves) + rest.n + (rest.n > 1);
  if (w.n + nodes > kInline)
    return false;
  int64_t shapes = 1, terms = 0, t;
  Node *s = w.s + w.n, *d = w.d + w.n;
  putNode(s, 0, 2, nodes);
  putNode(d, 0, 2, nodes);
  int k = 1;
  auto put = [&](int64_t sv, int64_t dv) {
    int64_t st = 0;
    if ((dv != 0 && mulOverflows(dv, x, st)) ||
        mulOverflows(shapes, sv, shapes) || mulOverflows(sv - 1, dv, t) ||
        addOverflows(terms, t, terms))
      return false;
    putNode(s + k, sv);
    putNode(d + k++, st);
    return true;
  };
  if (!leaf) {
    putNode(s + k, 0, leaves, leaves + 1);
    putNode(d + k++, 0, leaves, leaves + 1);
  }
  for (int j = 0; j < leaves; ++j)
    if (tl.s[j].rank != kLeaf || tl.d[j].basis != 0 ||
        !put(tl.s[j].value, tl.d[j].value))
      return false;
  if (rest.n > 1) {
    putNode(s + k, 0, rest.n, rest.n + 1);
    putNode(d + k++, 0, rest.n, rest.n + 1);
  }
  for (int j = 0; j < rest.n; ++j)
    if (!put(rest.s[j], rest.d[j]))
      return false;
  w.n += nodes;
  exact &= size > 0 && shapes == size && terms == size - 1;
  return true;
}

/// Mode A_i divided by a layout tile T that is a leaf or a flat tuple of
/// leaves, appended to `w` as divideInto appends it to a Writer: the pair
/// (A_i o T, A_i o complement(T, shape(coalesce(A_i)))), a leaf by a leaf
/// in closed form (leafQuotient, writeQuotient). A tuple node is written
/// after its children, at the position kept for it. Declines any other
/// tile, and before any write that could pass kInline nodes (a composed
/// leaf takes one node, or 1 + m for the m > 1 modes of A_i's composer).
bool divideModeComposed(View a, const Tiler &t, NodeSink &w, bool &exact);
bool divideModeInto(View a, const Tiler &t, NodeSink &w, bool &exact) {
  if (t.kind != Tiler::Kind::Layout)
    return false;
  LeafQuotient q{}; // without {}, GCC warns that a one-mode rest leaves
                    // restShape[1] unset, which writeQuotient never reads
  if (leafQuotient(*a.s, *a.d, t, q)) {
    if (w.n + 5 >
        kInline) // the most writeQuotient writes (3 for a one-mode rest)
      return false;
    w.n += writeQuotient(q, w.s + w.n, w.d + w.n);
    exact &= quotientKeepsMode(q, a.s->value);
    return true;
  }
  return divideModeComposed(a, t, w, exact);
}

/// Size and terms sum (s-1)*|d| of the leaves among n pre-order nodes;
/// false on an overflow or a stride of INT64_MIN.
[[gnu::always_inline]] inline bool sizeAndTerms(const Node *s, const Node *d,
                                                int n, int64_t &size,
                                                int64_t &terms) {
  int64_t t;
  size = 1;
  terms = 0;
  for (int k = 0; k < n; ++k)
    if (s[k].rank == kLeaf &&
        (d[k].value == INT64_MIN || mulOverflows(size, s[k].value, size) ||
         mulOverflows(s[k].value - 1, absValue(d[k].value), t) ||
         addOverflows(terms, t, terms)))
      return false;
  return true;
}

/// divideModeInto's modes other than a leaf by a leaf (out of line: the
/// composer inlined into logical_divide cost its leaf forms registers).
[[gnu::noinline]] bool divideModeComposed(View a, const Tiler &t, NodeSink &w,
                                          bool &exact) {
  View tv = viewOf(t.layout);
  bool leaf = tv.s->rank == kLeaf;
  int leaves = leaf ? 1 : tv.s->rank;
  Modes fa, rest;
  if (!leaf && (leaves < 1 || tv.s->span != leaves + 1))
    return false;
  if (a.s->rank == kLeaf && a.d->basis == 0 && a.s->value >= 2) {
    // A_i = s:d is its own coalesced mode (as the Composer builds it):
    // the rest is complement(T, s), the scale d.
    const int64_t sv = a.s->value;
    return complementModes(tv, &sv, 1, rest) &&
           divideOneModeInto(View{tv.s + !leaf, tv.d + !leaf}, leaves, leaf,
                             a.d->value, rest, sv, w, exact);
  }
  if (!leavesOf(a, fa))
    return false;
  Composer c(fa);
  // Room for a composed leaf, and the tuple nodes kept before it.
  const int most = c.lhs.n == 1 ? 1 : 1 + c.lhs.n;
  auto room = [&](int kept) { return w.n + kept + most <= kInline; };
  if (!divideRest(fa, c, tv, rest))
    return false;
  if (c.lhs.n == 1) // S = size(A_i) unless fa ends in a size-1 leaf
    return divideOneModeInto(
        View{tv.s + !leaf, tv.d + !leaf}, leaves, leaf, c.lhs.d[0], rest,
        fa.n == 0 || fa.s[fa.n - 1] == 1 ? 0 : c.lhs.s[0], w, exact);
  if (!room(2))
    return false;
  int pair = w.n++, tuple = leaf ? -1 : w.n++;
  // The tile's leaves: itself, or a flat tuple's children (a () declines).
  for (int k = !leaf; k < !leaf + leaves; ++k)
    if (tv.s[k].rank != kLeaf || tv.d[k].basis != 0 || !room(0) ||
        !c.leafInline(tv.s[k].value, tv.d[k].value, w))
      return false;
  if (!leaf)
    w.tuple(tuple, leaves);
  int restTuple = -1;
  if (rest.n > 1) {
    if (!room(1))
      return false;
    restTuple = w.n++;
  }
  for (int i = 0; i < rest.n; ++i)
    if (!room(0) || !c.leafInline(rest.s[i], rest.d[i], w))
      return false;
  if (rest.n > 1)
    w.tuple(restTuple, rest.n);
  w.tuple(pair, 2);
  // The divided mode's size and terms at most A_i's keep a layout of such
  // modes within A's size and cosize: it fits as A does (exact).
  int64_t size, terms, sizeA, termsA;
  exact &= sizeAndTerms(a.s, a.d, a.s->span, sizeA, termsA) &&
           sizeAndTerms(w.s + pair, w.d + pair, w.n - pair, size, terms) &&
           size <= sizeA && terms <= termsA;
  return c.distributive();
}

/// logical_divide of A = (A_0, ..., A_r-1) by a by-mode tiler whose modes
/// are `_` or layout tiles that are leaves or flat tuples of leaves,
/// written in place without a Writer: the root, then each A_i divided
/// (divideModeInto) or copied (`_`, and A's modes past the tiler).
/// Declines anything else, A's basis strides, and results past kInline
/// nodes, for byModeInto (whose Writer grows) or the general path.
/// Examples: logical_divide((64,32):(32,1), (8:1,4:1))
///           = ((8,8),(4,8)):((32,256),(1,4));
///           logical_divide(((8,8),(4,8)):((8,64),(1,512)), ((4,2):(1,8),4:1))
///           = (((4,2),(2,4)),(4,8)):(((8,64),(32,128)),(1,512)).
bool divideModes(const Layout &a, const Tiler &t, Layout &out) {
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  int r = as->rank, tr = int(t.modes.size());
  if (t.kind != Tiler::Kind::Tuple || r < 1 ||
      tr > r) // a leaf's rank is kLeaf < 0
    return false;
  NodeSink w{nullptr, nullptr, 1}; // node 0, the root, is written last
  out.nodesForOverwrite(kInline, w.s, w.d);
  bool exact = true; // every divided mode keeps A's size and cosize terms
  View m{as + 1, ad + 1};
  for (int i = 0; i < r; ++i) {
    int c = m.s->span;
    if (i < tr && t.modes[i].kind != Tiler::Kind::Keep) {
      if (!divideModeInto(m, t.modes[i], w, exact))
        return false;
    } else {
      if (w.n + c > kInline)
        return false;
      for (int k = 0; k < c; ++k)
        if (m.d[k].basis != 0)
          return false;
      copyTree(m, w.s + w.n, w.d + w.n);
      w.n += c;
    }
    m.s += c;
    m.d += c;
  }
  w.tuple(0, r);
  int n = w.n;
  Node *s = w.s, *d = w.d;
  out.truncateNodes(size_t(n));
  return exact || fitsInt64(s, d, n);
}

/// Mode s:x (s >= 2) of A divided by a flat pair of leaf tiles T =
/// (t0,t1):(e0,e1), written at s/d: A_i composes leaf by leaf, so the
/// mode is (T scaled by x, complement(T, s) scaled by x), the complement
/// complementPair's (as divideModeComposed and divideOneModeInto build
/// it). Returns the nodes written, 0 to decline (any other T, a
/// complement complementPair leaves to the walk or declines, an
/// overflow, more than `room` nodes). `exact` stays when the pair's
/// shapes multiply to s and its terms sum to s-1 (A_i's own).
[[gnu::always_inline]] inline int dividePairInto(int64_t sv, int64_t x, View tv,
                                                 Node *s, Node *d, int room,
                                                 bool &exact) {
  Modes rest;
  if (tv.s->rank != 2 || tv.s->span != 3 || sv < 2 ||
      complementPair<false>(tv, &sv, 1, rest) != 1)
    return 0;
  const int nodes = 4 + rest.n + (rest.n > 1);
  if (nodes > room)
    return 0;
  putNode(s, 0, 2, nodes);
  putNode(d, 0, 2, nodes);
  putNode(s + 1, 0, 2, 3);
  putNode(d + 1, 0, 2, 3);
  int64_t shapes = 1, terms = 0, t;
  int k = 2;
  // Every stride here is >= 1 (complementPair's T) or >= 0 (its modes).
  auto put = [&](int64_t sh, int64_t st) __attribute__((always_inline)) {
    int64_t scaled;
    if (mulOverflows(st, x, scaled) || mulOverflows(shapes, sh, shapes) ||
        mulOverflows(sh - 1, st, t) || addOverflows(terms, t, terms))
      return false;
    putNode(s + k, sh);
    putNode(d + k++, scaled);
    return true;
  };
  if (!put(tv.s[1].value, tv.d[1].value) || !put(tv.s[2].value, tv.d[2].value))
    return 0;
  if (rest.n > 1) {
    putNode(s + k, 0, rest.n, rest.n + 1);
    putNode(d + k++, 0, rest.n, rest.n + 1);
  }
  for (int j = 0; j < rest.n; ++j)
    if (!put(rest.s[j], rest.d[j]))
      return 0;
  exact &= shapes == sv && terms == sv - 1;
  return nodes;
}

/// logical_divide of A = (s0:x0, s1:x1), two integer leaves, by the
/// by-mode tiler ((p,q):(u,v), t:e) of a flat pair of integer leaves and
/// an integer leaf (a strided tile of a CTA tile such as (4,8):(8,1)),
/// straight-line: with a:b the pair's leaves sorted by stride and
/// c = sa*da, c2 = db*sb, mode 0 is ((p,q):(u,v), [da:1, db/c:c,
/// R:c2]) scaled by x0, R = ceil(s0/c2) (1 for s0 < c2), the size-1 modes
/// of the complement dropped (1:0 when all are); mode 1 divideLeaves'
/// closed form. s0, p, q in [2, 2^20 + 2), u, v, s1, t in [1, 2^20 + 1),
/// e in [0, 2^20) and x0, x1 in [-2^20, 2^20) bound every product below
/// 2^61: one range check at the entry, none per node. Mode i keeps A_i's
/// size and terms when its shapes multiply to s_i (for mode 0: c divides
/// db and c2 divides s0, (tile, complement) a bijection onto [0, s0));
/// otherwise the result's range is checked at the end. Declines anything
/// else (divideLeafTiles takes it), and pairs whose complement's walk
/// declines (db < c after sorting).
/// Example: logical_divide((128,64):(1,128), ((4,8):(8,1),16:1))
///          = (((4,8),4),(16,4)):(((8,1),32),(128,2048)).
[[gnu::always_inline]] inline bool dividePairLeaf(const Layout &a,
                                                  const Tiler &t, Layout &out) {
  constexpr uint64_t kPairMeta = 2 | uint64_t(3) << 16; // rank 2, span 3
  constexpr uint64_t kBound = uint64_t(1) << 20;
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  uint64_t rootMeta;
  std::memcpy(&rootMeta, &as->rank, 8);
  if (rootMeta != kPairMeta || !isIntegerLeaf(ad[1]) || !isIntegerLeaf(ad[2]))
    return false; // A = (leaf, leaf), integer strides
  const Tiler &t0 = t.modes[0], &t1 = t.modes[1];
  const Node *ts = t0.layout.shape().nodes(), *td = t0.layout.stride().nodes();
  const Node &ls = *t1.layout.shape().nodes(), // a leaf as ld is
      &ld = *t1.layout.stride().nodes();
  std::memcpy(&rootMeta, &ts->rank, 8);
  if (t0.kind != Tiler::Kind::Layout || rootMeta != kPairMeta ||
      !isIntegerLeaf(td[1]) || !isIntegerLeaf(td[2]) ||
      t1.kind != Tiler::Kind::Layout || !isIntegerLeaf(ld))
    return false; // a pair's children are leaves (span 3); tile 1 a leaf
  const int64_t s0 = as[1].value, x0 = ad[1].value, p = ts[1].value,
                q = ts[2].value, u = td[1].value, v = td[2].value;
  const int64_t s1 = as[2].value, x1 = ad[2].value, te = ls.value,
                ee = ld.value;
  // One range check: each value less its lower bound (complementPair's
  // class: shapes s0, p, q >= 2, strides u, v >= 1; s1, t >= 1, e >= 0)
  // in [0, 2^20) (a value below its bound wraps past it), then x0, x1 in
  // [-2^20, 2^20): a bitwise or of each group under a power of two, in
  // unsigned arithmetic (no signed overflow).
  const uint64_t above = (uint64_t(s0) - 2) | (uint64_t(p) - 2) |
                         (uint64_t(q) - 2) | (uint64_t(u) - 1) |
                         (uint64_t(v) - 1) | (uint64_t(s1) - 1) |
                         (uint64_t(te) - 1) | uint64_t(ee);
  if (above >= kBound ||
      ((uint64_t(x0) + kBound) | (uint64_t(x1) + kBound)) >= 2 * kBound)
    return false;
  const bool ordered = u <= v;
  const int64_t sa = ordered ? p : q, da = ordered ? u : v,
                sb = ordered ? q : p, db = ordered ? v : u;
  const int64_t c = sa * da, n1 = db / c, c2 = db * sb;
  if (n1 == 0) // the complement's walk declines
    return false;
  const int64_t rs = (s0 + c2 - 1) / c2; // s0, c2 >= 1: ceil, 1 for s0 < c2
  // The complement's modes, size 1 dropped (1:0 when all are).
  int64_t cs[3], cd[3];
  ptrdiff_t nc = 0; // 64-bit indices: no sign extension per use
  cs[0] = da;
  cd[0] = x0;
  nc += da != 1;
  cs[nc] = n1;
  cd[nc] = c * x0;
  nc += n1 != 1;
  cs[nc] = rs;
  cd[nc] = c2 * x0;
  nc += rs != 1;
  if (nc == 0) {
    cs[0] = 1;
    cd[0] = 0;
    nc = 1;
  }
  const ptrdiff_t n0 = 4 + nc + (nc > 1); // mode 0's nodes: 1 + n0 + 5 <= 14
  static_assert(1 + 8 + 5 <= kInline);
  Node *s, *d;
  out.nodeStorage(s, d); // the count is set at the end
  putTuple(s + 1, d + 1, 2, int(n0));
  putTuple(s + 2, d + 2, 2, 3);
  putNode(s + 3, p);
  putNode(d + 3, u * x0);
  putNode(s + 4, q);
  putNode(d + 4, v * x0);
  ptrdiff_t k = 5;
  if (nc > 1) {
    putTuple(s + k, d + k, int(nc), int(nc) + 1);
    ++k;
  }
  for (ptrdiff_t j = 0; j < nc; ++j, ++k) {
    putNode(s + k, cs[j]);
    putNode(d + k, cd[j]);
  }
  // Mode 1 at k: (t:e*x1, rest), the rest s1:x1 where T's image is {0}
  // (t == 1 or e == 0), else [e:x1, R:t*e*x1] with R = ceil(s1/(t*e)),
  // size-1 modes dropped (1:0 when both are).
  ptrdiff_t n1nodes = 3;
  int64_t shapes1 = te; // the shapes' product, s1 when mode 1 keeps s1
  putNode(s + k + 1, te);
  putNode(d + k + 1, ee * x1);
  if (te == 1 || ee == 0) {
    putNode(s + k + 2, s1);
    putNode(d + k + 2, s1 == 1 ? 0 : x1);
    shapes1 *= s1;
  } else {
    const int64_t span1 = te * ee, r1 = (s1 + span1 - 1) / span1;
    shapes1 = span1 * r1;
    if (ee == 1 || r1 == 1) {
      putNode(s + k + 2, ee == 1 ? r1 : ee);
      putNode(d + k + 2, ee == 1 ? (r1 == 1 ? 0 : span1 * x1) : x1);
    } else {
      putTuple(s + k + 2, d + k + 2, 2, 3);
      putNode(s + k + 3, ee);
      putNode(d + k + 3, x1);
      putNode(s + k + 4, r1);
      putNode(d + k + 4, span1 * x1);
      n1nodes = 5;
    }
  }
  putTuple(s + k, d + k, 2, int(n1nodes));
  const ptrdiff_t n = k + n1nodes;
  putTuple(s, d, 2, int(n));
  Node *ns, *nd;
  out.inlineNodesForOverwrite(size_t(n), ns, nd);
  const bool exact = n1 * c == db && rs * c2 == s0 && shapes1 == s1;
  return exact || fitsInt64(s, d, int(n));
}

/// divideLeafModes past its leaf tiles (out of line: logical_divide pays
/// nothing for it where its first mode or tile rules it out): a by-mode
/// tiler of r layout tiles over A's integer leaf modes i < r, each tile
/// a leaf (divideLeaves' closed form) or a flat pair of leaves
/// (dividePairInto: a strided tile such as (4,8):(8,1)), in one pass
/// without divideModes' per-mode calls; A's modes past r copied. Declines
/// anything else (divideModes takes it) and results past the inline
/// nodes.
/// Example: logical_divide((128,64):(1,128), ((4,8):(8,1),16:1))
///          = (((4,8),4):((8,1),32),(16,4):(128,2048)).
[[gnu::noinline]] bool divideLeafTiles(const Layout &a, const Tiler &t,
                                       Layout &out) {
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  const int r = int(t.modes.size()), rank = as->rank;
  if (t.kind != Tiler::Kind::Tuple || r < 1 || rank < r) // a leaf: kLeaf
    return false;
  Node *s, *d;
  out.nodesForOverwrite(kInline, s, d);
  int k = 1; // node 0, the root, is written last
  bool exact = true;
  const Node *ms = as + 1, *md = ad + 1; // A's mode i, a leaf
  for (int i = 0; i < r; ++i, ++ms, ++md) {
    const Tiler &ti = t.modes[i];
    if (ti.kind != Tiler::Kind::Layout || !isIntegerLeaf(*ms) ||
        !isIntegerLeaf(*md))
      return false;
    const View tv = viewOf(ti.layout);
    if (tv.s->rank != kLeaf) {
      const int n = dividePairInto(ms->value, md->value, tv, s + k, d + k,
                                   kInline - k, exact);
      if (n == 0)
        return false;
      k += n;
      continue;
    }
    LeafQuotient q{}; // as divideModeInto
    if (k + 5 > kInline || !leafQuotient(*ms, *md, ti, q))
      return false;
    k += writeQuotient(q, s + k, d + k);
    exact &= quotientKeepsMode(q, ms->value);
  }
  const int nOthers = int(as->span - (ms - as));
  if (k + nOthers > kInline)
    return false;
  for (int j = 0; j < nOthers; ++j) {
    if (md[j].basis != 0)
      return false;
    s[k + j] = ms[j];
    d[k + j] = md[j];
  }
  const int n = k + nOthers;
  putNode(s, 0, rank, n);
  putNode(d, 0, rank, n);
  out.truncateNodes(size_t(n));
  return exact || fitsInt64(s, d, n);
}

/// A mode of A times a layout tile: the closed form for a mode onto
/// [0, n), else productAnyInto.
bool productTiler(View a, const Tiler &t, Writer &w) {
  return productInto(a, t.layout, w) || productAnyInto(a, viewOf(t.layout), w);
}

/// CuTe's append<R>: the modes of `l` padded with 1:0 to rank r, stored
/// in `m` (a leaf is its own mode 0). @pre rank(l) <= r <= kLeaves
void paddedModes(View l, size_t r, View *m) {
  static const Node one{1, kLeaf, 1, 0}, zero{0, kLeaf, 1, 0};
  bool leaf = l.s->rank == kLeaf;
  size_t rank = leaf ? 1 : size_t(l.s->rank);
  View v{l.s + !leaf, l.d + !leaf};
  for (size_t i = 0; i < r; ++i) {
    m[i] = i < rank ? v : View{&one, &zero};
    if (i < rank) {
      v.s += v.s->span;
      v.d += v.d->span;
    }
  }
}

/// blocked_product (raked = false) or raked_product, written in place: mode
/// i of the result pairs mode i of A' = A padded to rank r with mode i of
/// X = rest of the logical product (B padded, strides scaled by
/// productRest's x); raked puts X_i first. When the first operand of the
/// pairs is a leaf and r == 1 the result is the one pair ((first, second)).
/// B is walked once: scaledCopy scales it by size(A) and measures it, and
/// productRest's conditions are checked after the copy. Declines what
/// productRest declines, and B of cosize 1 (its rest has strides 0).
/// Example: blocked_product((2,2):(1,2), (4,8):(1,4))
///          = ((2,4),(2,8)):((1,4),(2,16)).
bool rankedProduct(const Layout &a, const Layout &b, bool raked, Layout &out) {
  View va = viewOf(a), vb = viewOf(b);
  size_t r = std::max(a.rank(), b.rank());
  int64_t x; // size(A): productRest's x, checked after the copy measured B
  // The mode arrays hold kLeaves modes; () modes may raise a rank past the
  // leaf count, and a rank-0 operand is padded to (1:0) first (CuTe's
  // append), which the general path does.
  if (r > size_t(kLeaves) || a.rank() == 0 || b.rank() == 0 ||
      !bijectiveSize(va, x))
    return false;
  // A' is a leaf only when A is one and r == 1; X likewise with B.
  bool aLeaf = a.shape().isLeaf() && r == 1,
       bLeaf = b.shape().isLeaf() && r == 1;
  bool firstLeaf = raked ? bLeaf : aLeaf, secondLeaf = raked ? aLeaf : bLeaf;
  if (secondLeaf && !firstLeaf)
    return false; // the general path reports the rank mismatch
  View am[kLeaves], bm[kLeaves];
  if (firstLeaf) { // one pair of the whole operands
    r = 1;
    am[0] = va;
    bm[0] = vb;
  } else {
    paddedModes(va, r, am);
    paddedModes(vb, r, bm);
  }
  int n = 1;
  for (size_t i = 0; i < r; ++i)
    n += 1 + am[i].s->span + bm[i].s->span;
  if (n > kNodes)
    return false;
  Node *s, *d;
  out.nodesForOverwrite(size_t(n), s, d);
  s[0] = tupleNode(int(r), n);
  d[0] = tupleNode(int(r), n);
  Extent e; // of B: its padding adds leaves 1:0, which change neither
  for (int i = 0, k = 1; i < int(r); ++i) {
    // Pair i at node k: its two children from k + 1, raked puts X_i first.
    int na = am[i].s->span, nb = bm[i].s->span;
    putNode(s + k, 0, 2, 1 + na + nb);
    putNode(d + k, 0, 2, 1 + na + nb);
    int ka = raked ? k + 1 + nb : k + 1, kb = raked ? k + 1 : k + 1 + na;
    copyTree(am[i], s + ka, d + ka);
    if (!scaledCopy(bm[i], x, s + kb, d + kb, &e))
      return false;
    k += 1 + na + nb;
  }
  // cosize(B) == 1 would need the strides 0: the general path writes them.
  return e.cosize != 1 && restFits(x, e); // fits: productRest's @post
}

/// blocked_product (raked = false) or raked_product of two flat tuples of
/// integer leaves, A onto [0, n) (bijectiveSize), in closed form and
/// written in place: r = max(rank(A), rank(B)) <= 5 pairs (the result's
/// 1 + 3r nodes inline), pair i (A_i, B_i*n) or raked (B_i*n, A_i), the
/// shorter operand padded with 1:0 (CuTe's append). The rest's strides are
/// B's times n (productRest: complement(A, n*cosize(B)) is cosize(B):n);
/// its range is productRest's, checked from B's extent. Declines leaves
/// and nested operands (rankedLeaf, rankedProduct), B of cosize 1, and
/// what productRest declines.
/// Example: blocked_product((8,8):(8,1), (4,2):(1,4))
///          = ((8,4),(8,2)):((8,64),(1,256)).
[[gnu::noinline]] bool rankedFlatBody(const Node *as, const Node *ad,
                                      const Node *bs, const Node *bd,
                                      bool raked, Layout &out) {
  const int ra = as->rank, rb = bs->rank, r = std::max(ra, rb);
  if (ra < 1 || rb < 1 || r > (kInline - 1) / 3)
    return false;
  int64_t shape[kLeaves], stride[kLeaves], n = 1;
  int m = 0;
  for (int i = 1; i <= ra; ++i) {
    if (as[i].rank != kLeaf || ad[i].basis != 0)
      return false;
    if (as[i].value == 1)
      continue;
    int j = m++; // insertion by stride, as bijectiveSize
    for (; j > 0 && stride[j - 1] > ad[i].value; --j) {
      shape[j] = shape[j - 1];
      stride[j] = stride[j - 1];
    }
    shape[j] = as[i].value;
    stride[j] = ad[i].value;
  }
  for (int j = 0; j < m; ++j)
    if (stride[j] != n || mulOverflows(n, shape[j], n))
      return false;
  Extent e;
  for (int i = 1; i <= rb; ++i)
    if (bs[i].rank != kLeaf || bd[i].basis != 0 ||
        !e.add(bs[i].value, bd[i].value))
      return false;
  if (n == 1 || e.cosize == 1 || !restFits(n, e))
    return false;
  Node *s, *d;
  out.nodesForOverwrite(size_t(1 + 3 * r), s, d);
  putNode(s, 0, r, 1 + 3 * r);
  putNode(d, 0, r, 1 + 3 * r);
  const int ka = raked ? 3 : 2, kb = raked ? 2 : 3; // within a pair
  for (int i = 1, k = 1; i <= r; ++i, k += 3) {
    int64_t x = 0;
    if (i <= rb && (mulOverflows(bd[i].value, n, x) || x == INT64_MIN))
      return false; // only a size-1 leaf's stride can (productRest)
    putNode(s + k, 0, 2, 3);
    putNode(d + k, 0, 2, 3);
    putNode(s + k + ka - 1, i <= ra ? as[i].value : 1);
    putNode(d + k + ka - 1, i <= ra ? ad[i].value : 0);
    putNode(s + k + kb - 1, i <= rb ? bs[i].value : 1);
    putNode(d + k + kb - 1, x);
  }
  return true; // productRest's @post
}
/// rankedFlat's operand test inline (a nested operand declines at no
/// call's cost), its body out of line.
[[gnu::always_inline]] inline bool rankedFlat(const Layout &a, const Layout &b,
                                              bool raked, Layout &out) {
  const Node *as = a.shape().nodes(), *bs = b.shape().nodes();
  // Tuples whose children are all leaves, or (): span == rank + 1 (the body
  // declines () and () children).
  return as->span == as->rank + 1 && bs->span == bs->rank + 1 &&
         rankedFlatBody(as, a.stride().nodes(), bs, b.stride().nodes(), raked,
                        out);
}

/// Coalesced modes, exclusive prefix products and CuTe's exchange-sort
/// order of the strides, as sortedModes in Inverse.cpp.
struct Sorted {
  Modes m;
  int64_t prefix[kModes];
  int order[kModes];
};

[[gnu::always_inline]] inline bool sortedOf(const Layout &l, Sorted &s) {
  Modes f;
  if (!leavesOf(viewOf(l), f))
    return false;
  coalesceModes(f, false, s.m);
  int64_t p = 1;
  for (int i = 0; i < s.m.n; ++i) {
    s.prefix[i] = p;
    p *= s.m.s[i]; // bounded by size(l)
    s.order[i] = i;
  }
  for (int i = 0; i < s.m.n; ++i)
    for (int j = i + 1; j < s.m.n; ++j)
      if (s.m.d[s.order[j]] < s.m.d[s.order[i]])
        std::swap(s.order[i], s.order[j]);
  return true;
}

/// right_inverse(l) as coalesced modes; false where rightInverse declines.
[[gnu::always_inline]] inline bool rightInverseModes(const Layout &l,
                                                     Modes &c) {
  Sorted s;
  if (!sortedOf(l, s))
    return false;
  Modes r;
  r.n = 1;
  r.s[0] = 1;
  r.d[0] = 0;
  int64_t curr = 1;
  for (int k = 0; k < s.m.n; ++k) {
    int i = s.order[k];
    if (s.m.d[i] != curr)
      continue;
    r.s[r.n] = s.m.s[i];
    r.d[r.n++] = s.prefix[i];
    if (mulOverflows(s.m.s[i], s.m.d[i], curr))
      return false;
  }
  coalesceModes(r, false, c);
  return true;
}

/// right_inverse(l) stored without a range check: its modes are some of
/// l's coalesced modes s_i with the exclusive prefix products p_i of l's
/// shapes as strides (and 1:0), so its size divides size(l) and its
/// cosize 1 + sum (s_i-1)*p_i is at most 1 + sum over all of l's modes,
/// size(l).
/// Out of line: the rare path after the chain (modes sharing a stride),
/// whose registers the chain then does not pay for.
[[gnu::noinline]] bool rightInverse(const Layout &l, Layout &out) {
  Modes c;
  return rightInverseModes(l, c) && storeModes(c, out, /*knownToFit=*/true);
}

/// The Composer's sink for a result only read as flat modes (its leaves in
/// order, the tuple structure dropped): max_common_layout coalesces it.
struct FlatSink {
  static constexpr int kCap = kModes * kModes; // kModes B modes, each <= kModes
  int n = 0;
  bool ok = true;
  int64_t s[kCap], d[kCap];
  void leaf(int64_t sv, int64_t dv) {
    if (n == kCap) {
      ok = false;
      return;
    }
    s[n] = sv;
    d[n++] = dv;
  }
  void modes(const Modes &m) {
    for (int i = 0; i < m.n; ++i)
      leaf(m.s[i], m.d[i]);
  }
};

/// max_common_layout(A, B) of integer leaves on mode arrays, as the
/// general construction builds it: invB = right_inverse(B) (its modes),
/// R = A o invB by the Composer, N = the shape of coalesce(R)'s first mode
/// when its stride is 1 (else 1), and the result invB o N:1 (1:0 for
/// N == 1). Only R's first coalesced mode is needed: the first mode of
/// size > 1, merged with each next one of size > 1 while s*d equals its
/// stride. Declines where a composition declines (the general path then
/// searches a composable prefix) and on any overflow.
/// Example: A = (8,4):(1,16), B = (8,4):(1,8): invB = 32:1, R = A, N = 8,
/// result 8:1.
/// Out of line: its frame costs the two closed forms before it 1-6
/// instructions a call.
[[gnu::noinline]] bool maxCommonModes(const Layout &a, const Layout &b,
                                      Layout &out) {
  Modes fa, inv;
  if (!leavesOf(viewOf(a), fa) || !rightInverseModes(b, inv))
    return false;
  Composer c(fa);
  FlatSink r;
  for (int i = 0; i < inv.n; ++i)
    if (!c.leaf(inv.s[i], inv.d[i], r))
      return false;
  if (!r.ok || !c.distributive())
    return false;
  int k = 0;
  while (k < r.n && r.s[k] == 1)
    ++k;
  int64_t n = 1;
  if (k < r.n && r.d[k] == 1) {
    n = r.s[k];
    int64_t reach = n; // s*d of the merged mode, d == 1
    for (++k; k < r.n; ++k) {
      if (r.s[k] == 1)
        continue;
      if (r.d[k] != reach || mulOverflows(n, r.s[k], n))
        break;
      reach = n;
    }
  }
  if (n == 1) {
    Node ns = leafNode(1), nd = leafNode(0);
    out.assignNodes(&ns, &nd, 1);
    return true;
  }
  Composer ci(inv);
  Modes m;
  struct {
    Modes &m;
    void leaf(int64_t sv, int64_t dv) {
      m.n = 1;
      m.s[0] = sv;
      m.d[0] = dv;
    }
    void modes(const Modes &x) { m = x; }
  } sink{m};
  // N <= size(invB): N:1 stays in invB's domain, so the result's terms
  // are at most invB's and it fits as invB (a right inverse) does.
  return ci.leaf(n, 1, sink) && ci.distributive() &&
         storeModes(m, out, /*knownToFit=*/true);
}

/// max_common_layout(A, B) where A coalesces to one mode a:1 (its last
/// leaf not of size 1, which the composer's coalesce would keep) and each
/// operand has at most kLeaves + 1 nodes (so kLeaves leaves, as
/// maxCommonModes takes): A o invB is invB (the composer steps along A's
/// one mode past a, stride 1), so N is the shape s_0 of invB's first mode
/// when its stride is 1, i.e. when B's coalesced mode of stride 1 is its
/// first (prefix 1), else 1 (invB's modes never merge: no longer run);
/// and invB o s_0:1 = s_0:1. Declines where B has two coalesced modes of
/// stride 1 (invB then follows CuTe's sort).
/// Example: A = (8,4):(1,8) = 32:1, B = (8,4):(1,16): 8:1.
bool maxCommonContiguous(const Layout &a, const Layout &b, Layout &out) {
  const Node *as = a.shape().nodes();
  const int ea = as->span;
  if (ea > kLeaves + 1 || b.shape().nodes()->span > kLeaves + 1 ||
      as[ea - 1].rank != kLeaf || as[ea - 1].value == 1)
    return false;
  // The coalesced modes of each, a flat pair's without the node loop.
  auto oneUnitMode = [](const auto &m) { return m.n == 1 && m.d[0] == 1; };
  // 0: B's first mode has stride 1 (s = its shape), 1: no mode of stride 1
  // is first, 2: two have stride 1.
  int64_t s = 1;
  auto firstUnit = [&s](const auto &m) {
    int found = -1;
    for (int i = 0; i < m.n; ++i)
      if (m.d[i] == 1) {
        if (found >= 0)
          return 2;
        found = i;
      }
    if (found != 0)
      return 1;
    s = m.s[0];
    return 0;
  };
  if (fast::isFlatPair(a)) {
    fast::PairRun m;
    fast::pairOf</*zeroAsOne=*/false, /*prefix=*/false>(a, m);
    if (!oneUnitMode(m))
      return false;
  } else {
    fast::Run m;
    if (!fast::runOf</*zeroAsOne=*/false, /*prefix=*/false>(a, m) ||
        !oneUnitMode(m))
      return false;
  }
  int how;
  if (fast::isFlatPair(b)) {
    fast::PairRun m;
    fast::pairOf</*zeroAsOne=*/false, /*prefix=*/false>(b, m);
    how = firstUnit(m);
  } else {
    fast::Run m;
    if (!fast::runOf</*zeroAsOne=*/false, /*prefix=*/false>(b, m))
      return false;
    how = firstUnit(m);
  }
  if (how == 2)
    return false;
  Node ns = leafNode(s), nd = leafNode(how == 0 ? 1 : 0);
  out.assignNodes(&ns, &nd, 1);
  return true;
}

/// Stores the integer layout s:d; declines when its cosize 1 + (s-1)*|d|
/// would not fit.
[[gnu::always_inline]] inline bool writeLeaf(int64_t s, int64_t d,
                                             Layout &out) {
  int64_t t;
  if (d == INT64_MIN || mulOverflows(s - 1, absValue(d), t) || t == INT64_MAX)
    return false;
  Node ns{s, kLeaf, 1, 0}, nd{d, kLeaf, 1, 0};
  out.assignNodes(&ns, &nd, 1);
  return true;
}

/// composition of two integer layouts in closed form: A = s1:d1 coalesces
/// to one mode (a size-1 A keeps its stride), so B = s2:d2 gives
/// s2:d2*d1, or s2:0 when d2 == 0. Example: 128:2 o 32:4 = 32:8.
bool composeLeaves(const Layout &a, const Layout &b, Layout &out) {
  const Node &as = *a.shape().nodes(), &ad = *a.stride().nodes();
  const Node &bs = *b.shape().nodes(), &bd = *b.stride().nodes();
  int64_t d = 0;
  if (as.rank != kLeaf || bs.rank != kLeaf || ad.basis != 0 || bd.basis != 0 ||
      (bd.value != 0 && mulOverflows(bd.value, ad.value, d)))
    return false;
  return writeLeaf(bs.value, d, out);
}

/// complement(s:d, c) in closed form for an integer layout and cotarget:
/// an image of {0} gives compact(c); otherwise the modes [d:1, r:s*d] with
/// r = ceil(c / (s*d)), coalesced (d == 1 drops the first, r == 1 the
/// second). Example: complement(4:32, 256) = (32,2):(1,128).
bool complementLeaf(const Layout &l, const IntTuple &cotarget, Layout &out) {
  const Node &s = *l.shape().nodes(), &d = *l.stride().nodes();
  const Node &c = *cotarget.nodes();
  if (s.rank != kLeaf || c.rank != kLeaf || d.basis != 0 || c.basis != 0 ||
      c.value < 1 || d.value < 0)
    return false;
  if (d.value == 0 || s.value == 1)
    return writeLeaf(c.value, c.value == 1 ? 0 : 1, out);
  int64_t cur;
  if (mulOverflows(d.value, s.value, cur))
    return false;
  int64_t rest = ceilDiv(c.value, cur);
  if (rest == 1)
    return writeLeaf(d.value, d.value == 1 ? 0 : 1, out);
  if (d.value == 1)
    return writeLeaf(rest, cur, out);
  Node *ns, *nd;
  out.nodesForOverwrite(3, ns, nd);
  ns[0] = tupleNode(2, 3);
  nd[0] = tupleNode(2, 3);
  ns[1] = leafNode(d.value);
  nd[1] = leafNode(1);
  ns[2] = leafNode(rest);
  nd[2] = leafNode(cur);
  return fitsInt64(ns, nd, 3);
}

//===----------------------------------------------------------------------===//
// Closed forms for rank-1 operands
//===----------------------------------------------------------------------===//
//
// A layout that is a single leaf s:d is its own coalesced form (1:0 when
// s == 1), so the operations below reduce to arithmetic on s, d and the
// second operand's t:e. Each one mirrors the array fast path above on such
// operands and declines where that path declines (an error of the general
// path, an overflow), so the results and diagnostics stay the general
// path's; tests/cute/FastPathTest.cpp compares them on every small operand.

/// Whether `l` is a single leaf (its shape's root node is one).
[[gnu::always_inline]] inline bool isLeaf(const Layout &l) {
  return l.shape().nodes()->rank == kLeaf;
}

/// The single leaf s:d of `l`; false for a tuple or a basis stride.
bool leafOf(const Layout &l, int64_t &s, int64_t &d) {
  const Node &ns = *l.shape().nodes(), &nd = *l.stride().nodes();
  s = ns.value;
  d = nd.value;
  return ns.rank == kLeaf && nd.basis == 0 && s >= 1;
}

/// coalesce(s:d) = s:d, and 1:0 for s == 1. Example: coalesce(64:2) = 64:2.
bool coalesceLeaf(const Layout &l, Layout &out) {
  int64_t s, d;
  return leafOf(l, s, d) && writeLeaf(s, s == 1 ? 0 : d, out);
}

/// right_inverse(s:d) = s:1 when d == 1 and s > 1, else 1:0: CuTe's walk
/// over the coalesced mode s:d (1:0 for s == 1) keeps a mode only when its
/// stride is the extent covered so far, 1. Example: right_inverse(64:1) = 64:1.
/// Never declines (an s:d that leafOf gives, s >= 1): the cosize of s:1 is
/// s, that of 1:0 is 1, so no range check.
void rightInverseLeaf(int64_t s, int64_t d, Layout &out) {
  const bool inv = d == 1 && s > 1;
  Node ns = leafNode(inv ? s : 1), nd = leafNode(inv ? 1 : 0);
  out.assignNodes(&ns, &nd, 1);
}

/// max_common_layout(s:d, t:e) of two leaves: right_inverse(t:e) is t:1
/// for e == 1 and t > 1, else 1:0; A o t:1 = t:d has a first mode of
/// stride 1 exactly when d == 1. So the result is t:1 when d == e == 1 and
/// t > 1, else 1:0. Example: max_common_layout(64:1, 64:1) = 64:1.
bool maxCommonLeaf(const Layout &a, const Layout &b, Layout &out) {
  int64_t s, d, t, e;
  if (!leafOf(a, s, d) || !leafOf(b, t, e))
    return false;
  const bool common = d == 1 && e == 1 && t > 1;
  Node ns = leafNode(common ? t : 1), nd = leafNode(common ? 1 : 0);
  out.assignNodes(&ns, &nd, 1);
  return true;
}

/// left_inverse(s:d), CuTe's mixed-radix decoding of the coalesced mode:
///  * s == 1: 1:0;
///  * d > 0: the modes [d:0, s:1] coalesced, s:1 for d == 1 and (d,s):(0,1)
///    otherwise (offset k*d + r, r < d, decodes to k);
///  * d == 0: no stride to decode, s:0, which the general path verifies
///    point by point up to 2^22 elements (a larger s is its error);
///  * d < 0: the general path's divisibility error: declines.
/// Example: left_inverse(16:4) = (4,16):(0,1).
bool leftInverseLeaf(const Layout &l, Layout &out) {
  int64_t s, d;
  if (!leafOf(l, s, d) || d < 0)
    return false;
  if (s == 1)
    return writeLeaf(1, 0, out);
  if (d <= 1)
    return (d == 1 || s <= (int64_t(1) << 22)) && writeLeaf(s, d, out);
  Node ns[3] = {{0, 2, 3, 0}, {d, kLeaf, 1, 0}, {s, kLeaf, 1, 0}};
  Node nd[3] = {{0, 2, 3, 0}, {0, kLeaf, 1, 0}, {1, kLeaf, 1, 0}};
  int64_t size;
  if (mulOverflows(d, s, size))
    return false;
  out.assignNodes(ns, nd, 3);
  return true;
}

/// logical_divide(s:d, t:e) of a leaf A by a leaf tile: divideLeaves'
/// closed form (derived there), its nodes written directly. Going through
/// divideLeaves' struct and writeQuotient instead measured 199 to 215
/// against 167 instructions (8.1 against 6.7 ns) for this rank-1 case;
/// FastPathTest compares both with the general construction.
/// Example: logical_divide(128:1, 32:1) = (32,4):(1,32).
bool divideLeaf(const Layout &a, const Tiler &t, Layout &out) {
  int64_t s, d, ts, te, tile, te_, rd;
  if (t.kind != Tiler::Kind::Layout || !leafOf(a, s, d) ||
      !leafOf(t.layout, ts, te) || te < 0 || mulOverflows(te, d, tile))
    return false;
  // (tile, rest): rest is one leaf, or (e,R):(d,t*e*d) at nodes 2-4.
  Node ns[5] = {tupleNode(2, 3), leafNode(ts)};
  Node nd[5] = {tupleNode(2, 3), leafNode(tile)};
  if (ts == 1 || te == 0) {
    ns[2] = leafNode(s);
    nd[2] = leafNode(s == 1 ? 0 : d);
    return storeNodes(ns, nd, 3, out);
  }
  if (mulOverflows(ts, te, te_) || mulOverflows(te_, d, rd))
    return false;
  // te_ >= 2 and s >= 1. When T's span divides s the shapes multiply to
  // s and the terms telescope to A's (s-1)*|d|: the result fits as A
  // does, with no range pass (quotientKeepsMode).
  const int64_t q = s / te_, rem = s % te_, r = q + (rem != 0); // one idiv
  const bool exact = rem == 0;
  if (te == 1 || r == 1) { // one mode left, or none (1:0)
    ns[2] = leafNode(te == 1 ? r : te);
    nd[2] = leafNode(te == 1 ? (r == 1 ? 0 : rd) : d);
    if (!exact)
      return storeNodes(ns, nd, 3, out);
    out.assignNodes(ns, nd, 3);
    return true;
  }
  ns[0] = tupleNode(2, 5);
  nd[0] = tupleNode(2, 5);
  ns[2] = tupleNode(2, 3);
  nd[2] = tupleNode(2, 3);
  ns[3] = leafNode(te);
  nd[3] = leafNode(d);
  ns[4] = leafNode(r);
  nd[4] = leafNode(rd);
  return storeNodes(ns, nd, 5, out);
}

/// The rest of logical_product(s:1, t:e) for a compact A (s > 1):
/// complement(A, s*c) = c:s with c = cosize(T) = 1 + (t-1)*|e|, and T
/// composed with it is t:e*s (t:0 for c == 1). Any other A, or an
/// overflow, declines (to the array path, then the general one).
/// @post a layout of the leaves s:1 and t:x has terms (s-1) +
/// (t-1)*|e|*s = s*c - 1 that fit as s*c does, and for x != 0 (c > 1,
/// so t <= c) a size s*t that fits too.
[[gnu::always_inline]] inline bool productRestLeaf(const Layout &a,
                                                   const Layout &b, int64_t &s,
                                                   int64_t &ts, int64_t &x) {
  int64_t d, te, c, target;
  if (!leafOf(a, s, d) || !leafOf(b, ts, te) || d != 1 || s == 1 ||
      te == INT64_MIN || mulOverflows(ts - 1, absValue(te), c) ||
      addOverflows(c, 1, c) || mulOverflows(s, c, target))
    return false;
  x = 0;
  return c == 1 || !mulOverflows(te, s, x);
}

/// logical_product(s:1, t:e) = (s:1, t:e*s), (s:1, t:0) for cosize(T) == 1.
/// Example: logical_product(128:1, 4:32) = (128,4):(1,4096).
[[gnu::always_inline]] inline bool productLeaf(const Layout &a, const Tiler &t,
                                               Layout &out) {
  int64_t s, ts, x;
  if (t.kind != Tiler::Kind::Layout || !productRestLeaf(a, t.layout, s, ts, x))
    return false;
  Node *ns, *nd;
  out.nodesForOverwrite(3, ns, nd);
  ns[0] = tupleNode(2, 3);
  nd[0] = tupleNode(2, 3);
  ns[1] = leafNode(s);
  nd[1] = leafNode(1);
  ns[2] = leafNode(ts);
  nd[2] = leafNode(x);
  return fitsInt64(ns, nd, 3);
}

/// blocked_product(s:1, t:e) = ((s:1, t:x)), raked_product = ((t:x, s:1)):
/// both operands have rank 1, so the one result mode pairs A with the
/// product's rest t:x of productRestLeaf.
/// Example: blocked_product(4:1, 8:1) = ((4,8)):((1,4)).
[[gnu::always_inline]] inline bool rankedLeaf(const Layout &a, const Layout &b,
                                              bool raked, Layout &out) {
  int64_t s, ts, x;
  if (!productRestLeaf(a, b, s, ts, x))
    return false;
  Node *ns, *nd;
  out.nodesForOverwrite(4, ns, nd);
  ns[0] = tupleNode(1, 4);
  nd[0] = tupleNode(1, 4);
  ns[1] = tupleNode(2, 3);
  nd[1] = tupleNode(2, 3);
  int ai = raked ? 3 : 2, xi = raked ? 2 : 3; // where A's and X's leaves go
  ns[ai] = leafNode(s);
  nd[ai] = leafNode(1);
  ns[xi] = leafNode(ts);
  nd[xi] = leafNode(x);
  int64_t size; // productRestLeaf's @post: only x == 0's size is unknown
  return x != 0 || !mulOverflows(s, ts, size);
}

/// composition(A, T) for a by-mode tiler T of r <= rank(A) modes that
/// are all leaf layouts t:e (or integers t, as t:1) over A's modes i < r
/// that are integer leaves s:d: a root of r leaves t:e*d (t:0 for
/// e == 0), written in place. Where every tile stays inside its mode,
/// (t-1)*|e| <= s-1 (so t <= s), each mode's size and cosize term are at
/// most A's, and the result fits in int64 unchecked; otherwise it is
/// checked. Declines any other operands (composeModes' class).
/// Example: composition((128,64):(1,128), (32:1,16:1)) = (32,16):(1,128).
[[gnu::noinline]] bool composeLeafModes(const Layout &a, const Tiler &t,
                                        Layout &out) {
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  const int r = int(t.modes.size());
  if (t.kind != Tiler::Kind::Tuple || r < 1 || as->rank < r || r + 1 > kInline)
    return false;
  Node *s, *d;
  out.nodesForOverwrite(size_t(r + 1), s, d);
  bool inside = true;
  const Tiler *ti = t.modes.data();
  View m{as + 1, ad + 1}; // A's mode i - 1
  for (int i = 1; i <= r; ++i, ++ti, m.s += m.s->span, m.d += m.d->span) {
    const Node &ts = *ti->layout.shape().nodes(),
               &td = *ti->layout.stride().nodes();
    if (ti->kind != Tiler::Kind::Layout || m.s->rank != kLeaf ||
        m.d->basis != 0 || ts.rank != kLeaf || td.basis != 0)
      return false;
    const int64_t e = ti->integer ? 1 : td.value, tv = ts.value;
    int64_t st = 0, reach;
    if (e != 0 && mulOverflows(e, m.d->value, st))
      return false;
    inside &= e != 0 && e != INT64_MIN &&
              !mulOverflows(tv - 1, absValue(e), reach) && reach < m.s->value;
    putNode(s + i, tv);
    putNode(d + i, st);
  }
  putNode(s, 0, r, r + 1);
  putNode(d, 0, r, r + 1);
  return inside || fitsInt64(s, d, r + 1);
}

/// composeLeafModes for a tiler of two leaf tiles (a CTA tile by
/// (32:1,16:1), an atom by (4:1,2:1)), straight-line and inlined into
/// composition: (t0:e0*d0, t1:e1*d1). Its range is checked without a
/// pass when t0, t1, |e0*d0| and |e1*d1| are below 2^31 (then the size
/// t0*t1 and the cosize 1 + (t0-1)*|e0*d0| + (t1-1)*|e1*d1| are below
/// 2^63), by fitsInt64 otherwise. Declines as composeLeafModes does.
[[gnu::always_inline]] inline bool
composeTwoLeafModes(const Layout &a, const Tiler &t, Layout &out) {
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  // A's modes 0 and 1 are leaves (nodes 1 and 2), tested before the
  // tiler's nodes are read: a nested A (a by-mode composition of tiles)
  // declines in a few instructions.
  if (t.kind != Tiler::Kind::Tuple || t.modes.size() != 2 || as->rank < 2 ||
      !isIntegerLeaf(as[1]) || !isIntegerLeaf(as[2]))
    return false;
  const Tiler &t0 = t.modes[0], &t1 = t.modes[1];
  if (t0.kind != Tiler::Kind::Layout || t1.kind != Tiler::Kind::Layout)
    return false;
  const Node &ts0 = *t0.layout.shape().nodes(),
             &td0 = *t0.layout.stride().nodes(),
             &ts1 = *t1.layout.shape().nodes(),
             &td1 = *t1.layout.stride().nodes();
  // A's strides and the tiles are integer leaves.
  if (!isIntegerLeaf(ad[1]) || !isIntegerLeaf(ad[2]) || !isIntegerLeaf(ts0) ||
      !isIntegerLeaf(td0) || !isIntegerLeaf(ts1) || !isIntegerLeaf(td1))
    return false;
  const int64_t e0 = t0.integer ? 1 : td0.value,
                e1 = t1.integer ? 1 : td1.value;
  int64_t st0, st1;
  if (mulOverflows(e0, ad[1].value, st0) || mulOverflows(e1, ad[2].value, st1))
    return false;
  const int64_t tv0 = ts0.value, tv1 = ts1.value;
  Node *s, *d;
  out.nodesForOverwrite(3, s, d);
  putNode(s, 0, 2, 3);
  putNode(d, 0, 2, 3);
  putNode(s + 1, tv0);
  putNode(d + 1, st0);
  putNode(s + 2, tv1);
  putNode(d + 2, st1);
  auto mag = [](int64_t v) { return v < 0 ? 0 - uint64_t(v) : uint64_t(v); };
  const uint64_t big =
      uint64_t(tv0) | uint64_t(tv1) | mag(st0) | mag(st1); // shapes > 0
  return big < (uint64_t(1) << 31) || fitsInt64(s, d, 3);
}

/// composition(A, T) for a by-mode tiler T of r <= rank(A) modes, each
/// `_`, an integer n (as n:1) or a leaf layout t:e, written in place
/// without a Writer: a root of r modes, mode i A_i kept or the composer's
/// modes of A_i for t:e (as composeFlat; for a leaf A_i = s:d that is
/// t:e*d). Declines other tilers and results past IntTuple's inline nodes.
/// Example: composition((128,64):(1,128), (32:1,16:1)) = (32,16):(1,128).
bool composeModes(const Layout &a, const Tiler &t, Layout &out) {
  View va = viewOf(a);
  const bool leaf = va.s->rank == kLeaf;
  const size_t rank = leaf ? 1 : size_t(va.s->rank), r = t.modes.size();
  if (t.kind != Tiler::Kind::Tuple || r == 0 || r > rank)
    return false;
  NodeSink w{nullptr, nullptr, 1}; // node 0, the root, is written last
  out.nodesForOverwrite(kInline, w.s, w.d);
  View m{va.s + !leaf, va.d + !leaf}; // a leaf is its own mode 0
  for (size_t i = 0; i < r; ++i, m.s += m.s->span, m.d += m.d->span) {
    const Tiler &ti = t.modes[i];
    if (ti.kind == Tiler::Kind::Keep) {
      if (w.n + m.s->span > kInline)
        return false;
      copyTree(m, w.s + w.n, w.d + w.n);
      w.n += m.s->span;
      continue;
    }
    const Node *ts = ti.layout.shape().nodes(),
               *td = ti.layout.stride().nodes();
    if (ti.kind != Tiler::Kind::Layout || ts->rank != kLeaf || td->basis != 0)
      return false;
    const int64_t e = ti.integer ? 1 : td->value;
    if (m.s->rank == kLeaf && m.d->basis == 0) {
      // A_i = s:d is its own coalesced mode (a size-1 one keeps d): the
      // composer gives t:e*d, t:0 for e == 0, without building it.
      int64_t st = 0;
      if (w.n + 1 > kInline || (e != 0 && mulOverflows(e, m.d->value, st)))
        return false;
      w.leaf(ts->value, st);
      continue;
    }
    Modes fa;
    if (!leavesOf(m, fa))
      return false;
    Composer c(fa);
    if (w.n + 1 + c.lhs.n > kInline || !c.leaf(ts->value, e, w) ||
        !c.distributive())
      return false;
  }
  Node *s = w.s, *d = w.d;
  int n = w.n;
  s[0] = tupleNode(int(r), n);
  d[0] = tupleNode(int(r), n);
  out.truncateNodes(size_t(n));
  return fitsInt64(s, d, n);
}

/// The groupings of a by-mode divide or product (CuTe's zip2_by and the
/// tiled and flat unpackings).
/// ByMode is the by-mode divide itself, ((tile_0, rest_0), ..., others..),
/// which groupLeavesInline writes as the groupings.
enum class Group { Zipped, Tiled, Flat, ByMode };

/// The by-mode divide or product `v` by a tiler of r >= 2 modes that are
/// all layouts, of rank R >= 2: mode i < r of `l` is (tile_i, rest_i), the
/// others are A's. Regrouped into `out` in one copy of the nodes:
///   Zipped ((tile_0, ..), (rest_0, .., others..)),
///   Tiled  ((tile_0, ..), rest_0, .., others..),
///   Flat   (tile_0, .., rest_0, .., others..).
/// Declines other tilers (a mode `_` or a tuple, r == 1 or R == 1 where
/// CuTe keeps a rank-1 part whole), and modes i < r that are not pairs: the
/// general regrouping reports those.
/// Example: zipped of ((32,4),(16,4)):((1,32),(128,2048)) by (32:1,16:1)
///          = ((32,16),(4,4)):((1,128),(32,2048)).
bool regroupModes(View v, const Tiler &t, Group how, Layout &out) {
  const size_t r = t.modes.size();
  if (t.kind != Tiler::Kind::Tuple || r < 2 || v.s->rank == kLeaf ||
      size_t(v.s->rank) < r || r > size_t(kLeaves))
    return false;
  const int rank = v.s->rank;
  View tile[kLeaves], rest[kLeaves];
  View m{v.s + 1, v.d + 1};
  for (size_t i = 0; i < r; ++i, m.s += m.s->span, m.d += m.d->span) {
    if (t.modes[i].kind != Tiler::Kind::Layout || m.s->rank != 2)
      return false;
    tile[i] = View{m.s + 1, m.d + 1};
    rest[i] = View{tile[i].s + tile[i].s->span, tile[i].d + tile[i].s->span};
  }
  const View others = m; // the modes past r, to the end of l
  const int nOthers = int(v.s->span - (m.s - v.s)), extra = rank - int(r);
  // v's nodes less the r pair nodes, plus the tuples that group parts.
  const int n = v.s->span - int(r) +
                (how == Group::Zipped  ? 2
                 : how == Group::Tiled ? 1
                                       : 0);
  if (n > kNodes)
    return false;
  Node *s, *d;
  out.nodesForOverwrite(size_t(n), s, d);
  int k = 1;
  auto put = [&](View x) {
    copyTree(x, s + k, d + k);
    k += x.s->span;
  };
  auto group = [&](int at, int modes) {
    s[at] = tupleNode(modes, k - at);
    d[at] = tupleNode(modes, k - at);
  };
  int at = k;
  k += how != Group::Flat; // the tiles' tuple
  for (size_t i = 0; i < r; ++i)
    put(tile[i]);
  if (how != Group::Flat)
    group(at, int(r));
  at = k;
  k += how == Group::Zipped; // the rests' tuple
  for (size_t i = 0; i < r; ++i)
    put(rest[i]);
  std::copy(others.s, others.s + nOthers, s + k);
  std::copy(others.d, others.d + nOthers, d + k);
  k += nOthers;
  if (how == Group::Zipped)
    group(at, int(r) + extra);
  const int rootRank = how == Group::Zipped  ? 2
                       : how == Group::Tiled ? 1 + int(r) + extra
                                             : 2 * int(r) + extra;
  s[0] = tupleNode(rootRank, n);
  d[0] = tupleNode(rootRank, n);
  return true; // the leaves of v: its size and offsets fit
}

/// Runs a by-mode fast path into `out` (inlined: out of line, it cost
/// composition by a tiler 88 more instructions per call).
template <class Apply>
[[gnu::always_inline]] inline bool byMode(const Layout &a, const Tiler &t,
                                          bool keepRest, Layout &out,
                                          Apply apply) {
  Writer w(out);
  return byModeInto(viewOf(a), t, keepRest, w, apply) && w.finish();
}

/// logical_product by modes (any A: a closed form per mode onto [0, n),
/// else complement and composer), out of line: inlined, its Writer made
/// every logical_product call 11 instructions dearer.
[[gnu::noinline]] bool productByMode(const Layout &a, const Tiler &t,
                                     Layout &out) {
  return byMode(a, t, /*keepRest=*/true, out, productTiler);
}

/// The path that served this thread's latest call (general::lastPath).
/// initial-exec: one store through a known offset, not a call to
/// __tls_get_addr, although the library is position-independent.
#if defined(__ELF__)
[[gnu::tls_model("initial-exec")]]
#endif
thread_local Path tLastPath = Path::General;

/// Records that path p served the call when `served`; returns `served`.
/// The public operations below chain these with || as a table: the first
/// closed form that accepts its operands serves the call.
[[gnu::always_inline]] inline bool serve(Path p, bool served) {
  if (served)
    tLastPath = p;
  return served;
}

/// r = make(), out of line: the temporary stays out of the caller's frame
/// (a leaf's form declining is rare; its frame is paid on every call).
template <class Make>
[[gnu::noinline]] void intoOf(Expected<Layout> &r, Make make) {
  r = make();
}

/// Stores the general construction's result g in r, recorded as
/// Path::General. Every operation returns its one `r`, so that the result
/// is built in the caller's slot (two returned objects would cost a move
/// of the result's nodes on every fast call).
template <class R> void fallBack(R &r, R &&g) {
  tLastPath = Path::General;
  r = std::move(g);
}

/// p where `ok`, else Path::General (a declined closed form).
[[gnu::always_inline]] inline Path served(Path p, bool ok) {
  return ok ? p : Path::General;
}

/// serve for a closed form that names its own path (Path::General: it
/// declined).
[[gnu::always_inline]] inline bool servePath(Path p) {
  if (p == Path::General)
    return false;
  tLastPath = p;
  return true;
}

/// Defined with the groupings, whose one-pass form it shares; the path
/// that served, Path::General where all its forms declined.
Path divideLeafModes(const Layout &a, const Tiler &t, Layout &out);

} // namespace

Path general::lastPath() { return tLastPath; }

//===----------------------------------------------------------------------===//
// The public operations: which closed form serves which operand class, in
// the order they are tried; the general construction takes the rest.
//===----------------------------------------------------------------------===//

Layout coalesce(const Layout &l) {
  Layout r;
  if (!(serve(Path::CoalesceLeaf, coalesceLeaf(l, r)) ||      // a leaf s:d
        serve(Path::CoalesceModes, fast::coalesceRun(l, r)))) // <= 16 nodes
    fallBack(r, general::coalesce(l));
  return r;
}

Expected<Layout> composition(const Layout &a, const Layout &b) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::ComposeLeaves, composeLeaves(a, b, *r)) || // two leaves
        serve(Path::ComposeFlat, composeFlat(a, b, *r)) || // B flat, of leaves
        serve(Path::ComposeNested,
              composeNested(a, b, *r)) ||                 // B nested, inline
        serve(Path::ComposeTree, composeTree(a, b, *r)))) // B nested
    fallBack(r, general::composition(a, b));
  return r;
}

Expected<Layout> composition(const Layout &a, const Tiler &t) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::ComposeTwoLeafModes, // two leaf modes by t:e
              composeTwoLeafModes(a, t, *r)) ||
        serve(Path::ComposeLeafModes, // leaf modes by t:e
              composeLeafModes(a, t, *r)) ||
        serve(Path::ComposeModes,
              composeModes(a, t, *r)) || // modes _, n or t:e
        serve(Path::ComposeByMode,       // any tiler
              byMode(a, t, /*keepRest=*/false, *r, composeTiler))))
    fallBack(r, general::composition(a, t));
  return r;
}

namespace {
/// complement past its leaf form, out of line (a leaf pays for none of
/// its registers).
[[gnu::noinline]] Expected<Layout> complementOfModes(const Layout &l,
                                                     const IntTuple &cotarget) {
  Expected<Layout> r{std::in_place};
  if (!serve(Path::ComplementModes,
             fast::complementSorted(l, cotarget, *r))) // <= 15 nodes
    fallBack(r, general::complement(l, cotarget));
  return r;
}

/// complement of a leaf, out of line too: complement then only jumps to
/// one of the two (inlined, the frame it needs costs the modes' path a
/// call instead); the modes' path where the leaf form declines.
[[gnu::noinline]] Expected<Layout> complementOfLeaf(const Layout &l,
                                                    const IntTuple &cotarget) {
  Expected<Layout> r{std::in_place};
  if (!serve(Path::ComplementLeaf, complementLeaf(l, cotarget, *r)))
    intoOf(r, [&] { return complementOfModes(l, cotarget); });
  return r;
}
} // namespace

Expected<Layout> complement(const Layout &l, const IntTuple &cotarget) {
  if (!isLeaf(l))
    return complementOfModes(l, cotarget);
  return complementOfLeaf(l, cotarget);
}

namespace {
/// right_inverse of a tuple, out of line (the tail of right_inverse: a
/// leaf pays for none of its registers).
[[gnu::noinline]] Expected<Layout> rightInverseOfTuple(const Layout &l) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::RightInverseChain,
              fast::rightInverseChain(l, *r)) ||              // <= 16 nodes
        serve(Path::RightInverseModes, rightInverse(l, *r)))) // equal strides
    fallBack(r, general::right_inverse(l));
  return r;
}

/// right_inverse of the leaf s:d (its own function, so that its result is
/// built in the caller's slot). Its form takes every s:d that leafOf gives,
/// so no call follows the result's construction: right_inverse then needs
/// no cleanup of it on an exception, and so no frame (5 instructions less
/// on every call).
[[gnu::always_inline]] inline Expected<Layout> rightInverseOfLeaf(int64_t s,
                                                                  int64_t d) {
  Expected<Layout> r{std::in_place};
  rightInverseLeaf(s, d, *r);
  tLastPath = Path::RightInverseLeaf;
  return r;
}

/// right_inverse where no closed form applies, out of line.
[[gnu::noinline]] Expected<Layout> rightInverseGeneral(const Layout &l) {
  tLastPath = Path::General;
  return general::right_inverse(l);
}
} // namespace

Expected<Layout> right_inverse(const Layout &l) {
  if (!isLeaf(l))
    return rightInverseOfTuple(l);
  int64_t s, d; // read before the result is built (its stores might alias l)
  if (!leafOf(l, s, d))
    return rightInverseGeneral(l);
  return rightInverseOfLeaf(s, d);
}

namespace {
/// left_inverse past its leaf form, out of line (as complementOfModes).
[[gnu::noinline]] Expected<Layout> leftInverseOfModes(const Layout &l) {
  Expected<Layout> r{std::in_place};
  // Strides one chain (LeftInverseChain), else modes lying apart
  // (LeftInverseModes), <= 15 nodes.
  const Path p = fast::leftInverseSorted(l, *r);
  if (p == Path::General)
    fallBack(r, general::left_inverse(l));
  else
    tLastPath = p;
  return r;
}

/// left_inverse of a leaf (as complementOfLeaf).
[[gnu::noinline]] Expected<Layout> leftInverseOfLeaf(const Layout &l) {
  Expected<Layout> r{std::in_place};
  if (!serve(Path::LeftInverseLeaf, leftInverseLeaf(l, *r)))
    intoOf(r, [&] { return leftInverseOfModes(l); });
  return r;
}
} // namespace

Expected<Layout> left_inverse(const Layout &l) {
  if (!isLeaf(l))
    return leftInverseOfModes(l);
  return leftInverseOfLeaf(l);
}

Expected<Layout> logical_divide(const Layout &a, const Tiler &t) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::DivideLeaf, divideLeaf(a, t, *r)) || // leaf by leaf
        servePath(divideLeafModes(a, t, *r)) || // leaf modes by leaf or
                                                // pair tiles; two by
                                                // (pair, leaf): DividePairLeaf
        serve(Path::DivideModes,
              divideModes(a, t, *r)) || // by-mode, flat tiles
        serve(Path::DivideWhole,
              divideWhole(a, t, *r)) || // a layout tile, A one mode
        serve(Path::DivideByMode,       // any tiler
              byMode(a, t, /*keepRest=*/true, *r, divideTiler))))
    fallBack(r, general::logical_divide(a, t));
  return r;
}

Expected<Layout> logical_product(const Layout &a, const Tiler &t) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::ProductLeaf, productLeaf(a, t, *r)) ||    // s:1 by a leaf
        serve(Path::ProductWhole, productWhole(a, t, *r)) ||  // A onto [0, n)
        serve(Path::ProductByMode, productByMode(a, t, *r)))) // any A, by modes
    fallBack(r, general::logical_product(a, t));
  return r;
}

Expected<Layout> blocked_product(const Layout &a, const Layout &b) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::RankedLeaf,
              rankedLeaf(a, b, /*raked=*/false, *r)) || // s:1, leaf
        serve(Path::RankedFlat, // flat A onto [0, n), flat B
              rankedFlat(a, b, /*raked=*/false, *r)) ||
        serve(Path::RankedProduct, // A onto [0, n)
              rankedProduct(a, b, /*raked=*/false, *r))))
    fallBack(r, general::blocked_product(a, b));
  return r;
}

Expected<Layout> raked_product(const Layout &a, const Layout &b) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::RankedLeaf, rankedLeaf(a, b, /*raked=*/true, *r)) ||
        serve(Path::RankedFlat, rankedFlat(a, b, /*raked=*/true, *r)) ||
        serve(Path::RankedProduct, rankedProduct(a, b, /*raked=*/true, *r))))
    fallBack(r, general::raked_product(a, b));
  return r;
}

Expected<Layout> max_common_layout(const Layout &a, const Layout &b) {
  Expected<Layout> r{std::in_place};
  if (!(serve(Path::MaxCommonLeaf, maxCommonLeaf(a, b, *r)) || // two leaves
        serve(Path::MaxCommonContiguous,
              maxCommonContiguous(a, b, *r)) || // A one mode a:1
        serve(Path::MaxCommonModes,
              maxCommonModes(a, b, *r)))) // <= 8 leaves each
    fallBack(r, general::max_common_layout(a, b));
  return r;
}

/// The quotient (product = false) or the product mode of A's integer
/// leaf as:ad by the tiler mode t, when t is an integer leaf layout and
/// a closed form takes them (for products: s, t >= 2, d, e >= 1).
[[gnu::always_inline]] inline bool leafPart(bool product, const Node &as,
                                            const Node &ad, const Tiler &t,
                                            LeafQuotient &q) {
  if (!product)
    return leafQuotient(as, ad, t, q);
  const Node &ts = *t.layout.shape().nodes(), &td = *t.layout.stride().nodes();
  return t.kind == Tiler::Kind::Layout && as.rank == kLeaf && ad.basis == 0 &&
         ts.rank == kLeaf && td.basis == 0 && as.value >= 2 && ad.value >= 1 &&
         ts.value >= 2 && td.value >= 1 &&
         leafProductRest(as.value, ad.value, ts.value, td.value, q);
}

/// groupLeaves in one pass, for results that fit IntTuple's inline nodes
/// (bounded up front: each divided leaf becomes at most 4 nodes, plus the
/// two group tuples): each mode's closed form is written as it is
/// computed, the tiles at known positions, the rests after them, the
/// group and root nodes last. A divide's mode whose tile and rest shapes
/// multiply to s (T's span divides s, or T's image is {0} with t == 1)
/// has A's size s and A's cosize terms (s-1)*|d| (the terms telescope:
/// (t-1)*e*|d| + (e-1)*|d| + (R-1)*t*e*|d| = (t*e*R - 1)*|d|), so a
/// divide of such modes fits in int64 as A does, unchecked; the others
/// are checked once at the end. A product (whose size is size(A) times
/// the tiles') adds each mode's size and cosize terms, in closed form,
/// and A's modes past r leaf by leaf, to its Extent instead. Declines
/// what groupLeaves declines.
/// @pre 1 + 2 + 4*r + (A's nodes past its first r leaves) <= kInline
template <bool Product, Group how, int R = 0>
[[gnu::always_inline]] inline bool
groupLeavesInline(const Node *as, const Node *ad, const Tiler *tm, int r,
                  Layout &out) {
  if constexpr (R != 0)
    r = R; // known: the loop below unrolls
  constexpr bool byMode = how == Group::ByMode;
  static_assert(!(byMode && Product), "by-mode products: productByMode");
  Node *s, *d;
  out.nodeStorage(s, d); // the count is set at the end
  const int tiles = 1 + (how != Group::Flat && !byMode);
  int k = byMode ? 1 : tiles + r + (how == Group::Zipped);
  bool exact = !Product;
  Extent ext; // a product's size and cosize, leaf by leaf
  View m{as + 1, ad + 1};
  for (int i = 0; i < r; ++i, m.s += m.s->span, m.d += m.d->span) {
    // Mode i of A is a leaf s:d and tile i a leaf t:e (both with integer
    // strides), or this form declines.
    const Tiler &ti = tm[i];
    const Node &ts = *ti.layout.shape().nodes(),
               &td = *ti.layout.stride().nodes();
    if (ti.kind != Tiler::Kind::Layout || m.s->rank != kLeaf ||
        m.d->basis != 0 || ts.rank != kLeaf || td.basis != 0)
      return false;
    const int64_t sv = m.s->value, dv = m.d->value, tv = ts.value,
                  ev = td.value;
    if constexpr (!Product) {
      // divideLeaves, written as it is computed: the tile at tileAt, the
      // rest at k (one node, or a pair of three); by modes the pair node
      // first, at `pair`, written once the rest's span is known.
      int64_t tileStride, span, rd;
      if (ev < 0 || mulOverflows(ev, dv, tileStride))
        return false;
      const int pair = k, tileAt = byMode ? k + 1 : tiles + i;
      if (byMode)
        k += 2;
      putNode(&s[tileAt], tv);
      putNode(&d[tileAt], tileStride);
      auto closePair = [&] {
        if (byMode) {
          putNode(&s[pair], 0, 2, k - pair);
          putNode(&d[pair], 0, 2, k - pair);
        }
      };
      if (tv == 1 || ev == 0) { // T's image is {0}: the rest is A's mode
        putNode(&s[k], sv);
        putNode(&d[k++], sv == 1 ? 0 : dv);
        exact &= tv == 1;
        closePair();
        continue;
      }
      if (mulOverflows(tv, ev, span) || mulOverflows(span, dv, rd))
        return false;
      const int64_t q = sv / span, rem = sv - q * span, rs = q + (rem != 0);
      exact &= rem == 0;
      if (ev == 1 || rs == 1) { // one rest mode, or none (1:0)
        putNode(&s[k], ev == 1 ? rs : ev);
        putNode(&d[k++], ev == 1 ? (rs == 1 ? 0 : rd) : dv);
        closePair();
        continue;
      }
      putNode(&s[k], 0, 2, 3);
      putNode(&d[k], 0, 2, 3);
      putNode(&s[k + 1], ev);
      putNode(&d[k + 1], dv);
      putNode(&s[k + 2], rs);
      putNode(&d[k + 2], rd);
      k += 3;
      closePair();
      continue;
    }
    // leafProductRest, written as it is computed: (s:d, rest).
    int64_t cosB, target, sd, x = ev;
    if (sv < 2 || dv < 1 || tv < 2 || ev < 1 ||
        mulOverflows(tv - 1, ev, cosB) || addOverflows(cosB, 1, cosB) ||
        mulOverflows(sv, cosB, target) || mulOverflows(sv, dv, sd))
      return false;
    int64_t n0 = tv; // the rest's first shape; a second t/n0:sd if n0 < t
    if (cosB > dv && ev >= dv) {
      if (ev % dv != 0 || mulOverflows(ev, sv, x))
        return false;
    } else if (cosB > dv) {
      n0 = std::min((dv + ev - 1) / ev, tv);
      if (tv % n0 != 0 || (tv > n0 && dv % ev != 0))
        return false;
    }
    // The mode's size s*t and cosize terms (s-1)*d + the rest's: (t-1)*e
    // = cosB-1 < d when cosB <= d; (t-1)*x; (n0-1)*e < d plus
    // (t/n0-1)*s*d. (s-1)*d = sd - d and the terms below d fit.
    int64_t term = sd - dv, u = 0;
    bool over = false;
    if (n0 < tv) {
      term += (n0 - 1) * ev;
      over = mulOverflows(tv / n0 - 1, sd, u);
    } else if (cosB > dv) {
      over = mulOverflows(tv - 1, x, u);
    } else {
      term += cosB - 1;
    }
    // s*t <= s*cosB = target (t <= cosB for e >= 1): no overflow.
    const int64_t sizeMode = sv * tv;
    if (over || mulOverflows(ext.size, sizeMode, ext.size) ||
        addOverflows(term, u, term) ||
        addOverflows(ext.cosize, term, ext.cosize))
      return false;
    putNode(&s[tiles + i], sv);
    putNode(&d[tiles + i], dv);
    if (n0 == tv) {
      putNode(&s[k], tv);
      putNode(&d[k++], x);
      continue;
    }
    putNode(&s[k], 0, 2, 3);
    putNode(&d[k], 0, 2, 3);
    putNode(&s[k + 1], n0);
    putNode(&d[k + 1], x);
    putNode(&s[k + 2], tv / n0);
    putNode(&d[k + 2], sd);
    k += 3;
  }
  const int nOthers = int(as->span - (m.s - as)), extra = as->rank - r;
  for (int j = 0; j < nOthers; ++j) { // a few nodes: no memmove call
    s[k + j] = m.s[j];
    d[k + j] = m.d[j];
  }
  const int n = k + nOthers;
  if (how == Group::Zipped) {
    const int at = tiles + r;
    putNode(&s[at], 0, r + extra, n - at);
    putNode(&d[at], 0, r + extra, n - at);
  }
  if (how != Group::Flat && !byMode) {
    putNode(&s[1], 0, r, 1 + r);
    putNode(&d[1], 0, r, 1 + r);
  }
  const int rootRank = how == Group::Zipped  ? 2
                       : how == Group::Tiled ? 1 + r + extra
                       : byMode              ? int(as->rank)
                                             : 2 * r + extra;
  putNode(&s[0], 0, rootRank, n);
  putNode(&d[0], 0, rootRank, n);
  out.inlineNodesForOverwrite(size_t(n), s, d);
  if constexpr (Product) {
    for (int j = 0; j < nOthers; ++j)
      if (m.s[j].rank == kLeaf && !ext.add(m.s[j].value, m.d[j].value))
        return false;
    return true;
  }
  return exact || fitsInt64(s, d, n);
}

/// zipped/tiled/flat divide or product of A by a tuple tiler of r >= 2
/// leaf tiles whose modes i < r are integer leaves (a CTA tile by
/// (32:1,16:1), an 8x8 atom by (4:1,2:1)): each mode's (tile, rest) or
/// (A_i, rest) in closed form (divideLeaves, leafProductRest), written
/// straight into the grouping `how` (as regroupModes lays it out), A's
/// modes past r copied after the rests. Declines anything else, and
/// results past kNodes or not fitting in int64. This two-pass form
/// (quotients first, then the nodes, one range pass) takes results past
/// the inline nodes; groupLeavesInline the others. @pre groupLeaves'
/// operand checks passed
/// Example: zipped_divide((128,64):(1,128), (32:1,16:1))
///          = ((32,16),(4,4)):((1,128),(32,2048)).
template <bool Product>
[[gnu::noinline]] bool groupLeavesWide(const Layout &a, const Tiler &t,
                                       Group how, Layout &out) {
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  const size_t r = t.modes.size();
  LeafQuotient q[kLeaves];
  int rests = 0; // the rests' nodes
  View m{as + 1, ad + 1};
  for (size_t i = 0; i < r; ++i, m.s += m.s->span, m.d += m.d->span) {
    if (!leafPart(Product, *m.s, *m.d, t.modes[i], q[i]))
      return false;
    rests += q[i].restModes == 1 ? 1 : 3;
  }
  const int extra = as->rank - int(r), nOthers = int(as->span - (m.s - as));
  const int n = 1 +
                (how == Group::Zipped  ? 2
                 : how == Group::Tiled ? 1
                                       : 0) +
                int(r) + rests + nOthers;
  if (n > kNodes)
    return false;
  Node *s, *d;
  out.nodesForOverwrite(size_t(n), s, d);
  const int rootRank = how == Group::Zipped  ? 2
                       : how == Group::Tiled ? 1 + int(r) + extra
                                             : 2 * int(r) + extra;
  s[0] = tupleNode(rootRank, n);
  d[0] = tupleNode(rootRank, n);
  int k = 1;
  if (how != Group::Flat) {
    s[k] = tupleNode(int(r), 1 + int(r));
    d[k] = tupleNode(int(r), 1 + int(r));
    ++k;
  }
  for (size_t i = 0; i < r; ++i, ++k) {
    s[k] = leafNode(q[i].tileShape);
    d[k] = leafNode(q[i].tileStride);
  }
  if (how == Group::Zipped) {
    s[k] = tupleNode(int(r) + extra, n - k);
    d[k] = tupleNode(int(r) + extra, n - k);
    ++k;
  }
  for (size_t i = 0; i < r; ++i) {
    if (q[i].restModes == 2) {
      s[k] = tupleNode(2, 3);
      d[k] = tupleNode(2, 3);
      ++k;
    }
    for (int j = 0; j < q[i].restModes; ++j, ++k) {
      s[k] = leafNode(q[i].restShape[j]);
      d[k] = leafNode(q[i].restStride[j]);
    }
  }
  std::copy(m.s, m.s + nOthers, s + k);
  std::copy(m.d, m.d + nOthers, d + k);
  return fitsInt64(s, d, n);
}

/// groupLeaves' entry: the operand checks, then the one-pass form for
/// results within IntTuple's inline nodes (unrolled for two tiles, a CTA
/// tile or an atom: tested first, by the tiler's size alone),
/// groupLeavesWide for the rest.
template <bool Product, Group How>
[[gnu::always_inline]] inline bool groupLeaves(const Layout &a, const Tiler &t,
                                               Layout &out) {
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  if (t.kind != Tiler::Kind::Tuple || as->rank == kLeaf)
    return false;
  if (t.modes.size() == 2) {
    if (as->rank < 2)
      return false;
    if (1 + 2 + 3 * 2 + as->span - 1 <= kInline) // see groupLeavesInline
      return groupLeavesInline<Product, How, 2>(as, ad, t.modes.data(), 2, out);
    return groupLeavesWide<Product>(a, t, How, out);
  }
  const size_t r = t.modes.size();
  if (r < 2 || r > size_t(kLeaves) || size_t(as->rank) < r)
    return false;
  if (1 + 2 + 3 * int(r) + as->span - 1 <= kInline)
    return groupLeavesInline<Product, How>(as, ad, t.modes.data(), int(r), out);
  return groupLeavesWide<Product>(a, t, How, out);
}

namespace {
/// logical_divide of A by a by-mode tiler of r leaf tiles over A's leaf
/// modes i < r (a tile by (8:1,4:1)), as groupLeaves writes the
/// groupings: each mode's (tile, rest) in closed form (divideLeaves), A's
/// modes past r copied. Declines results that could pass the inline
/// nodes (1 + 5 per divided mode + A's other nodes; divideModes takes
/// those) and anything groupLeavesInline declines. For two tiles, tile
/// 0's rank picks the form first: a leaf the leaf tiles', a pair
/// dividePairLeaf's (two leaf modes by (pair, leaf)), so neither pays for
/// the other's decline; divideLeafTiles (tiles that are pairs of leaves
/// among them) takes what both decline. Returns the path that served,
/// Path::General where all declined.
/// Example: logical_divide((64,32):(32,1), (8:1,4:1))
///          = ((8,8),(4,8)):((32,256),(1,4)).
Path divideLeafModes(const Layout &a, const Tiler &t, Layout &out) {
  const Node *as = a.shape().nodes(), *ad = a.stride().nodes();
  if (t.kind != Tiler::Kind::Tuple || as->rank < 1 ||
      as[1].rank != kLeaf) // A's first mode a leaf
    return Path::General;
  constexpr Group by = Group::ByMode;
  const Tiler *tm = t.modes.data();
  if (t.modes.size() == 2) {
    // Tile 0 a leaf: the leaf tiles' form; a pair: dividePairLeaf's (the
    // leaf tiles' form declines it at its first tile).
    const int16_t rank0 = tm->layout.shape().nodes()->rank;
    if (rank0 == kLeaf) {
      if (as->rank >= 2 && 1 + 4 * 2 + as->span - 1 <= kInline &&
          groupLeavesInline<false, by, 2>(as, ad, tm, 2, out))
        return Path::DivideLeafModes;
    } else if (rank0 == 2 && dividePairLeaf(a, t, out)) {
      return Path::DividePairLeaf;
    }
    return served(Path::DivideLeafModes, divideLeafTiles(a, t, out));
  }
  const size_t r = t.modes.size();
  return served(Path::DivideLeafModes,
                (r >= 1 && r <= size_t(kLeaves) && size_t(as->rank) >= r &&
                 1 + 4 * int(r) + as->span - 1 <= kInline &&
                 groupLeavesInline<false, by>(as, ad, tm, int(r), out)) ||
                    divideLeafTiles(a, t, out));
}
} // namespace

/// The public divide or product `op` of `a` by a tuple tiler of >= 2
/// modes, regrouped by regroupModes into `out`.
template <class Op>
bool regrouped(Op op, const Layout &a, const Tiler &t, Group how, Layout &out) {
  if (t.kind != Tiler::Kind::Tuple || t.modes.size() < 2)
    return false;
  Expected<Layout> l = op(a, t);
  return l && regroupModes(viewOf(*l), t, how, out);
}

/// zipped/tiled/flat divides and products: the public divide or product,
/// regrouped (regroupModes), else the general regrouping. One returned
/// object `r` (two returns cost a move of the nodes per call).
#define LK_GROUPED(name, op, how, product)                                     \
  Expected<Layout> name##Grouped(const Layout &a, const Tiler &t) {            \
    Expected<Layout> r{std::in_place};                                         \
    if (!(serve(Path::RegroupLeaves, groupLeaves<product, how>(a, t, *r)) ||   \
          serve(Path::Regroup, regrouped(op, a, t, how, *r))))                 \
      fallBack(r, general::name(a, t));                                        \
    return r;                                                                  \
  }
namespace {
LK_GROUPED(zipped_divide, logical_divide, Group::Zipped, false)
LK_GROUPED(zipped_product, logical_product, Group::Zipped, true)
} // namespace
#undef LK_GROUPED

/// Zipped by a layout tiler is the divide or product itself, (tile,
/// rest). Both calls return prvalues: the result is built in the caller's
/// slot, and each is a tail call.
Expected<Layout> zipped_divide(const Layout &a, const Tiler &t) {
  if (t.kind == Tiler::Kind::Layout)
    return logical_divide(a, t);
  return zipped_divideGrouped(a, t);
}

Expected<Layout> zipped_product(const Layout &a, const Tiler &t) {
  if (t.kind == Tiler::Kind::Layout)
    return logical_product(a, t);
  return zipped_productGrouped(a, t);
}

/// Tiled and flat groupings (of a layout tiler too: general::name).
#define LK_REGROUPED(name, op, how, product)                                   \
  Expected<Layout> name(const Layout &a, const Tiler &t) {                     \
    Expected<Layout> r{std::in_place};                                         \
    if (!(serve(Path::RegroupLeaves, groupLeaves<product, how>(a, t, *r)) ||   \
          serve(Path::Regroup, regrouped(op, a, t, how, *r))))                 \
      fallBack(r, general::name(a, t));                                        \
    return r;                                                                  \
  }
LK_REGROUPED(tiled_divide, logical_divide, Group::Tiled, false)
LK_REGROUPED(flat_divide, logical_divide, Group::Flat, false)
LK_REGROUPED(tiled_product, logical_product, Group::Tiled, true)
LK_REGROUPED(flat_product, logical_product, Group::Flat, true)
#undef LK_REGROUPED

} // namespace lk::cute
