//===- Algebra.h - The CuTe layout algebra -----------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The layout algebra with CuTe's semantics (NVIDIA CUTLASS is the reference;
/// tests/data/cute-public.jsonl pins the exact results). Every
/// operation returns a new layout or a Diagnostic; an input that CuTe rejects,
/// or on which CuTe's construction would break the operation's postcondition,
/// is an error -- never a wrong layout.
///
/// Conventions: coordinates are colexicographic (leftmost mode fastest);
/// composition(A, B)(c) = A(B(c)) (B first, result has B's shape).
///
/// Examples (each is a unit test):
///   coalesce((2,4):(1,2))                 = 8:1
///   coalesce((2,4):(8,1))                 = (2,4):(8,1)
///   filter((4,3):(1,0))                   = 4:1
///   composition((4,2):(1,4), (2,2):(1,2)) = (2,2):(1,2)
///   composition(8:2, 4:1)                 = 4:2
///   complement(4:32, 256)                 = (32,2):(1,128)
///   complement(4:32, 128)                 = 32:1
///   logical_divide(128:1, 32:1)           = (32,4):(1,32)
///   logical_product(128:1, 4:32)          = (128,4):(1,4096)
///   right_inverse((4,2):(2,1))            = (2,4):(4,1)
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_ALGEBRA_H
#define LAYOUTKIT_CUTE_ALGEBRA_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"

#include <vector>

namespace lk::cute {

//===----------------------------------------------------------------------===//
// Tilers
//===----------------------------------------------------------------------===//

/// The second argument of composition, divides and products: a layout, a
/// tuple of tilers applied one mode at a time ("by-mode"), or `_` (keep the
/// mode as it is). An integer n is the layout compact(n) (n:1; 1:0 for n=1).
struct Tiler {
  enum class Kind { Layout, Tuple, Keep };
  Kind kind = Kind::Keep;
  cute::Layout layout;
  std::vector<Tiler> modes;
  /// Written as a bare integer n: divides and products use compact(n), while
  /// composition uses n:1 even for n == 1 (as CuTe does).
  bool integer = false;

  static Tiler of(cute::Layout l) {
    Tiler t;
    t.kind = Kind::Layout;
    t.layout = std::move(l);
    return t;
  }
  static Expected<Tiler> ofSize(int64_t n);
  static Tiler tuple(std::vector<Tiler> modes) {
    Tiler t;
    t.kind = Kind::Tuple;
    t.modes = std::move(modes);
    return t;
  }
  static Tiler keep() { return Tiler(); }
  /// "8:1", "(8:1,_,(2:1,4:1))".
  std::string str() const;
  /// Same kind, same layout (and integer spelling), same modes.
  bool operator==(const Tiler &) const = default;
};

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

/// L(coord). The coordinate may be
///  * congruent to the shape (each leaf used as is),
///  * an integer for a tuple mode (split colexicographically over that mode),
///  * an integer for the whole layout; the last mode takes whatever is left,
///    so a 1-D coordinate >= size(L) continues along the last mode.
/// Fails on basis strides (use crd2offset), on a coordinate that is not
/// weakly congruent to the shape, and on overflow.
Expected<int64_t> crd2idx(const IntTuple &coord, const Layout &layout);
/// A composed layout at a coordinate: Sw(offset + L(coord)).
/// Example: (Sw<3,4,3> o (8,64):(64,1))(1,16) = Sw(80) = 80 ^ ((80 & 0x380) >>
/// 3) = 80.
Expected<int64_t> crd2idx(const IntTuple &coord, const ComposedLayout &layout);
/// Fast 1-D evaluation L(i) for plain-integer strides; no allocation.
/// @pre !layout.hasBasisStrides(), 0 <= i
int64_t evaluate(const Layout &layout, int64_t i);
/// L(coord) in the layout's codomain: an integer for plain strides, a tuple
/// for basis strides (a plain integer stride counts as @0 there).
/// Example: ((4,8):(1@0,1@1))(3,5) == (3,5).
Expected<IntTuple> crd2offset(const IntTuple &coord, const Layout &layout);
/// The coordinate of index i in `shape`: c0 = i mod s0, c1 = (i div s0) mod
/// s1, ..., recursively; congruent to the shape. An integer shape returns i.
/// @pre 0 <= i < size(shape) (checked)
Expected<IntTuple> idx2crd(int64_t i, const IntTuple &shape);

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

/// Depth <= 1 layout of the same leaves.
Layout flatten(const Layout &l);
/// Groups modes [begin, end) into one mode: group_modes((M,N,K), 0, 2) =
/// ((M,N),K). @pre begin < end <= rank
Expected<Layout> group_modes(const Layout &l, size_t begin, size_t end);
/// Each leaf with stride 0 gets shape 1; strides and nesting unchanged.
Layout filter_zeros(const Layout &l);
/// Flattens, drops size-1 modes, merges s1:d1 into s0:d0 when d1 == s0*d0.
/// One remaining mode is an integer layout; nothing left gives 1:0.
/// @post same function on [0, size)
Layout coalesce(const Layout &l);
/// coalesce applied at the terminals of `profile` (only its nesting
/// matters); modes from rank(profile) on are copied unchanged.
Expected<Layout> coalesce(const Layout &l, const IntTuple &profile);
/// coalesce(filter_zeros(l)).
Layout filter(const Layout &l);
Expected<Layout> filter(const Layout &l, const IntTuple &profile);

//===----------------------------------------------------------------------===//
// Composition, complement, inverses
//===----------------------------------------------------------------------===//

/// R(c) = A(B(c)) for every c in B's domain; R is compatible with B's shape.
/// B may reach past size(A) (A continues along its last mode). Fails when
/// CuTe's stride or shape divisibility condition fails on A's coalesced
/// modes, and when the construction would break R(c) = A(B(c)).
Expected<Layout> composition(const Layout &a, const Layout &b);
/// By-mode: R_i = composition(A_i, T_i) for i < rank(T) (`_` keeps A_i);
/// modes of A from rank(T) on are dropped (CuTe C++ behaviour).
Expected<Layout> composition(const Layout &a, const Tiler &t);

/// The sorted layout R whose image meets L's only at 0 and such that (L,R)
/// reaches `cotarget` (an integer or a shape, whose modes are consumed in
/// order as CuTe does). Fails on layouts detected as non-injective.
/// Examples: complement(4:32, 256) = (32,2):(1,128); complement(4:2) = 2:1
/// (cotarget defaults to cosize(filter(L))).
Expected<Layout> complement(const Layout &l, const IntTuple &cotarget);
Expected<Layout> complement(const Layout &l);

/// R with L(R(i)) = i for i < size(R), the largest such contiguous prefix
/// CuTe finds. right_inverse((4,2):(2,1)) = (2,4):(4,1).
Expected<Layout> right_inverse(const Layout &l);
/// R with R(L(i)) = i for injective L (L(R(L(i))) = L(i) in general).
Expected<Layout> left_inverse(const Layout &l);

/// The largest layout R with A(R(i)) = i and B(R(i)) = i (1:0 if none):
/// invB o N:1 with invB = right_inverse(B) and N = max_common_vector(A, B)
/// (N lowered, if need be, to a length invB o N:1 is defined for). Never
/// fails on layouts with integer strides.
Expected<Layout> max_common_layout(const Layout &a, const Layout &b);
/// How many contiguous elements A and B share: the largest N with
/// A(invB(j)) = j for all j < N (invB = right_inverse(B)), which is CuTe's
/// size of the first mode of coalesce(A o invB) when its stride is 1. Where
/// A o invB is not defined (CuTe's divisibility conditions) the answer is
/// still N, found from the longest composable prefix of invB; at least 1.
/// Example: max_common_vector((4,2):(1,8), 8:1) = 4.
Expected<int64_t> max_common_vector(const Layout &a, const Layout &b);

//===----------------------------------------------------------------------===//
// Divides and products
//===----------------------------------------------------------------------===//

/// logical_divide(A, T) = composition(A, (T, complement(T,
/// shape(coalesce(A)))))
/// -> (tile, rest). By-mode tilers divide mode i and keep A's other modes.
Expected<Layout> logical_divide(const Layout &a, const Tiler &t);
/// ((tile modes...), (rest modes..., untouched modes of A...)).
Expected<Layout> zipped_divide(const Layout &a, const Tiler &t);
/// ((tile modes...), rest0, rest1, ...); a rank-1 rest mode stays whole.
Expected<Layout> tiled_divide(const Layout &a, const Tiler &t);
/// (tile0, tile1, ..., rest0, rest1, ...).
Expected<Layout> flat_divide(const Layout &a, const Tiler &t);

/// (A, composition(complement(A, size(A)*cosize(B)), B)).
Expected<Layout> logical_product(const Layout &a, const Tiler &t);
Expected<Layout> zipped_product(const Layout &a, const Tiler &t);
Expected<Layout> tiled_product(const Layout &a, const Tiler &t);
Expected<Layout> flat_product(const Layout &a, const Tiler &t);
/// Pad A and B to the same rank with 1:0, (A', X) = logical_product(A', B'),
/// mode i of the result is (A'_i, X_i).
Expected<Layout> blocked_product(const Layout &a, const Layout &b);
/// Same as blocked_product with mode i = (X_i, A'_i).
Expected<Layout> raked_product(const Layout &a, const Layout &b);

//===----------------------------------------------------------------------===//
// Shape arithmetic
//===----------------------------------------------------------------------===//

enum class Rounding { Exact, Floor, Ceil };

/// Divides a shape by a divisor, consuming the divisor mode by mode (CuTe's
/// shape_div / ceil_div fold): for a tuple shape and an integer divisor d,
/// result_i = div(s_i, d), d = div(d, s_i) for the next mode. A tuple divisor
/// divides mode by mode (missing modes are 1).
///  * Exact: each step requires s_i % d == 0 or d % s_i == 0 (a mode
///    smaller than the remaining divisor becomes 1); otherwise an error
///    naming the mode.
///  * Floor: floor(s_i / d) (may give 0), remaining ceil(d / s_i).
///  * Ceil: ceil(s_i / d), remaining ceil(d / s_i).
/// Examples: shape_div((4,6), 8, Exact) = (1,3);
///           shape_div((6,4), 4, Ceil) = (2,4); shape_div(6, 4, Exact) ->
///           error.
Expected<IntTuple> shape_div(const IntTuple &shape, const IntTuple &divisor,
                             Rounding mode);
/// shape_div(a, b, Ceil).
Expected<IntTuple> ceil_div(const IntTuple &a, const IntTuple &b);

//===----------------------------------------------------------------------===//
// Equivalence
//===----------------------------------------------------------------------===//

/// Same size and L1(i) == L2(i) for every i in [0, size). Decided on the
/// coalesced forms, which are canonical: the first mode of a coalesced
/// layout is fixed by the run of the function's first steps, and so on.
/// Layouts with basis strides compare their coalesced forms structurally
/// (a plain stride and the same stride @0 count as different).
Expected<bool> equivalent(const Layout &a, const Layout &b);

/// Same size and Sw1(o1 + L1(i)) == Sw2(o2 + L2(i)) for every i. The
/// swizzle is part of the function: identical swizzles and offsets compare
/// the inner layouts; otherwise every point is compared, which is refused
/// past kEquivalencePointLimit points.
/// Example: Sw<0,4,3> o (8,8):(8,1) is equivalent to (8,8):(8,1);
///          Sw<3,4,3> o (8,64):(64,1) is not equivalent to (8,64):(64,1).
Expected<bool> equivalent(const ComposedLayout &a, const ComposedLayout &b);
inline constexpr int64_t kEquivalencePointLimit = int64_t(1) << 22;

} // namespace lk::cute

#endif // LAYOUTKIT_CUTE_ALGEBRA_H
