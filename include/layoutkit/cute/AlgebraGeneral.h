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

} // namespace lk::cute::general

#endif // LAYOUTKIT_CUTE_ALGEBRAGENERAL_H
