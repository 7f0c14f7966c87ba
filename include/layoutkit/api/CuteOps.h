//===- CuteOps.h - The registry of cute operations ---------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one table of the cute layout algebra's operations that every front
/// end is made from: the CLI's algebra subcommands, the conformance
/// runner's `cute` ops, the browser demo's operations view and the Python
/// functions. A row gives the operation's name (the same in every front
/// end), its parameters (name, kind, whether it may be left out), its
/// result kind, a one-line description and the call. A front end reads
/// its arguments in its own way (CLI text, oracle JSON, Python objects),
/// as values of the parameters' kinds, and calls `callCuteOp`, which
/// checks their count and kinds and calls the library.
///
/// Kinds and their text (docs/grammars.md): Layout `shape:stride`; Tiler a
/// layout, an integer n (n:1), `_` or a by-mode tuple of those; IntTuple
/// `(4,6)` or `((2,4),8)`; Integer a 64-bit integer.
///
/// Example:
///   const CuteOp *op = findCuteOp("logical_divide");  // (A: Layout,
///                                                      //  TILER: Tiler)
///   callCuteOp(*op, {layout(128:1), tiler(32:1)})  ->  (32,4):(1,32)
///   callCuteOp(*op, {layout(128:1)})  ->  error "logical_divide takes 2
///       arguments (A, TILER), got 1"
///   findCuteOp("complement")->params[1]  ->  {"COTARGET", IntTuple,
///       optional}: complement(4:2) = 2:1, complement(4:32, 256) =
///       (32,2):(1,128)
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_CUTEOPS_H
#define LAYOUTKIT_API_CUTEOPS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Layout.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lk::api {

/// The kind of an operation's argument or result.
enum class CuteKind { Layout, Tiler, IntTuple, Integer };

/// "layout", "tiler", "int tuple", "integer".
std::string_view cuteKindName(CuteKind k);

/// A value of one of the kinds. Its kind is the variant's alternative.
struct CuteValue {
  std::variant<cute::Layout, cute::Tiler, IntTuple, int64_t> value;

  CuteKind kind() const { return CuteKind(value.index()); }
  /// The kind's text form, e.g. "(32,4):(1,32)", "(4,6)", "12".
  std::string str() const;
};

/// A parameter: its name as the CLI shows it (A, TILER, COTARGET, ...),
/// its kind, and whether it may be left out (only trailing ones).
struct CuteParam {
  std::string_view name;
  CuteKind kind;
  bool optional = false;
};

/// One operation. `call` receives exactly as many values as given (between
/// the required and all parameters), each of its parameter's kind.
struct CuteOp {
  std::string_view name;
  std::vector<CuteParam> params;
  CuteKind result;
  /// One line, e.g. "R(c) = A(TILER(c)): apply TILER first, then A".
  std::string_view doc;
  Expected<CuteValue> (*call)(std::span<const CuteValue> args);

  size_t requiredParams() const;
};

/// Every operation, grouped as docs/cute.md presents them: properties
/// (size, cosize, rank, depth), coordinates (crd2idx, idx2crd), structure
/// (coalesce, filter, filter_zeros), composition, complement and inverses,
/// divides and products.
std::span<const CuteOp> cuteOps();

/// The operation named `name`; nullptr when there is none.
const CuteOp *findCuteOp(std::string_view name);

/// Reads `text` as a value of `kind` with that kind's grammar (its
/// diagnostics point into `text`).
Expected<CuteValue> parseCuteValue(CuteKind kind, std::string_view text);

/// `op` on `args`: fails when their number is outside [required, all]
/// ("NAME takes 2 arguments (A, TILER), got 1") or an argument is not of
/// its parameter's kind ("argument TILER of NAME: expected a tiler, got an
/// integer"), else the library's answer (an error returned as it is).
/// A Tiler parameter also takes a Layout (the layout tiler) and an Integer
/// n (n:1); an IntTuple parameter also takes an Integer.
Expected<CuteValue> callCuteOp(const CuteOp &op, std::vector<CuteValue> args);

} // namespace lk::api

#endif // LAYOUTKIT_API_CUTEOPS_H
