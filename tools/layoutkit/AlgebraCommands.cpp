//===- AlgebraCommands.cpp - One command per operation of Algebra.h -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Thin adapters from argument texts to the layout algebra. Families of
/// operations with the same signature share one template adapter.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/Handlers.h"

namespace lk::cli {

namespace {

using LayoutOp = Expected<cute::Layout> (*)(const cute::Layout &);
using TilerOp = Expected<cute::Layout> (*)(const cute::Layout &,
                                           const cute::Tiler &);
using BinaryLayoutOp = Expected<cute::Layout> (*)(const cute::Layout &,
                                                  const cute::Layout &);

/// LAYOUT -> Op(LAYOUT).
template <LayoutOp Op> Expected<Reply> unary(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  LK_TRY(cute::Layout r, Op(l));
  return layoutReply(r);
}

/// A TILER -> Op(A, TILER).
template <TilerOp Op> Expected<Reply> withTiler(const Invocation &inv) {
  LK_TRY(cute::Layout a, inv.layout(0));
  LK_TRY(cute::Tiler t, inv.tiler(1));
  LK_TRY(cute::Layout r, Op(a, t));
  return layoutReply(r);
}

/// A B -> Op(A, B).
template <BinaryLayoutOp Op> Expected<Reply> binary(const Invocation &inv) {
  LK_TRY(cute::Layout a, inv.layout(0));
  LK_TRY(cute::Layout b, inv.layout(1));
  LK_TRY(cute::Layout r, Op(a, b));
  return layoutReply(r);
}

/// Shared shape of coalesce and filter: the plain form, or the form with a
/// --profile.
Expected<Reply>
withProfile(const Invocation &inv, cute::Layout (*plain)(const cute::Layout &),
            Expected<cute::Layout> (*profiled)(const cute::Layout &,
                                               const IntTuple &)) {
  LK_TRY(cute::Layout l, inv.layout(0));
  if (!inv.option("profile"))
    return layoutReply(plain(l));
  LK_TRY(IntTuple profile, inv.intTupleOption("profile"));
  LK_TRY(cute::Layout r, profiled(l, profile));
  return layoutReply(r);
}

Expected<cute::Rounding> roundingOf(const std::string &name) {
  if (name == "exact")
    return cute::Rounding::Exact;
  if (name == "floor")
    return cute::Rounding::Floor;
  if (name == "ceil")
    return cute::Rounding::Ceil;
  return Diagnostic::error("unknown rounding '" + name + "'")
      .note("expected one of exact, floor, ceil");
}

} // namespace

Expected<Reply> runSize(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  return integerReply(l.size());
}

Expected<Reply> runCosize(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  if (l.hasBasisStrides())
    return Diagnostic::error("cosize is not defined for the basis-stride "
                             "layout " + l.str())
        .note("its codomain is multi-dimensional; use `layoutkit eval` to "
              "see where a coordinate goes");
  LK_TRY(int64_t cosize, l.cosize());
  return integerReply(cosize);
}

Expected<Reply> runRank(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  return integerReply(int64_t(l.rank()));
}

Expected<Reply> runDepth(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  return integerReply(l.depth());
}

Expected<Reply> runCoalesce(const Invocation &inv) {
  return withProfile(inv, cute::coalesce, cute::coalesce);
}

Expected<Reply> runFilter(const Invocation &inv) {
  return withProfile(inv, cute::filter, cute::filter);
}

Expected<Reply> runFilterZeros(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  return layoutReply(cute::filter_zeros(l));
}

Expected<Reply> runFlatten(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  return layoutReply(cute::flatten(l));
}

Expected<Reply> runGroupModes(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  LK_TRY(int64_t begin, inv.integer(1));
  LK_TRY(int64_t end, inv.integer(2));
  int64_t rank = int64_t(l.rank());
  if (begin < 0 || end > rank || begin >= end)
    return Diagnostic::error("group_modes needs 0 <= BEGIN < END <= rank; got "
                             "BEGIN=" + std::to_string(begin) + ", END=" +
                             std::to_string(end) + " for a layout of rank " +
                             std::to_string(rank));
  LK_TRY(cute::Layout r, cute::group_modes(l, size_t(begin), size_t(end)));
  return layoutReply(r);
}

Expected<Reply> runComposition(const Invocation &inv) {
  LK_TRY(cute::Layout a, inv.layout(0));
  LK_TRY(cute::Tiler t, inv.tiler(1));
  // The tiler overload: tuples compose by mode, and a bare integer n
  // composes as n:1 (also for n == 1, as CuTe does), not as compact(n).
  Expected<cute::Layout> r = cute::composition(a, t);
  if (!r)
    return std::move(r).error();
  return layoutReply(*r);
}

Expected<Reply> runComplement(const Invocation &inv) {
  LK_TRY(cute::Layout l, inv.layout(0));
  if (!inv.has(1)) {
    LK_TRY(cute::Layout r, cute::complement(l));
    return layoutReply(r);
  }
  LK_TRY(IntTuple cotarget, inv.intTuple(1));
  LK_TRY(cute::Layout r, cute::complement(l, cotarget));
  return layoutReply(r);
}

Expected<Reply> runLogicalDivide(const Invocation &inv) {
  return withTiler<cute::logical_divide>(inv);
}
Expected<Reply> runZippedDivide(const Invocation &inv) {
  return withTiler<cute::zipped_divide>(inv);
}
Expected<Reply> runTiledDivide(const Invocation &inv) {
  return withTiler<cute::tiled_divide>(inv);
}
Expected<Reply> runFlatDivide(const Invocation &inv) {
  return withTiler<cute::flat_divide>(inv);
}
Expected<Reply> runLogicalProduct(const Invocation &inv) {
  return withTiler<cute::logical_product>(inv);
}
Expected<Reply> runZippedProduct(const Invocation &inv) {
  return withTiler<cute::zipped_product>(inv);
}
Expected<Reply> runTiledProduct(const Invocation &inv) {
  return withTiler<cute::tiled_product>(inv);
}
Expected<Reply> runFlatProduct(const Invocation &inv) {
  return withTiler<cute::flat_product>(inv);
}
Expected<Reply> runBlockedProduct(const Invocation &inv) {
  return binary<cute::blocked_product>(inv);
}
Expected<Reply> runRakedProduct(const Invocation &inv) {
  return binary<cute::raked_product>(inv);
}
Expected<Reply> runRightInverse(const Invocation &inv) {
  return unary<cute::right_inverse>(inv);
}
Expected<Reply> runLeftInverse(const Invocation &inv) {
  return unary<cute::left_inverse>(inv);
}
Expected<Reply> runMaxCommonLayout(const Invocation &inv) {
  return binary<cute::max_common_layout>(inv);
}

Expected<Reply> runMaxCommonVector(const Invocation &inv) {
  LK_TRY(cute::Layout a, inv.layout(0));
  LK_TRY(cute::Layout b, inv.layout(1));
  LK_TRY(int64_t n, cute::max_common_vector(a, b));
  return integerReply(n);
}

Expected<Reply> runShapeDiv(const Invocation &inv) {
  LK_TRY(IntTuple shape, inv.intTuple(0));
  LK_TRY(IntTuple divisor, inv.intTuple(1));
  LK_TRY(cute::Rounding rounding,
         roundingOf(inv.option("rounding").value_or("exact")));
  LK_TRY(IntTuple r, cute::shape_div(shape, divisor, rounding));
  return tupleReply(r);
}

Expected<Reply> runCeilDiv(const Invocation &inv) {
  LK_TRY(IntTuple a, inv.intTuple(0));
  LK_TRY(IntTuple b, inv.intTuple(1));
  LK_TRY(IntTuple r, cute::ceil_div(a, b));
  return tupleReply(r);
}

Expected<Reply> runEquivalent(const Invocation &inv) {
  // Plain layouts parse as composed layouts with the identity swizzle.
  LK_TRY(cute::ComposedLayout a, inv.composedLayout(0));
  LK_TRY(cute::ComposedLayout b, inv.composedLayout(1));
  LK_TRY(bool same, cute::equivalent(a, b));
  // Like cmp(1): the status answers the question in scripts.
  Reply r = boolReply(same);
  r.exitCode = same ? kExitOk : kExitBadInput;
  return r;
}

} // namespace lk::cli
