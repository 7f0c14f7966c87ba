//===- CuteOps.cpp - The registry of cute operations ----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rows of CuteOps.h's table and the checked call.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/api/CuteOps.h"

#include "layoutkit/api/Query.h"
#include "layoutkit/cute/Text.h"

#include <type_traits>
#include <utility>

namespace lk::api {

namespace {

using cute::Layout;
using cute::Tiler;

template <class T> struct IsExpected : std::false_type {};
template <class T> struct IsExpected<Expected<T>> : std::true_type {};

/// The value of a library answer, plain or Expected.
template <class T> Expected<CuteValue> value(T v) {
  if constexpr (IsExpected<T>::value) {
    if (!v)
      return std::move(v).error();
    return CuteValue{std::move(*v)};
  } else {
    return CuteValue{std::move(v)};
  }
}

const Layout &L(std::span<const CuteValue> a, size_t i) {
  return std::get<Layout>(a[i].value);
}
const Tiler &T(std::span<const CuteValue> a, size_t i) {
  return std::get<Tiler>(a[i].value);
}
const IntTuple &I(std::span<const CuteValue> a, size_t i) {
  return std::get<IntTuple>(a[i].value);
}

/// A (Layout, Tiler) -> Layout operation of the library.
template <Expected<Layout> (*Op)(const Layout &, const Tiler &)>
Expected<CuteValue> withTiler(std::span<const CuteValue> a) {
  return value(Op(L(a, 0), T(a, 1)));
}
/// A (Layout, Layout) -> Layout operation of the library.
template <Expected<Layout> (*Op)(const Layout &, const Layout &)>
Expected<CuteValue> twoLayouts(std::span<const CuteValue> a) {
  return value(Op(L(a, 0), L(a, 1)));
}

Expected<CuteValue> cosizeOf(std::span<const CuteValue> a) {
  return value(L(a, 0).cosize());
}

/// coalesce / filter, by the profile when it is given.
template <Layout (*Plain)(const Layout &),
          Expected<Layout> (*Profiled)(const Layout &, const IntTuple &)>
Expected<CuteValue> profiled(std::span<const CuteValue> a) {
  if (a.size() == 1)
    return value(Plain(L(a, 0)));
  return value(Profiled(L(a, 0), I(a, 1)));
}

Expected<CuteValue> complementOf(std::span<const CuteValue> a) {
  if (a.size() == 1)
    return value(cute::complement(L(a, 0)));
  return value(cute::complement(L(a, 0), I(a, 1)));
}

constexpr CuteKind kL = CuteKind::Layout, kT = CuteKind::Tiler,
                   kI = CuteKind::IntTuple, kN = CuteKind::Integer;

std::vector<CuteOp> buildOps() {
  const CuteParam a{"A", kL}, b{"B", kL}, layout{"LAYOUT", kL},
      tiler{"TILER", kT}, profile{"PROFILE", kI, true};
  return {
      {"size",
       {layout},
       kN,
       "Number of coordinates of a layout (product of shape)",
       [](std::span<const CuteValue> v) { return value(L(v, 0).size()); }},
      {"cosize",
       {layout},
       kN,
       "One past the largest offset: 1 + sum of (s-1)*|d| over the leaves",
       cosizeOf},
      {"rank",
       {layout},
       kN,
       "Number of top-level modes (1 for an integer shape)",
       [](std::span<const CuteValue> v) {
         return value(int64_t(L(v, 0).rank()));
       }},
      {"depth",
       {layout},
       kN,
       "Nesting depth of the shape (0 for an integer shape)",
       [](std::span<const CuteValue> v) {
         return value(int64_t(L(v, 0).depth()));
       }},
      {"crd2idx",
       {{"COORD", kI}, layout},
       kN,
       "The offset of a coordinate: sum of coordinate x stride",
       [](std::span<const CuteValue> v) {
         return value(cute::crd2idx(I(v, 0), L(v, 1)));
       }},
      {"idx2crd",
       {{"INDEX", kN}, {"SHAPE", kI}},
       kI,
       "The coordinate of a 1-D index in a shape (colexicographic)",
       [](std::span<const CuteValue> v) {
         return value(cute::idx2crd(std::get<int64_t>(v[0].value), I(v, 1)));
       }},
      {"coalesce",
       {layout, profile},
       kL,
       "Merge contiguous modes: same function, fewest modes",
       profiled<cute::coalesce, cute::coalesce>},
      {"filter",
       {layout, profile},
       kL,
       "Drop stride-0 modes and coalesce: coalesce(filter_zeros(L))",
       profiled<cute::filter, cute::filter>},
      {"filter_zeros",
       {layout},
       kL,
       "Replace the shape of every stride-0 leaf by 1",
       [](std::span<const CuteValue> v) {
         return value(cute::filter_zeros(L(v, 0)));
       }},
      {"composition",
       {a, tiler},
       kL,
       "R(c) = A(TILER(c)): apply TILER first, then A",
       withTiler<cute::composition>},
      {"complement",
       {layout, {"COTARGET", kI, true}},
       kL,
       "The sorted layout that fills the gaps of LAYOUT up to COTARGET",
       complementOf},
      {"right_inverse",
       {layout},
       kL,
       "R with L(R(i)) = i on the largest contiguous prefix",
       [](std::span<const CuteValue> v) {
         return value(cute::right_inverse(L(v, 0)));
       }},
      {"left_inverse",
       {layout},
       kL,
       "R with R(L(i)) = i for an injective L",
       [](std::span<const CuteValue> v) {
         return value(cute::left_inverse(L(v, 0)));
       }},
      {"max_common_layout",
       {a, b},
       kL,
       "The largest R with A(R(i)) = i and B(R(i)) = i",
       twoLayouts<cute::max_common_layout>},
      {"max_common_vector",
       {a, b},
       kN,
       "How many contiguous elements A and B share: size(max_common_layout)",
       [](std::span<const CuteValue> v) {
         return value(cute::max_common_vector(L(v, 0), L(v, 1)));
       }},
      {"logical_divide",
       {a, tiler},
       kL,
       "Split A into (tile, rest): composition(A, (T, complement(T)))",
       withTiler<cute::logical_divide>},
      {"zipped_divide",
       {a, tiler},
       kL,
       "logical_divide gathered as ((tile modes...), (rest modes...))",
       withTiler<cute::zipped_divide>},
      {"tiled_divide",
       {a, tiler},
       kL,
       "logical_divide gathered as ((tile modes...), rest0, rest1, ...)",
       withTiler<cute::tiled_divide>},
      {"flat_divide",
       {a, tiler},
       kL,
       "logical_divide gathered as (tile0, tile1, ..., rest0, rest1, ...)",
       withTiler<cute::flat_divide>},
      {"logical_product",
       {a, tiler},
       kL,
       "(A, composition(complement(A, size(A)*cosize(T)), T)): T copies of A",
       withTiler<cute::logical_product>},
      {"zipped_product",
       {a, tiler},
       kL,
       "logical_product gathered as ((A modes...), (product modes...))",
       withTiler<cute::zipped_product>},
      {"tiled_product",
       {a, tiler},
       kL,
       "logical_product gathered as ((A modes...), rest0, rest1, ...)",
       withTiler<cute::tiled_product>},
      {"flat_product",
       {a, tiler},
       kL,
       "logical_product gathered as (A0, A1, ..., rest0, rest1, ...)",
       withTiler<cute::flat_product>},
      {"blocked_product",
       {a, b},
       kL,
       "Tile B copies of A, A innermost in each mode: mode i = (A_i, X_i)",
       twoLayouts<cute::blocked_product>},
      {"raked_product",
       {a, b},
       kL,
       "Interleave B copies of A, B innermost in each mode: mode i = (X_i, "
       "A_i)",
       twoLayouts<cute::raked_product>},
  };
}

/// "a layout", "an integer", ...
std::string withArticle(CuteKind k) {
  const std::string_view n = cuteKindName(k);
  return (n.front() == 'i' ? "an " : "a ") + std::string(n);
}

/// `v` as kind `want`, widening an Integer to a Tiler (n:1) or an IntTuple
/// and a Layout to a Tiler; nullopt when it is of another kind.
Expected<CuteValue> asKind(CuteValue v, CuteKind want, const CuteOp &op,
                           const CuteParam &p) {
  if (v.kind() == want)
    return v;
  if (want == kT && v.kind() == kL)
    return CuteValue{Tiler::of(std::get<Layout>(std::move(v.value)))};
  if (want == kT && v.kind() == kN) {
    LK_TRY(Tiler t, Tiler::ofSize(std::get<int64_t>(v.value)));
    return CuteValue{std::move(t)};
  }
  if (want == kI && v.kind() == kN)
    return CuteValue{IntTuple(std::get<int64_t>(v.value))};
  return Diagnostic::error("argument " + std::string(p.name) + " of " +
                           std::string(op.name) + ": expected " +
                           withArticle(want) + ", got " +
                           withArticle(v.kind()) + " (" + v.str() + ")");
}

} // namespace

std::string_view cuteKindName(CuteKind k) {
  switch (k) {
  case CuteKind::Layout:
    return "layout";
  case CuteKind::Tiler:
    return "tiler";
  case CuteKind::IntTuple:
    return "int tuple";
  case CuteKind::Integer:
    return "integer";
  }
  return "value";
}

std::string CuteValue::str() const {
  return std::visit(
      [](const auto &v) -> std::string {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, int64_t>)
          return std::to_string(v);
        else
          return v.str();
      },
      value);
}

size_t CuteOp::requiredParams() const {
  size_t n = 0;
  while (n < params.size() && !params[n].optional)
    ++n;
  return n;
}

std::span<const CuteOp> cuteOps() {
  static const std::vector<CuteOp> ops = buildOps();
  return ops;
}

const CuteOp *findCuteOp(std::string_view name) {
  for (const CuteOp &op : cuteOps())
    if (op.name == name)
      return &op;
  return nullptr;
}

Expected<CuteValue> parseCuteValue(CuteKind kind, std::string_view text) {
  switch (kind) {
  case CuteKind::Layout:
    return value(cute::parseLayout(text));
  case CuteKind::Tiler:
    return value(cute::parseTiler(text));
  case CuteKind::IntTuple:
    return value(cute::parseIntTuple(text));
  case CuteKind::Integer:
    return value(parseInteger(text));
  }
  return Diagnostic::error("unknown kind");
}

Expected<CuteValue> callCuteOp(const CuteOp &op, std::vector<CuteValue> args) {
  if (args.size() < op.requiredParams() || args.size() > op.params.size()) {
    std::string names;
    for (const CuteParam &p : op.params)
      names += (names.empty() ? "" : ", ") + std::string(p.name) +
               (p.optional ? "?" : "");
    const size_t lo = op.requiredParams(), hi = op.params.size();
    return Diagnostic::error(
        std::string(op.name) + " takes " + std::to_string(lo) +
        (hi > lo ? " to " + std::to_string(hi) : std::string()) + " argument" +
        (hi == 1 ? "" : "s") + " (" + names + "), got " +
        std::to_string(args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    LK_TRY(CuteValue v,
           asKind(std::move(args[i]), op.params[i].kind, op, op.params[i]));
    args[i] = std::move(v);
  }
  return op.call(args);
}

} // namespace lk::api
