//===- Table2.h - Global-access vectorization (paper Table 2) ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The linear-layouts paper's Table 2 at the layout level: for each tensor
/// type f8/f16 x [512, k], k = 1, 2, 4, 8, 16 (row-major, contiguous, 4
/// warps), the blocked layout of a coalescing heuristic (Coalesce.h) and the
/// widest access one thread can issue:
///
///  * `perDim`: the legacy pair, the PerDim heuristic's layout measured by
///    linear::contiguousElementsPerDim along the layout's fastest dim;
///  * `acrossDims`: the AcrossDims heuristic's layout measured by
///    linear::accessBits (contiguous registers across dims, paper §5.1).
///
/// Bits = contiguous elements x element bits, capped at 128.
/// Example: f16[512, 2]: perDim sizePerThread [1, 2] -> 2 x 16 = 32 bits
/// (v1.b32); acrossDims sizePerThread [4, 2], register bases (0,1), (1,0),
/// (2,0) = offsets 1, 2, 4 -> 8 x 16 = 128 bits (v4.b32).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PAPER_TABLE2_H
#define LAYOUTKIT_PAPER_TABLE2_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/paper/Coalesce.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lk::paper {

/// One heuristic's result: the layout and its widest access.
struct AccessChoice {
  std::string layout;      ///< "blocked([4,2],[32,1],[4,1],[1,0])"
  int64_t elements = 0;    ///< contiguous elements the analysis finds
  int64_t bitwidth = 0;    ///< min(128, elements x element bits)
  std::string instruction; ///< "v4.b32"
};

struct Table2Row {
  std::string dtype; ///< "f8" or "f16"
  std::vector<int64_t> shape;
  AccessChoice perDim, acrossDims;
};

/// The row for one tensor type (any shape Coalesce.h accepts).
Expected<Table2Row> table2Row(std::string dtype, int elementBits,
                              std::vector<int64_t> shape, int numWarps = 4);
/// The ten rows of the paper's table, in its order (f8 then f16, k
/// ascending).
Expected<std::vector<Table2Row>> table2();

/// "blocked(sizePerThread, threadsPerWarp, warpsPerCTA, order)" as above.
std::string blockedText(const linear::Encoding &e);

} // namespace lk::paper

#endif // LAYOUTKIT_PAPER_TABLE2_H
