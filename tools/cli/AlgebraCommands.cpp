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

#include "cli/Handlers.h"

#include "layoutkit/api/CuteOps.h"

namespace lk::cli {

namespace {

/// Positional parameter i read as a value of `kind` (api::parseCuteValue).
Expected<api::CuteValue> argument(const Invocation &inv, size_t i,
                                  api::CuteKind kind) {
  return inv.argument(api::parseCuteValue(kind, inv.text(i)), i);
}

Reply replyOf(const api::CuteValue &v) {
  if (const cute::Layout *l = std::get_if<cute::Layout>(&v.value))
    return layoutReply(*l);
  if (const IntTuple *t = std::get_if<IntTuple>(&v.value))
    return tupleReply(*t);
  if (const int64_t *n = std::get_if<int64_t>(&v.value))
    return integerReply(*n);
  return {v.str(), v.str()};
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

Expected<Reply> runCuteOp(const Invocation &inv) {
  const api::CuteOp *op = api::findCuteOp(inv.spec->name);
  if (!op)
    return Diagnostic::error("'" + inv.spec->name +
                             "' is not an operation of the cute registry");
  std::vector<api::CuteValue> args;
  size_t position = 0;
  for (const api::CuteParam &p : op->params) {
    if (p.name == "PROFILE") {
      if (!inv.option("profile"))
        break;
      LK_TRY(IntTuple profile, inv.intTupleOption("profile"));
      args.push_back({std::move(profile)});
      continue;
    }
    if (!inv.has(position))
      break;
    LK_TRY(api::CuteValue v, argument(inv, position++, p.kind));
    args.push_back(std::move(v));
  }
  LK_TRY(api::CuteValue r, api::callCuteOp(*op, std::move(args)));
  return replyOf(r);
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
                             "BEGIN=" +
                             std::to_string(begin) +
                             ", END=" + std::to_string(end) +
                             " for a layout of rank " + std::to_string(rank));
  LK_TRY(cute::Layout r, cute::group_modes(l, size_t(begin), size_t(end)));
  return layoutReply(r);
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
