//===- CuteConformance.cpp - Conformance ops of the cute model ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The ops of cute-public.jsonl: each reads the case's arguments (layouts as
// strings, tilers as strings, ints, arrays or null) and answers as JSON.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/ConformanceOps.h"

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/cute/Text.h"

namespace lk::cli {

using nlohmann::json;
using namespace lk::cute;

namespace {

//===----------------------------------------------------------------------===//
// Reading arguments
//===----------------------------------------------------------------------===//

Expected<IntTuple> tupleFromJson(const json &j) {
  if (j.is_number_integer()) {
    LK_TRY(int64_t v, intFromJson(j));
    return IntTuple(v);
  }
  if (!j.is_array())
    return Diagnostic::error("expected an int or an array for an IntTuple, got " + j.dump());
  IntTuple t;
  for (const json &e : j) {
    LK_TRY(IntTuple child, tupleFromJson(e));
    t.push_back(child);
  }
  return t;
}

json tupleToJson(const IntTuple &t) {
  if (t.isLeaf())
    return t.value();
  json arr = json::array();
  for (size_t i = 0; i < t.rank(); ++i)
    arr.push_back(tupleToJson(t[i]));
  return arr;
}

Expected<Layout> layoutFromJson(const json &j) {
  if (j.is_number_integer()) {
    LK_TRY(int64_t size, intFromJson(j));
    LK_TRY(Tiler t, Tiler::ofSize(size));
    return t.layout;
  }
  if (!j.is_string())
    return Diagnostic::error("expected a layout string, got " + j.dump());
  return parseLayout(j.get<std::string>());
}

Expected<Tiler> tilerFromJson(const json &j) {
  if (j.is_null())
    return Tiler::keep();
  if (j.is_number_integer()) {
    LK_TRY(int64_t size, intFromJson(j));
    return Tiler::ofSize(size);
  }
  if (j.is_string()) {
    LK_TRY(Layout l, parseLayout(j.get<std::string>()));
    return Tiler::of(std::move(l));
  }
  if (j.is_array()) {
    std::vector<Tiler> modes;
    for (const json &e : j) {
      LK_TRY(Tiler t, tilerFromJson(e));
      modes.push_back(std::move(t));
    }
    return Tiler::tuple(std::move(modes));
  }
  return Diagnostic::error("expected a tiler (layout, int, array or null), got " + j.dump());
}

//===----------------------------------------------------------------------===//
// The op table
//===----------------------------------------------------------------------===//

using OpFn = std::function<Expected<json>(const json &args)>;

json layoutJson(const Layout &l) { return l.str(); }

/// An op taking one layout and returning a layout.
OpFn unaryLayout(Expected<Layout> (*f)(const Layout &)) {
  return [f](const json &a) -> Expected<json> {
    LK_CHECK(arity(a, 1, 1));
    LK_TRY(Layout l, layoutFromJson(a[0]));
    LK_TRY(Layout r, f(l));
    return layoutJson(r);
  };
}

/// An op taking a layout and a tiler.
OpFn layoutTiler(Expected<Layout> (*f)(const Layout &, const Tiler &)) {
  return [f](const json &a) -> Expected<json> {
    LK_CHECK(arity(a, 2, 2));
    LK_TRY(Layout l, layoutFromJson(a[0]));
    LK_TRY(Tiler t, tilerFromJson(a[1]));
    LK_TRY(Layout r, f(l, t));
    return layoutJson(r);
  };
}

/// An op taking two layouts.
OpFn twoLayouts(Expected<Layout> (*f)(const Layout &, const Layout &)) {
  return [f](const json &a) -> Expected<json> {
    LK_CHECK(arity(a, 2, 2));
    LK_TRY(Layout x, layoutFromJson(a[0]));
    LK_TRY(Layout y, layoutFromJson(a[1]));
    LK_TRY(Layout r, f(x, y));
    return layoutJson(r);
  };
}

/// coalesce / filter with an optional profile.
OpFn withProfile(Layout (*plain)(const Layout &),
                 Expected<Layout> (*profiled)(const Layout &, const IntTuple &)) {
  return [plain, profiled](const json &a) -> Expected<json> {
    LK_CHECK(arity(a, 1, 2));
    LK_TRY(Layout l, layoutFromJson(a[0]));
    if (a.size() == 1)
      return layoutJson(plain(l));
    LK_TRY(IntTuple p, tupleFromJson(a[1]));
    LK_TRY(Layout r, profiled(l, p));
    return layoutJson(r);
  };
}

/// An op taking one layout and returning an integer.
OpFn layoutInt(std::function<Expected<int64_t>(const Layout &)> f) {
  return [f](const json &a) -> Expected<json> {
    LK_CHECK(arity(a, 1, 1));
    LK_TRY(Layout l, layoutFromJson(a[0]));
    LK_TRY(int64_t r, f(l));
    return json(r);
  };
}

Expected<Layout> rightInverse(const Layout &l) { return right_inverse(l); }
Expected<Layout> leftInverse(const Layout &l) { return left_inverse(l); }
Expected<Layout> filterZeros(const Layout &l) { return filter_zeros(l); }
Layout coalescePlain(const Layout &l) { return coalesce(l); }
Expected<Layout> coalesceProfiled(const Layout &l, const IntTuple &p) { return coalesce(l, p); }
Layout filterPlain(const Layout &l) { return filter(l); }
Expected<Layout> filterProfiled(const Layout &l, const IntTuple &p) { return filter(l, p); }
Expected<Layout> compositionT(const Layout &l, const Tiler &t) { return composition(l, t); }

const std::map<std::string, OpFn> &cuteTable() {
  static const std::map<std::string, OpFn> table = {
      {"size", layoutInt([](const Layout &l) -> Expected<int64_t> { return l.size(); })},
      {"cosize", layoutInt([](const Layout &l) { return l.cosize(); })},
      {"rank", layoutInt([](const Layout &l) -> Expected<int64_t> { return int64_t(l.rank()); })},
      {"depth", layoutInt([](const Layout &l) -> Expected<int64_t> { return int64_t(l.depth()); })},
      {"crd2idx",
       [](const json &a) -> Expected<json> {
         LK_CHECK(arity(a, 2, 2));
         LK_TRY(IntTuple c, tupleFromJson(a[0]));
         LK_TRY(Layout l, layoutFromJson(a[1]));
         LK_TRY(int64_t r, crd2idx(c, l));
         return json(r);
       }},
      {"idx2crd",
       [](const json &a) -> Expected<json> {
         LK_CHECK(arity(a, 2, 2));
         LK_TRY(int64_t i, intFromJson(a[0]));
         LK_TRY(IntTuple s, tupleFromJson(a[1]));
         LK_TRY(IntTuple c, idx2crd(i, s));
         return tupleToJson(c);
       }},
      {"coalesce", withProfile(coalescePlain, coalesceProfiled)},
      {"filter", withProfile(filterPlain, filterProfiled)},
      {"filter_zeros", unaryLayout(filterZeros)},
      {"composition", layoutTiler(compositionT)},
      {"complement",
       [](const json &a) -> Expected<json> {
         LK_CHECK(arity(a, 1, 2));
         LK_TRY(Layout l, layoutFromJson(a[0]));
         if (a.size() == 1) {
           LK_TRY(Layout r, complement(l));
           return layoutJson(r);
         }
         LK_TRY(IntTuple m, tupleFromJson(a[1]));
         LK_TRY(Layout r, complement(l, m));
         return layoutJson(r);
       }},
      {"logical_divide", layoutTiler(logical_divide)},
      {"zipped_divide", layoutTiler(zipped_divide)},
      {"tiled_divide", layoutTiler(tiled_divide)},
      {"flat_divide", layoutTiler(flat_divide)},
      {"logical_product", layoutTiler(logical_product)},
      {"zipped_product", layoutTiler(zipped_product)},
      {"tiled_product", layoutTiler(tiled_product)},
      {"flat_product", layoutTiler(flat_product)},
      {"blocked_product", twoLayouts(blocked_product)},
      {"raked_product", twoLayouts(raked_product)},
      {"right_inverse", unaryLayout(rightInverse)},
      {"left_inverse", unaryLayout(leftInverse)},
      {"max_common_layout", twoLayouts(max_common_layout)},
      {"max_common_vector",
       [](const json &a) -> Expected<json> {
         LK_CHECK(arity(a, 2, 2));
         LK_TRY(Layout x, layoutFromJson(a[0]));
         LK_TRY(Layout y, layoutFromJson(a[1]));
         LK_TRY(int64_t r, max_common_vector(x, y));
         return json(r);
       }},
      {"swizzle",
       [](const json &a) -> Expected<json> {
         LK_CHECK(arity(a, 4, 4));
         LK_TRY(int64_t b, intFromJson(a[0]));
         LK_TRY(int64_t m, intFromJson(a[1]));
         LK_TRY(int64_t s, intFromJson(a[2]));
         LK_TRY(int64_t x, intFromJson(a[3]));
         LK_CHECK(swizzleParamsInRange(b, m, s));
         return json(swizzleApply(int(b), int(m), int(s), x));
       }},
      {"composed_eval",
       [](const json &a) -> Expected<json> {
         LK_CHECK(arity(a, 4, 4));
         if (!a[0].is_array() || a[0].size() != 3)
           return Diagnostic::error("expected [B,M,S], got " + a[0].dump());
         LK_TRY(int64_t b, intFromJson(a[0][0]));
         LK_TRY(int64_t m, intFromJson(a[0][1]));
         LK_TRY(int64_t s, intFromJson(a[0][2]));
         LK_TRY(int64_t off, intFromJson(a[1]));
         LK_TRY(Layout l, layoutFromJson(a[2]));
         LK_TRY(IntTuple c, tupleFromJson(a[3]));
         LK_CHECK(swizzleParamsInRange(b, m, s));
         // The oracle also evaluates swizzles that are not self-inverse
         // (S < B, negative S), so the parameters are not validated here.
         ComposedLayout composed{Swizzle{int(b), int(m), int(s)}, off, l};
         LK_TRY(int64_t v, crd2idx(c, composed));
         return json(v);
       }},
  };
  return table;
}

/// Layout answers compare structurally after parsing both sides (so spacing
/// in `expect` does not matter).
bool sameAnswer(const json &got, const json &expect) {
  if (got.is_string() && expect.is_string()) {
    auto a = parseLayout(got.get<std::string>());
    auto b = parseLayout(expect.get<std::string>());
    return a && b && *a == *b;
  }
  return got == expect;
}

} // namespace

void addCuteOps(ConformanceOps &ops) {
  for (const auto &[name, fn] : cuteTable())
    ops[name] = ConformanceOp{fn, sameAnswer};
}

} // namespace lk::cli
