//===- Analysis.h - Families and code-generation utilities -------*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The two layout families of the linear-layouts paper and the questions a
/// code generator asks of a layout.
///
/// Families (paper, Definitions 4.10 and 4.14):
///  * distributed: every column has at most one non-zero bit and no
///    non-zero column repeats. Each hardware bit moves one logical bit, or
///    none (broadcast). Blocked, mma, slice and dot-operand layouts are
///    distributed.
///  * memory: invertible, every column has one or two non-zero bits (a
///    permutation of bits, possibly XOR-ed with one other bit: swizzling).
///
/// Utilities (paper §5.1 and §5.3):
///  * contiguousElements: the contiguous run of elements each thread holds
///    along the memory order, across dimensions. Example (paper Table 2):
///    f16[512, 2] in blocked(sizePerThread [8, 2], threadsPerWarp [32, 1],
///    warpsPerCTA [2, 1], order [1, 0]): a per-dimension heuristic sees 2
///    contiguous elements (32 bits); the registers map to row-major offsets
///    1, 2, 4, 8, so 16 elements are contiguous and a thread can issue
///    128-bit accesses.
///  * duplicates: which input bits hold duplicated data (free variables) and
///    which are pure broadcasts (zero columns), per input dim; what a
///    reduction must skip.
///  * largestVectorization: the widest identity tile register -> offset that
///    left-divides a register -> shared-offset map, with the register
///    permutation that achieves it.
///  * ldmatrix / stmatrix applicability (Theorem 5.1): the instruction tile
///    left-divides the map, possibly after permuting registers.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_ANALYSIS_H
#define LAYOUTKIT_LINEAR_ANALYSIS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <array>
#include <span>
#include <vector>

namespace lk::linear {

/// Distributed family: columns with <= 1 bit set, non-zero columns distinct.
bool isDistributed(const LinearLayout &l);
/// Memory family: invertible, every column with 1 or 2 bits set.
bool isMemory(const LinearLayout &l);

/// `order` (out-dim indices, fastest first) checked as a memory order of
/// `l`: every out-dim index once (or no index: row-major). Fails naming
/// the entry: "order entry 1 is 5; expected an out-dim index in [0, 2)",
/// "order names out-dim 0 twice", "order has 1 entry; the layout has 2
/// out-dims". Example: outDimOrder(l, {1, 0}) -> {1, 0}.
Expected<std::vector<unsigned>> outDimOrder(const LinearLayout &l,
                                            std::span<const int64_t> order);

/// The number of contiguous elements each thread holds, in the memory order
/// `order` of the logical dims (fastest first; empty = row-major, the last
/// dim fastest): the largest 2^k such that the first k register bases are
/// the offsets 1, 2, ..., 2^(k-1) of the flattened tensor and no other basis
/// touches those low bits (so every thread's run starts aligned).
/// @pre the layout has a `register` input dim and dim0.. output dims
Expected<int64_t> contiguousElements(const LinearLayout &l,
                                     std::span<const unsigned> order = {});
/// The same as the legacy per-dimension heuristic: contiguous registers
/// along the fastest dim only (for comparison).
Expected<int64_t>
contiguousElementsPerDim(const LinearLayout &l,
                         std::span<const unsigned> order = {});
/// Bits of one vectorized global access: contiguousElements * elemBits,
/// capped at `maxBits` (128 on NVIDIA GPUs).
Expected<int64_t> accessBits(const LinearLayout &l, int elemBits,
                             std::span<const unsigned> order = {},
                             int maxBits = 128);

/// Duplicated data: per input dim, the free-variable mask (bits whose
/// flipping reaches an element already reached with the bit clear: data
/// held twice) and the zero-column mask (pure broadcast bits). A reduction
/// combines only the lanes/warps outside `freeMasks` and must not
/// double-count the others.
struct Duplicates {
  std::array<uint64_t, LinearLayout::kMaxDims> freeMasks{};
  std::array<uint64_t, LinearLayout::kMaxDims> zeroMasks{};
  /// The free-variable mask of input dim `d` (0 when absent).
  uint64_t freeMask(const LinearLayout &l, DimId d) const;
  bool any() const;
};
Duplicates duplicates(const LinearLayout &l);

/// The register -> shared-offset map of storing distributed layout `reg`
/// into memory layout `mem` (both onto the same logical dims):
/// mem^-1 o reg, input dims of `reg`, output dims of `mem` (e.g. offset).
Expected<LinearLayout> registerToOffset(const LinearLayout &reg,
                                        const LinearLayout &mem);

/// The widest vector (elements) such that identity1D(n, register, offset)
/// left-divides `regToOffset` (one output dim), after permuting registers
/// when allowed. `perm` is the register permutation (identity when none).
struct Vectorization {
  int64_t elements = 1;
  std::vector<int> perm;
};
Expected<Vectorization> largestVectorization(const LinearLayout &regToOffset,
                                             bool allowPermutation = true);

/// The ldmatrix / stmatrix tile for elements of `elemBytes` (1, 2 or 4):
/// each thread moves 4 contiguous bytes (4/elemBytes registers) and 4
/// consecutive lanes cover one 16-byte row: identity(4/b, register ->
/// offset) x identity(4, lane -> offset). The other lane bits pick the row,
/// whose address each lane supplies, so they are unconstrained.
Expected<LinearLayout> matrixInstructionTile(int elemBytes,
                                             DimId offset = dims::kOffset);
/// Whether ldmatrix/stmatrix can implement `regToOffset` (Theorem 5.1: the
/// tile left-divides it, possibly after a register permutation). On success
/// the permutation and the quotient (how the tile repeats) are returned.
Expected<PermutedQuotient>
matrixInstructionApplies(const LinearLayout &regToOffset, int elemBytes);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_ANALYSIS_H
