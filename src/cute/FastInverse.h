//===- FastInverse.h - coalesce, inverses and complement, fast --*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Closed forms of the operations CuTe computes from an operand's modes
// sorted by stride: coalesce, right_inverse, left_inverse, complement,
// included by the dispatch table of FastPaths.cpp only (inlined there,
// into the out-of-line form of a tuple operand). One pass over the
// operand's pre-order nodes collects its coalesced modes (runOf; pairOf
// reads a flat pair without the loop; coalesce writes them as they come;
// complement takes the kept leaves unmerged, which gives the same result);
// each operation then walks them and writes the result's modes straight
// into the returned layout's nodes (ModeWriter), with no intermediate
// layout and one range check at the end where the result is not bounded
// by the operand. An operand onto [0, size), whose strides form one chain
// from 1 (TV layouts), is walked along the chain (followChain), unsorted:
// its right inverse, its left inverse (the same) and its complement.
// Each returns true, or declines (false, `out` unspecified) on anything
// the path after it in the table or the general construction decides: a
// fast result always equals the general one (tests/cute/FastPathTest.cpp
// compares them).
//
// Example: right_inverse(((4,8),(2,2)):((32,1),(16,8))): the modes are
// 4:32, 8:1, 2:16, 2:8 with the prefix products 1, 4, 32, 64; the chain of
// strides 1, 8, 16, 32 takes 8:1, 2:8, 2:16, 4:32 and gives
// (8,2,2,4):(4,64,32,1).
//
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_CUTE_FASTINVERSE_H
#define LAYOUTKIT_SRC_CUTE_FASTINVERSE_H

#include "layoutkit/core/Checked.h"
#include "layoutkit/cute/AlgebraGeneral.h"
#include "layoutkit/cute/Layout.h"

#include <bit>
#include <cstddef>
#include <cstring>

namespace lk::cute::fast {

using Node = IntTuple::Node;
constexpr int16_t kLeaf = IntTuple::kLeaf;

/// Most nodes of an operand these paths take: IntTuple's inline nodes,
/// which bound its modes (no check per mode).
constexpr int kMaxModes = int(IntTuple::kInlineNodes);

/// Coalesced modes s:d and, for the inverses, each mode's exclusive prefix
/// product p (the size of the leaves before it); one slot more for the
/// chain search's sentinel and the complement's last mode.
/// N: most modes (PairRun: a flat pair's, whose loops GCC then unrolls).
/// cosize: 1 + sum (s-1)*d over the leaves (which coalescing keeps), in
/// wrapping arithmetic, where runOf is asked for it (a hint only: each
/// term is s*d - d from the reach runOf computes anyway, INT64_MIN - d
/// where s*d overflows).
template <int N> struct RunOf {
  int n = 0;
  uint64_t cosize = 1;
  int64_t s[N + 1], d[N + 1], p[N + 1];
};
using Run = RunOf<kMaxModes>;
using PairRun = RunOf<2>;

/// The coalesced modes of `l` in one pass over its nodes, as CuTe's
/// coalesce builds them: size-1 leaves are dropped (with `zeroAsOne` also
/// the leaves of stride 0, as complement drops them), and the leaf s1:d1
/// merges into the mode before it when that mode's s0*d0 (its reach)
/// equals d1. A reach that overflows is INT64_MIN, which no stride is.
/// With `sorted` each new mode is inserted after the modes of smaller or
/// equal stride (a stable insertion sort as the modes come; a merge keeps
/// a mode's stride and so its place).
/// False on a basis stride, more than `maxNodes` nodes, or no leaf at all.
/// A tuple of at most maxNodes nodes has at most maxNodes - 1 modes.
/// Example: ((2,(2,2)),4):((1,(2,4)),8) -> [32:1].
/// With `cosize` also m.cosize. Without `merge` no leaf merges: the kept
/// leaves are the modes (for complement, whose result does not depend on
/// it; complementOfModes), and no reach is computed.
template <bool zeroAsOne, bool prefix, bool sorted = false,
          int maxNodes = kMaxModes, bool cosize = false, bool merge = true>
[[gnu::always_inline]] inline bool runOf(const Layout &l, Run &m) {
  const Node *s = l.shape().nodes(), *d = l.stride().nodes();
  const int e = s->span;
  if (e > maxNodes)
    return false;
  if (e < 1) // a node spans itself
    __builtin_unreachable();
  ptrdiff_t n = 0, last = 0; // last: where the latest mode is (64-bit:
                             // no sign extension per index)
  int64_t reach = INT64_MIN, size = 1;
  uint32_t basis = 0;
  uint64_t cos = 1;
  // Unrolled four times: 2-13 instructions less on nested operands than
  // twice (eight times: more).
#pragma GCC unroll 4
  for (int k = 0; k < e; ++k) {
    if (s[k].rank != kLeaf)
      continue;
    const int64_t sv = s[k].value, dv = d[k].value;
    basis |= d[k].basis;
    if (merge && dv == reach) {         // a size-1 leaf merges as a factor 1
      m.s[sorted ? last : n - 1] *= sv; // shapes multiply to at most size(l)
    } else {
      // Dropped (a stride-0 leaf never meets reach: a kept mode's s*d != 0).
      if (sv == 1 || (zeroAsOne && dv == 0))
        continue;
      ptrdiff_t j = n;
      if (sorted) {
#pragma GCC unroll 1
        for (; j > 0; --j) {
          if (!(dv < m.d[j - 1]))
            break;
          m.s[j] = m.s[j - 1];
          m.d[j] = m.d[j - 1];
          if (prefix)
            m.p[j] = m.p[j - 1];
        }
        last = j;
      }
      m.s[j] = sv;
      m.d[j] = dv;
      if (prefix)
        m.p[j] = size;
      ++n;
    }
    if (prefix)
      size *= sv; // at most size(l)
    if ((merge || cosize) && mulOverflows(sv, dv, reach))
      reach = INT64_MIN;
    if (cosize) // (s-1)*d = s*d - d (a dropped leaf's is 0)
      cos += uint64_t(reach) - uint64_t(dv);
  }
  m.n = int(n);
  if (cosize)
    m.cosize = cos;
  if (basis != 0)
    return false;
  if (n == 0) // only size-1 leaves, or none
    for (int k = 0; k < e; ++k)
      if (s[k].rank == kLeaf)
        return true;
  return n > 0;
}

/// The second word of a node (rank, span and basis) as one integer.
[[gnu::always_inline]] inline uint64_t headerWord(const Node &n) {
  uint64_t h;
  std::memcpy(&h, reinterpret_cast<const char *>(&n) + sizeof(int64_t),
              sizeof h);
  return h;
}

/// Whether `l` is a flat pair (a,b):(x,y) of integer leaves: its root is
/// a rank-2 tuple of 3 nodes and its strides have no basis.
[[gnu::always_inline]] inline bool isFlatPair(const Layout &l);

/// runOf for a flat pair (a,b):(x,y), without the loop: a:x is kept
/// unless a == 1 (or x == 0 with `zeroAsOne`); b:y merges into it when
/// y == a*x, else is kept on the same terms; the prefixes are 1 and a.
/// With `sorted` two modes are ordered by stride (stably).
template <bool zeroAsOne, bool prefix, bool sorted = false>
[[gnu::always_inline]] inline void pairOf(const Layout &l, PairRun &m) {
  const Node *s = l.shape().nodes(), *d = l.stride().nodes();
  const int64_t a = s[1].value, x = d[1].value, b = s[2].value, y = d[2].value;
  int n = 0;
  int64_t reach = INT64_MIN; // no stride is INT64_MIN
  if (a != 1 && !(zeroAsOne && x == 0)) {
    m.s[0] = a;
    m.d[0] = x;
    m.p[0] = 1;
    n = 1;
    if (mulOverflows(a, x, reach))
      reach = INT64_MIN;
  }
  if (y == reach) {
    m.s[0] *= b; // at most size(l)
  } else if (b != 1 && !(zeroAsOne && y == 0)) {
    m.s[n] = b;
    m.d[n] = y;
    m.p[n] = a;
    if (sorted && n == 1 && y < x) {
      std::swap(m.s[0], m.s[1]);
      std::swap(m.d[0], m.d[1]);
      std::swap(m.p[0], m.p[1]);
    }
    ++n;
  }
  m.n = int(n);
}

/// A node as its two 8-byte words: written as two stores (GCC writes a
/// Node's rank, span and basis as three).
struct RawNode {
  int64_t value;
  uint64_t header;
};
static_assert(sizeof(RawNode) == sizeof(Node));
/// The second word of a node of this rank, span and basis, as Node lays
/// them out (a copy the compiler folds into a constant; no std::bit_cast,
/// which the wasm toolchain's library lacks).
[[gnu::always_inline]] inline uint64_t headerOf(int16_t rank, uint16_t span,
                                                uint32_t basis) {
  const Node n{0, rank, span, basis};
  RawNode r;
  std::memcpy(&r, &n, sizeof r);
  return r.header;
}

[[gnu::always_inline]] inline bool isFlatPair(const Layout &l) {
  const Node *s = l.shape().nodes(), *d = l.stride().nodes();
  return headerWord(s[0]) == headerOf(2, 3, 0) &&
         headerWord(d[1]) == headerOf(kLeaf, 1, 0) &&
         headerWord(d[2]) == headerOf(kLeaf, 1, 0);
}

[[gnu::always_inline]] inline void put(Node *at, int64_t value,
                                       uint64_t header) {
  const RawNode r{value, header};
  std::memcpy(static_cast<void *>(at), &r, sizeof r);
}

/// The result's modes written straight into the node storage of `out` as
/// they come, mode i at node i+1 under a root written last, with the
/// count (finish): no array holds them in between, no capacity test runs,
/// and `out` keeps its old first node (and so stays valid) until finish.
/// @pre at most kMaxModes - 1 modes (the root takes a node)
struct ModeWriter {
  Node *s, *d;
  ptrdiff_t k = 0; // 64-bit: no sign extension per index
  [[gnu::always_inline]] explicit ModeWriter(Layout &out) {
    out.nodeStorage(s, d); // the count is set by finish
  }
  [[gnu::always_inline]] void add(int64_t sv, int64_t dv) {
    // The @pre, which GCC cannot see (it warns of a write past the nodes).
    if (k >= kMaxModes - 1)
      __builtin_unreachable();
    put(s + 1 + k, sv, headerOf(kLeaf, 1, 0));
    put(d + 1 + k, dv, headerOf(kLeaf, 1, 0));
    ++k;
  }
  /// The shape of the latest mode (for a merge). @pre k > 0
  [[gnu::always_inline]] int64_t &lastShape() { return s[k].value; }
  /// Closes the result: 1:0 for no mode, the mode for one, else the flat
  /// tuple of the modes.
  [[gnu::always_inline]] void finish(Layout &out) {
    Node *ns, *nd;
    if (k <= 1) {
      put(s, k == 0 ? 1 : s[1].value, headerOf(kLeaf, 1, 0));
      put(d, k == 0 ? 0 : d[1].value, headerOf(kLeaf, 1, 0));
      out.inlineNodesForOverwrite(1, ns, nd);
      return;
    }
    // The header of rank k, span k+1: the fields lie apart, so it is
    // linear in k (k < kMaxModes: no field overflows into the next).
    const uint64_t root = headerOf(0, 1, 0) +
                          uint64_t(k) * (headerOf(1, 2, 0) - headerOf(0, 1, 0));
    put(s, 0, root);
    put(d, 0, root);
    out.inlineNodesForOverwrite(size_t(k) + 1, ns, nd);
  }
  /// add(sv, dv), then finish: a first mode is written as the whole result
  /// straight away (finish would move it there).
  [[gnu::always_inline]] void finishWith(int64_t sv, int64_t dv, Layout &out) {
    if (k == 0) {
      Node *ns, *nd;
      put(s, sv, headerOf(kLeaf, 1, 0));
      put(d, dv, headerOf(kLeaf, 1, 0));
      out.inlineNodesForOverwrite(1, ns, nd);
      return;
    }
    add(sv, dv);
    finish(out);
  }
};

/// Sorts the first m.n modes by ascending stride, stably (insertion sort:
/// linear when sorted, a mode in place read once), moving the prefix products
/// along when `prefix`; complement's sort (runOf<sorted> measured 4-5
/// instructions more there). Not unrolled: GCC unrolls the loops up to
/// kMaxModes, whose setup costs more than the few modes of an operand.
template <bool prefix, class R>
[[gnu::always_inline]] inline void sortRun(R &m) {
#pragma GCC unroll 1
  for (int i = 1; i < m.n; ++i) {
    const int64_t kd = m.d[i];
    if (!(kd < m.d[i - 1])) // in place
      continue;
    const int64_t ks = m.s[i], kp = prefix ? m.p[i] : 0;
    int j = i;
#pragma GCC unroll 1
    do { // mode j-1 moves up
      m.s[j] = m.s[j - 1];
      m.d[j] = m.d[j - 1];
      if (prefix)
        m.p[j] = m.p[j - 1];
      --j;
    } while (j > 0 && kd < m.d[j - 1]);
    m.s[j] = ks;
    m.d[j] = kd;
    if (prefix)
      m.p[j] = kp;
  }
}

/// coalesce(l) = its coalesced modes (as runOf collects them, written
/// straight into `out`), 1:0 when none is left; false as runOf.
/// Stored without a range check: dropping size-1 modes and merging keep
/// the size and every term of the cosize ((s0*s1-1)|d0| = (s0-1)|d0| +
/// (s1-1)|s0*d0|).
/// Example: ((4,8,4),(2,2,8)):((128,1,16),(64,8,512)) = (4,8,8,2,8):
/// (128,1,16,8,512).
[[gnu::always_inline]] inline bool coalesceRun(const Layout &l, Layout &out) {
  // runOf's pass, each mode written into `out` once the next one starts
  // (at most kMaxModes - 1 of a tuple's leaves); the latest, which merges
  // take, stays in ps:pd (ps == 0: none yet).
  const Node *s = l.shape().nodes(), *d = l.stride().nodes();
  const int e = s->span;
  if (e > kMaxModes)
    return false;
  if (e < 1) // a node spans itself
    __builtin_unreachable();
  ModeWriter w(out);
  int64_t reach = INT64_MIN, ps = 0, pd = 0;
  uint32_t basis = 0;
#pragma GCC unroll 4 // as runOf's loop: 11-12 instructions less than twice
  for (int k = 0; k < e; ++k) {
    if (s[k].rank != kLeaf)
      continue;
    const int64_t sv = s[k].value, dv = d[k].value;
    basis |= d[k].basis;
    if (dv == reach) { // a size-1 leaf merges as a factor 1, reach kept
      ps *= sv;        // shapes multiply to at most size(l)
    } else {
      if (sv == 1) // dropped
        continue;
      if (ps != 0)
        w.add(ps, pd);
      ps = sv;
      pd = dv;
    }
    if (mulOverflows(sv, dv, reach))
      reach = INT64_MIN;
  }
  if (basis != 0)
    return false;
  if (ps != 0) {
    w.finishWith(ps, pd, out);
    return true;
  }
  for (int k = 0; k < e; ++k) // only size-1 leaves: 1:0; no leaf declines
    if (s[k].rank == kLeaf) {
      w.finish(out);
      return true;
    }
  return false;
}

/// Whether two of the modes have the same stride on the chain 1, s_j0,
/// s_j0*s_j1, ... that took k modes, of shapes shape(0), ..., shape(k-1)
/// (the search took the first; CuTe's sort decides which): more than k
/// modes have a stride on it.
template <class R, class Shape>
[[gnu::always_inline]] inline bool sharesChainStride(const R &m, int k,
                                                     Shape shape) {
  int onChain = 0;
#pragma GCC unroll 1
  for (int i = 0; i < m.n; ++i) {
    int64_t c = 1; // at most size(l)
#pragma GCC unroll 1
    for (int t = 0; t < k; c *= shape(t++))
      if (m.d[i] == c) {
        ++onChain;
        break;
      }
  }
  return onChain > k;
}

/// right_inverse(l), CuTe's walk over the coalesced modes in ascending
/// stride order, keeping a mode when its stride is the extent covered so
/// far (curr, from 1) as shape:prefix. A kept mode has s >= 2 and d ==
/// curr >= 1, so curr = the product of the kept shapes grows strictly and
/// the walk is a chain: from curr, the mode of stride curr, if any. The
/// chain is followed directly (a search per step, no sort); where two
/// modes share a stride on the chain, the first in CuTe's (unstable)
/// exchange sort is kept, and this declines to the path that sorts as
/// CuTe does. No two kept modes merge: s_i:p_i, s_j:p_j with
/// p_i*s_i == p_j are neighbours j = i+1 in l, and kept one after the
/// other they have d_j = s_i*d_i, which coalesce(l) would have merged.
/// Stored without a range check: the size is at most size(l) and the
/// cosize 1 + sum (s_i-1)*p_i at most size(l) too (RightInverseModes).
/// Example: ((4,8),(2,2)):((32,1),(16,8)) = (8,2,2,4):(4,64,32,1).
/// The modes are written as the chain finds them (ModeWriter); a leaf
/// layout has at most one mode and a tuple at most kMaxModes - 1.
template <class R>
[[gnu::always_inline]] inline void followChain(R &m, ModeWriter &w) {
  const ptrdiff_t n = m.n;
  int64_t curr = 1; // grows strictly: no mode is found twice
  while (w.k < n) {
    m.d[n] = curr; // the sentinel ends the search
    ptrdiff_t j = 0;
    while (m.d[j] != curr)
      ++j;
    if (j == n)
      break;
    w.add(m.s[j], m.p[j]);
    curr *= m.s[j]; // the product of kept shapes, at most size(l)
  }
}

/// right_inverse(l) on its coalesced modes `m` (with prefixes): the chain
/// (followChain), or false where a mode it missed shares a stride on it.
template <class R>
[[gnu::always_inline]] inline bool rightInverseOfRun(R &m, Layout &out) {
  ModeWriter w(out);
  followChain(m, w);
  if (w.k < m.n &&
      sharesChainStride(m, w.k, [&](int t) { return w.s[1 + t].value; }))
    return false;
  w.finish(out);
  return true;
}

/// rightInverseOfRun on the coalesced modes of `l`.
[[gnu::always_inline]] inline bool rightInverseChain(const Layout &l,
                                                     Layout &out) {
  if (isFlatPair(l)) {
    PairRun m;
    pairOf</*zeroAsOne=*/false, /*prefix=*/true>(l, m);
    return rightInverseOfRun(m, out);
  }
  Run m;
  return runOf</*zeroAsOne=*/false, /*prefix=*/true>(l, m) &&
         rightInverseOfRun(m, out);
}

/// left_inverse(l) where its stride test vouches for it (each coalesced
/// mode, sorted by stride, positive and ending before the next starts:
/// s_k*d_k <= d_k+1, so no two strides are equal and any sort is CuTe's),
/// as CuTe decodes an offset in the mixed radix of the sorted strides:
/// modes (d_0:0, d_1/d_0:p_0, ..., d_m/d_m-1:p_m-1, s_m:p_m), each d_k+1
/// a multiple of d_k (else CuTe's divisibility error: declines), coalesced
/// as they are appended (d_0 == 1 drops the first; x:p, y:q merge when
/// x*p == q, as p_k, p_k+1 of modes apart in l can be). The size is
/// s_m*d_m and the cosize 1 + sum (x-1)*p (merging keeps it): both checked.
/// Where each d_k+1 is s_k*d_k (the strides one chain from d_0; from 1, l
/// is a bijection onto [0, size(l)) and this is its right inverse too) the
/// modes are d_0:0, then s_k:p_k, none merging (two that merged would be
/// neighbours in l that coalesce merged), and their terms (s_k-1)*p_k are
/// those of size(l)-1 = sum (s-1)*p over l's modes: no cosize to check.
/// Example: (2,3,2):(1,12,6): sorted 2:1, 2:6, 3:12 with the prefixes 1, 6,
/// 2; modes (1:0, 6:1, 2:6, 3:2) = (12,3):(1,2).
/// `m`: the coalesced modes, sorted by stride. Returns how it was served
/// (LeftInverseChain: one chain), or Path::General where it declines.
template <class R>
[[gnu::always_inline]] inline general::Path leftInverseOfRun(const R &m,
                                                             Layout &out) {
  using general::Path;
  if (m.n == 0)
    return Path::General;
  int64_t d = m.d[0];
  if (d <= 0) // the smallest stride
    return Path::General;
  ModeWriter w(out);
  if (d != 1)
    w.add(d, 0);
  // The chain: mode i-1 is s_i-1:p_i-1 while d_i is the extent of the
  // mode before (s_i-1*d_i-1, a stride there: only the last can overflow).
  // Any overflow declines at once (the size s_m*d_m is the last extent).
  int64_t extent;
  if (mulOverflows(m.s[0], d, extent))
    return Path::General;
  int i = 1;
  for (; i < m.n && m.d[i] == extent; ++i) {
    w.add(m.s[i - 1], m.p[i - 1]);
    if (mulOverflows(m.s[i], m.d[i], extent))
      return Path::General;
  }
  if (i == m.n) {
    w.finishWith(m.s[i - 1], m.p[i - 1], out);
    return Path::LeftInverseChain;
  }
  int64_t cosize = 1, t; // the chain's terms, of size(l)-1: no overflow
  for (int j = 0; j + 1 < i; ++j)
    cosize += (m.s[j] - 1) * m.p[j];
  // reach: x*p of the last mode appended (at most size(l) in the chain;
  // INT64_MIN for d_0:0, which nothing follows at stride 0).
  int64_t reach = i > 1 ? m.s[i - 2] * m.p[i - 2] : INT64_MIN;
  auto append = [&](int64_t x, int64_t p) {
    if (mulOverflows(x - 1, p, t) || addOverflows(cosize, t, cosize))
      return false;
    if (reach == p) {
      if (mulOverflows(w.lastShape(), x, w.lastShape()))
        return false;
    } else {
      w.add(x, p);
    }
    if (mulOverflows(x, p, reach)) // merged: the old reach p times x
      reach = INT64_MIN;
    return true;
  };
  d = m.d[i - 1];
  for (int j = i; j < m.n; ++j) {
    const int64_t covered = d;
    d = m.d[j];
    if (extent > d || d % covered != 0 ||
        !append(d / covered, m.p[j - 1]) || // >= s_j-1 >= 2
        mulOverflows(m.s[j], d, extent))
      return Path::General;
  }
  if (!append(m.s[m.n - 1], m.p[m.n - 1]))
    return Path::General;
  w.finish(out);
  return Path::LeftInverseModes;
}

/// left_inverse(l) on its coalesced modes; how it was served, or
/// Path::General where it declines. Where the modes (collected in l's
/// order) follow one chain of strides from 1 (followChain takes them all:
/// l onto [0, size(l)), which its cosize, size(l), hints), the chain's
/// modes s_j:p_j, as leftInverseOfRun writes them (its LeftInverseChain);
/// otherwise leftInverseOfRun on the modes sorted (a flat pair's sorted as
/// collected).
[[gnu::always_inline]] inline general::Path leftInverseSorted(const Layout &l,
                                                              Layout &out) {
  if (isFlatPair(l)) {
    PairRun m;
    pairOf</*zeroAsOne=*/false, /*prefix=*/true, /*sorted=*/true>(l, m);
    return leftInverseOfRun(m, out);
  }
  Run m;
  // At most n + 1 <= kMaxModes - 1 modes for ModeWriter.
  if (!runOf</*zeroAsOne=*/false, /*prefix=*/true, /*sorted=*/false,
             /*maxNodes=*/kMaxModes - 1, /*cosize=*/true>(l, m) ||
      m.n == 0)
    return general::Path::General;
  // A hint: l onto [0, size(l)) has the cosize size(l) = p_last*s_last.
  if (m.cosize == uint64_t(m.p[m.n - 1]) * uint64_t(m.s[m.n - 1])) {
    ModeWriter w(out);
    followChain(m, w);
    if (w.k == m.n) {
      w.finish(out);
      return general::Path::LeftInverseChain;
    }
  }
  sortRun</*prefix=*/true>(m);
  return leftInverseOfRun(m, out);
}

/// The complement's last shape for modes reaching `cur` (as restShapeOf in
/// FastPaths.cpp): prod ceilDiv(c_k, divisor_k), divisor_k+1 =
/// ceilDiv(divisor_k, c_k), divisor_0 = cur; one of the two quotients is 1
/// for every k. False on an overflow.
[[gnu::always_inline]] inline bool lastShape(int64_t cur, const int64_t *cot,
                                             int nc, int64_t &shape) {
  shape = 1;
  int64_t divisor = cur;
  for (int k = 0; k < nc; ++k) {
    const int64_t c = cot[k];
    if (c >= divisor) {
      if (mulOverflows(shape, divisor == 1 ? c : ceilDiv(c, divisor), shape))
        return false;
      divisor = 1;
    } else {
      divisor = ceilDiv(divisor, c);
    }
  }
  return true;
}

/// complementSorted on the coalesced modes `m` of nonzero stride, sorted
/// by stride, and the cotarget's leaves cot_k (k < nc).
template <class R>
[[gnu::always_inline]] inline bool
complementOfRun(const R &m, const int64_t *cot, int nc, Layout &out) {
  if (m.n == 0) {
    int64_t total = 1;
    for (int k = 0; k < nc; ++k)
      if (mulOverflows(total, cot[k], total))
        return false;
    ModeWriter w(out);
    if (total != 1)
      w.finishWith(total, 1, out);
    else
      w.finish(out);
    return true;
  }
  if (m.d[0] < 0)
    return false;
  ModeWriter w(out);
  if (m.d[0] != 1) // the first mode's shape is d_0 (cur = 1), d_0 > 0
    w.add(m.d[0], 1);
  int64_t cur;
  if (mulOverflows(m.d[0], m.s[0], cur))
    return false;
  for (int i = 1; i < m.n; ++i) {
    const int64_t shape = m.d[i] / cur;
    if (shape == 0)
      return false;
    if (shape != 1)
      w.add(shape, cur);
    if (mulOverflows(m.d[i], m.s[i], cur))
      return false;
  }
  int64_t rest, reach;
  if (!lastShape(cur, cot, nc, rest) || mulOverflows(rest, cur, reach))
    return false;
  if (rest != 1)
    w.finishWith(rest, cur, out);
  else
    w.finish(out);
  return true;
}

/// Whether the modes `m` (n > 0) lie on one chain of strides from 1 (the
/// search of followChain takes every one), with `size` the product of
/// their shapes (at most size(l)).
template <class R>
[[gnu::always_inline]] inline bool chainSize(R &m, int64_t &size) {
  int64_t curr = 1;
#pragma GCC unroll 1
  for (int k = 0; k < m.n; ++k) {
    m.d[m.n] = curr; // the sentinel ends the search
    ptrdiff_t j = 0;
    while (m.d[j] != curr)
      ++j;
    if (j == m.n)
      return false;
    curr *= m.s[j];
  }
  size = curr;
  return true;
}

/// complementOfRun on the coalesced modes of `l` of nonzero stride, or of a
/// tuple's kept leaves unmerged (runOf without `merge`: 5 instructions a
/// leaf less), which gives the same result: the leaves that coalesce
/// merges into s:d tile its span [d, s*d) (each starts where the one
/// before ends), so sorted among the other modes they give quotients 1
/// between them (no mode) and the same cur after the last, and a mode
/// overlaps another exactly where one of its leaves does (a quotient 0,
/// declined, both ways). The chain test (chainSize) is the same too: both
/// are l onto [0, size).
[[gnu::always_inline]] inline bool
complementOfModes(const Layout &l, const int64_t *cot, int nc, Layout &out) {
  if (isFlatPair(l)) {
    PairRun m;
    pairOf</*zeroAsOne=*/true, /*prefix=*/false, /*sorted=*/true>(l, m);
    return complementOfRun(m, cot, nc, out);
  }
  Run m; // at most n + 1 <= kMaxModes - 1 modes for ModeWriter
  if (!runOf</*zeroAsOne=*/true, /*prefix=*/false, /*sorted=*/false,
             /*maxNodes=*/kMaxModes - 1, /*cosize=*/false, /*merge=*/false>(l,
                                                                            m))
    return false;
  int64_t size;
  if (m.n > 0 && chainSize(m, size)) {
    // l onto [0, size) (its modes of nonzero stride): the sorted modes
    // are the chain, d_0 = 1 and each d_i = s_i-1*d_i-1, so every
    // quotient d_i/cur is 1 and complementOfRun leaves only
    // lastShape(size):size.
    int64_t rest, reach;
    if (!lastShape(size, cot, nc, rest) || mulOverflows(rest, size, reach))
      return false;
    ModeWriter w(out);
    if (rest != 1)
      w.finishWith(rest, size, out);
    else
      w.finish(out);
    return true;
  }
  sortRun</*prefix=*/false>(m);
  return complementOfRun(m, cot, nc, out);
}

/// complement(l, cotarget) as CuTe builds it on the coalesced modes of
/// nonzero stride (runOf drops stride 0), sorted stably by stride: from
/// cur = 1, mode i gives d_i/cur:cur (the first d_0:1), then cur =
/// s_i*d_i; a quotient 0 is the general path's error (declines); the last
/// mode is lastShape(cur):cur. Modes of size 1 are dropped, and no two
/// others merge (each reaches at most d_i < the next one's stride), so the
/// result is the modes left (1:0 for none). Negative strides decline.
/// Without modes (l compact at stride 0) the result is total:1, total =
/// the cotarget's product. The size and the cosize are at most
/// lastShape*cur (the terms telescope), which is checked.
/// Example: complement((2,4):(1,8), 64) = (4,2):(2,32).
[[gnu::always_inline]] inline bool
complementSorted(const Layout &l, const IntTuple &cotarget, Layout &out) {
  const Node *x = cotarget.nodes();
  if (x->rank == kLeaf) { // the usual cotarget: nc = 1 folds lastShape
    const int64_t c = x->value;
    return c >= 1 && x->basis == 0 && complementOfModes(l, &c, 1, out);
  }
  int64_t cot[kMaxModes];
  int nc = 0;
  for (int k = 0, e = x->span; k < e; ++k) {
    if (x[k].rank != kLeaf)
      continue;
    if (nc == kMaxModes || x[k].value < 1 || x[k].basis != 0)
      return false;
    cot[nc++] = x[k].value;
  }
  return complementOfModes(l, cot, nc, out);
}

} // namespace lk::cute::fast

#endif // LAYOUTKIT_SRC_CUTE_FASTINVERSE_H
