//===- Table3.h - Reductions over standard layouts (paper Table 3) -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The linear-layouts paper's Table 3 at the layout level: reductions
/// (plan/Reduce.h) over the layouts Triton uses, each planned with and
/// without duplicate elimination and simulated on distinct values.
///
/// Families (f16 elements, 1, 2, 4, 8 warps; W2 = [w,1] for w <= 2, [2,2]
/// for 4, [4,2] for 8):
///   blocked        blocked([1,4],[8,4],W2,[1,0]) on SxS, axis 0 and 1
///   mma            mma v2 accumulator [16,8], W2, SxS, axis 0 and 1
///   mma-input      dot operand A (kWidth 2) of mma v2 with [w,1] warps,
///                  SxS, axis 0 and 1
///   slice-blocked  dim 0 sliced from `blocked` on SxS: [S], axis 0
///   slice-mma      dim 0 sliced from `mma`: [S], axis 0
///   slice-mma-input dim 1 (K) sliced from `mma-input`: [S], axis 0 (its
///                  warps lie along dim 0, so slicing dim 0 would leave
///                  nothing for shared memory to do)
///   custom         a random distributed layout of SxS per case: the
///                  logical bits shuffled and dealt to lanes, warps, then
///                  registers (zero lane / warp bases when the tensor has
///                  fewer bits than the threads), a zero register basis
///                  inserted at random in half the cases; axis 0 and 1
/// with S = 16, 32, 64, 128.
///
/// Per family: cases, supported (planned and simulated correct, both
/// ways), and the shared-memory store instructions and thread stores over
/// all cases with and without elimination.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PAPER_TABLE3_H
#define LAYOUTKIT_PAPER_TABLE3_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/plan/Reduce.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lk::paper {

struct Table3Row {
  std::string layout;
  int64_t cases = 0, supported = 0;
  int64_t storeInstructions = 0, storeInstructionsNoElim = 0;
  int64_t storeLanes = 0, storeLanesNoElim = 0;
  /// The first failure, "" when every case is supported.
  std::string firstFailure;
};

/// The seven rows of the file comment, in the paper's order.
Expected<std::vector<Table3Row>> table3();

} // namespace lk::paper

#endif // LAYOUTKIT_PAPER_TABLE3_H
