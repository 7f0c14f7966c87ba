//===- TileConformance.cpp - Conformance ops of the tile model ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The ops of tile-public.jsonl (oracles/README.md, "Tile-layout oracle"):
//
//   tile_eval  [text, shape, coord] -> L(x): an array of objects, one per
//              physical coordinate, each naming every axis of the layout;
//              compared as a set (order and repeats ignored).
//   tile_parse [text]               -> the canonical text; the public cases
//              expect an error.
//
//===----------------------------------------------------------------------===//

#include "cli/ConformanceOps.h"

#include "layoutkit/api/Query.h"
#include "layoutkit/tile/TileLayout.h"
#include "layoutkit/tile/TileText.h"

#include <algorithm>
#include <set>
#include <vector>

namespace lk::cli {

using nlohmann::json;
using namespace lk::tile;

namespace {

Expected<std::vector<int64_t>> intsFromJson(const json &j, const char *what) {
  std::vector<int64_t> out;
  if (j.is_number_integer()) {
    LK_TRY(int64_t v, intFromJson(j));
    out.push_back(v);
    return out;
  }
  if (!j.is_array())
    return Diagnostic::error(
        std::string("expected an array of integers for the ") + what +
        ", got " + j.dump());
  for (const json &e : j) {
    LK_TRY(int64_t v, intFromJson(e));
    out.push_back(v);
  }
  return out;
}

Expected<TileLayout> layoutFromJson(const json &j) {
  if (!j.is_string())
    return Diagnostic::error("expected a tile layout string, got " + j.dump());
  return parseTileLayout(j.get<std::string>());
}

Expected<json> tileEval(const json &a) {
  LK_CHECK(arity(a, 3, 3));
  LK_TRY(TileLayout l, layoutFromJson(a[0]));
  LK_TRY(std::vector<int64_t> shape, intsFromJson(a[1], "shape"));
  LK_TRY(std::vector<int64_t> coord, intsFromJson(a[2], "coordinate"));
  LK_CHECK(api::tilePointBound(l, 1, "tile_eval"));
  LK_TRY(CoordSet set, l.eval(shape, coord));
  json out = json::array();
  std::set<std::string> seen;
  for (size_t i = 0; i < set.size(); ++i) {
    json c = json::object();
    for (size_t k = 0; k < l.axes().size(); ++k)
      c[std::string(l.axes()[k].name())] = set[i][k];
    if (seen.insert(c.dump()).second)
      out.push_back(std::move(c));
  }
  return out;
}

Expected<json> tileParse(const json &a) {
  LK_CHECK(arity(a, 1, 1));
  LK_TRY(TileLayout l, layoutFromJson(a[0]));
  return json(l.str());
}

/// The set of distinct dumps of an array's elements.
std::set<std::string> asSet(const json &j) {
  std::set<std::string> s;
  for (const json &e : j)
    s.insert(e.dump());
  return s;
}

bool sameCoordSet(const json &got, const json &expect) {
  if (!got.is_array() || !expect.is_array())
    return got == expect;
  return asSet(got) == asSet(expect);
}

} // namespace

void addTileOps(ConformanceOps &ops) {
  ops["tile_eval"] = ConformanceOp{tileEval, sameCoordSet};
  ops["tile_parse"] = ConformanceOp{tileParse, nullptr};
}

} // namespace lk::cli
