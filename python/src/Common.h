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

#include "layoutkit/api/Layout.h"
#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <utility>

namespace lkpy {

namespace py = pybind11;

/// The LayoutError type (created once by initErrors).
py::object &layoutErrorType();
/// Creates layoutkit.LayoutError in module `m`.
void initErrors(py::module_ &m);

/// Raises `d` as LayoutError (never returns).
[[noreturn]] void raise(const lk::Diagnostic &d);

/// The value of `e`, or LayoutError with its diagnostic.
template <class T> T unwrap(lk::Expected<T> e) {
  if (!e)
    raise(e.error());
  return std::move(*e);
}
inline void check(const lk::Status &s) {
  if (!s)
    raise(s.error());
}

/// An int or a (nested) tuple/list of ints as an IntTuple; a `str` is read
/// as IntTuple text ("(4,(2,8))", also basis strides "1@0").
lk::IntTuple toIntTuple(py::handle h);
/// An IntTuple as an int or nested tuples; a basis-stride leaf as its text
/// ("2@1").
py::object fromIntTuple(const lk::IntTuple &t);

/// A Layout, ComposedLayout, TileLayout, LinearLayout or layout text (any
/// grammar, api::parseLayout) as an AnyLayout.
lk::api::AnyLayout anyOf(py::handle h);

/// The model registrations, one per binding file.
void initCute(py::module_ &m);
void initModels(py::module_ &m);
void initHwPlan(py::module_ &m);

} // namespace lkpy

#endif // LAYOUTKIT_PYTHON_COMMON_H
