//===- BindModels.cpp - Tile and linear layouts, conversions --------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// TileLayout (tile::SwizzledTileLayout: S/R/O with an optional swizzle), the
// linear layouts over F2 with Triton's names, the standard layouts, F2
// matrices, and the conversions between the three models (api/Convert.h).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Describe.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Query.h"
#include "layoutkit/bridge/TileCute.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/EncodingFields.h"
#include "layoutkit/linear/EncodingJson.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Structure.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/Bank.h"
#include "layoutkit/tile/TilePresets.h"
#include "layoutkit/tile/TileText.h"

#include <pybind11/numpy.h>
#include <pybind11/operators.h>

namespace lkpy {

using namespace lk;
using lk::linear::DimId;
using lk::linear::LinearLayout;
using lk::tile::Axis;
using lk::tile::SwizzledTileLayout;

namespace {

//===----------------------------------------------------------------------===//
// tile
//===----------------------------------------------------------------------===//

py::list iterList(const tile::IterList &l) {
  py::list r;
  for (const tile::Iter &it : l)
    r.append(py::make_tuple(it.extent, it.stride, std::string(it.axis.name())));
  return r;
}

/// The flat index of `x`: an int, or a coordinate over `shape`.
int64_t flatIndex(const SwizzledTileLayout &c, py::object x, py::object shape) {
  if (!shape.is_none()) {
    std::vector<int64_t> s =
        unwrap(api::tileShape(toIntTuple(shape, "shape"), c.tile()));
    return unwrap(api::tileIndex(toIntTuple(x, "x"), c.tile(), s));
  }
  if (PyIndex_Check(x.ptr()) && !PyBool_Check(x.ptr())) { // numpy's ints too
    int64_t i = toInt64(x, "index");
    if (i < 0 || i >= c.size())
      raise(Diagnostic::error("index " + std::to_string(i) +
                              " is outside [0, " + std::to_string(c.size()) +
                              ")"));
    return i;
  }
  throw py::type_error("expected an index, or a coord with shape=; got " +
                       std::string(Py_TYPE(x.ptr())->tp_name));
}

/// The number of points eval() returns, a list with no total: `limit`
/// when given (api::listLimit), else every replica, refused above
/// api::kMaxTilePoints (api::tilePointBound) before any work.
int64_t pointLimit(const SwizzledTileLayout &c, std::optional<int64_t> limit) {
  if (limit)
    return unwrap(api::listLimit("eval", limit));
  unwrap(api::tilePointBound(
      c.tile(), 1, "eval (pass limit= for the first points, or evaluate())"));
  return c.tile().replicaCount();
}

py::list evalTile(const SwizzledTileLayout &c, py::object x, py::object shape,
                  std::optional<int64_t> limit) {
  int64_t flat = flatIndex(c, x, shape);
  api::TilePoints pts = api::evaluate(c, flat, pointLimit(c, limit));
  py::list r;
  for (size_t i = 0; i < pts.points.size(); ++i)
    r.append(toDict(api::axisRecord(c.tile().axes(), pts.points[i])));
  return r;
}

/// {axis name: value} (keyword arguments or a dict) as axis values.
std::vector<tile::AxisValue> whereOf(const py::dict &kw) {
  std::vector<tile::AxisValue> v;
  for (auto [k, val] : kw)
    v.push_back({unwrap(Axis::byName(k.cast<std::string>())),
                 toInt64(val, "axis value")});
  return v;
}

std::optional<std::string_view> modeArg(const std::optional<std::string> &s) {
  if (!s)
    return std::nullopt;
  return std::string_view(*s);
}

/// The bank grid: cell (line, bank) = the first element index held there, -1
/// when none; with `words`, a third axis of the word's elements (up to
/// 32 / dtypeBits of them side by side, -1 padded). Refused above
/// api::kMaxBankViewElements elements before any work.
template <bool words>
py::array bankGrid(const SwizzledTileLayout &c, Int64 dtypeBits,
                   std::optional<std::string> swizzle) {
  tile::MemoryLayout mem =
      unwrap(api::memoryLayout(c, dtypeBits, modeArg(swizzle)));
  tile::BankView v = unwrap(api::bankView(mem, dtypeBits, int64_t(1) << 16));
  int64_t per =
      words ? std::max<int64_t>(1, 32 / std::max<int64_t>(1, dtypeBits)) : 1;
  py::array_t<int64_t> a(
      std::vector<py::ssize_t>{v.lineCount, tile::kBanks, per});
  auto w = a.mutable_unchecked<3>();
  for (int64_t l = 0; l < v.lineCount; ++l)
    for (int64_t b = 0; b < tile::kBanks; ++b) {
      const auto &cell = v.at(v.firstLine + l, b);
      for (int64_t k = 0; k < per; ++k)
        w(l, b, k) = k < int64_t(cell.size()) ? cell[size_t(k)] : -1;
    }
  if (!words)
    return a.reshape(std::vector<py::ssize_t>{v.lineCount, tile::kBanks});
  return a;
}

py::dict columnConflicts(const SwizzledTileLayout &c, Int64 dtypeBits,
                         Int64 rows, Int64 cols, Int64 column,
                         std::optional<int64_t> lanes, Int64 vector,
                         Int64 firstRow, std::optional<std::string> swizzle) {
  tile::MemoryLayout mem =
      unwrap(api::memoryLayout(c, dtypeBits, modeArg(swizzle)));
  api::ColumnRead r{rows, cols, column, lanes, vector, firstRow};
  return toDict(
      api::describe(unwrap(api::columnConflictReport(mem, dtypeBits, r))));
}

/// The element x names over `shape` (None: the layout's size as one
/// extent): its flat index and coordinate.
api::TileElement elementOf(const SwizzledTileLayout &c, py::object x,
                           py::object shape) {
  int64_t flat = flatIndex(c, x, shape);
  std::vector<int64_t> s{c.size()};
  if (!shape.is_none())
    s = unwrap(api::tileShape(toIntTuple(shape, "shape"), c.tile()));
  return api::tileElement(s, flat);
}

/// A method giving one element's record as a Result of `kind`: `query`
/// (api::evaluation, api::ownerList) at x over shape, its first `limit`
/// items listed.
template <class Query> auto elementQuery(const char *kind, Query query) {
  return [kind, query](const SwizzledTileLayout &c, py::object x,
                       py::object shape, std::optional<int64_t> limit) {
    api::TileElement e = elementOf(c, x, shape);
    return Result{kind, api::describe(unwrap(query(c, e, limit)))};
  };
}

void bindTile(py::module_ &m) {
  py::class_<SwizzledTileLayout>(
      m, "TileLayout",
      R"doc(A tile layout L = S[shard] + R[replica] + O (with an optional swizzle on m).

L(x) = { sum_k x_k * s_k @ a_k  +  sum_j r_j * t_j @ b_j  +  O  : r over the
replica iters }: the flat logical index x is split over the shard's
extents (last fastest); each iter adds its stride on its axis (m, laneid,
warpid, ...); the replica iters give every copy. `text` may be in any
grammar (cute, linear, Triton's TTGIR): its tile form, over `shape` when
given (a TTGIR attribute's tensor shape).

Example:
    >>> T = TileLayout("S[(8,4,2):(4@laneid,1@laneid,1)]")
    >>> T.eval(9)
    [{'laneid': 4, 'm': 1}]
)doc")
      .def(py::init([](const std::string &text, py::object shape) {
             return unwrap(
                 api::parseTile(text, optionalTuple(shape, "shape"), "shape="));
           }),
           py::arg("text"), py::arg("shape") = py::none())
      .def_static(
          "preset",
          [](const std::string &name) {
            const tile::Preset *p = unwrap(tile::findPreset(name));
            return SwizzledTileLayout(tile::SwizzleLayout(), p->layout());
          },
          py::arg("name"),
          "A named layout of the preset table (see tile_presets())")
      .def("size", &SwizzledTileLayout::size,
           "The number of logical elements (prod of the shard extents)")
      .def_property_readonly(
          "shard",
          [](const SwizzledTileLayout &c) {
            return iterList(c.tile().shard());
          },
          "[(extent, stride, axis), ...]")
      .def_property_readonly("replica",
                             [](const SwizzledTileLayout &c) {
                               return iterList(c.tile().replica());
                             })
      .def_property_readonly("offset",
                             [](const SwizzledTileLayout &c) {
                               return toDict(
                                   api::axisRecord(c.tile().offset()));
                             })
      .def_property_readonly("axes",
                             [](const SwizzledTileLayout &c) {
                               std::vector<std::string> r;
                               for (Axis a : c.tile().axes())
                                 r.emplace_back(a.name());
                               return r;
                             })
      .def_property_readonly(
          "swizzle",
          [](const SwizzledTileLayout &c) -> py::object {
            if (c.swizzle().isIdentity())
              return py::none();
            return py::cast(bridge::swizzleToCute(c.swizzle()));
          },
          "The swizzle on m as a cute Swizzle, None for the identity")
      .def("eval", &evalTile, py::arg("x"), py::arg("shape") = py::none(),
           py::arg("limit") = py::none(),
           "L(x): a list of {axis: value}, one per replica (the first `limit` "
           "when given; more than "
           "limits['points'] replicas need limit=); x a flat index or a "
           "coordinate over shape")
      .def("__call__", &evalTile, py::arg("x"), py::arg("shape") = py::none(),
           py::arg("limit") = py::none())
      .def("evaluate", elementQuery("evaluation", &api::evaluation),
           py::arg("x"), py::arg("shape") = py::none(),
           py::arg("limit") = py::none(),
           "L(x) with its derivation, the evaluation record (`layoutkit tile "
           "eval --json`): steps, the first `limit` points (default and at "
           "most limits['listed']) and their total")
      .def("owners", elementQuery("owners", &api::ownerList), py::arg("x"),
           py::arg("shape") = py::none(), py::arg("limit") = py::none(),
           "The owners record (`layoutkit tile owners --json`): the first "
           "`limit` owners (default and at most limits['listed']) and their "
           "total. Example: "
           "T.owners(9).owners == "
           "[{'owner': {'laneid': 4}, 'at': {'m': 1}}]")
      .def(
          "holds",
          [](const SwizzledTileLayout &c, const py::kwargs &kw) {
            std::vector<tile::AxisValue> w = whereOf(kw);
            return unwrap(api::holders(c, w));
          },
          "The flat indices held at a partial hardware coordinate. Example: "
          "T.holds(laneid=4) == [8, 9]")
      .def(
          "holding",
          [](const SwizzledTileLayout &c, py::object shape, py::kwargs kw) {
            std::vector<int64_t> s{c.size()};
            if (!shape.is_none())
              s = unwrap(api::tileShape(toIntTuple(shape, "shape"), c.tile()));
            std::optional<int64_t> limit; // limit= beside the axes
            if (kw.contains("limit"))
              limit = toInt64(kw.attr("pop")("limit"), "limit");
            api::Holding h = unwrap(api::holding(c, s, whereOf(kw), limit));
            return Result{"holding", api::describe(h)};
          },
          py::arg("shape") = py::none(),
          "The holding record (`layoutkit tile holds --json`) of a partial "
          "hardware coordinate (limit=: the first elements listed, default "
          "and at most limits['listed']), "
          "e.g. T.holding((8, 8), laneid=4).coords == [[1, 0], [1, 1]]")
      .def("banks", &bankGrid<false>, py::arg("dtype_bits"),
           py::arg("swizzle") = py::none(),
           "numpy (lines, 32) grid: the first element at each 4-byte bank word "
           "of shared memory (-1: none); "
           "bank(a) = floor(a*bytes/4) mod 32")
      .def("bank_words", &bankGrid<true>, py::arg("dtype_bits"),
           py::arg("swizzle") = py::none(),
           "numpy (lines, 32, max(1, 32/dtype_bits)) grid: every element of "
           "each bank word, by address (-1: none)")
      .def(
          "bank_view",
          [](const SwizzledTileLayout &c, Int64 bits,
             std::optional<std::string> sw) {
            tile::MemoryLayout mem =
                unwrap(api::memoryLayout(c, bits, modeArg(sw)));
            return Result{"bank_view", api::describe(unwrap(api::bankMap(
                                           mem, bits, int64_t(1) << 16)))};
          },
          py::arg("dtype_bits"), py::arg("swizzle") = py::none(),
          "The bank view record (`layoutkit tile banks --json`): lines[l][b] = "
          "the elements in bank b's word")
      .def("conflicts", &columnConflicts, py::arg("dtype_bits"),
           py::arg("rows"), py::arg("cols"), py::arg("column"),
           py::arg("lanes") = py::none(), py::arg("vector") = 1,
           py::arg("first_row") = 0, py::arg("swizzle") = py::none(),
           "The conflicts record of lanes reading one column of a row-major "
           "(rows, cols) tile: ways = max distinct words per bank")
      .def(
          "addresses",
          [](const SwizzledTileLayout &c) {
            check(
                api::checkWork("addresses", c.size(), 1, api::kMaxArrayValues));
            py::array_t<int64_t> a(c.size());
            int64_t *p = a.mutable_data();
            for (int64_t i = 0; i < c.size(); ++i)
              p[i] = c.addressAt(i);
            return a;
          },
          "numpy array of the (swizzled) m address of every flat index")
      .def(py::self == py::self)
      .def("__hash__",
           [](const SwizzledTileLayout &c) {
             return py::hash(py::str(api::tileText(c)));
           })
      .def("__repr__",
           [](const SwizzledTileLayout &c) { return api::tileText(c); });

  py::dict limits;
  limits["array_values"] = api::kMaxArrayValues;
  limits["points"] = api::kMaxTilePoints;
  limits["listed"] = api::kMaxListAll;
  limits["draw_cells"] = api::kMaxDrawCells;
  limits["draw_inputs"] = api::kMaxTableValues;
  limits["holder_visits"] = api::kMaxHolderVisits;
  limits["bank_view_elements"] = api::kMaxBankViewElements;
  m.attr("limits") = limits;

  m.def(
      "thread_index",
      [](const py::dict &owner) {
        return unwrap(api::threadIndex(whereOf(owner)));
      },
      py::arg("owner"),
      "The thread number within the CTA of a point {axis: value} "
      "(api::threadIndex): "
      "laneid + 32 warpid + 128 wgid + tid + tid_in_wg; other axes count 0. "
      "Example: thread_index({'laneid': 4, 'warpid': 2, 'm': 1}) == 68");
  m.def(
      "is_owner_axis",
      [](const std::string &name) {
        return api::isOwnerAxis(unwrap(Axis::byName(name)));
      },
      py::arg("axis"),
      "Whether the axis names an owner (a thread or device axis). Example: "
      "is_owner_axis('laneid') == True");
  m.def(
      "tile_presets",
      [] {
        py::list r;
        for (const tile::Preset &p : tile::presets())
          r.append(toDict(api::describe(p)));
        return r;
      },
      "The tile layout presets as the api's preset records: "
      "[{'name', 'layout', 'shape', 'summary'}, ...] (`layoutkit tile "
      "presets --json`)");
}

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

std::string dimStr(DimId d) { return std::string(linear::dimName(d)); }

/// 2^n as a Python int, exact for every n <= 64 (the C++ sizes saturate at
/// INT64_MAX for 63 and 64 bits).
py::int_ pow2Int(int n) { return py::int_(py::int_(1).attr("__lshift__")(n)); }

py::list dimSizes(const LinearLayout &l, bool in) {
  py::list r;
  int n = in ? l.numInDims() : l.numOutDims();
  for (int i = 0; i < n; ++i) {
    linear::DimSize d = in ? l.inDim(i) : l.outDim(i);
    r.append(py::make_tuple(dimStr(d.id), pow2Int(d.log2)));
  }
  return r;
}

/// Items of a dict or a sequence of (key, value) pairs; TypeError for an
/// item that is not a pair (a string, a 1- or 3-tuple).
std::vector<std::pair<py::object, py::object>> pairs(py::handle h) {
  std::vector<std::pair<py::object, py::object>> r;
  py::object items = py::isinstance<py::dict>(h)
                         ? h.attr("items")() // its (key, value) pairs
                         : py::reinterpret_borrow<py::object>(h);
  for (py::handle p : items) {
    py::tuple t = py::reinterpret_borrow<py::object>(p).cast<py::tuple>();
    if (py::isinstance<py::str>(p) || t.size() != 2)
      throw py::type_error("expected a dict or (name, value) pairs");
    r.push_back({t[0], t[1]});
  }
  return r;
}

/// A dim name from Python (linear::dimNamed: the text form's names only).
DimId dimId(const std::string &n) { return unwrap(linear::dimNamed(n)); }

/// Dim names from Python, each checked (dimId).
std::vector<DimId> dimIds(const std::vector<std::string> &names) {
  std::vector<DimId> r;
  for (const auto &n : names)
    r.push_back(dimId(n));
  return r;
}

/// [(name, size), ...] or {name: size} -> OutDim list (sizes checked by the
/// library).
std::vector<linear::OutDim> namedSizes(py::object dims) {
  std::vector<linear::OutDim> r;
  for (auto &[k, v] : pairs(dims))
    r.push_back({dimId(k.cast<std::string>()), toInt64(v, "out-dim size")});
  return r;
}

/// Triton's from_bases: out_dim_names alone (sizes inferred, surjective
/// required), names with out_dim_sizes (surjective unless
/// require_surjective=False), or {name: size} / pairs (surjective only when
/// require_surjective=True).
LinearLayout fromBases(py::object bases, py::object outDims,
                       py::object outSizes, py::object requireSurjective) {
  std::vector<linear::InDimBases> ins;
  for (auto &[k, v] : pairs(bases)) {
    std::string name = k.cast<std::string>();
    std::string path = "bases['" + name + "']";
    ins.push_back({dimId(name), toIntRows(v, path.c_str())});
  }
  bool named = !py::isinstance<py::dict>(outDims);
  for (py::handle h : outDims)
    named = named && py::isinstance<py::str>(h);
  std::optional<bool> require;
  if (!requireSurjective.is_none())
    require = requireSurjective.cast<bool>();
  if (named && outSizes.is_none()) {
    if (require == false)
      raise(Diagnostic::error(
          "from_bases: require_surjective=False needs out_dim_sizes "
          "(sizes inferred from names alone make the layout surjective)"));
    std::vector<DimId> names = dimIds(outDims.cast<std::vector<std::string>>());
    return unwrap(LinearLayout::make(ins, names));
  }
  std::vector<linear::OutDim> outs;
  if (!outSizes.is_none()) {
    if (!named)
      throw py::type_error(
          "from_bases: out_dim_sizes goes with a list of out-dim names");
    std::vector<int64_t> sizes = toIntList(outSizes, "out_dim_sizes");
    std::vector<std::string> names = outDims.cast<std::vector<std::string>>();
    if (sizes.size() != names.size())
      raise(Diagnostic::error("from_bases: " + std::to_string(names.size()) +
                              " out-dim names but " +
                              std::to_string(sizes.size()) + " out_dim_sizes"));
    for (size_t i = 0; i < names.size(); ++i)
      outs.push_back({dimId(names[i]), sizes[i]});
    return unwrap(LinearLayout::make(ins, outs, require.value_or(true)));
  }
  outs = namedSizes(outDims);
  return unwrap(LinearLayout::make(ins, outs, require.value_or(false)));
}

/// {in_dim: [[out coords], ...]}: the bases of the layout's record.
py::dict basesDict(const LinearLayout &l) {
  return toPython(*api::describe(l).find("bases"));
}

/// The log2 size of the in-dim (out-dim) named `d`; raises where there is none.
int inBits(const LinearLayout &l, const std::string &d) {
  return l.inDim(unwrap(l.findInDim(d))).log2;
}
int outBits(const LinearLayout &l, const std::string &d) {
  return l.outDim(unwrap(l.findOutDim(d))).log2;
}

std::vector<int64_t> inputsOf(const LinearLayout &l, py::object inputs) {
  std::vector<std::pair<std::string, int64_t>> given;
  for (auto &[k, val] : pairs(inputs))
    given.push_back(
        {py::str(k), toInt64(val, std::string(py::str(k)).c_str())});
  return unwrap(api::inputsByName(l, given));
}

py::list applyLinear(const LinearLayout &l, py::object inputs) {
  std::vector<int64_t> out = unwrap(l.apply(inputsOf(l, inputs)));
  py::list r;
  for (int i = 0; i < l.numOutDims(); ++i)
    r.append(py::make_tuple(dimStr(l.outDim(i).id), out[size_t(i)]));
  return r;
}

/// Every input, flat (the first in-dim lowest), -> its outputs
/// (api::linearOutputs, without the GIL): a numpy (2^inBits, numOutDims)
/// array.
py::array_t<int64_t> outputsTable(const LinearLayout &l) {
  std::vector<int64_t> v =
      unwrapWithoutGil([&] { return api::linearOutputs(l); });
  return py::array_t<int64_t>({l.totalInSize(), int64_t(l.numOutDims())},
                              v.data());
}

/// The F2 matrix: M[i][j] = bit i of column j (out bits x in bits).
py::array_t<uint8_t> toF2Matrix(const LinearLayout &l) {
  py::array_t<uint8_t> a({l.totalOutBits(), l.totalInBits()});
  auto w = a.mutable_unchecked<2>();
  for (int j = 0; j < l.totalInBits(); ++j)
    for (int i = 0; i < l.totalOutBits(); ++i)
      w(i, j) = uint8_t((l.column(j) >> i) & 1);
  return a;
}

std::vector<linear::DimSize> dimSizesOf(py::object dims) {
  std::vector<linear::DimSize> r;
  for (auto &[k, v] : pairs(dims))
    r.push_back(unwrap(linear::dimSizeOf(dimId(k.cast<std::string>()),
                                         toInt64(v, "dim size"))));
  return r;
}

/// M (out bits x in bits, entries 0/1) -> the layout; the counts are
/// checked against the dims by linear::fromF2Matrix before any work.
LinearLayout fromF2Matrix(py::object obj, py::object inDims,
                          py::object outDims) {
  py::array any = py::array::ensure(obj);
  if (!any)
    throw py::type_error("from_f2_matrix: expected a 2-D array of 0/1 entries");
  char kind = any.dtype().kind();
  if (kind != 'i' && kind != 'u' && kind != 'b')
    throw py::type_error(
        "from_f2_matrix: expected an integer or bool matrix, got dtype " +
        std::string(py::str(any.dtype())));
  auto mat =
      py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(
          any);
  if (mat.ndim() != 2)
    throw py::value_error("expected a 2-D matrix (out bits x in bits)");
  std::span<const int64_t> bits(mat.data(), size_t(mat.size()));
  return unwrap(linear::fromF2Matrix(dimSizesOf(inDims), dimSizesOf(outDims),
                                     bits, mat.shape(0), mat.shape(1)));
}

std::vector<std::string> dimNames(const LinearLayout &l, bool in) {
  std::vector<std::string> r;
  int n = in ? l.numInDims() : l.numOutDims();
  for (int i = 0; i < n; ++i)
    r.push_back(dimStr(in ? l.inDim(i).id : l.outDim(i).id));
  return r;
}

/// A quotient as Triton returns it: the layout, or None when there is none.
py::object optionalLayout(Expected<LinearLayout> e) {
  if (!e)
    return py::none();
  return py::cast(*e);
}

/// Divide(a, b) as a quotient (optionalLayout): divide_left, divide_right.
template <auto Divide>
py::object quotient(const LinearLayout &a, const LinearLayout &b) {
  return optionalLayout(Divide(a, b));
}

/// TTGIR text (`#ttg.blocked<{...}>`, a `tensor<...>` type, a pasted dump
/// with alias lines) as a linear layout, through api::parseLayout: the
/// shape comes from the tensor type or `shape` (both: they must agree).
LinearLayout ttgirLayout(const std::string &text, py::object shape) {
  api::ParseOptions o;
  o.syntax = api::Syntax::TtgirText;
  o.shapeName = "shape=";
  o.shape = optionalTuple(shape, "shape");
  Expected<api::AnyLayout> l = api::parseLayout(text, o);
  if (!l && l.error().parameter == "shape" && o.shape)
    raise(l.error(), "shape"); // the argument's fault, not the text's
  return *unwrap(std::move(l)).linear();
}

/// The Python path of the parameter a diagnostic is about, under the dict
/// at `path` ("params['threadsPerWarp']"); empty when it names none.
std::string parameterPath(const std::string &path, const Diagnostic &d) {
  if (d.parameter.empty())
    return {};
  if (d.parameter == "shape") // the shape argument, not a parameter
    return "shape";
  std::string r = path;
  std::string_view rest = d.parameter; // "parent.order": ['parent']['order']
  for (size_t dot; (dot = rest.find('.')) != std::string_view::npos;
       rest.remove_prefix(dot + 1))
    r += "['" + std::string(rest.substr(0, dot)) + "']";
  return r + "['" + std::string(rest) + "']";
}

linear::Encoding encodingOf(const py::dict &d, const std::string &path,
                            int depth = 0);

/// `path` followed by the index `i`: "params['order']" -> "params['order'][1]".
std::string indexPath(const std::string &path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

/// One dict item as the field value linear::makeEncoding() checks: bool
/// before int (a Python bool is an int), a list of ints, a list of lists
/// of ints (bases), a dict (a parent encoding); anything else is described
/// for the diagnostic. An int outside int64 is an OverflowError naming its
/// place, e.g. "params['sizePerThread'][1]: ... does not fit".
linear::FieldValue fieldValueOf(py::handle v, const std::string &path,
                                int depth) {
  if (py::isinstance<py::bool_>(v))
    return v.cast<bool>();
  if (py::isinstance<py::int_>(v))
    return toInt64(v, path.c_str());
  if (py::isinstance<py::dict>(v))
    return std::shared_ptr<const linear::Encoding>(
        std::make_shared<linear::Encoding>(
            encodingOf(v.cast<py::dict>(), path, depth + 1)));
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    py::sequence seq = v.cast<py::sequence>();
    bool nested = seq.size() > 0 && (py::isinstance<py::list>(seq[0]) ||
                                     py::isinstance<py::tuple>(seq[0]));
    if (!nested) {
      std::vector<int64_t> r;
      for (py::handle x : seq) {
        if (!py::isinstance<py::int_>(x) || py::isinstance<py::bool_>(x))
          return linear::OtherValue{
              "a list holding " +
              std::string(py::str(py::type::of(x).attr("__name__")))};
        r.push_back(toInt64(x, indexPath(path, r.size()).c_str()));
      }
      return r;
    }
    std::vector<std::vector<int64_t>> bases;
    for (py::handle row : seq) {
      if (!py::isinstance<py::list>(row) && !py::isinstance<py::tuple>(row))
        return linear::OtherValue{"a list mixing lists and other values"};
      std::vector<int64_t> b;
      for (py::handle x : row.cast<py::sequence>()) {
        if (!py::isinstance<py::int_>(x) || py::isinstance<py::bool_>(x))
          return linear::OtherValue{
              "a list of lists holding " +
              std::string(py::str(py::type::of(x).attr("__name__")))};
        b.push_back(toInt64(
            x, indexPath(indexPath(path, bases.size()), b.size()).c_str()));
      }
      bases.push_back(std::move(b));
    }
    return bases;
  }
  return linear::OtherValue{
      "a " + std::string(py::str(py::type::of(v).attr("__name__")))};
}

/// Triton's standard-layout parameters as a dict (the keys of docs/linear.md:
/// kind, sizePerThread, threadsPerWarp, ...) -> an Encoding, through the
/// library's one reader of encodings (linear::makeEncoding): the same
/// names, checks and messages as the CLI's JSON and TTGIR text.
linear::Encoding encodingOf(const py::dict &d, const std::string &path,
                            int depth) {
  if (depth > 8)
    raise(Diagnostic::error("layout parents nest deeper than 8"));
  if (!d.contains("kind") || !py::isinstance<py::str>(d["kind"]))
    raise(Diagnostic::error("expected a layout object with a 'kind' string"));
  std::string name = d["kind"].cast<std::string>();
  std::optional<linear::EncodingKind> kind = linear::encodingKindFromName(name);
  if (!kind)
    raise(Diagnostic::error("unknown layout kind '" + name + "'"));
  std::vector<linear::EncodingField> fields;
  for (auto item : d) {
    if (!py::isinstance<py::str>(item.first))
      throw py::type_error("layout dict keys must be strings");
    std::string key = item.first.cast<std::string>();
    if (key == "kind")
      continue;
    fields.push_back(
        {key, fieldValueOf(item.second, path + "['" + key + "']", depth), 0,
         0});
  }
  Expected<linear::Encoding> e = linear::makeEncoding(*kind, fields);
  if (!e)
    raise(e.error(), parameterPath(path, e.error()));
  return std::move(*e);
}

} // namespace

/// A dim parameter is read from its name, a list of dims from a list of
/// names, reshape dims from [(name, size), ...] or {name: size} (the
/// linear bindings, `bound`).
template <> struct Arg<DimId> {
  using Py = const std::string &;
  static DimId read(const std::string &n) { return dimId(n); }
};
template <> struct Arg<std::span<const DimId>> {
  using Py = const std::vector<std::string> &;
  static std::vector<DimId> read(const std::vector<std::string> &names) {
    return dimIds(names);
  }
};
template <> struct Arg<std::span<const linear::OutDim>> {
  using Py = py::object;
  static std::vector<linear::OutDim> read(py::object d) {
    return namedSizes(d);
  }
};

namespace {

void bindLinear(py::module_ &m) {
  py::class_<LinearLayout>(
      m, "LinearLayout",
      R"doc(A linear layout over F2 (Triton's LinearLayout): in-dims (register, lane, warp, block, ...) -> out-dims (dim0, dim1, ... or offset).

L(x) = XOR of the bases b_j whose input bit x_j is 1: each in-dim's
k-th basis is the image of 2^k.

Example:
    >>> L = LinearLayout.from_bases({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])
    >>> L.apply({"register": 1, "lane": 2})
    [('dim0', 9)]
)doc")
      .def(py::init([](const std::string &text) {
             // Triton's TTGIR text too, its shape from its tensor type.
             if (api::candidateSyntaxes(text).front() == api::Syntax::TtgirText)
               return ttgirLayout(text, py::none());
             return unwrap(linear::parseLinearLayout(text));
           }),
           py::arg("text"))
      .def_static("from_ttgir", &ttgirLayout, py::arg("text"),
                  py::arg("shape") = py::none(),
                  "Triton's layout from TTGIR text: an attribute "
                  "(#ttg.blocked<{...}>, #ttg.nvidia_mma, #ttg.dot_op, "
                  "#ttg.slice, #ttg.amd_mfma, #ttg.amd_wmma, "
                  "#ttg.swizzled_shared, #ttg.nvmma_shared, #ttg.linear), "
                  "a tensor<...> type (which gives the shape) or a pasted dump "
                  "whose alias lines resolve; "
                  "shape= when the text has no type")
      .def_static(
          "from_bases", &fromBases, py::arg("bases"), py::arg("out_dim_names"),
          py::arg("out_dim_sizes") = py::none(),
          py::arg("require_surjective") = py::none(),
          "bases: {in_dim: [[out coords], ...]} (or pairs); out_dim_names: "
          "names (sizes inferred, "
          "surjective), names with out_dim_sizes (surjective unless "
          "require_surjective=False), "
          "or {name: size} (surjective only with require_surjective=True)")
      .def_static("identity_1d", bound(&LinearLayout::identity1D),
                  py::arg("size"), py::arg("in_dim"), py::arg("out_dim"),
                  "x -> x on one dim")
      .def_static("zeros_1d", bound(&linear::zeros1D), py::arg("size"),
                  py::arg("in_dim"), py::arg("out_dim"),
                  py::arg("out_dim_size") = 1,
                  "x -> 0 (a broadcast); out_dim of size out_dim_size")
      .def_static(
          "empty", [] { return LinearLayout::empty(); },
          "The layout with no dims (the identity of *)")
      .def_static(
          "strided_1d", bound(&linear::strided1D), py::arg("size"),
          py::arg("stride"), py::arg("in_dim"), py::arg("out_dim"),
          "x -> stride * x on one dim (size, stride powers of two; out size "
          "size * stride)")
      .def_property_readonly("bases", &basesDict,
                             "{in_dim: [[out coords], ...]}")
      .def_property_readonly("num_in_dims", &LinearLayout::numInDims)
      .def_property_readonly("num_out_dims", &LinearLayout::numOutDims)
      .def("get_bases", &basesDict,
           "{in_dim: [[out coords], ...]} (the bases property)")
      .def(
          "get_basis",
          [](const LinearLayout &l, const std::string &in, Int64 pos,
             py::object out) -> py::object {
            int i = unwrap(l.findInDim(in));
            if (pos < 0 || pos >= l.inDim(i).log2)
              raise(Diagnostic::error(
                  "basis " + std::to_string(pos) + " of in-dim '" + in +
                  "' is outside [0, " + std::to_string(l.inDim(i).log2) + ")"));
            std::vector<int64_t> b = l.bases(i)[size_t(pos)];
            if (out.is_none())
              return py::cast(b);
            int k = unwrap(l.findOutDim(out.cast<std::string>()));
            return py::cast(b[size_t(k)]);
          },
          py::arg("in_dim"), py::arg("pos"), py::arg("out_dim") = py::none(),
          "L(in_dim = 2^pos) as [values per out-dim], or its value on out_dim")
      .def("get_in_dim_names",
           [](const LinearLayout &l) { return dimNames(l, true); })
      .def("get_out_dim_names",
           [](const LinearLayout &l) { return dimNames(l, false); })
      .def("get_out_dim_sizes",
           [](const LinearLayout &l) {
             std::vector<int64_t> r;
             for (int k = 0; k < l.numOutDims(); ++k)
               r.push_back(l.outDim(k).size());
             return r;
           })
      .def(
          "get_out_dims",
          [](const LinearLayout &l) { return dimSizes(l, false); },
          "[(out_dim, size), ...]")
      .def(
          "get_out_dim_index",
          [](const LinearLayout &l, const std::string &d) {
            return unwrap(l.findOutDim(d));
          },
          py::arg("out_dim"))
      .def("has_in_dim", &LinearLayout::hasInDimNamed)
      .def("has_out_dim", &LinearLayout::hasOutDimNamed)
      .def("get_num_in_dims", &LinearLayout::numInDims)
      .def("get_num_out_dims", &LinearLayout::numOutDims)
      .def("get_in_dim_size_log2", &inBits)
      .def("get_out_dim_size_log2", &outBits)
      .def("get_total_in_dim_size_log2", &LinearLayout::totalInBits)
      .def("get_total_out_dim_size_log2", &LinearLayout::totalOutBits)
      .def("get_num_consecutive_in_out", &linear::numConsecutiveInOut,
           "The largest V = 2^k with L(a*V + v, ...) = L(a*V, ...) + (v, 0, "
           "...) for v < V "
           "(first in-dim onto the first out-dim)")
      .def("reshape_ins", bound(&LinearLayout::reshapeIns),
           py::arg("new_in_dims"),
           "The flattened in bits re-split over [(name, size), ...] (first "
           "lowest)")
      .def("reshape_outs", bound(&LinearLayout::reshapeOuts),
           py::arg("new_out_dims"),
           "The flattened out bits re-split over [(name, size), ...] (first "
           "lowest)")
      .def("concat_ins", bound(&LinearLayout::concatIns), py::arg("other"),
           "self's in-dims then other's (equal out-dims)")
      .def("concat_outs", bound(&LinearLayout::concatOuts), py::arg("other"),
           "self's out-dims then other's (equal in-dims)")
      .def("divide_left", &quotient<linear::divideLeft>, py::arg("divisor"),
           "C with self == divisor * C, or None")
      .def("divide_right", &quotient<linear::divideRight>, py::arg("divisor"),
           "B with self == B * divisor, or None")
      .def("is_trivial_over", bound(&linear::isTrivialOver),
           py::arg("dim_names"),
           "L is the identity on these dims and keeps them apart from the "
           "others")
      .def("quotient", bound(&linear::quotient), py::arg("dim_names"),
           "The sublayout of the other dims when is_trivial_over(dim_names), "
           "else None")
      .def("sublayout_is_zero", bound(&LinearLayout::sublayoutIsZero),
           py::arg("in_dims"), py::arg("out_dims"))
      .def("remove_zero_bases_along_dim", bound(&linear::removeZeroBases),
           py::arg("in_dim"), "The layout without in_dim's zero bases")
      .def("unsqueeze_ins", bound(&linear::removeZeroBases), py::arg("in_dim"),
           "remove_zero_bases_along_dim (Triton's second name for it)")
      .def("unsqueeze_in", bound(&linear::removeUnitInDim), py::arg("in_dim"),
           "The layout without in_dim, which must have size 1")
      .def("unsqueeze_out", bound(&linear::removeUnitOutDim),
           py::arg("out_dim"),
           "The layout without out_dim, which must have size 1")
      .def("equal_ignoring_out_dim_sizes", &linear::equalIgnoringOutDimSizes,
           py::arg("other"))
      .def(
          "get_matrix_view",
          [](const LinearLayout &l) { return toF2Matrix(l).attr("tolist")(); },
          "The F2 matrix as lists: row i (out bit), column j (in bit) = bit i "
          "of L(2^j)")
      .def_property_readonly(
          "in_dims", [](const LinearLayout &l) { return dimSizes(l, true); })
      .def_property_readonly(
          "out_dims", [](const LinearLayout &l) { return dimSizes(l, false); })
      .def("get_in_dim_size",
           [](const LinearLayout &l, const std::string &d) {
             return pow2Int(inBits(l, d));
           })
      .def("get_out_dim_size",
           [](const LinearLayout &l, const std::string &d) {
             return pow2Int(outBits(l, d));
           })
      .def("get_total_in_dim_size",
           [](const LinearLayout &l) { return pow2Int(l.totalInBits()); })
      .def("get_total_out_dim_size",
           [](const LinearLayout &l) { return pow2Int(l.totalOutBits()); })
      .def("apply", &applyLinear, py::arg("inputs"),
           "L(inputs): inputs {in_dim: value} (missing dims 0) -> [(out_dim, "
           "value), ...]")
      .def(
          "apply_flat",
          [](const LinearLayout &l, py::object x) {
            return unwrap(l.applyFlatChecked(toUint64(x, "x")));
          },
          py::arg("x"),
          "L on the packed input bits (first in-dim lowest), x < 2^(total in "
          "bits)")
      .def("outputs", &outputsTable,
           "numpy (2^in_bits, n_out) array of L at every packed input, "
           "computed in C++")
      .def(
          "owner_grid",
          [](const LinearLayout &l) {
            api::LinearGrid g =
                unwrap(api::linearGrid(l, api::kMaxTableValues));
            const int reg = l.inDimIndex(linear::dims::kRegister);
            py::list cells;
            for (const std::vector<int64_t> &h : g.holders) {
              if (h.empty()) {
                cells.append(py::none());
                continue;
              }
              std::vector<int64_t> in = l.unpackIn(uint64_t(h[0]));
              cells.append(py::make_tuple(unwrap(api::linearThread(l, in)),
                                          reg < 0 ? 0 : in[size_t(reg)]));
            }
            return py::make_tuple(g.rows, g.cols, cells);
          },
          "(rows, cols, cells) of a layout of one or two output dims "
          "(api::linearGrid): cells[r * cols + c] = (thread, register) of "
          "the lowest input there (thread = lane + 32 warp + 32 warps "
          "block), None where no input lands")
      .def("compose", bound(&LinearLayout::compose), py::arg("outer"),
           "outer o self: x -> outer(self(x)); self's out-dims are outer's "
           "in-dims")
      .def("invert", bound(&LinearLayout::invert), "L^-1 (L bijective)")
      .def("pseudoinvert", bound(&LinearLayout::pseudoinvert),
           "A right inverse P with L(P(y)) = y for y in L's image (free "
           "variables 0)")
      .def("invert_and_compose", bound(&LinearLayout::invertAndCompose),
           py::arg("outer"),
           "C with outer(C(x)) = self(x): self -> outer's inputs, e.g. a "
           "conversion src -> dst")
      .def(
          "get_free_variable_masks",
          [](const LinearLayout &l) {
            auto masks = l.freeVariableMasks();
            py::dict d;
            for (int i = 0; i < l.numInDims(); ++i)
              d[py::str(dimStr(l.inDim(i).id))] = masks[size_t(i)];
            return d;
          },
          "{in_dim: mask} of the input bits whose value never changes the "
          "output (after Gaussian elimination)")
      .def("sublayout", bound(&LinearLayout::sublayout), py::arg("in_dims"),
           py::arg("out_dims"))
      .def("transpose_ins", bound(&LinearLayout::transposeIns))
      .def("transpose_outs", bound(&LinearLayout::transposeOuts))
      .def("flatten_ins", &LinearLayout::flattenIns)
      .def("flatten_outs", &LinearLayout::flattenOuts)
      .def("is_surjective", &LinearLayout::isSurjective)
      .def("is_injective", &LinearLayout::isInjective)
      .def("is_invertible", &LinearLayout::isInvertible)
      .def("get_matrix_rank", &LinearLayout::rank)
      .def("__mul__", bound(&linear::operator*),
           "The product: the in- and out-dims of both, b's bits above a's")
      .def(py::self == py::self)
      .def(py::self != py::self)
      .def("__hash__", &LinearLayout::hash)
      .def("__repr__", &LinearLayout::str)
      .def("__str__", &LinearLayout::toString,
           "The readable list of bases (Triton's str)")
      .def("to_string", &LinearLayout::toString);

  m.def("divide_left", &quotient<linear::divideLeft>, py::arg("a"),
        py::arg("b"), "C with a == b * C (b the minor part), or None");
  m.def("divide_right", &quotient<linear::divideRight>, py::arg("a"),
        py::arg("c"), "B with a == B * c (c the major part), or None");
  m.def("to_f2_matrix", &toF2Matrix, py::arg("layout"),
        "The F2 matrix M (out bits x in bits, uint8): M[i, j] = bit i of "
        "L(2^j) (the first dims lowest)");
  m.def("from_f2_matrix", &fromF2Matrix, py::arg("matrix"), py::arg("in_dims"),
        py::arg("out_dims"),
        "The layout with M's columns as bases; in_dims/out_dims: {name: size} "
        "in bit order");
  m.def(
      "standard_layout",
      [](py::object params, py::object shapeArg) {
        if (py::isinstance<py::str>(params)) {
          std::string text = params.cast<std::string>();
          if (api::candidateSyntaxes(text).front() !=
              api::Syntax::StandardParams)
            return ttgirLayout(text, shapeArg);
        } else if (!py::isinstance<py::dict>(params)) {
          throw py::type_error("params: a dict of Triton's parameters, their "
                               "JSON text or TTGIR text");
        }
        // Only a TTGIR tensor type gives its own shape.
        if (shapeArg.is_none())
          raise(Diagnostic::error("standard-layout parameters need shape=, "
                                  "the tensor shape, e.g. (64,64)"));
        std::vector<int64_t> shape = toIntList(shapeArg, "shape");
        if (py::isinstance<py::str>(params))
          return unwrap(linear::toLinearLayout(
              unwrap(linear::parseEncodingJson(params.cast<std::string>())),
              shape));
        Expected<LinearLayout> l = linear::toLinearLayout(
            encodingOf(params.cast<py::dict>(), "params"), shape);
        if (!l)
          raise(l.error(), parameterPath("params", l.error()));
        return std::move(*l);
      },
      py::arg("params"), py::arg("shape") = py::none(),
      "Triton's standard layout from its parameters (a dict with 'kind': "
      "blocked, nvidia_mma, amd_mfma, amd_wmma, intel_dpas, "
      "dot_operand, slice, swizzled_shared, nvmma_shared, "
      "shmem_for_reg_to_reg), that dict as JSON text, or TTGIR text, "
      "over a tensor shape (optional for a TTGIR tensor type, which gives "
      "it)");
  m.def(
      "blocked",
      [](py::object spt, py::object tpw, py::object wpc, py::object order,
         py::object shape) {
        return unwrap(linear::blockedLayout(
            toUnsignedList(spt, "size_per_thread"),
            toUnsignedList(tpw, "threads_per_warp"),
            toUnsignedList(wpc, "warps_per_cta"),
            toUnsignedList(order, "order"), toIntList(shape, "shape")));
      },
      py::arg("size_per_thread"), py::arg("threads_per_warp"),
      py::arg("warps_per_cta"), py::arg("order"), py::arg("shape"),
      "Triton's BlockedEncodingAttr as a linear layout");
  m.def(
      "nvidia_mma",
      [](int versionMajor, py::object instr, py::object wpc, py::object shape) {
        return unwrap(linear::nvidiaMmaLayout(
            versionMajor, toUnsignedList(instr, "instr_shape"),
            toUnsignedList(wpc, "warps_per_cta"), toIntList(shape, "shape")));
      },
      py::arg("version_major"), py::arg("instr_shape"),
      py::arg("warps_per_cta"), py::arg("shape"),
      "Triton's NvidiaMmaEncodingAttr (v2 mma.sync, v3 wgmma accumulator) as a "
      "linear layout");
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

} // namespace

api::AnyLayout anyOf(py::handle h) {
  api::AnyLayout a;
  if (py::isinstance<cute::Layout>(h)) {
    a.syntax = api::Syntax::CuteText;
    a.value = cute::ComposedLayout{{}, 0, h.cast<cute::Layout>()};
  } else if (py::isinstance<cute::ComposedLayout>(h)) {
    a.syntax = api::Syntax::CuteText;
    a.value = h.cast<cute::ComposedLayout>();
  } else if (py::isinstance<SwizzledTileLayout>(h)) {
    a.syntax = api::Syntax::TileText;
    a.value = h.cast<SwizzledTileLayout>();
  } else if (py::isinstance<LinearLayout>(h)) {
    a.syntax = api::Syntax::LinearText;
    a.value = h.cast<LinearLayout>();
  } else if (py::isinstance<py::str>(h)) {
    return unwrap(api::parseLayout(h.cast<std::string>()));
  } else {
    throw py::type_error("expected a Layout, ComposedLayout, TileLayout, "
                         "LinearLayout or layout text");
  }
  return a;
}

namespace {

py::object cuteObject(const cute::ComposedLayout &c) {
  if (c.swizzle.isIdentity() && c.offset == 0)
    return py::cast(c.layout);
  return py::cast(c);
}

py::object objectOf(const api::AnyLayout &a) {
  if (const auto *c = a.cute())
    return cuteObject(*c);
  if (const auto *t = a.tile())
    return py::cast(*t);
  return py::cast(*a.linear());
}

void bindConvert(py::module_ &m) {
  m.def(
      "parse",
      [](const std::string &text, py::object shape) {
        api::ParseOptions o;
        o.shapeName = "shape=";
        o.shape = optionalTuple(shape, "shape");
        return objectOf(unwrap(api::parseLayout(text, o)));
      },
      py::arg("text"), py::arg("shape") = py::none(),
      "A layout in any grammar, the model told by the first characters ('{' "
      "linear, 'S['/'R['/'Swizzle' tile, "
      "'<' attribute, else cute; '(' also a basis descriptor over shape)");
  m.def(
      "to_cute",
      [](py::object x) { return cuteObject(unwrap(api::toCute(anyOf(x)))); },
      py::arg("layout"),
      "The cute form (a Layout, or a ComposedLayout with a swizzle); refused "
      "where the bridge has none");
  m.def(
      "to_tile",
      [](py::object x, py::object shape) {
        std::optional<IntTuple> s = optionalTuple(shape, "shape");
        if (py::isinstance<py::str>(x))
          return unwrap(api::parseTile(x.cast<std::string>(), s, "shape="));
        return unwrap(api::tileForm(anyOf(x), s, "shape="));
      },
      py::arg("layout"), py::arg("shape") = py::none(),
      "The tile form (register -> m, lane -> laneid, warp -> warpid, block -> "
      "cta); a cute layout of rank 2 or more needs shape (over its modes, or "
      "one dim: CuTe's 1-D index)");
  m.def(
      "to_linear",
      [](py::object x, py::object shape) {
        return unwrap(api::toLinear(anyOf(x), toIntList(shape, "shape")));
      },
      py::arg("layout"), py::arg("shape") = py::tuple(),
      "The linear form over F2 (cute: index -> offset; tile: over shape's "
      "dims, else index)");
}

} // namespace

void initModels(py::module_ &m) {
  bindTile(m);
  bindLinear(m);
  bindConvert(m);
}

} // namespace lkpy
