//===- ShapeArithmetic.cpp - Shape division -------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// shape_div and ceil_div on int tuples.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Algebra.h"

#include "AlgebraSupport.h"

#include "layoutkit/core/Checked.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace lk::cute {

using namespace detail;

//===----------------------------------------------------------------------===//
// Shape arithmetic
//===----------------------------------------------------------------------===//

namespace {

/// The mode a shape_div step works on, for diagnostics: "0.1" is mode 1 of
/// mode 0. Kept as indices; formatted only when an error is reported.
using ModePath = SmallVector<int, 8>;

std::string atMode(const ModePath &path) {
  if (path.empty())
    return "";
  std::string s = " at mode ";
  for (size_t i = 0; i < path.size(); ++i)
    s += (i ? "." : "") + std::to_string(path[i]);
  return s;
}

Expected<int64_t> divLeaf(int64_t a, int64_t b, Rounding mode,
                          const ModePath &path) {
  if (b <= 0)
    return Diagnostic::error("shape_div: divisor " + std::to_string(b) +
                             " must be positive" + atMode(path));
  switch (mode) {
  case Rounding::Exact:
    if (a % b != 0 && b % a != 0)
      return Diagnostic::error("shape_div: " + std::to_string(b) +
                               " does not divide " + std::to_string(a) +
                               " (nor the reverse)" + atMode(path));
    return a % b == 0 ? a / b : int64_t(1);
  case Rounding::Floor:
    return a / b;
  case Rounding::Ceil:
    return ceilDiv(a, b);
  }
  return a;
}

Expected<IntTuple> shapeDivImpl(const IntTuple &a, const IntTuple &b,
                                Rounding mode, ModePath &path) {
  if (a.isTuple()) {
    if (b.isTuple()) {
      if (b.rank() > a.rank())
        return Diagnostic::error("shape_div: divisor " + b.str() +
                                 " has more modes than the shape " + a.str());
      IntTuple out;
      for (size_t i = 0; i < a.rank(); ++i) {
        path.push_back(int(i));
        LK_TRY(IntTuple m, shapeDivImpl(a[i], i < b.rank() ? b[i] : IntTuple(1),
                                        mode, path));
        path.pop_back();
        out.push_back(m);
      }
      return out;
    }
    IntTuple out;
    int64_t rest = b.value();
    for (size_t i = 0; i < a.rank(); ++i) {
      IntTuple ai = a[i];
      path.push_back(int(i));
      LK_TRY(IntTuple m, shapeDivImpl(ai, IntTuple(rest), mode, path));
      out.push_back(m);
      LK_TRY(int64_t extent, ai.product());
      // The divisor left for the next mode: how much of it this mode did
      // not absorb (CuTe's fold).
      LK_TRY(int64_t next,
             divLeaf(rest, extent,
                     mode == Rounding::Exact ? Rounding::Exact : Rounding::Ceil,
                     path));
      path.pop_back();
      rest = next;
    }
    return out;
  }
  if (b.isTuple()) {
    LK_TRY(int64_t pb, b.product());
    return shapeDivImpl(a, IntTuple(pb), mode, path);
  }
  LK_TRY(int64_t r, divLeaf(a.value(), b.value(), mode, path));
  return IntTuple(r);
}

} // namespace

Expected<IntTuple> shape_div(const IntTuple &shape, const IntTuple &divisor,
                             Rounding mode) {
  ModePath path;
  return shapeDivImpl(shape, divisor, mode, path);
}

Expected<IntTuple> ceil_div(const IntTuple &a, const IntTuple &b) {
  return shape_div(a, b, Rounding::Ceil);
}

} // namespace lk::cute
