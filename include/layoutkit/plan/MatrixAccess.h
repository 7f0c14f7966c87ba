//===- MatrixAccess.h - ldmatrix/stmatrix in a plan -------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How one side of a shared-memory conversion (the store of the source or
/// the load of the destination) uses `stmatrix` / `ldmatrix`
/// `.m8n8.{x1,x2,x4}{.trans}.shared.b16` (docs/hardware.md §3.1, §3.2) instead
/// of vectorized `st.shared` / `ld.shared`.
///
/// ## The instruction (16-bit elements, 32 lanes)
///
/// One instruction moves `count` (1, 2 or 4) matrices of 8 rows x 16 bytes.
/// Lane 8j + i (j < count, i < 8) supplies the byte address of row i of
/// matrix j. With g = lane >> 2 and q = lane & 3, 32-bit register j of a
/// lane holds, in its low (h = 0) and high (h = 1) half:
///     non-trans: matrix j, row g,        element 2q + h of the row
///     .trans:    matrix j, row 2q + h,   element g of the row
///
/// ## The side's layout (aligned, register/lane/warp/block -> logical)
///
/// Element registers of the side: bit `halfRegBit` is the half h, bit k of
/// j is register bit `matrixRegBits[k]`; the other register bits, the warp
/// and the block are the same for every lane of one instruction (its base
/// register `base`, whose half and matrix bits are 0). So lane l's 32-bit
/// register j, half h is the element register
///     matrixElementRegister(base, j, h)
///         = base | h << halfRegBit | sum_k bit_k(j) << matrixRegBits[k].
/// The memory layout puts 8 elements of each row at consecutive offsets:
///     non-trans: the offsets of the row (element 2q + h) are the logical
///                bits of register bit halfRegBit (+1) and lane bits 0, 1
///                (+2, +4): the tile identity(2 registers) x identity(4 lanes)
///                left-divides register/lane -> offset (Theorem 5.1);
///     .trans:    lane bits 2, 3, 4 (g) are offsets +1, +2, +4.
/// Row i of matrix j therefore starts at the element that the side holds in
///     non-trans: register matrixElementRegister(base, j, 0), lane i << 2;
///     .trans:    register matrixElementRegister(base, j, i & 1), lane i >> 1,
/// which is `matrixRowStart`; its shared address is
///     elementBytes * (memory^-1(element) mod bufferElements).
///
/// Example: the f16 16x16 mma accumulator (registers: col 1, row 8, col 8;
/// lanes: col 2, col 4, row 1, row 2, row 4) loaded non-trans with
/// halfRegBit 0 and matrixRegBits {1, 2} (x4): lane 8j + i addresses row i
/// of matrix j, i.e. logical (i + 8 * (j & 1), 8 * (j >> 1)).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PLAN_MATRIXACCESS_H
#define LAYOUTKIT_PLAN_MATRIXACCESS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lk::plan {

/// One side's ldmatrix / stmatrix access (see the file comment).
struct MatrixAccess {
  bool trans = false;
  /// Register bit of the side's layout held in the high 16 bits of each
  /// 32-bit register (-1 when the side does not use matrices).
  int halfRegBit = -1;
  /// Register bits selecting the matrix j (bit k of j is register bit
  /// matrixRegBits[k]); 2^size() matrices per instruction.
  std::vector<int> matrixRegBits;
  int64_t count() const { return int64_t(1) << matrixRegBits.size(); }
  /// The mask of every register bit the instruction covers.
  int64_t registerMask() const;
};

/// The element register of 32-bit register j, half h (file comment).
int64_t matrixElementRegister(const MatrixAccess &m, int64_t base, int64_t j,
                              int64_t h);

/// The (register, lane) of the side whose element starts the row that lane
/// `lane` (0 .. 8 * count - 1) addresses.
struct MatrixRowStart {
  int64_t reg = 0, lane = 0;
};
MatrixRowStart matrixRowStart(const MatrixAccess &m, int64_t base,
                              int64_t lane);

/// Whether `side` (aligned, 16-bit elements, 32 lanes) can use the matrix
/// instruction over `memory` (offset -> logical): matchMatrixRows (below)
/// applied to register/lane/warp -> offset (linear::registerToOffset),
/// whose 16-byte rows are offset bits 0, 1, 2. Non-trans this is Theorem
/// 5.1: identity(2 registers) x identity(4 lanes) left-divides that map
/// after a register permutation (linear::matrixInstructionApplies; the
/// register brought to the front is halfRegBit); .trans needs lane bits
/// 2, 3, 4 at offsets 1, 2, 4. `matrixRegBits` are the lowest non-zero
/// register bits other than the half, at most `maxMatrixBits` (<= 2) of
/// them. Fails with the reason (lane count, a lane bit off its row, no
/// register bit for the half, a column inside a row).
/// Example: the f16 mma accumulator above over a memory layout whose lowest
/// offsets are col 1, col 2, col 4 gives {trans = false, halfRegBit = 0,
/// matrixRegBits = {1, 2}}.
Expected<MatrixAccess> matchMatrixAccess(const linear::LinearLayout &side,
                                         const linear::LinearLayout &memory,
                                         bool trans, int maxMatrixBits = 2);

/// The test on the side's own columns when the 16-byte rows are the bits
/// rowBits[0..2] of its output: for a memory layout that is known only by
/// its three lowest offset bits, the logical bits rowBits, with every
/// other offset bit an unswizzled logical bit, this equals
/// matchMatrixAccess(side, M, ...) and builds no layout: the planner asks
/// it for every candidate row set (SharedMemory.cpp), where inverting and
/// composing the memory would dominate planning time.
/// With the rows r0, r1, r2 the conditions read, on the side's columns:
///     non-trans: lane bits 0, 1 are r1, r2 and some register bit is r0
///                (the first is halfRegBit);
///     .trans:    lane bits 2, 3, 4 are r0, r1, r2; halfRegBit is the first
///                non-zero register bit;
/// and every other column of the side avoids r0, r1, r2.
/// Example: the f16 mma accumulator of the file comment with rows
/// (col 1, col 2, col 4) gives {trans = false, halfRegBit = 0,
/// matrixRegBits = {1, 2}}; with rows (row 1, row 2, row 4) non-trans
/// fails (lane bit 0 is col 2, not row 2) and .trans gives {trans = true,
/// halfRegBit = 0, matrixRegBits = {1, 2}}.
Expected<MatrixAccess> matchMatrixRows(const linear::LinearLayout &side,
                                       std::span<const int> rowBits, bool trans,
                                       int maxMatrixBits = 2);

} // namespace lk::plan

#endif // LAYOUTKIT_PLAN_MATRIXACCESS_H
