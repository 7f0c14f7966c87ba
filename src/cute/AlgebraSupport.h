//===- AlgebraSupport.h - Flat modes and the composer, shared --*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/cute: the pieces the general constructions share. Node
/// views (Ref: a layout's subtree read in place) and the node buffer
/// (Tree) their results are written into and checked once; flat modes (a
/// layout's leaves as shape:stride:basis) and CuTe's coalesce over them;
/// the Composer, which composes A with B leaf by leaf and checks that the
/// result is A o B; the by-mode tiler walk of the divides and products
/// and CuTe's regroupings of their results.
///
/// Example: flatModes of ((2,4),8):((1,2),8) is [2:1, 4:2, 8:8], which
/// coalescedModes turns into the single mode 64:1.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_CUTE_ALGEBRASUPPORT_H
#define LAYOUTKIT_SRC_CUTE_ALGEBRASUPPORT_H

#include "layoutkit/core/Checked.h"
#include "layoutkit/core/SmallVector.h"
#include "layoutkit/cute/Algebra.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

namespace lk::cute::detail {

using Node = IntTuple::Node;

/// A layout or one of its subtrees, read in place: the root nodes of its
/// shape and of its stride (congruent pre-order arrays). The general
/// constructions pass these instead of copying modes into layouts.
struct Ref {
  const Node *s = nullptr, *d = nullptr;
  Ref() = default;
  Ref(const Node *shape, const Node *stride) : s(shape), d(stride) {}
  Ref(const Layout &l) : s(l.shape().nodes()), d(l.stride().nodes()) {}
  size_t span() const { return s->span; }
  bool isLeaf() const { return s->rank == IntTuple::kLeaf; }
  /// Top-level modes; 1 for a leaf.
  size_t rank() const { return isLeaf() ? 1 : size_t(s->rank); }
  /// Mode 0 (a leaf is its own mode 0); next() steps to the next sibling.
  Ref first() const { return isLeaf() ? *this : Ref(s + 1, d + 1); }
  Ref next() const { return {s + s->span, d + d->span}; }
  bool hasBasis() const {
    for (size_t k = 0; k < span(); ++k)
      if (d[k].basis != 0)
        return true;
    return false;
  }
  /// A copy as a layout (for diagnostics and the rare checks that
  /// evaluate it).
  Layout layout() const {
    Layout l;
    l.assignNodes(s, d, span());
    return l;
  }
  std::string str() const { return layout().str(); }
};

/// r(i), the layout `r` at the 1-D index i (public evaluate's loop, on
/// nodes in place; defined in Evaluate.cpp): i split colexicographically over
/// the leaves in pre-order, the last leaf taking what is left. Example:
/// ((2,4),8):((1,2),8) at 13 = 1*1 + 2*2 + 1*8 = 13.
/// @pre integer strides, 0 <= i
int64_t evaluateAt(Ref r, int64_t i);

/// One pass over a layout's leaves: whether a stride is a basis stride,
/// its size, and its cosize 1 + sum (s-1)*|d| (`fits` false where that
/// overflows; meaningful only without basis strides).
struct Extent {
  bool basis = false, fits = true;
  int64_t size = 1, cosize = 1;
};
inline Extent extentOf(Ref r) {
  Extent e;
  Arith ar;
  for (size_t k = 0, n = r.span(); k < n; ++k) {
    if (r.s[k].rank != IntTuple::kLeaf)
      continue;
    e.basis |= r.d[k].basis != 0;
    e.size *= r.s[k].value; // a subtree of a valid layout: fits
    e.cosize =
        ar.add(e.cosize, ar.mul(r.s[k].value - 1, absValue(r.d[k].value)));
  }
  e.fits = ar.ok();
  return e;
}

/// Layout::cosize of `r` without a copy (the same diagnostics).
inline Expected<int64_t> cosizeOf(Ref r) {
  Arith ar;
  int64_t hi = 0;
  for (size_t k = 0; k < r.span(); ++k) {
    if (r.d[k].basis != 0)
      return r.layout().cosize();
    if (r.s[k].rank == IntTuple::kLeaf)
      hi = ar.add(hi, ar.mul(r.s[k].value - 1, absValue(r.d[k].value)));
  }
  hi = ar.add(hi, 1);
  if (!ar.ok())
    return r.layout().cosize();
  return hi;
}

/// IntTuple::Builder's diagnostic for a result past the representable size,
/// its own text (a builder holding one tuple of kMaxRank leaves reports it).
/// Only for results that failed: the builder takes kMaxRank nodes.
inline Diagnostic tooLargeDiagnostic() {
  IntTuple::Builder b;
  b.open();
  for (int16_t k = 0; k < IntTuple::kMaxRank; ++k)
    b.leaf(1);
  b.close();
  return b.check().error();
}

/// Shape and stride nodes written side by side in pre-order, readable
/// while written: the one buffer a general construction writes its
/// intermediate and final results into. check() applies the checks of
/// Layout::fromBuilders once, on the nodes (with its diagnostics, built
/// only on failure); build() then copies the nodes into the result.
class Tree {
public:
  void open() {
    bump();
    stack_.push_back(uint32_t(s_.size()));
    Node *s, *d;
    grow(1, s, d);
    *s = *d = Node{0, 0, 1, 0};
  }
  void close() {
    const uint32_t at = stack_.back();
    stack_.pop_back();
    const size_t span = s_.size() - at;
    if (span > IntTuple::kMaxNodes)
      overflowAt(at);
    s_[at].span = d_[at].span = uint16_t(span);
  }
  void leaf(int64_t shape, int64_t stride, uint32_t basis = 0) {
    bump();
    Node *s, *d;
    grow(1, s, d);
    *s = Node{shape, IntTuple::kLeaf, 1, 0};
    *d = Node{stride, IntTuple::kLeaf, 1, basis};
  }
  /// Appends `r` as the next child.
  void subtree(Ref r) {
    bump();
    const size_t c = r.span();
    Node *s, *d;
    grow(c, s, d);
    if (c <= 8) { // a call to memcpy costs more than a short copy
      for (size_t k = 0; k < c; ++k) {
        s[k] = r.s[k];
        d[k] = r.d[k];
      }
    } else {
      std::memcpy(s, r.s, c * sizeof(Node));
      std::memcpy(d, r.d, c * sizeof(Node));
    }
  }
  size_t count() const { return s_.size(); }
  /// The subtree written at node k. @pre it is closed
  Ref at(size_t k) const { return {s_.data() + k, d_.data() + k}; }
  /// Layout::fromBuilders' checks on the nodes from k on (the last subtree
  /// written, or all): representable, size and cosize within int64.
  /// With `sizeOnly`, only the representable size.
  Status check(size_t k = 0, bool sizeOnly = false) const {
    const size_t n = count() - k;
    size_t leaves = 0;
    if (n > size_t(IntTuple::kMaxRank)) // fewer nodes bound the leaves
      for (size_t i = k; i < k + n; ++i)
        leaves += s_[i].rank == IntTuple::kLeaf;
    if (overflow_ >= int64_t(k) || n > IntTuple::kMaxNodes ||
        leaves > size_t(IntTuple::kMaxRank))
      return tooLargeDiagnostic();
    if (sizeOnly)
      return Ok{};
    int64_t size = 1, reach = 1, term;
    bool bad = false;
    for (size_t i = k; i < k + n; ++i) {
      if (s_[i].rank != IntTuple::kLeaf)
        continue;
      const int64_t sv = s_[i].value, dv = d_[i].value;
      bad |= dv == std::numeric_limits<int64_t>::min() ||
             mulOverflows(size, sv, size) ||
             mulOverflows(sv - 1, absValue(dv), term) ||
             addOverflows(reach, term, reach);
      if (bad)
        break;
    }
    if (bad) {
      // The layout's own diagnostic (its text, which check failed).
      IntTuple::Builder bs, bd;
      bs.subtree(s_.data() + k);
      bd.subtree(d_.data() + k);
      return Layout::fromBuilders(bs, bd).error();
    }
    return Ok{};
  }
  /// The layout of all nodes, after check() (only its representable size
  /// when `rangeChecked`: the leaves are those of a layout checked
  /// before); one object returned, built in the caller's slot.
  Expected<Layout> build(bool rangeChecked = false) const {
    Expected<Layout> r{std::in_place};
    if (Status ok = check(0, rangeChecked); !ok) {
      r = std::move(ok).error();
      return r;
    }
    Node *s, *d;
    r->nodesForOverwrite(count(), s, d);
    std::memcpy(s, s_.data(), count() * sizeof(Node));
    std::memcpy(d, d_.data(), count() * sizeof(Node));
    return r;
  }

private:
  /// Room for c more nodes at the end; s and d point at them.
  void grow(size_t c, Node *&s, Node *&d) {
    const size_t n = s_.size();
    s = s_.resizeForOverwrite(n + c) + n;
    d = d_.resizeForOverwrite(n + c) + n;
  }
  /// Counts a new child of the innermost open tuple.
  void bump() {
    if (stack_.empty())
      return;
    const uint32_t at = stack_.back();
    if (++s_[at].rank == IntTuple::kMaxRank)
      overflowAt(at);
    d_[at].rank = s_[at].rank;
  }
  /// The tuple at node `at` has too many modes or nodes; the subtrees
  /// holding it are not representable.
  void overflowAt(size_t at) { overflow_ = std::max(overflow_, int64_t(at)); }
  SmallVector<Node, 32> s_, d_;
  SmallVector<uint32_t, 8> stack_;
  int64_t overflow_ = -1; // the last tuple node that overflowed
};

/// One flattened mode of a layout.
struct Mode {
  int64_t shape;
  int64_t stride;
  uint32_t basis;
};
using Modes = SmallVector<Mode, 16>;

inline Modes flatModes(Ref l) {
  Modes out;
  Mode *o = out.resizeForOverwrite(l.span()); // at most one per node
  size_t m = 0;
  for (size_t k = 0, n = l.span(); k < n; ++k)
    if (l.s[k].rank == IntTuple::kLeaf)
      o[m++] = Mode{l.s[k].value, l.d[k].value, l.d[k].basis};
  out.truncate(m);
  return out;
}

/// Writes flat modes: one leaf when `unwrapSingle` and there is one mode
/// (CuTe's unwrap / integral results), else a flat tuple.
inline void emitModes(const Modes &modes, bool unwrapSingle, Tree &out) {
  bool tuple = !(unwrapSingle && modes.size() == 1);
  if (tuple)
    out.open();
  for (const Mode &m : modes)
    out.leaf(m.shape, m.stride, m.basis);
  if (tuple)
    out.close();
}

/// A flat layout from modes (see emitModes), written in place into the
/// result after the checks of Layout::fromBuilders on the modes; where one
/// fails, the Tree writes the layout and reports it (the same diagnostic).
inline Expected<Layout> fromModes(const Modes &modes, bool unwrapSingle) {
  const size_t m = modes.size();
  const bool tuple = !(unwrapSingle && m == 1);
  Expected<Layout> r{std::in_place};
  bool fits = m < size_t(IntTuple::kMaxRank);
  int64_t size = 1, reach = 1, term;
  for (const Mode &x : modes)
    fits = fits && x.stride != std::numeric_limits<int64_t>::min() &&
           !mulOverflows(size, x.shape, size) &&
           !mulOverflows(x.shape - 1, absValue(x.stride), term) &&
           !addOverflows(reach, term, reach);
  if (!fits) {
    Tree out;
    emitModes(modes, unwrapSingle, out);
    r = out.build();
    return r;
  }
  Node *s, *d;
  r->nodesForOverwrite(m + (tuple ? 1 : 0), s, d);
  if (tuple) {
    *s++ = *d++ = Node{0, int16_t(m), uint16_t(m + 1), 0};
  }
  for (const Mode &x : modes) {
    *s++ = Node{x.shape, IntTuple::kLeaf, 1, 0};
    *d++ = Node{x.stride, IntTuple::kLeaf, 1, x.basis};
  }
  return r;
}

/// "shape:stride" of flat modes, for diagnostics.
inline std::string modesText(const Modes &modes, bool unwrapSingle) {
  bool tuple = !(unwrapSingle && modes.size() == 1);
  std::string shape = tuple ? "(" : "", stride = tuple ? "(" : "";
  for (size_t i = 0; i < modes.size(); ++i) {
    shape += (i ? "," : "") + std::to_string(modes[i].shape);
    stride += (i ? "," : "") + std::to_string(modes[i].stride) +
              BasisPath::fromRaw(modes[i].basis).str();
  }
  return shape + (tuple ? ")" : "") + ":" + stride + (tuple ? ")" : "");
}

inline Diagnostic opError(const char *op, std::string message) {
  return Diagnostic::error(std::string(op) + ": " + message);
}

/// A fault of the operation `op` called, found in a step it is made of:
/// `op` before the step's message ("zipped_product: logical_product: ..."),
/// so that a message names the operation the user called.
[[gnu::cold]] inline Diagnostic inOperation(const char *op, Diagnostic d) {
  d.message = std::string(op) + ": " + d.message;
  return d;
}

inline std::string modeStr(const Mode &m) {
  return std::to_string(m.shape) + ":" + std::to_string(m.stride) +
         BasisPath::fromRaw(m.basis).str();
}

/// CuTe's backward coalesce over flat modes. With `keepLastExtent`, a trailing
/// size-1 mode still contributes its stride (CuTe's coalesce_x: the function is
/// preserved outside the domain too, which composition relies on). That
/// stand-in extent 2 can carry a merged extent past int64 (a layout of size
/// 2^62 or more); it saturates at INT64_MAX, as composition reads the
/// extent of every mode but the last.
/// The coalesced modes; `integral` tells whether CuTe's result is an integer
/// layout (a single mode never prepended to). The trivial result 1:0 comes
/// back as one mode 1:0.
inline Modes coalescedModes(const Modes &modes, bool keepLastExtent,
                            bool &integral) {
  size_t r = modes.size();
  Modes out;
  integral = true;
  if (r == 0) { // the empty layout (), like 1:0
    out.push_back(Mode{1, 0, 0});
    return out;
  }
  // Built back to front into the end of r slots, [at, r), then moved to
  // the front.
  Mode *o = out.resizeForOverwrite(r);
  size_t at = r - 1;
  o[at] = modes[r - 1];
  if (keepLastExtent && o[at].shape == 1)
    o[at].shape = 2;
  for (size_t k = r - 1; k-- > 0;) {
    const Mode &m = modes[k];
    Mode &f = o[at];
    if (m.shape == 1)
      continue;
    if (integral && f.shape == 1) {
      f = m;
      continue;
    }
    int64_t reach;
    if (!mulOverflows(m.shape, m.stride, reach) && reach == f.stride &&
        (m.basis == f.basis || f.stride == 0)) {
      if (mulOverflows(m.shape, f.shape, f.shape)) // only past the stand-in
        f.shape = INT64_MAX;
      f.stride = m.stride;
      f.basis = m.basis;
      continue;
    }
    o[--at] = m;
    integral = false;
  }
  const size_t n = r - at;
  for (size_t i = 0; at != 0 && i < n; ++i)
    o[i] = o[at + i];
  out.truncate(n);
  if (integral && o[0].shape == 1)
    o[0] = Mode{1, 0, 0};
  return out;
}

inline Expected<Layout> coalesceModes(const Modes &modes, bool keepLastExtent) {
  bool integral;
  Modes out = coalescedModes(modes, keepLastExtent, integral);
  return fromModes(out, integral);
}

/// Modes of filter(l): broadcast leaves dropped, then coalesced.
inline Modes filteredModes(Ref l, bool &integral) {
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
  Ref a;            // for diagnostics only; null when A is given by its
                    // coalesced modes alone

  std::string describeA() const {
    std::string coalesced = modesText(lhs, lhsIntegral);
    return a.s ? "A = " + a.str() + ", coalesced: " + coalesced
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

  /// Composes A with B's subtree `b` and appends the result (a leaf, or a
  /// tuple following B's structure) to `out`.
  Status compose(Ref b, Tree &out) const {
    if (!b.isLeaf()) {
      out.open();
      Ref m = b.first();
      for (int k = 0; k < b.s->rank; ++k, m = m.next())
        LK_CHECK(compose(m, out));
      out.close();
      return Ok{};
    }
    if (b.d->basis != 0)
      return opError(
          "composition",
          "B's stride " +
              IntTuple::leaf(b.d->value, BasisPath::fromRaw(b.d->basis)).str() +
              " is a basis stride; B must have "
              "integer strides");
    return composeLeaf(b.s->value, b.d->value, out);
  }

  /// Composes A with the single mode s:d of B.
  Status composeLeaf(int64_t s, int64_t d, Tree &out) const {
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
      out.leaf(s, 0);
      return Ok{};
    }
    Arith ar;
    if (lhsIntegral) {
      out.leaf(s, ar.mul(d, lhs[0].stride), lhs[0].basis);
      if (!ar.ok())
        return Arith::diagnostic("composition");
      return Ok{};
    }
    size_t r = lhs.size();
    Modes modes; // at most one per mode of A
    Mode *result = modes.resizeForOverwrite(r);
    size_t n = 0;
    int64_t restShape = s;
    int64_t restStride = d;
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
      result[n++] = Mode{newShape, ar.mul(restStride, cd), lhs[i].basis};
      reach[i] = ar.add(reach[i], ar.mul(newShape - 1, absStride));
      restShape /= newShape;
      restStride = nextStride;
    }
    const Mode &last = lhs[r - 1];
    if (n == 0 || restShape != 1)
      result[n++] =
          Mode{restShape, ar.mul(restStride, last.stride), last.basis};
    if (!ar.ok())
      return Arith::diagnostic("composition");
    modes.truncate(n);
    emitModes(modes, /*unwrapSingle=*/true, out);
    return Ok{};
  }
};

inline Composer makeComposer(Ref a, const Modes &flat) {
  Composer c;
  c.lhs = coalescedModes(flat, /*keepLastExtent=*/true, c.lhsIntegral);
  c.a = a;
  c.reach.resize(c.lhs.size(), 0);
  return c;
}

inline Status requireIntegerStrides(const char *op, Ref l) {
  if (l.hasBasis())
    return opError(op, "layout " + l.str() +
                           " has basis strides; this operation needs "
                           "integer strides");
  return Ok{};
}

/// Appends the modes a by-mode tiler makes of `a` to `out`: `_` keeps a
/// mode, a layout tiler calls `apply(mode, tiler, out)`, a tuple tiler
/// recurses; modes of `a` past the tiler are kept (dropped unless
/// `keepRest`). The modes are read in place.
template <class Apply>
inline Status byModeInto(const char *op, Ref a, const Tiler &t, bool keepRest,
                         Tree &out, Apply apply) {
  switch (t.kind) {
  case Tiler::Kind::Keep:
    out.subtree(a);
    return Ok{};
  case Tiler::Kind::Layout:
    return apply(a, t, out);
  case Tiler::Kind::Tuple:
    break;
  }
  if (t.modes.size() > a.rank())
    return opError(op, "the tiler has " + std::to_string(t.modes.size()) +
                           " modes but the layout " + a.str() + " has only " +
                           std::to_string(a.rank()));
  out.open();
  size_t last = keepRest ? a.rank() : t.modes.size();
  Ref mode = a.first(); // an integer layout is its own mode 0
  for (size_t i = 0; i < last; ++i, mode = mode.next()) {
    if (i < t.modes.size()) {
      LK_CHECK(byModeInto(op, mode, t.modes[i], keepRest, out, apply));
    } else {
      out.subtree(mode);
    }
  }
  out.close();
  return Ok{};
}

/// The result of byModeInto, checked once (Tree::check: its size and
/// cosize fit in int64).
template <class Apply>
inline Expected<Layout> byModeResult(const char *op, const Layout &a,
                                     const Tiler &t, bool keepRest,
                                     Apply apply) {
  if (t.kind == Tiler::Kind::Keep)
    return a;
  Tree out;
  LK_CHECK(byModeInto(op, a, t, keepRest, out, apply));
  return out.build();
}

/// How the divides and products gather the rank-2 (tile, rest) modes of a
/// by-mode result (CuTe's zip2_by, then tiled / flat unpacking).
enum class Regroup {
  Zipped, ///< ((tiles...), (rests..., other modes...))
  Tiled,  ///< ((tiles...), rest0, rest1, ..., other modes...)
  Flat,   ///< (tile0, tile1, ..., rest0, rest1, ..., other modes...)
};

/// The regroupings of Regroup on node arrays: shape and stride are
/// congruent, so one walk over node indices writes both, straight into the
/// result's storage, and no intermediate layout or tuple is built. A tiler
/// mode that is not a tuple takes the (tile, rest) pair of its mode; a
/// tuple tiler mode recurses into the mode's children (the modes past the
/// tiler's rank go with the rests). Unpacking a part writes its modes
/// instead of the part when it has more than one (CuTe: a rank-1 mode
/// stays whole).
class Regrouper {
public:
  using Node = IntTuple::Node;
  /// Reads `l`; writes into `s` and `d`, which hold at least
  /// nodeBound(l, t) nodes.
  Regrouper(Ref l, Node *s, Node *d) : in_(l.s), ind_(l.d), s_(s), d_(d) {}

  /// An upper bound on the nodes written for tiler `t`: the input's, and
  /// two wrapping tuples per tuple level of the tiler, and the root.
  static size_t nodeBound(Ref l, const Tiler &t) {
    return l.span() + 2 * tupleLevels(t) + 1;
  }
  /// The modes below node k fit tiler mode t (the checks of CuTe's zip2_by).
  /// Node k, under tiler mode t, is no (tile, rest) pair.
  Diagnostic notPair(const char *op, size_t k, const Tiler &t) const {
    return opError(op, "expected a rank-2 (tile, rest) mode but found " +
                           text(k) +
                           (t.kind == Tiler::Kind::Keep
                                ? " (the tiler's `_` keeps that mode whole: "
                                  "a grouping needs a tile there)"
                                : ""));
  }
  Status check(const char *op, size_t k, const Tiler &t) const {
    if (t.kind != Tiler::Kind::Tuple) {
      if (rank(k) != 2)
        return notPair(op, k, t);
      return Ok{};
    }
    if (rank(k) < t.modes.size())
      return opError(op, "layout " + text(k) +
                             " has fewer modes than the tiler " + t.str());
    for (size_t j = 0; j < t.modes.size(); ++j)
      LK_CHECK(check(op, child(k, j), t.modes[j]));
    return Ok{};
  }
  /// The tiles of node k under t, as one part (a tuple for a tuple tiler).
  void tiles(size_t k, const Tiler &t, bool unpack) {
    if (t.kind != Tiler::Kind::Tuple)
      return copy(child(k, 0), unpack);
    const bool wrap = !(unpack && t.modes.size() > 1);
    if (wrap)
      open();
    for (size_t j = 0; j < t.modes.size(); ++j)
      tiles(child(k, j), t.modes[j], false);
    if (wrap)
      close();
  }
  /// The rests of node k under t, then its modes past the tiler's rank.
  void rests(size_t k, const Tiler &t, bool unpack) {
    if (t.kind != Tiler::Kind::Tuple)
      return copy(child(k, 1), unpack);
    const bool wrap = !(unpack && rank(k) > 1);
    if (wrap)
      open();
    for (size_t j = 0, c = k + 1; j < rank(k); ++j, c += in_[c].span) {
      if (j < t.modes.size())
        rests(c, t.modes[j], false);
      else
        copy(c, false);
    }
    if (wrap)
      close();
  }
  /// check, tiles and rests at the root in one pass for a tuple tiler of
  /// layouts and `_` (a tile per mode, no nesting): mode j < r of the
  /// input is (tile_j, rest_j), modes past r go with the rests. The same
  /// checks in the same order, and the same nodes.
  Status flat(const char *op, const Tiler &t, Regroup how) {
    const size_t r = t.modes.size(), rk = rank(0);
    if (rk < r)
      return opError(op, "layout " + text(0) +
                             " has fewer modes than the tiler " + t.str());
    for (size_t j = 0, c = 1; j < r; ++j, c += in_[c].span)
      if (rank(c) != 2)
        return notPair(op, c, t.modes[j]);
    // Every node's place is known: the root, the tiles' tuple (unless
    // unpacked), the tiles, the rests' tuple (unless unpacked), the rests
    // and the modes past r.
    const bool wrapTiles = !(how == Regroup::Flat && r > 1);
    const bool wrapRests = !(how != Regroup::Zipped && rk > 1);
    size_t n = 1;
    const size_t tilesAt = n;
    n += wrapTiles;
    for (size_t j = 0, c = 1; j < r; ++j, c += in_[c].span)
      n = put(n, c + 1);
    if (wrapTiles)
      tuple(tilesAt, r, n - tilesAt);
    const size_t restsAt = n;
    n += wrapRests;
    for (size_t j = 0, c = 1; j < rk; ++j, c += in_[c].span)
      n = put(n, j < r ? c + 1 + in_[c + 1].span : c);
    if (wrapRests)
      tuple(restsAt, rk, n - restsAt);
    tuple(0, (wrapTiles ? 1 : r) + (wrapRests ? 1 : rk), n);
    n_ = n;
    return Ok{};
  }
  /// A tuple tiler whose modes are layouts or `_` (flat's case).
  static bool isFlat(const Tiler &t) {
    if (t.kind != Tiler::Kind::Tuple)
      return false;
    for (const Tiler &m : t.modes)
      if (m.kind == Tiler::Kind::Tuple)
        return false;
    return true;
  }
  void open() {
    child();
    open_.push_back(uint32_t(n_));
    s_[n_] = d_[n_] = Node{0, 0, 1, 0};
    ++n_;
  }
  void close() {
    const size_t at = open_.back();
    open_.pop_back();
    s_[at].span = d_[at].span = uint16_t(n_ - at);
  }
  /// Nodes written.
  size_t count() const { return n_; }
  /// Every tuple written has fewer than IntTuple::kMaxRank modes.
  bool representable() const { return !tooWide_; }

private:
  static size_t tupleLevels(const Tiler &t) {
    if (t.kind != Tiler::Kind::Tuple)
      return 0;
    size_t n = 1;
    for (const Tiler &m : t.modes)
      n += tupleLevels(m);
    return n;
  }
  size_t rank(size_t k) const {
    return in_[k].rank == IntTuple::kLeaf ? 0 : size_t(in_[k].rank);
  }
  size_t child(size_t k, size_t j) const {
    size_t c = k + 1;
    while (j-- > 0)
      c += in_[c].span;
    return c;
  }
  /// Counts a new child of the innermost open tuple.
  void child() {
    if (open_.empty())
      return;
    Node &p = s_[open_.back()];
    if (++p.rank >= IntTuple::kMaxRank)
      tooWide_ = true;
    d_[open_.back()].rank = p.rank;
  }
  /// The subtree at input node k written at output node n; the next node.
  size_t put(size_t n, size_t k) {
    const size_t span = in_[k].span;
    for (size_t i = 0; i < span; ++i) {
      s_[n + i] = in_[k + i];
      d_[n + i] = ind_[k + i];
    }
    return n + span;
  }
  /// The tuple node of `rank` children and `span` nodes at output node at.
  void tuple(size_t at, size_t rank, size_t span) {
    if (rank >= size_t(IntTuple::kMaxRank))
      tooWide_ = true;
    s_[at] = d_[at] = Node{0, int16_t(rank), uint16_t(span), 0};
  }
  /// The subtree at node k, or its children when unpacking a rank > 1 tuple.
  void copy(size_t k, bool unpack) {
    if (unpack && rank(k) > 1) {
      for (size_t j = 0, c = k + 1; j < rank(k); ++j, c += in_[c].span)
        copy(c, false);
      return;
    }
    child();
    const size_t span = in_[k].span;
    if (span <= 8) { // a call to memcpy costs more than a short copy
      for (size_t i = 0; i < span; ++i) {
        s_[n_ + i] = in_[k + i];
        d_[n_ + i] = ind_[k + i];
      }
    } else {
      std::memcpy(s_ + n_, in_ + k, span * sizeof(Node));
      std::memcpy(d_ + n_, ind_ + k, span * sizeof(Node));
    }
    n_ += span;
  }
  std::string text(size_t k) const { return Ref(in_ + k, ind_ + k).str(); }
  const Node *in_, *ind_;
  Node *s_, *d_;
  size_t n_ = 0;
  SmallVector<uint32_t, 8> open_;
  bool tooWide_ = false;
};

/// `l` (a by-mode divide or product by `t`, checked) regrouped as `how`
/// says, written straight into the result; `op` names the operation in
/// diagnostics. The same leaves in another grouping: size and cosize are
/// those of `l`, so only the representable size is checked.
inline Expected<Layout> regroupByTiler(const char *op, Ref l, const Tiler &t,
                                       Regroup how) {
  if (t.kind != Tiler::Kind::Tuple && how == Regroup::Zipped) {
    Regrouper g(l, nullptr, nullptr);
    LK_CHECK(g.check(op, 0, t));
    return l.layout();
  }
  // Written in place in the caller's result (one object returned).
  Expected<Layout> r{std::in_place};
  IntTuple::Node *s, *d;
  r->nodesForOverwrite(Regrouper::nodeBound(l, t), s, d);
  Regrouper g(l, s, d);
  Status ok = Ok{};
  if (Regrouper::isFlat(t)) {
    ok = g.flat(op, t, how);
  } else if ((ok = g.check(op, 0, t))) {
    g.open();
    g.tiles(0, t, how == Regroup::Flat);
    g.rests(0, t, how != Regroup::Zipped);
    g.close();
  }
  if (ok && (g.count() > IntTuple::kMaxNodes || !g.representable()))
    ok = opError(op, "the result of " + l.str() +
                         " regrouped exceeds the representable size");
  if (!ok)
    r = std::move(ok).error();
  else
    r->nodesForOverwrite(g.count(), s, d);
  return r;
}

/// Flat modes and whether CuTe's result is an integer layout.
struct FlatLayout {
  Modes modes;
  bool integral = true;
};

/// complement(l, cotarget) where the cotarget is given by its leaves (only
/// they matter: CuTe's ceil_div fold through nested modes equals the fold
/// through the leaves), as flat modes; the divides and products build on
/// it (Composition.cpp). Written into `out`. @pre every leaf >= 1
Status complementModes(Ref l, const int64_t *cotarget, size_t cotargetLeaves,
                       FlatLayout &out);

} // namespace lk::cute::detail

#endif // LAYOUTKIT_SRC_CUTE_ALGEBRASUPPORT_H
