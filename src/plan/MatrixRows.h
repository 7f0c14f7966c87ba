//===- MatrixRows.h - The matrix-row test without diagnostics ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/plan: the test of matchMatrixRows (MatrixAccess.h) as a
/// value, for the planner's search over row sets, where most tests fail and
/// building a diagnostic for each was a large part of planning time.
/// matchMatrixRows formats the diagnostic from the same result.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_MATRIXROWS_H
#define LAYOUTKIT_SRC_PLAN_MATRIXROWS_H

#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/plan/MatrixAccess.h"

#include <cstdint>
#include <span>

namespace lk::plan::detail {

/// Why a side does not fit the rows (None: it fits).
enum class RowMismatch : uint8_t {
  None,
  LaneCount,   ///< the side does not have 32 lanes (got: its lane count)
  MatrixLimit, ///< maxMatrixBits outside 0..2
  RowCount,    ///< not 3 row bits (got: their number)
  RowBit,      ///< rowBits[at] is out of range or repeated
  LaneBit,     ///< lane bit `at` is logical `got`, not its row bit
  NoHalf,      ///< no register bit for the half
  InsideRow,   ///< input bit `at` moves inside a 16-byte row
};

struct RowFit {
  RowMismatch why = RowMismatch::None;
  int at = 0;       ///< the offending index (see RowMismatch)
  uint64_t got = 0; ///< the offending value (see RowMismatch)
};

/// The matchMatrixRows test; on success (why == None) `out` is the access.
RowFit fitMatrixRows(const linear::LinearLayout &side,
                     std::span<const int> rowBits, bool trans,
                     int maxMatrixBits, MatrixAccess &out);

} // namespace lk::plan::detail

#endif // LAYOUTKIT_SRC_PLAN_MATRIXROWS_H
