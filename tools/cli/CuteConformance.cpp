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

#include "cli/ConformanceOps.h"
#include "cli/Json.h"

#include "layoutkit/api/CuteOps.h"
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

using OpFn = std::function<Expected<json>(const json &args)>;
using api::CuteKind;
using api::CuteValue;

/// An oracle argument as the text of `kind`'s grammar: a string as is, an
/// integer as itself (a layout n as n:1), an array as "(a,b,...)" and null
/// as "_" (a tiler's kept mode).
Expected<std::string> argText(const json &j, CuteKind kind) {
  if (j.is_string())
    return j.get<std::string>();
  if (j.is_number_integer()) {
    LK_TRY(int64_t v, intFromJson(j));
    return std::to_string(v) + (kind == CuteKind::Layout ? ":1" : "");
  }
  if (j.is_null() && kind == CuteKind::Tiler)
    return std::string("_");
  if (j.is_array() && (kind == CuteKind::Tiler || kind == CuteKind::IntTuple)) {
    std::string s = "(";
    for (size_t i = 0; i < j.size(); ++i) {
      LK_TRY(std::string e, argText(j[i], kind));
      s += (i ? "," : "") + e;
    }
    return s + ")";
  }
  return Diagnostic::error("expected a value of kind " +
                           std::string(api::cuteKindName(kind)) + ", got " +
                           j.dump());
}

/// An oracle argument read as a value of `kind` by the api's reader of
/// that kind (the CLI's and the demo's).
Expected<CuteValue> valueFromJson(CuteKind kind, const json &j) {
  LK_TRY(std::string text, argText(j, kind));
  return api::parseCuteValue(kind, text);
}

/// An answer as the oracle writes it: a layout as its text, an integer
/// tuple as nested arrays, an integer as a number.
json valueToJson(const CuteValue &v) {
  if (const IntTuple *t = std::get_if<IntTuple>(&v.value))
    return toJson(*t); // the IntTuple record: nested lists of ints
  if (const int64_t *n = std::get_if<int64_t>(&v.value))
    return *n;
  return v.str();
}

/// The registry's operation `op` on oracle arguments.
OpFn fromRegistry(const api::CuteOp &op) {
  return [&op](const json &a) -> Expected<json> {
    LK_CHECK(arity(a, op.requiredParams(), op.params.size()));
    std::vector<CuteValue> args;
    for (size_t i = 0; i < a.size(); ++i) {
      LK_TRY(CuteValue v, valueFromJson(op.params[i].kind, a[i]));
      args.push_back(std::move(v));
    }
    LK_TRY(CuteValue r, api::callCuteOp(op, std::move(args)));
    return valueToJson(r);
  };
}

/// swizzle(B, M, S, x): the swizzle function at x.
Expected<json> swizzleOp(const json &a) {
  LK_CHECK(arity(a, 4, 4));
  LK_TRY(int64_t b, intFromJson(a[0]));
  LK_TRY(int64_t m, intFromJson(a[1]));
  LK_TRY(int64_t s, intFromJson(a[2]));
  LK_TRY(int64_t x, intFromJson(a[3]));
  LK_CHECK(swizzleParamsValid(b, m, s));
  return json(swizzleApply(int(b), int(m), int(s), x));
}

/// composed_eval([B,M,S], offset, layout, coord): Sw(offset + L(coord)).
Expected<json> composedEvalOp(const json &a) {
  LK_CHECK(arity(a, 4, 4));
  if (!a[0].is_array() || a[0].size() != 3)
    return Diagnostic::error("expected [B,M,S], got " + a[0].dump());
  LK_TRY(int64_t b, intFromJson(a[0][0]));
  LK_TRY(int64_t m, intFromJson(a[0][1]));
  LK_TRY(int64_t s, intFromJson(a[0][2]));
  LK_TRY(int64_t off, intFromJson(a[1]));
  LK_TRY(CuteValue l, valueFromJson(CuteKind::Layout, a[2]));
  LK_TRY(CuteValue c, valueFromJson(CuteKind::IntTuple, a[3]));
  LK_CHECK(swizzleParamsValid(b, m, s));
  // The oracle also evaluates swizzles that are not self-inverse (S < B,
  // negative S), so the parameters are not validated here.
  ComposedLayout composed{Swizzle{int(b), int(m), int(s)}, off,
                          std::get<Layout>(l.value)};
  LK_TRY(int64_t v, crd2idx(std::get<IntTuple>(c.value), composed));
  return json(v);
}

const std::map<std::string, OpFn> &cuteTable() {
  static const std::map<std::string, OpFn> table = [] {
    std::map<std::string, OpFn> t;
    for (const api::CuteOp &op : api::cuteOps())
      t.emplace(std::string(op.name), fromRegistry(op));
    // Beyond the algebra: the swizzle function and composed evaluation.
    t.emplace("swizzle", swizzleOp);
    t.emplace("composed_eval", composedEvalOp);
    return t;
  }();
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
