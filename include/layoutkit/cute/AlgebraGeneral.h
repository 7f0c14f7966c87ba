//===- AlgebraGeneral.h - The algebra without its fast paths ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The general constructions behind the operations of Algebra.h. Each
/// operation in Algebra.h first tries a fast path (small operands with
/// integer strides, checks done on coalesced modes, the result written in
/// place); a fast path that declines -- larger operands, basis strides, any
/// failing check -- hands the call to the function of the same name here.
/// Both give the same layout or the same diagnostic; these functions stay
/// public so that tests can compare the two on random layouts.
///
/// Example: general::composition(8:2, 4:1) == composition(8:2, 4:1) == 4:2.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_ALGEBRAGENERAL_H
#define LAYOUTKIT_CUTE_ALGEBRAGENERAL_H

#include "layoutkit/cute/Algebra.h"

namespace lk::cute::general {

Layout coalesce(const Layout &l);
Expected<Layout> composition(const Layout &a, const Layout &b);
Expected<Layout> composition(const Layout &a, const Tiler &t);
Expected<Layout> complement(const Layout &l, const IntTuple &cotarget);
Expected<Layout> right_inverse(const Layout &l);
Expected<Layout> left_inverse(const Layout &l);
Expected<Layout> logical_divide(const Layout &a, const Tiler &t);
Expected<Layout> logical_product(const Layout &a, const Tiler &t);
Expected<Layout> blocked_product(const Layout &a, const Layout &b);
Expected<Layout> raked_product(const Layout &a, const Layout &b);
Expected<Layout> max_common_layout(const Layout &a, const Layout &b);
/// The public logical_divide or logical_product, regrouped by the general
/// walk (its checks and diagnostics).
Expected<Layout> zipped_divide(const Layout &a, const Tiler &t);
Expected<Layout> tiled_divide(const Layout &a, const Tiler &t);
Expected<Layout> flat_divide(const Layout &a, const Tiler &t);
Expected<Layout> zipped_product(const Layout &a, const Tiler &t);
Expected<Layout> tiled_product(const Layout &a, const Tiler &t);
Expected<Layout> flat_product(const Layout &a, const Tiler &t);

/// The closed forms of FastPaths.cpp, one per operand class, and the
/// general construction; lastPath() names the one that served the calling
/// thread's latest call of an operation above (for tests: each closed form
/// must serve its class, a form that always declined would show General).
enum class Path : unsigned char {
  General,
  CoalesceLeaf,        // coalesce of a leaf s:d
  CoalesceModes,       // coalesce of <= 16 nodes, integer strides
  ComposeLeaves,       // composition of two leaves
  ComposeFlat,         // composition by a flat tuple of leaves
  ComposeNested,       // composition by a nested B, the result inline
  ComposeTree,         // composition by any other B (a leaf B of modes A,
                       // results past the inline nodes)
  ComposeTwoLeafModes, // composition of two leaf modes by two leaf tiles
  ComposeLeafModes,    // composition of leaf modes by leaf tiles t:e
  ComposeModes,        // composition by a by-mode tiler of leaves, in place
  ComposeByMode,       // composition by a by-mode tiler
  ComplementLeaf,      // complement of a leaf by an integer
  ComplementModes,     // complement of <= 15 nodes, integer strides
  RightInverseLeaf,    // right_inverse of a leaf
  RightInverseChain,   // right_inverse of <= 16 nodes, integer strides, no
                       // two modes sharing a stride it takes
  RightInverseModes,   // right_inverse of <= 8 integer leaves (equal strides)
  LeftInverseLeaf,     // left_inverse of a leaf
  LeftInverseChain,    // left_inverse of <= 15 nodes, strides one chain
  LeftInverseModes,    // left_inverse of <= 15 nodes, modes lying apart
  DivideLeaf,          // logical_divide of a leaf by a leaf
  DivideLeafModes,     // by-mode divide of leaf modes by leaf or pair tiles
  DividePairLeaf,      // divide of two leaf modes by (pair tile, leaf tile)
  DivideModes,         // by-mode divide by leaf or flat tiles, in place
  DivideWhole,         // divide by a layout tile, A coalescing to one mode
  DivideByMode,        // divide by any tiler of layouts
  ProductLeaf,         // logical_product of s:1 by a leaf
  ProductWhole,        // logical_product of A onto [0, n) by a layout
  ProductByMode,       // product of any A by modes: a closed form, else
                       // complement and composer on mode arrays
  MaxCommonLeaf,       // max_common_layout of two leaves
  MaxCommonContiguous, // max_common_layout of A coalescing to one mode a:1
  MaxCommonModes,      // max_common_layout of <= 8 integer leaves each
  RankedLeaf,          // blocked/raked product of s:1 by a leaf
  RankedFlat,          // blocked/raked product of flat A onto [0, n), flat B
  RankedProduct,       // blocked/raked product of A onto [0, n)
  RegroupLeaves,       // zipped/tiled/flat divide, leaf modes by leaf tiles
  Regroup,             // zipped/tiled/flat: by-mode result of layout tiles
};
Path lastPath();

} // namespace lk::cute::general

#endif // LAYOUTKIT_CUTE_ALGEBRAGENERAL_H
