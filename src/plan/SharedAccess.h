//===- SharedAccess.h - The sides of a shared-memory exchange --*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/plan: the store and load sides of a shared-memory plan
/// and their cost model (SharedCost.cpp), shared by the shared-memory
/// planner (SharedMemory.cpp) and planConversion (Plan.cpp). The formulas
/// are Plan.h's; the proofs are in docs/plan.md.
///
/// Example: f16 elements (logE = 1) give 16-byte vectors of v = 3 bits and
/// a 128-byte row of lineBitsOf(n, 1) = min(n, 6) offset bits.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_SHAREDACCESS_H
#define LAYOUTKIT_SRC_PLAN_SHAREDACCESS_H

#include "F2.h"
#include "Preconditions.h"

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/plan/MatrixAccess.h"
#include "layoutkit/plan/Plan.h"

#include <cstdint>
#include <vector>

namespace lk::plan::detail {

/// One side of the shared-memory exchange: vectorized st.shared / ld.shared
/// of 2^|vecRegBits| elements (the vector bits are the lowest offset bits,
/// vecRegBits[k] the side's register bit of offset bit k), or a matrix
/// instruction (matrix.halfRegBit >= 0).
struct SideAccess {
  std::vector<int> vecRegBits;
  MatrixAccess matrix;
  bool isMatrix() const { return matrix.halfRegBit >= 0; }
  int v() const { return int(vecRegBits.size()); }
};

/// Offset bits of one 128-byte row of the buffer (fewer for a tile smaller
/// than a row): everything above is Idx. `ctaBits`: the offset bits of one
/// CTA's tile.
int lineBitsOf(int ctaBits, int logE);
/// lineBitsOf for the pair's CTA tile (all logical bits but the block ones).
int lineBitsOf(const AlignedPair &p, int64_t elementBytes);
/// Offset bits inside one 32-bit word beyond the vector (docs/plan.md: Sub).
int subBitsOf(int n, int logE, int v);

/// The logical bits whose differences inside one conflict group of the
/// side's accesses must avoid Idx (docs/plan.md, swizzle step 3).
Expected<uint64_t> conflictGroupMask(const linear::LinearLayout &l,
                                     const SideAccess &s, int64_t elementBytes);
/// Warp instructions of one side, per CTA (independent of the swizzle).
int64_t sideInstructions(const linear::LinearLayout &l, bool store,
                         const SideAccess &s);
/// The lower bound on one side's wavefronts over every swizzle.
Expected<int64_t> sideBound(const linear::LinearLayout &l, bool store,
                            const SideAccess &s, int line,
                            int64_t elementBytes);
/// Fills the cost fields of a shared-memory plan from its memory layout and
/// sides.
Status fillSharedCosts(const AlignedPair &p, SharedMemoryPlan &sp,
                       const SideAccess &store, const SideAccess &load);

/// Fails unless the pair can be exchanged through one CTA's shared memory.
Status checkShareable(const AlignedPair &p);
/// The logical bits held by non-zero block columns, lowest block bit first.
std::vector<int> ctaLogicalBits(const AlignedPair &p);

} // namespace lk::plan::detail

#endif // LAYOUTKIT_SRC_PLAN_SHAREDACCESS_H
