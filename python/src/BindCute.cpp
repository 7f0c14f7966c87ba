//===- BindCute.cpp - The module, errors and the cute model ---------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// `layoutkit._layoutkit`: the module definition, LayoutError, the IntTuple
// conversions and the cute model with pycute's names (Layout, Swizzle,
// ComposedLayout and the algebra as functions). Each binding reads its
// arguments, makes one library call and converts the answer.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "layoutkit/api/CuteOps.h"
#include "layoutkit/api/Describe.h"

#include "layoutkit/api/Query.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/cute/Text.h"

#include "layoutkit/core/Checked.h"

#include <pybind11/numpy.h>
#include <pybind11/operators.h>

#include <optional>

namespace lkpy {

using namespace lk;
using lk::cute::ComposedLayout;
using lk::cute::Layout;
using lk::cute::Swizzle;
using lk::cute::Tiler;

//===----------------------------------------------------------------------===//
// Errors and IntTuples
//===----------------------------------------------------------------------===//

py::object &layoutErrorType() {
  static py::object *type = nullptr;
  if (!type)
    type = new py::object(); // leaked on purpose: lives as long as the module
  return *type;
}

void initErrors(py::module_ &m) {
  py::object base = py::reinterpret_borrow<py::object>(PyExc_ValueError);
  py::dict ns;
  ns["__doc__"] = "A LayoutKit diagnostic: a ValueError with the fields of "
                  "the api layer's diagnostic record (message, line and "
                  "column 1-based and offset 0-based or None without a "
                  "text, length, input, notes, rendered; to_dict() gives "
                  "them) and the "
                  "path of the faulty part of a Python argument (e.g. "
                  "'shape[1][0]'; None when the fault is not in one). "
                  "str(e) is the rendered diagnostic with a caret.";
  ns["__module__"] = "layoutkit";
  py::object type = py::reinterpret_borrow<py::object>(
      reinterpret_cast<PyObject *>(&PyType_Type))("LayoutError",
                                                  py::make_tuple(base), ns);
  // to_dict(): the diagnostic record's fields (the keys every front end
  // shows), read back from the attributes raise() set.
  type.attr("to_dict") = py::cpp_function(
      [](py::object self) {
        lk::api::Record keys = lk::api::describe(Diagnostic::error(""));
        py::dict d;
        for (size_t i = 0; i < keys.size(); ++i)
          d[py::str(keys.key(i))] = self.attr(keys.key(i).c_str());
        return d;
      },
      py::is_method(type));
  layoutErrorType() = type;
  m.attr("LayoutError") = type;
  // The one translation of C++ exceptions the bindings let through: a
  // value pybind11 could not convert is a TypeError naming both types.
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const py::cast_error &e) {
      std::string what = e.what();
      const std::string prefix = "Unable to cast Python instance of type ";
      const size_t to = what.find(" to C++ type ");
      if (what.rfind(prefix, 0) == 0 && to != std::string::npos) {
        // Named in Python's terms: "expected a list of str, got <class 'str'>"
        const std::string cpp = what.substr(to + 13);
        const bool str = cpp.find("basic_string") != std::string::npos;
        what = std::string("expected ") +
               (cpp.rfind("'std::vector<", 0) == 0 ? "a list of " : "a ") +
               (str ? "str" : "value of C++ type " + cpp) + ", got " +
               what.substr(prefix.size(), to - prefix.size());
      }
      PyErr_SetString(PyExc_TypeError, what.c_str());
    }
  });
}

void raise(const Diagnostic &d, const std::string &path) {
  std::string text = d.render();
  while (!text.empty() && text.back() == '\n') // print(e) adds its own
    text.pop_back();
  if (!path.empty())
    text = path + ": " + text;
  py::object e = layoutErrorType()(text);
  const lk::api::Record r = lk::api::describe(d);
  for (size_t i = 0; i < r.size(); ++i)
    e.attr(r.key(i).c_str()) = toPython(r.value(i));
  e.attr("path") = path.empty() ? py::object(py::none()) : py::str(path);
  PyErr_SetObject(layoutErrorType().ptr(), e.ptr());
  throw py::error_already_set();
}

py::tuple tvGridTuple(const api::TvGrid &g) {
  py::list cells;
  for (const std::vector<api::TvPair> &h : g.holders) {
    py::list pairs;
    for (const api::TvPair &p : h)
      pairs.append(py::make_tuple(p.thread, p.value));
    cells.append(pairs);
  }
  return py::make_tuple(g.rows, g.cols, cells);
}

namespace {

/// repr(h) cut to 60 characters (a hostile value may print as megabytes).
std::string shortRepr(py::handle h) {
  PyObject *r = PyObject_Repr(h.ptr());
  if (!r) {
    PyErr_Clear();
    return "<unprintable " + std::string(Py_TYPE(h.ptr())->tp_name) + ">";
  }
  Py_ssize_t n = 0;
  const char *s = PyUnicode_AsUTF8AndSize(r, &n);
  std::string out = s ? std::string(s, size_t(n)) : std::string("?");
  Py_DECREF(r);
  if (!s)
    PyErr_Clear();
  if (out.size() > 60)
    out = out.substr(0, 57) + "...";
  return out;
}

[[noreturn]] void throwPy(PyObject *type, const std::string &msg) {
  PyErr_SetString(type, msg.c_str());
  throw py::error_already_set();
}

/// toInt64 with the place named by `where` (an argument name or a path).
int64_t readInt(PyObject *o, const std::string &where) {
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow)
      return v;
  }
  if (PyBool_Check(o) || !PyIndex_Check(o))
    throwPy(PyExc_TypeError, where + ": expected an int, got " + shortRepr(o) +
                                 " (" + Py_TYPE(o)->tp_name + ")");
  PyObject *i = PyNumber_Index(o);
  if (!i)
    throw py::error_already_set();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (overflow)
    throwPy(PyExc_OverflowError,
            where + ": " + shortRepr(o) +
                " does not fit in a 64-bit integer [-2^63, 2^63)");
  if (v == -1 && PyErr_Occurred())
    throw py::error_already_set();
  return v;
}

/// Reads nested tuples/lists of ints into a Builder, tracking the path
/// (indices from the argument) for the messages and bounding depth and
/// node count before the work grows.
class TupleReader {
public:
  /// `noneAsZero`: a None leaf reads as 0 (pycute's crd2idx and slices).
  TupleReader(const char *what, bool noneAsZero = false)
      : what_(what), noneAsZero_(noneAsZero) {}

  void read(PyObject *o) {
    if (o == Py_None && noneAsZero_) {
      count(1);
      b_.leaf(0);
      return;
    }
    if (PyLong_CheckExact(o)) {
      count(1);
      b_.leaf(readInt(o, where()));
      return;
    }
    if (PyTuple_Check(o) || PyList_Check(o)) {
      readTuple(o);
      return;
    }
    if (PyUnicode_Check(o)) {
      Py_ssize_t n = 0;
      const char *s = PyUnicode_AsUTF8AndSize(o, &n);
      if (!s)
        throw py::error_already_set();
      auto t = cute::parseIntTuple(std::string_view(s, size_t(n)));
      if (!t)
        raise(t.error(), path_.empty() ? std::string() : where());
      count(t->nodeCount());
      b_.subtree(*t);
      return;
    }
    if (readSequence(o))
      return;
    if (PyBool_Check(o) || !PyIndex_Check(o))
      throwPy(PyExc_TypeError, where() +
                                   ": expected an int or a tuple of "
                                   "ints, got " +
                                   shortRepr(o) + " (" + Py_TYPE(o)->tp_name +
                                   ")");
    count(1);
    b_.leaf(readInt(o, where()));
  }

  IntTuple take() {
    auto t = b_.take();
    if (!t)
      raise(t.error(), what_);
    return std::move(*t);
  }

private:
  /// Reads a sequence other than a tuple, list or text (a numpy array, a
  /// range) as a tuple of its items; false when `o` is none (a 0-d array
  /// has no length: it is read as an int) or a layout (whose modes are
  /// layouts, never ints).
  bool readSequence(PyObject *o) {
    if (!PySequence_Check(o) || PyBytes_Check(o) || PyByteArray_Check(o) ||
        py::isinstance<Layout>(o) || py::isinstance<ComposedLayout>(o))
      return false;
    Py_ssize_t n = PySequence_Size(o);
    if (n < 0) {
      PyErr_Clear();
      return false;
    }
    if (n > Py_ssize_t(IntTuple::kMaxRank))
      fail("a tuple of " + std::to_string(n) + " modes; at most " +
           std::to_string(IntTuple::kMaxRank));
    py::object items =
        py::reinterpret_steal<py::object>(PySequence_Fast(o, "a sequence"));
    if (!items)
      throw py::error_already_set();
    readTuple(items.ptr());
    return true;
  }

  void readTuple(PyObject *o) {
    if (int(path_.size()) >= kMaxNesting)
      fail("nested deeper than " + std::to_string(kMaxNesting) +
           " levels (a list that contains itself?)");
    if (PySequence_Fast_GET_SIZE(o) > Py_ssize_t(IntTuple::kMaxRank))
      fail("a tuple of " + std::to_string(PySequence_Fast_GET_SIZE(o)) +
           " modes; at most " + std::to_string(IntTuple::kMaxRank));
    count(1);
    b_.open();
    path_.push_back(0);
    // The size is read again each step: an item's __index__ may shrink a
    // list; each item is held while it is read.
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
      path_.back() = i;
      py::object item =
          py::reinterpret_borrow<py::object>(PySequence_Fast_GET_ITEM(o, i));
      read(item.ptr());
    }
    path_.pop_back();
    b_.close();
  }

  void count(size_t n) {
    nodes_ += n;
    if (nodes_ > IntTuple::kMaxNodes)
      fail("more than " + std::to_string(IntTuple::kMaxNodes) +
           " nodes (ints and tuples)");
  }

  /// "shape[1][0]"; a deep path keeps its first 4 and last 2 indices.
  std::string where() const {
    std::string s = what_;
    size_t n = path_.size();
    for (size_t k = 0; k < n; ++k) {
      if (n > 8 && k == 4) {
        s += "...(" + std::to_string(n - 6) + " more)...";
        k = n - 3;
        continue;
      }
      s += "[" + std::to_string(path_[k]) + "]";
    }
    return s;
  }

  [[noreturn]] void fail(const std::string &msg) {
    raise(Diagnostic::error(std::string(what_) + " is " + msg), where());
  }

  const char *what_;
  bool noneAsZero_;
  IntTuple::Builder b_;
  std::vector<Py_ssize_t> path_;
  size_t nodes_ = 0;
};

} // namespace

int64_t toInt64(py::handle h, const char *what) {
  return readInt(h.ptr(), what);
}

/// A packed input word: an int (or an object with __index__, not a bool)
/// in [0, 2^64), which a 64-bit layout takes whole. TypeError for another
/// type, OverflowError outside the range.
uint64_t toUint64(py::handle h, const char *what) {
  PyObject *o = h.ptr();
  if (PyBool_Check(o) || !PyIndex_Check(o)) {
    PyErr_Format(PyExc_TypeError, "%s: expected an int, got %s", what,
                 Py_TYPE(o)->tp_name);
    throw py::error_already_set();
  }
  py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(o));
  if (!i)
    throw py::error_already_set();
  unsigned long long v = PyLong_AsUnsignedLongLong(i.ptr());
  if (v == (unsigned long long)-1 && PyErr_Occurred()) {
    PyErr_Clear();
    std::string r = py::str(i);
    PyErr_Format(PyExc_OverflowError,
                 "%s: %s does not fit in an unsigned 64-bit word [0, 2^64)",
                 what, r.c_str());
    throw py::error_already_set();
  }
  return uint64_t(v);
}

IntTuple toIntTuple(py::handle h, const char *what, bool noneAsZero) {
  PyObject *o = h.ptr();
  if (PyLong_CheckExact(o)) // the common leaf, without a builder
    return IntTuple(readInt(o, what));
  if (PyUnicode_Check(o))
    return unwrap(cute::parseIntTuple(h.cast<std::string>()));
  TupleReader r(what, noneAsZero);
  r.read(o);
  return r.take();
}

std::optional<IntTuple> optionalTuple(py::handle h, const char *what) {
  return h.is_none() ? std::nullopt : std::optional(toIntTuple(h, what));
}

namespace {
/// The leaves of a flat IntTuple `t` read from `what`; a nested mode is a
/// TypeError at its path.
std::vector<int64_t> flatLeaves(const IntTuple &t, const std::string &what) {
  if (t.isLeaf())
    return {t.value()};
  std::vector<int64_t> r;
  for (size_t i = 0; i < size_t(t.rank()); ++i) {
    IntTuple m = t[i];
    if (!m.isLeaf())
      throwPy(PyExc_TypeError, what + "[" + std::to_string(i) +
                                   "]: expected an int, got the tuple " +
                                   m.str());
    r.push_back(m.value());
  }
  return r;
}
} // namespace

std::vector<int64_t> toIntList(py::handle h, const char *what) {
  return flatLeaves(toIntTuple(h, what), what);
}

std::vector<unsigned> toUnsignedList(py::handle h, const char *what) {
  std::vector<int64_t> v = toIntList(h, what);
  std::vector<unsigned> r;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0 || v[i] > int64_t(UINT32_MAX))
      throwPy(PyExc_OverflowError,
              std::string(what) + "[" + std::to_string(i) +
                  "]: " + std::to_string(v[i]) +
                  " does not fit in an unsigned 32-bit integer [0, 2^32)");
    r.push_back(unsigned(v[i]));
  }
  return r;
}

std::vector<std::vector<int64_t>> toIntRows(py::handle h, const char *what) {
  IntTuple t = toIntTuple(h, what);
  if (t.isLeaf())
    throwPy(PyExc_TypeError, std::string(what) +
                                 ": expected a list of lists of ints, got " +
                                 t.str());
  std::vector<std::vector<int64_t>> rows;
  for (size_t i = 0; i < size_t(t.rank()); ++i) {
    std::string row = std::string(what) + "[" + std::to_string(i) + "]";
    IntTuple m = t[i];
    if (m.isLeaf())
      throwPy(PyExc_TypeError,
              row + ": expected a list of ints, got " + m.str());
    rows.push_back(flatLeaves(m, row));
  }
  return rows;
}

py::object toPython(const lk::api::Value &v) {
  using Kind = lk::api::Value::Kind;
  switch (v.kind()) {
  case Kind::Null:
    return py::none();
  case Kind::Bool:
    return py::bool_(v.asBool());
  case Kind::Int:
    return py::int_(v.asInt());
  case Kind::Double:
    return py::float_(v.asDouble());
  case Kind::String:
    return py::str(v.asString());
  case Kind::List: {
    py::list l;
    for (const lk::api::Value &x : v.asList())
      l.append(toPython(x));
    return l;
  }
  case Kind::Record:
    return toDict(v.asRecord());
  case Kind::Json:
    return py::module_::import("json").attr("loads")(v.asJson());
  }
  return py::none();
}

py::dict toDict(const lk::api::Record &r) {
  py::dict d;
  for (size_t i = 0; i < r.size(); ++i)
    d[py::str(r.key(i))] = toPython(r.value(i));
  return d;
}

void initResult(py::module_ &m) {
  auto field = [](const Result &r,
                  const std::string &key) -> const lk::api::Value * {
    return r.record.find(key);
  };
  py::class_<Result>(
      m, "Result",
      "A result of the api layer: its record's keys as attributes, "
      "to_dict() the record (the keys `layoutkit --json` prints)")
      .def_readonly("kind", &Result::kind, "The result type, e.g. 'owners'")
      .def("to_dict", [](const Result &r) { return toDict(r.record); })
      .def("keys",
           [](const Result &r) {
             std::vector<std::string> k;
             for (size_t i = 0; i < r.record.size(); ++i)
               k.push_back(r.record.key(i));
             return k;
           })
      .def("__getattr__",
           [field](const Result &r, const std::string &key) {
             const lk::api::Value *v = field(r, key);
             if (!v)
               throw py::attribute_error(r.kind + " has no field '" + key +
                                         "'");
             return toPython(*v);
           })
      .def("__getitem__",
           [field](const Result &r, const std::string &key) {
             const lk::api::Value *v = field(r, key);
             if (!v)
               throw py::key_error(key);
             return toPython(*v);
           })
      .def("__eq__",
           [](const Result &a, const Result &b) {
             return a.kind == b.kind &&
                    lk::api::toJson(a.record) == lk::api::toJson(b.record);
           })
      .def("__repr__", [](const Result &r) {
        // The record's JSON, cut at kReprChars (a listing may hold 2^16
        // items): the cut says how long the whole is.
        constexpr size_t kReprChars = 400;
        std::string json = lk::api::toJson(r.record);
        if (json.size() > kReprChars)
          json = json.substr(0, kReprChars) + "... (" +
                 std::to_string(json.size()) +
                 " characters; to_dict() has the whole record)";
        return r.kind + "(" + json + ")";
      });
}

py::object fromIntTuple(const IntTuple &t) {
  if (t.isLeaf()) {
    if (!t.basis().empty())
      return py::str(t.str());
    return py::int_(t.value());
  }
  py::tuple r(t.rank());
  for (size_t i = 0; i < t.rank(); ++i)
    r[i] = fromIntTuple(t[i]);
  return r;
}

//===----------------------------------------------------------------------===//
// cute
//===----------------------------------------------------------------------===//

namespace {

/// Mode index i of a layout of `rank` modes, a negative i counted from the
/// end (Python's L[-1]); IndexError outside.
size_t modeIndex(int64_t i, size_t rank) {
  const int64_t k = i < 0 ? i + int64_t(rank) : i;
  if (k < 0 || size_t(k) >= rank)
    throw py::index_error("mode index " + std::to_string(i) + " out of range");
  return size_t(k);
}

/// A Layout from (shape[, stride]) or its text.
Layout makeLayout(py::object shape, py::object stride) {
  if (py::isinstance<py::str>(shape)) {
    if (!stride.is_none())
      throw py::type_error("a layout text takes no stride");
    return unwrap(cute::parseLayout(shape.cast<std::string>()));
  }
  IntTuple s = toIntTuple(shape, "shape");
  if (stride.is_none())
    return unwrap(Layout::compact(s));
  return unwrap(Layout::make(std::move(s), toIntTuple(stride, "stride")));
}

/// A tiler: a Layout, an int (n:1), None (keep the mode), a str (tiler
/// text) or a tuple/list of tilers (one per mode), at most kMaxNesting
/// levels deep. `path` names the place for the messages ("tiler[1]").
Tiler toTiler(py::handle h, const std::string &path = "tiler", int depth = 0) {
  if (h.is_none())
    return Tiler::keep();
  if (py::isinstance<Layout>(h))
    return Tiler::of(h.cast<Layout>());
  if (py::isinstance<py::str>(h))
    return unwrap(cute::parseTiler(h.cast<std::string>()));
  if (py::isinstance<py::tuple>(h) || py::isinstance<py::list>(h)) {
    if (depth >= kMaxNesting)
      raise(Diagnostic::error("tiler is nested deeper than " +
                              std::to_string(kMaxNesting) +
                              " levels (a list that contains itself?)"),
            path);
    std::vector<Tiler> modes;
    py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
    for (size_t i = 0; i < seq.size(); ++i)
      modes.push_back(
          toTiler(seq[i], path + "[" + std::to_string(i) + "]", depth + 1));
    return Tiler::tuple(std::move(modes));
  }
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    throw py::type_error(path +
                         ": expected a Layout, an int, None, a layout "
                         "text or a tuple of tilers, got " +
                         std::string(Py_TYPE(h.ptr())->tp_name));
  return unwrap(Tiler::ofSize(toInt64(h, path.c_str())));
}

/// The coordinate of a call: one argument as is, several as a tuple.
IntTuple callCoord(const py::args &args) {
  if (args.size() == 1)
    return toIntTuple(args[0], "coord");
  return toIntTuple(args, "coord");
}

/// True when `h` is None or a tuple/list holding a None (pycute's
/// has_none), at most kMaxNesting levels deep.
bool hasNone(py::handle h, int depth = 0) {
  if (h.is_none())
    return true;
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    if (depth >= kMaxNesting)
      raise(Diagnostic::error("coordinate is nested deeper than " +
                              std::to_string(kMaxNesting) + " levels"));
    for (py::handle e : h)
      if (hasNone(e, depth + 1))
        return true;
  }
  return false;
}

/// The modes of (s, d) that `crd` marks with None, in order, flattened one
/// level per tuple as CuTe's slice does: slice((_,(_,1)), (a,(b,c))) keeps
/// a and b. @pre crd was converted against the layout (congruent where it
/// is a tuple).
void keptModes(py::handle crd, const IntTuple &s, const IntTuple &d,
               IntTuple &keepS, IntTuple &keepD) {
  if (crd.is_none()) {
    keepS.push_back(s);
    keepD.push_back(d);
    return;
  }
  if (!PyTuple_Check(crd.ptr()) && !PyList_Check(crd.ptr()))
    return;
  py::sequence seq = py::reinterpret_borrow<py::sequence>(crd);
  if (s.isLeaf() || seq.size() != s.rank())
    raise(Diagnostic::error("slice: coordinate " + shortRepr(crd) +
                            " is not congruent to " + s.str()));
  for (size_t i = 0; i < seq.size(); ++i)
    keptModes(seq[i], s[i], d[i], keepS, keepD);
}

/// CuTe's slice_and_offset: the sub-layout of the modes marked None, and
/// L(crd) with None read as 0. Example: ((4,8):(8,1))(None, 2) -> (4):(8), 2.
std::pair<Layout, int64_t> sliceAndOffset(py::handle crd, const Layout &l) {
  int64_t offset =
      unwrap(cute::crd2idx(toIntTuple(crd, "coord", /*noneAsZero=*/true), l));
  IntTuple keepS, keepD;
  keptModes(crd, l.shape(), l.stride(), keepS, keepD);
  return {unwrap(Layout::make(std::move(keepS), std::move(keepD))), offset};
}

//===----------------------------------------------------------------------===//
// Vectorized evaluation: L(ndarray)
//===----------------------------------------------------------------------===//

bool anyArray(const py::args &args) {
  for (py::handle h : args)
    if (py::isinstance<py::array>(h))
      return true;
  return false;
}

/// An integer ndarray (or int) as a C-contiguous int64 array; TypeError for
/// another dtype (floats are never truncated), OverflowError for unsigned
/// values past 2^63 - 1.
py::array_t<int64_t> intArray(py::handle h, const std::string &what) {
  if (!py::isinstance<py::array>(h))
    return py::array_t<int64_t>(
        std::vector<py::ssize_t>{},
        std::vector<int64_t>{toInt64(h, what.c_str())}.data());
  py::array a = py::reinterpret_borrow<py::array>(h);
  char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error(what + ": expected an integer array, got dtype " +
                         std::string(py::str(a.dtype())));
  if (kind == 'u' && a.dtype().itemsize() == 8 && a.size() > 0 &&
      a.attr("max")().cast<uint64_t>() > uint64_t(INT64_MAX))
    throwPy(PyExc_OverflowError,
            what + ": an unsigned value does not fit in a 64-bit integer");
  return py::array_t<int64_t,
                     py::array::c_style | py::array::forcecast>::ensure(a);
}

/// L(i_array) or L(c0_array, c1_array, ...): an int64 array of the
/// broadcast shape; one argument is an array of indices, several are the
/// coordinates of L's top-level modes (ints and arrays broadcast together).
/// A composed layout adds its offset and applies its swizzle.
py::array_t<int64_t> evalArrays(const Layout &l, const py::args &args,
                                const ComposedLayout *c = nullptr) {
  if (l.hasBasisStrides())
    raise(Diagnostic::error("L(array): the layout has basis strides; "
                            "vectorized evaluation needs integer strides"));
  if (args.size() > 1 && args.size() != l.rank())
    raise(Diagnostic::error("L(arrays): " + std::to_string(args.size()) +
                            " coordinate arrays for a layout of rank " +
                            std::to_string(l.rank())));
  std::vector<py::array_t<int64_t>> arrays;
  py::list parts;
  for (size_t k = 0; k < args.size(); ++k) {
    if (PyTuple_Check(args[k].ptr()) || PyList_Check(args[k].ptr()))
      throw py::type_error(
          "L(arrays): argument " + std::to_string(k) +
          " is a tuple; pass one integer array (or int) per mode");
    arrays.push_back(intArray(args[k], "argument " + std::to_string(k)));
    parts.append(arrays.back());
  }
  // numpy's broadcasting gives the result shape and views of each argument.
  py::tuple views =
      py::module_::import("numpy").attr("broadcast_arrays")(*parts);
  py::array first = views[0].cast<py::array>();
  std::vector<py::ssize_t> shape(first.shape(), first.shape() + first.ndim());
  std::vector<py::array_t<int64_t>> flat;
  std::vector<api::EvalColumn> cols;
  for (size_t k = 0; k < views.size(); ++k) {
    flat.push_back(
        py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(
            views[k].attr("copy")()));
    cols.push_back({flat.back().data(), args.size() == 1 ? l : l.mode(k)});
  }
  py::array_t<int64_t> out(shape);
  std::optional<api::ColumnFailure> bad;
  {
    py::gil_scoped_release nogil;
    bad =
        api::evaluateColumns(cols, {out.mutable_data(), size_t(out.size())}, c);
  }
  if (bad)
    raise(bad->why,
          "element " + std::to_string(bad->element) + " (flat index)");
  return out;
}

/// L(coord) (pycute's __call__): an int, or the codomain tuple for basis
/// strides; a coordinate with None slices (the sub-layout, as pycute).
py::object callLayout(const Layout &l, const py::args &args) {
  if (args.size() == 1 && PyLong_CheckExact(args[0].ptr()) &&
      !l.hasBasisStrides())
    return py::int_(
        unwrap(cute::crd2idx(IntTuple(toInt64(args[0], "index")), l)));
  if (anyArray(args))
    return evalArrays(l, args);
  py::handle crd = args.size() == 1 ? args[0] : py::handle(args);
  // Read first (bounded, with the path of a fault), None as 0; a None
  // makes the call a slice.
  IntTuple c = toIntTuple(crd, "coord", /*noneAsZero=*/true);
  if (hasNone(crd))
    return py::cast(sliceAndOffset(crd, l).first);
  if (l.hasBasisStrides())
    return fromIntTuple(unwrap(cute::crd2offset(c, l)));
  return py::int_(unwrap(cute::crd2idx(c, l)));
}

/// pycute's crd2idx(crd, shape, stride=None) and crd2idx(crd, layout):
/// the offset of `crd` (None read as 0) in shape:stride (compact strides
/// when none are given).
int64_t crd2idxAny(py::object crd, py::object shape, py::object stride) {
  IntTuple c = toIntTuple(crd, "coord", /*noneAsZero=*/true);
  const bool composed = py::isinstance<ComposedLayout>(shape);
  if (composed || py::isinstance<Layout>(shape)) {
    if (!stride.is_none())
      throw py::type_error("crd2idx(coord, layout) takes no stride");
    return composed ? unwrap(cute::crd2idx(c, shape.cast<ComposedLayout>()))
                    : unwrap(cute::crd2idx(c, shape.cast<const Layout &>()));
  }
  return unwrap(cute::crd2idx(c, makeLayout(shape, stride)));
}

py::object idx2crdAny(py::object idx, py::object shape, py::object stride) {
  IntTuple s = toIntTuple(shape, "shape");
  if (stride.is_none() && PyIndex_Check(idx.ptr()) && !PyBool_Check(idx.ptr()))
    return fromIntTuple(unwrap(cute::idx2crd(toInt64(idx, "index"), s)));
  IntTuple d = stride.is_none() ? unwrap(prefixProduct(s))
                                : toIntTuple(stride, "stride");
  return fromIntTuple(unwrap(api::idx2crd(toIntTuple(idx, "index"), s, d)));
}

/// make_layout(A, B, ...) or pycute's make_layout([A, B, ...]) (any
/// iterable of layouts).
Layout makeLayoutOf(const py::args &args) {
  py::object seq = args;
  if (args.size() == 1 && !py::isinstance<Layout>(args[0]))
    seq = args[0];
  std::vector<Layout> v;
  size_t i = 0;
  for (py::handle h : py::iter(seq)) {
    if (!py::isinstance<Layout>(h))
      throw py::type_error("make_layout: mode " + std::to_string(i) +
                           " is not a Layout (" + Py_TYPE(h.ptr())->tp_name +
                           ")");
    v.push_back(h.cast<Layout>());
    ++i;
  }
  return unwrap(cute::makeLayout(v));
}

/// Sw(off + L(i)) for every i < size(L) (api::offsets, without the GIL) as
/// an int64 numpy array.
py::array_t<int64_t> composedOffsets(const ComposedLayout &c) {
  std::vector<int64_t> v = unwrapWithoutGil([&] { return api::offsets(c); });
  return py::array_t<int64_t>(py::ssize_t(v.size()), v.data());
}

Layout asLayout(py::handle h, const char *what);

/// A Python argument as a value of `kind` (api/CuteOps.h): a Layout (or an
/// int n, pycute's Layout(n)), a tiler (toTiler), an int tuple or an int.
api::CuteValue cuteValueOf(py::handle h, const api::CuteParam &p,
                           const char *name) {
  const std::string what(name);
  switch (p.kind) {
  case api::CuteKind::Layout:
    return {asLayout(h, what.c_str())};
  case api::CuteKind::Tiler:
    return {toTiler(h, what)};
  case api::CuteKind::IntTuple:
    return {toIntTuple(h, what.c_str())};
  case api::CuteKind::Integer:
    return {toInt64(h, what.c_str())};
  }
  throw py::type_error(what + ": unknown kind");
}

/// An answer as Python returns it: a Layout, an int or a tuple.
py::object pythonOf(const api::CuteValue &v) {
  if (const Layout *l = std::get_if<Layout>(&v.value))
    return py::cast(*l);
  if (const IntTuple *t = std::get_if<IntTuple>(&v.value))
    return fromIntTuple(*t);
  if (const int64_t *n = std::get_if<int64_t>(&v.value))
    return py::int_(*n);
  return py::str(v.str());
}

/// The registry's `op` on Python arguments, named in messages as the
/// Python function names them (`names`, one per argument); None for an
/// optional parameter leaves it out (None as a tiler is pycute's `_`).
py::object callOp(const api::CuteOp &op, std::initializer_list<py::handle> in,
                  std::initializer_list<const char *> names) {
  std::vector<api::CuteValue> args;
  size_t i = 0;
  for (py::handle h : in) {
    if (!(h.is_none() && op.params[i].optional))
      args.push_back(cuteValueOf(h, op.params[i], names.begin()[i]));
    ++i;
  }
  return pythonOf(unwrap(api::callCuteOp(op, std::move(args))));
}

/// Defines the Python function of the registry's operation `name` with
/// pycute's keyword names (one per parameter; an optional parameter
/// defaults to None) and the doc of its row, `example` appended.
void defCuteOp(py::module_ &m, const char *name,
               std::vector<const char *> keywords, const char *example) {
  const api::CuteOp *op = api::findCuteOp(name);
  if (!op || op->params.size() != keywords.size())
    throw std::logic_error(std::string("no registry row for ") + name);
  const std::string doc = std::string(op->doc) + ". " + example;
  const char *k0 = keywords[0], *k1 = keywords.size() > 1 ? keywords[1] : "";
  auto one = [op, k0](py::object a) { return callOp(*op, {a}, {k0}); };
  auto two = [op, k0, k1](py::object a, py::object b) {
    return callOp(*op, {a, b}, {k0, k1});
  };
  if (keywords.size() == 1)
    m.def(name, one, py::arg(keywords[0]), doc.c_str());
  else if (op->params[1].optional)
    m.def(name, two, py::arg(keywords[0]), py::arg(keywords[1]) = py::none(),
          doc.c_str());
  else
    m.def(name, two, py::arg(keywords[0]), py::arg(keywords[1]), doc.c_str());
}

void bindLayout(py::module_ &m) {
  py::class_<Layout>(
      m, "Layout",
      R"doc(A CuTe layout L = shape:stride, a map from coordinates to offsets.

L(c) = sum_i c_i * d_i over the leaves of the coordinate (an integer index
is first split colexicographically over the shape). Built like pycute's
Layout: Layout(shape, stride) with nested tuples, Layout(shape) for the
compact column-major strides, or Layout("(4,8):(8,1)") from CuTe's text.

Example:
    >>> L = Layout((4, 8), (8, 1))
    >>> L(1), L(1, 2), L.size(), L
    (8, 10, 32, (4,8):(8,1))
)doc")
      .def(py::init(&makeLayout), py::arg("shape"),
           py::arg("stride") = py::none())
      .def("__call__", &callLayout,
           "L(i) or L(*coord): the offset sum c_i*d_i; an int i is split "
           "colexicographically. Example: Layout((4,8),(8,1))(1,2) == 10")
      .def(
          "to_dict",
          [](const Layout &l) { return toDict(lk::api::describe(l)); },
          "The layout's record, the fields `layoutkit --json` prints: layout, "
          "shape, stride, size, cosize, rank, depth")
      .def_property_readonly(
          "shape", [](const Layout &l) { return fromIntTuple(l.shape()); },
          "The shape as nested tuples, e.g. (4, 8)")
      .def_property_readonly(
          "stride", [](const Layout &l) { return fromIntTuple(l.stride()); },
          "The stride as nested tuples, e.g. (8, 1)")
      .def("size", &Layout::size,
           "prod(shape). Example: Layout((4,8)).size() == 32")
      .def("cosize", bound(&Layout::cosize),
           "L(size-1) + 1 (the codomain size). Example: "
           "Layout((4,8),(8,1)).cosize() == 32")
      .def("rank", &Layout::rank, "The number of top-level modes")
      .def("depth", &Layout::depth,
           "The nesting depth (0 for an integer shape)")
      .def("__len__", &Layout::rank)
      .def(
          "__getitem__",
          [](const Layout &l, int64_t i) {
            return l.mode(modeIndex(i, l.rank()));
          },
          "Mode i as a layout")
      .def(
          "__getitem__",
          [](const Layout &l, const py::slice &s) {
            size_t start = 0, stop = 0, step = 0, n = 0;
            if (!s.compute(l.rank(), &start, &stop, &step, &n))
              throw py::error_already_set();
            std::vector<Layout> modes;
            for (size_t k = 0; k < n; ++k)
              modes.push_back(l.mode(start + k * step));
            return unwrap(cute::makeLayout(modes));
          },
          "The modes a slice selects, as one layout (pycute's L[a:b]). "
          "Example: Layout((4,8,2),(8,1,32))[0:2] == Layout((4,8),(8,1))")
      .def(
          "offsets",
          [](const Layout &l) {
            return composedOffsets({cute::Swizzle{}, 0, l});
          },
          "numpy int64 array [L(0), ..., L(size-1)], computed in C++. "
          "Example: Layout((2,2),(2,1)).offsets() -> [0, 2, 1, 3]")
      .def(py::self == py::self)
      .def(py::self != py::self)
      .def("__hash__",
           [](const Layout &l) {
             return l.shape().hash() * 31 + l.stride().hash();
           })
      .def("__repr__", &Layout::str)
      .def("__str__", &Layout::str)
      .def(py::pickle(
          [](const Layout &l) { return l.str(); },
          [](const std::string &s) { return unwrap(cute::parseLayout(s)); }));
}

void bindSwizzle(py::module_ &m) {
  py::class_<Swizzle>(
      m, "Swizzle",
      R"doc(CuTe's Swizzle<B,M,S> (pycute: Swizzle(bits, base, shift)).

Sw(x) = x XOR ((x & (2^B-1) << (M+S)) >> S): the B bits at M+S are XORed
into the B bits at M.

Example:
    >>> Swizzle(3, 4, 3)(128)
    144
)doc")
      .def(py::init([](Int64 b, Int64 mm, Int64 s) {
             return unwrap(Swizzle::make(b, mm, s));
           }),
           py::arg("bits"), py::arg("base"), py::arg("shift"))
      .def(
          "__call__", [](const Swizzle &s, Int64 x) { return s(x); },
          py::arg("offset"))
      .def("size", &Swizzle::size,
           "2^(bits + base + |shift|): the offsets the swizzle permutes among "
           "themselves")
      .def("cosize", &Swizzle::size, "Same as size()")
      .def_readonly("bits", &Swizzle::B)
      .def_readonly("base", &Swizzle::M)
      .def_readonly("shift", &Swizzle::S)
      .def(py::self == py::self)
      .def("__hash__",
           [](const Swizzle &s) {
             return py::hash(py::make_tuple(s.B, s.M, s.S));
           })
      .def("__repr__", &Swizzle::str);
}

ComposedLayout makeComposed(py::object a, py::object offset, py::object inner) {
  if (py::isinstance<py::str>(a) && offset.is_none() && inner.is_none())
    return unwrap(cute::parseComposedLayout(a.cast<std::string>()));
  if (!py::isinstance<Swizzle>(a) || !py::isinstance<Layout>(inner))
    throw py::type_error(
        "ComposedLayout(Swizzle, offset, Layout) or ComposedLayout(text)");
  return unwrap(ComposedLayout::make(
      a.cast<Swizzle>(), offset.is_none() ? 0 : toInt64(offset, "offset"),
      inner.cast<Layout>()));
}

void bindComposed(py::module_ &m) {
  py::class_<ComposedLayout>(
      m, "ComposedLayout",
      R"doc(Sw o off o L: L(c) + off, then the swizzle (pycute's ComposedLayout(layoutB, offset, layoutA)).

Example:
    >>> C = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    >>> C(2, 0)
    144
    >>> ComposedLayout("Sw<3,4,3> o (8,64):(64,1)") == C
    True
)doc")
      .def(py::init(&makeComposed), py::arg("layoutB"),
           py::arg("offset") = py::none(), py::arg("layoutA") = py::none())
      .def_readonly("swizzle", &ComposedLayout::swizzle)
      .def_readonly("offset", &ComposedLayout::offset)
      .def_readonly("layout", &ComposedLayout::layout)
      .def_property_readonly("layoutB",
                             [](const ComposedLayout &c) { return c.swizzle; })
      .def_property_readonly("layoutA",
                             [](const ComposedLayout &c) { return c.layout; })
      .def(
          "to_dict",
          [](const ComposedLayout &c) { return toDict(lk::api::describe(c)); },
          "The layout's record, the fields `layoutkit --json` prints: layout, "
          "swizzle, offset, inner")
      .def_property_readonly("shape",
                             [](const ComposedLayout &c) {
                               return fromIntTuple(c.layout.shape());
                             })
      .def("size", [](const ComposedLayout &c) { return c.layout.size(); })
      .def("__len__", [](const ComposedLayout &c) { return c.layout.rank(); })
      .def(
          "__getitem__",
          [](const ComposedLayout &c, int64_t i) {
            return ComposedLayout{c.swizzle, c.offset,
                                  c.layout.mode(modeIndex(i, c.layout.rank()))};
          },
          "Sw o off o L[i]: mode i with the same swizzle and offset (pycute)")
      .def(
          "cosize",
          [](const ComposedLayout &c) { return unwrap(c.layout.cosize()); },
          "cosize of the inner layout, as CuTe C++ (pycute returns the "
          "swizzle's size)")
      .def(
          "__call__",
          [](const ComposedLayout &c, const py::args &args) -> py::object {
            if (anyArray(args))
              return evalArrays(c.layout, args, &c);
            return fromIntTuple(unwrap(api::evaluate(c, callCoord(args))));
          },
          "Sw(offset + L(coord)); integer arrays evaluate element-wise")
      .def("offsets", &composedOffsets,
           "numpy array of Sw(off + L(i)) for i < size")
      .def(py::self == py::self)
      .def("__hash__",
           [](const ComposedLayout &c) { return py::hash(py::str(c.str())); })
      .def("__repr__", &ComposedLayout::str);
}

/// A Layout, or an int n read as pycute does (Layout(n): the compact n:1).
Layout asLayout(py::handle h, const char *what) {
  if (py::isinstance<Layout>(h))
    return h.cast<Layout>();
  if (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr()))
    return unwrap(Layout::compact(IntTuple(toInt64(h, what))));
  throw py::type_error(std::string(what) +
                       ": expected a Layout or an int, got " +
                       Py_TYPE(h.ptr())->tp_name);
}

/// size / rank / depth of a layout or an IntTuple (pycute's free functions).
int64_t sizeOf(py::object x) {
  if (py::isinstance<Layout>(x))
    return x.cast<Layout>().size();
  if (py::isinstance<ComposedLayout>(x))
    return x.cast<ComposedLayout>().layout.size();
  return unwrap(toIntTuple(x, "shape").product());
}

/// The registry's one-line doc of `name` (api/CuteOps.h) followed by
/// `more`, for the Python functions that extend its row (pycute's forms).
/// (pybind11 copies a function's doc string.)
std::string registryDoc(const char *name, const char *more) {
  const api::CuteOp *op = api::findCuteOp(name);
  return (op ? std::string(op->doc) : std::string()) + more;
}

void bindAlgebra(py::module_ &m) {
  m.def("size", &sizeOf, py::arg("x"),
        registryDoc("size", "; also of a shape (the product of its leaves). "
                            "Example: size((4,(2,3))) == 24")
            .c_str());
  m.def(
      "cosize",
      [](py::object x) {
        if (py::isinstance<ComposedLayout>(x))
          return unwrap(x.cast<const ComposedLayout &>().layout.cosize());
        if (py::isinstance<Swizzle>(x))
          return x.cast<const Swizzle &>().size();
        return unwrap(asLayout(x, "layout").cosize());
      },
      py::arg("layout"),
      registryDoc("cosize", ". Example: cosize(Layout((4,8),(8,1))) == 32")
          .c_str());
  m.def(
      "rank",
      [](py::object x) -> int64_t {
        if (py::isinstance<Layout>(x))
          return int64_t(x.cast<Layout>().rank());
        if (py::isinstance<ComposedLayout>(x))
          return int64_t(x.cast<const ComposedLayout &>().layout.rank());
        return int64_t(toIntTuple(x, "shape").rank());
      },
      py::arg("x"),
      registryDoc("rank", "; also of a shape. Example: rank((4,(2,3))) == 2")
          .c_str());
  m.def(
      "depth",
      [](py::object x) -> int64_t {
        if (py::isinstance<ComposedLayout>(x))
          return x.cast<const ComposedLayout &>().layout.depth();
        if (py::isinstance<Layout>(x))
          return x.cast<Layout>().depth();
        return toIntTuple(x, "shape").depth();
      },
      py::arg("x"),
      registryDoc("depth", "; also of a shape. Example: depth((4,(2,3))) == 2")
          .c_str());
  m.def(
      "crd2idx", &crd2idxAny, py::arg("coord"), py::arg("shape"),
      py::arg("stride") = py::none(),
      registryDoc("crd2idx",
                  ": crd2idx(coord, layout) or pycute's crd2idx(coord, shape, "
                  "stride=None) (compact strides by default; "
                  "None in coord reads as 0). Example: crd2idx((1,2), "
                  "Layout((4,8),(8,1))) == crd2idx((1,2), (4,8), (8,1)) == 10")
          .c_str());
  m.def(
      "idx2crd", &idx2crdAny, py::arg("index"), py::arg("shape"),
      py::arg("stride") = py::none(),
      registryDoc("idx2crd",
                  ": 0 <= i < size(shape); with a stride (or an index tuple), "
                  "CuTe's (i / d) % s at each leaf. Example: idx2crd(5, (4,8)) "
                  "== (1, 1) and idx2crd(13, (4,8), (1,4)) == (1, 3)")
          .c_str());
  m.def("make_layout", &makeLayoutOf,
        "The layout whose modes are the arguments, or the layouts of one "
        "iterable. "
        "Example: make_layout(Layout(4,1), Layout(8,4)) == "
        "make_layout([Layout(4,1), Layout(8,4)]) == Layout((4,8),(1,4))");
  m.def(
      "slice_and_offset",
      [](py::object crd, const Layout &l) { return sliceAndOffset(crd, l); },
      py::arg("coord"), py::arg("layout"),
      "(the modes of L marked None in coord, L(coord with None as 0)). "
      "Example: slice_and_offset((None, 2), Layout((4,8),(8,1))) == "
      "(Layout((4,),(8,)), 2)");
  m.def(
      "has_none",
      [](py::object x) {
        toIntTuple(x, "value", /*noneAsZero=*/true); // bounded, path on a fault
        return hasNone(x);
      },
      py::arg("x"),
      "True when x is None or a (nested) tuple holding None (a slice mark). "
      "Example: has_none((1,(None,2))) == True");
  m.def(
      "slice_",
      [](py::object crd, py::object trg) {
        IntTuple t = toIntTuple(trg, "target");
        toIntTuple(crd, "coord", /*noneAsZero=*/true); // bounds the walk below
        IntTuple keepS, keepD;
        keptModes(crd, t, t, keepS, keepD);
        return fromIntTuple(keepS);
      },
      py::arg("coord"), py::arg("target"),
      "The modes of target marked None in coord, flattened one level per tuple "
      "(CuTe's slice). "
      "Example: slice_((None,(None,1)), (4,(8,2))) == (4, 8)");
  m.def(
      "flatten",
      [](py::object x) -> py::object {
        if (py::isinstance<Layout>(x))
          return py::cast(cute::flatten(x.cast<const Layout &>()));
        IntTuple t = toIntTuple(x, "value");
        IntTuple flat = unwrap(t.flatten());
        return fromIntTuple(flat.isLeaf() ? IntTuple::tuple({flat}) : flat);
      },
      py::arg("x"),
      "The leaves as top-level modes (a Layout), or the leaves of a tuple as a "
      "flat tuple (pycute; an int gives (int,)). "
      "Example: flatten(Layout((2,(2,2)),(1,(2,4)))) == "
      "Layout((2,2,2),(1,2,4)) and flatten((1,(2,3))) == (1, 2, 3)");
  m.def(
      "product",
      [](py::object x) { return unwrap(toIntTuple(x, "shape").product()); },
      py::arg("x"),
      "The product of the leaves. Example: product((2,(3,4))) == 24");
  m.def(
      "prefix_product",
      [](py::object x, Int64 init) {
        return fromIntTuple(
            unwrap(prefixProduct(toIntTuple(x, "shape"), init)));
      },
      py::arg("shape"), py::arg("init") = 1,
      "Exclusive prefix products, congruent to the shape. Example: "
      "prefix_product((2,(3,4))) == (1, (2, 6))");
  m.def(
      "shape_div",
      [](py::object a, py::object b) {
        return fromIntTuple(unwrap(cute::shape_div(toIntTuple(a, "shape"),
                                                   toIntTuple(b, "divisor"),
                                                   cute::Rounding::Exact)));
      },
      py::arg("shape"), py::arg("divisor"),
      "Divides a shape mode by mode, the divisor carried over (each step needs "
      "s % d == 0 or d % s == 0). "
      "Example: shape_div((4,6), 8) == (1, 3)");
  m.def(
      "tabulate",
      [](py::object x) {
        ComposedLayout c = py::isinstance<ComposedLayout>(x)
                               ? x.cast<ComposedLayout>()
                               : ComposedLayout{{}, 0, asLayout(x, "layout")};
        api::OffsetTable t = unwrap(api::tabulate(c));
        py::array_t<int64_t> a({t.rows, t.cols});
        auto cells = a.mutable_unchecked<2>();
        for (int64_t r = 0; r < t.rows; ++r)
          for (int64_t k = 0; k < t.cols; ++k) {
            if (!t.at(r, k).isLeaf())
              raise(
                  Diagnostic::error("tabulate: the layout has basis strides"));
            cells(r, k) = t.at(r, k).value();
          }
        return a;
      },
      py::arg("layout"),
      "The table `layoutkit show` draws (api::tabulate): rank 2 cell (r, c) = "
      "L(r, c), rank 0 or 1 "
      "one row; a ComposedLayout gives Sw(off + L(..)). Example: "
      "tabulate(Layout((2,2),(2,1))).tolist() "
      "== [[0, 1], [2, 3]]");
  m.def(
      "tv_grid",
      [](const Layout &tv, py::object shape) {
        return tvGridTuple(unwrap(api::tvGrid(tv, toIntList(shape, "shape"))));
      },
      py::arg("tv"), py::arg("shape"),
      "The tile `shape` ((rows,) or (rows, cols)) a TV layout (thread, value) "
      "-> index reaches "
      "(api::tvGrid; index i is cell (i mod rows, i div rows)): (rows, cols, "
      "cells), cells[r * cols + c] "
      "the (thread, value) pairs there, by thread then value. Example: "
      "tv_grid(Layout((2,2),(1,2)), (2, 2))"
      " == (2, 2, [[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]])");
  // The algebra: made from the registry (api/CuteOps.h), pycute's names.
  defCuteOp(m, "coalesce", {"layout", "profile"},
            "Example: coalesce(Layout((2,4),(1,2))) == Layout(8, 1)");
  defCuteOp(m, "filter", {"layout", "profile"},
            "Example: filter(Layout((4,2),(1,0))) == Layout(4, 1)");
  defCuteOp(
      m, "filter_zeros", {"layout"},
      "Example: filter_zeros(Layout((4,3),(1,0))) == Layout((4,1),(1,0))");
  defCuteOp(m, "complement", {"layout", "max_idx"},
            "Example: complement(Layout(4, 2), 16) == Layout((2,2),(1,8))");
  defCuteOp(m, "max_common_layout", {"a", "b"},
            "Example: max_common_layout(Layout(8,1), Layout((2,4),(1,8))) == "
            "Layout(2, 1)");
  defCuteOp(
      m, "max_common_vector", {"a", "b"},
      "Example: max_common_vector(Layout((4,2),(1,8)), Layout(8,1)) == 4");
  defCuteOp(m, "logical_divide", {"layout", "tiler"},
            "Example: logical_divide(Layout(16,1), Layout(4,1)) == "
            "Layout((4,4),(1,4))");
  defCuteOp(m, "logical_product", {"layout", "tiler"},
            "Example: logical_product(Layout(2,1), Layout(3,1)) == "
            "Layout((2,3),(1,2))");
  // The zipped, tiled and flat forms: the registry's summary alone.
  for (const char *name : {"zipped_divide", "tiled_divide", "flat_divide",
                           "zipped_product", "tiled_product", "flat_product"})
    defCuteOp(m, name, {"layout", "tiler"}, "");
  defCuteOp(m, "blocked_product", {"block", "layout"},
            "Example: blocked_product(Layout((2,2),(1,2)), Layout((2,1))) == "
            "Layout(((2,2),(2,1)),((1,4),(2,0)))");
  defCuteOp(m, "raked_product", {"block", "layout"}, "");
  // pycute's extensions of the registry's rows: a ComposedLayout composes
  // its layout; an inverse of None is None.
  const api::CuteOp *composition = api::findCuteOp("composition");
  m.def(
      "composition",
      [composition](py::object a, py::object b) -> py::object {
        if (py::isinstance<ComposedLayout>(a)) {
          ComposedLayout c = a.cast<ComposedLayout>();
          c.layout = unwrap(cute::composition(c.layout, toTiler(b)));
          return py::cast(c);
        }
        return callOp(*composition, {a, b}, {"layoutA", "tiler"});
      },
      py::arg("layoutA"), py::arg("layoutB"),
      (std::string(composition->doc) +
       "; B may be a tiler (a tuple of layouts, ints or None per mode) and A a "
       "ComposedLayout. Example: composition(Layout((4,8),(8,1)), Layout(4,2)) "
       "== "
       "Layout((2,2),(16,1))")
          .c_str());
  for (const char *name : {"right_inverse", "left_inverse"}) {
    const api::CuteOp *op = api::findCuteOp(name);
    m.def(
        name,
        [op](py::object x) -> py::object {
          return x.is_none() ? py::none() : callOp(*op, {x}, {"layout"});
        },
        py::arg("layout"),
        (std::string(op->doc) + " (None gives None, as pycute)").c_str());
  }
  m.def(
      "cute_ops",
      [] {
        py::list out;
        for (const api::CuteOp &op : api::cuteOps()) {
          py::list params;
          for (const api::CuteParam &p : op.params)
            params.append(py::dict(py::arg("name") = std::string(p.name),
                                   py::arg("kind") =
                                       std::string(api::cuteKindName(p.kind)),
                                   py::arg("optional") = p.optional));
          out.append(py::dict(py::arg("name") = std::string(op.name),
                              py::arg("params") = params,
                              py::arg("result") =
                                  std::string(api::cuteKindName(op.result)),
                              py::arg("doc") = std::string(op.doc)));
        }
        return out;
      },
      "The registry of cute operations every front end is made from: a list of "
      "{name, params: [{name, kind, optional}], result, doc}. Example: "
      "[o['name'] for o in cute_ops()][:4] == ['size', 'cosize', 'rank', "
      "'depth']");
  m.def(
      "swizzle_apply",
      [](Int64 b, Int64 mm, Int64 s, Int64 x) {
        check(cute::swizzleParamsValid(b, mm, s)); // the CLI's check
        return cute::swizzleApply(int(b), int(mm), int(s), x);
      },
      py::arg("bits"), py::arg("base"), py::arg("shift"), py::arg("offset"),
      "The swizzle formula for any parameters, also those Swizzle() refuses "
      "(|shift| < bits): "
      "x XOR ((x & mask) >> shift), mask = (2^bits - 1) << (base + max(shift, "
      "0)), a negative shift moving bits up. "
      "Example: swizzle_apply(3, 4, 3, 128) == 144");
  m.def(
      "equivalent",
      [](const Layout &a, const Layout &b) {
        return unwrap(cute::equivalent(a, b));
      },
      py::arg("a"), py::arg("b"),
      "True when A(i) == B(i) for every i (and equal sizes)");
}

} // namespace

void initCute(py::module_ &m) {
  bindLayout(m);
  bindSwizzle(m);
  bindComposed(m);
  bindAlgebra(m);
}

} // namespace lkpy

PYBIND11_MODULE(_layoutkit, m) {
  m.doc() = "LayoutKit: CuTe layouts, tile layouts, linear layouts over F2, "
            "hardware atoms and conversion plans (C++ core).";
  lkpy::initErrors(m);
  lkpy::initResult(m);
  lkpy::initCute(m);
  lkpy::initModels(m);
  lkpy::initHwPlan(m);
}
