//===- Table4.h - Mixed-precision dot operands (paper Table 4) ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The linear-layouts paper's Table 4 at the layout level: for each
/// (integer, float) pair of the table, the integer operand A ([M, K]) and
/// the float operand B ([K, N]) are loaded in the coalesced blocked layout
/// (Coalesce.h, AcrossDims, 4 warps) and converted into their dot-operand
/// layouts; a case passes when every conversion is planned
/// (plan::planConversion) and the simulator finds every register correct.
///
/// Operand layouts: kWidth = max(1, 32 / min(int bits, float bits)) (the
/// narrower type decides how many K elements a thread holds together);
/// mma v2 (instrShape [16, 8], warps [2, 2]): A and B from registers;
/// wgmma (v3, instrShape [16, 16, 16], warps [4, 1]): A from registers, B
/// from shared memory (no register layout, not converted).
///
/// The grid: the paper gives each pair's case count, not its shapes; here
/// a pair with count 16c runs M, N in {16, 32, 64, 128} (16 shapes) for
/// each of the first c configurations of
///   (mma, K=16) (wgmma, K=16) (mma, K=32) (wgmma, K=32) (mma, K=64)
///   (wgmma, K=64) (mma, K=128) (wgmma, K=128) (mma, K=256)
/// so every pair has the paper's count and the total is 784.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PAPER_TABLE4_H
#define LAYOUTKIT_PAPER_TABLE4_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/plan/Plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lk::paper {

struct Table4Row {
  std::string pair; ///< "i16/f16"
  int intBits = 0, floatBits = 0;
  int64_t passed = 0, total = 0;
  /// Conversions by strategy over the row's cases.
  int64_t noOp = 0, registerPermutation = 0, warpShuffle = 0, sharedMemory = 0;
  std::string firstFailure; ///< "" when every case passed
};

struct Table4 {
  int64_t passed = 0, total = 0;
  std::vector<Table4Row> rows;
};

/// One row (the pair's configurations as in the file comment; `configs`
/// from 1 to 9).
Expected<Table4Row> table4Row(int intBits, int floatBits, int configs);
/// The 14 rows of the paper's table, in its order.
Expected<Table4> table4();

} // namespace lk::paper

#endif // LAYOUTKIT_PAPER_TABLE4_H
