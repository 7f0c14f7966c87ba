//===- Common.h - Shared helpers of the Python bindings ----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What every binding file needs: a Diagnostic raised as
/// `layoutkit.LayoutError` (a ValueError carrying the message, the column,
/// line and offset it points at, the text and the notes), and conversions
/// between Python values and the library's IntTuple (nested tuples of ints,
/// e.g. (4,(2,8)) <-> IntTuple "(4,(2,8))").
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PYTHON_COMMON_H
#define LAYOUTKIT_PYTHON_COMMON_H

// Cast failures name the Python and the C++ type (the module's translation
// turns them into TypeError); defined before pybind11 in every binding file.
#define PYBIND11_DETAILED_ERROR_MESSAGES

#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Query.h"
#include "layoutkit/api/Record.h"
#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/TupleSyntax.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <utility>

namespace lkpy {

namespace py = pybind11;

/// The LayoutError type (created once by initErrors).
py::object &layoutErrorType();
/// Creates layoutkit.LayoutError in module `m` and registers the module's
/// one error translation: a pybind11 cast failure (a Python value of the
/// wrong type for a C++ parameter) raises TypeError, never RuntimeError.
void initErrors(py::module_ &m);

/// Raises `d` as LayoutError (never returns). `path` is where in a Python
/// value the fault is ("shape[1][0]"); it is set as the error's `path`
/// attribute (None when empty) and prefixes the message.
[[noreturn]] void raise(const lk::Diagnostic &d, const std::string &path = {});

/// The value of `e`, or LayoutError with its diagnostic.
template <class T> T unwrap(lk::Expected<T> e) {
  if (!e)
    raise(e.error());
  return std::move(*e);
}
/// The value of f() run without the GIL (f reads no Python object: a
/// long library call lets other Python threads run), or LayoutError.
template <class F> auto unwrapWithoutGil(F f) {
  auto e = [&] {
    py::gil_scoped_release nogil;
    return f();
  }();
  return unwrap(std::move(e));
}
inline void check(const lk::Status &s) {
  if (!s)
    raise(s.error());
}

/// Deepest nesting of a Python tuple/list read as an IntTuple or a tiler:
/// the bound of the text grammar (64), so a self-referencing list or a
/// 100000-deep list is a LayoutError, not a stack overflow.
inline constexpr int kMaxNesting = lk::cute::detail::kMaxTupleNesting;

/// An integer argument: a Python int or any object with __index__ (numpy
/// integers), never a bool or a float. TypeError for another type,
/// OverflowError outside [-2^63, 2^63). `what` names the argument.
int64_t toInt64(py::handle h, const char *what);
/// A 64-bit word (a packed input, a descriptor): an int (or __index__, not
/// a bool) in [0, 2^64). TypeError for another type, OverflowError outside.
uint64_t toUint64(py::handle h, const char *what);

/// An int64_t function parameter read with toInt64's rules (pybind11's own
/// int64_t caster refuses 2^64 as "incompatible arguments"): declare the
/// parameter as `Int64 n` and use it as an int64_t.
struct Int64 {
  int64_t v = 0;
  operator int64_t() const { return v; }
};

/// How a parameter of C++ type T of a library function is read from
/// Python by `bound`: an int64_t as Int64, others as pybind11 reads them.
/// A binding file specializes it for its own types (a dim by its name).
template <class T> struct Arg {
  using Py = T;
  static T read(T v) { return v; }
};
template <> struct Arg<int64_t> {
  using Py = Int64;
  static int64_t read(Int64 v) { return v; }
};

/// A library answer of type T as Python returns it: an Expected's value
/// (else LayoutError), anything else as is; specialized like Arg.
template <class T> struct Answer {
  static T of(T v) { return v; }
};
template <class T> struct Answer<lk::Expected<T>> {
  static T of(lk::Expected<T> e) { return unwrap(std::move(e)); }
};
/// An optional value as the value or None.
template <class T> py::object orNone(const std::optional<T> &v) {
  return v ? py::cast(*v) : py::none();
}
template <class T> struct Answer<std::optional<T>> {
  static py::object of(const std::optional<T> &v) { return orNone(v); }
};

/// The binding of a library function or const member function `f`: its
/// parameters read by Arg, its answer given by Answer. Example:
/// `.def("concat_ins", bound(&LinearLayout::concatIns))`.
template <class R, class... A> auto bound(R (*f)(A...)) {
  return [f](typename Arg<A>::Py... a) {
    return Answer<R>::of(f(Arg<A>::read(a)...));
  };
}
template <class R, class C, class... A> auto bound(R (C::*f)(A...) const) {
  return [f](const C &c, typename Arg<A>::Py... a) {
    return Answer<R>::of((c.*f)(Arg<A>::read(a)...));
  };
}

/// An int or a (nested) tuple/list of ints as an IntTuple; a `str` is read
/// as IntTuple text ("(4,(2,8))", also basis strides "1@0"). At most
/// kMaxNesting levels and IntTuple::kMaxNodes nodes (LayoutError with the
/// path), TypeError for another leaf type, OverflowError outside int64.
/// `what` names the argument in the messages ("shape", "coord").
/// `noneAsZero` reads a None leaf as 0 (a coordinate with slice marks).
lk::IntTuple toIntTuple(py::handle h, const char *what = "value",
                        bool noneAsZero = false);
/// toIntTuple(h, what), none for None (an optional shape= argument).
std::optional<lk::IntTuple> optionalTuple(py::handle h, const char *what);
/// A flat list of ints (a shape, sizes): an int (a list of one), a tuple,
/// list or other sequence (a numpy array) of ints, or IntTuple text
/// "(64,64)", read by toIntTuple, so a fault names its path: "shape[0]:
/// 2**64 does not fit" (OverflowError), "shape[0]: expected an int"
/// (TypeError). A nested tuple is a TypeError naming the nested item.
std::vector<int64_t> toIntList(py::handle h, const char *what);
/// toIntList for the library's unsigned parameters: OverflowError (with
/// the path) for a value outside [0, 2^32).
std::vector<unsigned> toUnsignedList(py::handle h, const char *what);
/// A list of lists of ints ([[0, 1], [1, 0]]: bases, per-lane indices),
/// each row read like toIntList; the path names row and item
/// ("access[3][1]"). A row that is an int is a TypeError.
std::vector<std::vector<int64_t>> toIntRows(py::handle h, const char *what);
/// An IntTuple as an int or nested tuples; a basis-stride leaf as its text
/// ("2@1").
py::object fromIntTuple(const lk::IntTuple &t);

/// A value of an api record (api/Record.h) as Python: None, bool, int,
/// float, str, list, or dict for a record.
py::object toPython(const lk::api::Value &v);
/// A record as a dict: the fields of a result's to_dict().
py::dict toDict(const lk::api::Record &r);

/// A TV grid (api::tvGrid, api::atomGrid) as (rows, cols, cells),
/// cells[r * cols + c] the [(thread, value), ...] there.
py::tuple tvGridTuple(const lk::api::TvGrid &g);

/// A result of the api layer as Python (layoutkit.Result): its record's
/// keys are its attributes (record values as toPython gives them),
/// to_dict() is the record as a dict, `kind` names the result type, e.g.
/// T.owners(9).owners == [{'owner': {'laneid': 4}, 'at': {'m': 1}}].
struct Result {
  std::string kind;
  lk::api::Record record;
};
/// Registers layoutkit.Result.
void initResult(py::module_ &m);

/// A Layout, ComposedLayout, TileLayout, LinearLayout or layout text (any
/// grammar, api::parseLayout) as an AnyLayout.
lk::api::AnyLayout anyOf(py::handle h);

/// The model registrations, one per binding file.
void initCute(py::module_ &m);
void initModels(py::module_ &m);
void initHwPlan(py::module_ &m);

} // namespace lkpy

namespace pybind11::detail {
/// Reads lkpy::Int64 parameters with lkpy::toInt64 (TypeError for a
/// non-integer is pybind11's "incompatible arguments"; OverflowError for
/// an integer outside int64 is raised at once).
template <> struct type_caster<lkpy::Int64> {
  PYBIND11_TYPE_CASTER(lkpy::Int64, const_name("int"));
  bool load(handle src, bool) {
    if (!src || PyBool_Check(src.ptr()) || !PyIndex_Check(src.ptr()))
      return false;
    value.v = lkpy::toInt64(src, "an int argument");
    return true;
  }
  static handle cast(lkpy::Int64 v, return_value_policy, handle) {
    return PyLong_FromLongLong(v.v);
  }
};
} // namespace pybind11::detail

#endif // LAYOUTKIT_PYTHON_COMMON_H
