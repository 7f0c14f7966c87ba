//===- LayoutCost.h - Candidates and costs of a load/store layout -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The candidate atoms of one tiled load or store and the three-term cost
/// the layout pass ranks them by (docs/design.md §4.1, docs/mlir.md):
///
///   score = w_smem * smemWavefronts + w_tmem * tmemInstructions
///         + w_reg * registers,          w = (1, 4, 0.25) by default
///
///  * smemWavefronts: shared-memory wavefronts (128 B each) of one warp
///    instruction of the atom, from the bank model (hw::Machine): ldmatrix
///    rows are evaluated on the buffer's layout and swizzle; a vector access
///    costs its lane-group minimum; the bulk tensor copy writes whole 128-B
///    rows, 1; accesses that do not touch shared memory, 0.
///  * tmemInstructions: tcgen05.ld/st instructions per warp for the tile, on
///    sm_100 / sm_103 only (0 elsewhere).
///  * registers: live 32-bit registers per thread, the tile spread over
///    numWarps warps; 0 for a value kept in memory.
///
/// Ties (equal scores) go to fewer registers, then fewer wavefronts, then
/// the earlier candidate. Plain C++: no MLIR header.
///
/// Example (docs/design.md §6.6, weights (1, 4, 0.25)): terms (4, 0, 32) score
/// 12, (2, 0, 64) 18, (1, 0, 0) 1; the last wins.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_LAYOUTCOST_H
#define LAYOUTKIT_MLIR_LAYOUTCOST_H

#include "layoutkit-mlir/Kinds.h"

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Attribute.h"
#include "layoutkit/hw/Machine.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lk::tileas {

struct CostTerms {
  int64_t smemWavefronts = 0;
  int64_t tmemInstructions = 0;
  int64_t registers = 0;
  bool operator==(const CostTerms &) const = default;
};

struct CostWeights {
  double smem = 1.0;
  double tmem = 4.0;
  double registers = 0.25;
};

/// w_smem * smem + w_tmem * tmem + w_reg * registers.
double score(const CostTerms &t, const CostWeights &w);

/// Operand axis of a dot-product pipeline a candidate is keyed by.
enum class SubLayoutAxis : uint8_t { A, B, C, D };

/// One way to carry out a tiled load or store.
struct Candidate {
  std::string atom; ///< "ldmatrix.x4.b16", "cp.async.bulk.tensor", ...
  MemKind memKind;  ///< where the tile value lives afterwards
  LayoutFamily family;
  SubLayoutAxis axis = SubLayoutAxis::A;
  int64_t alignment = 0; ///< bytes the buffer must be aligned to
  CostTerms terms;
  /// Further families the access realizes: a per-thread vector access
  /// ("universal") reads or writes any distributed register layout, so a
  /// group seeded with a linear encoding keeps it.
  std::vector<LayoutFamily> alsoFits = {};

  /// `family` or one of `alsoFits`.
  bool fits(LayoutFamily f) const;
};

/// The index of the best candidate (lowest score; ties: fewer registers,
/// then fewer wavefronts, then the earlier one); nullopt when empty.
std::optional<size_t> pickByCost(std::span<const Candidate> cands,
                                 const CostWeights &w);

/// What the pass knows about one tiled load or store.
struct AccessShape {
  bool isLoad = true;
  int64_t rows = 0, cols = 0; ///< the 2-d tile, row-major
  int64_t elementBits = 16;
  MemKind bufferKind = MemKind::Smem; ///< the buffer read or written
  /// The buffer's layout when known (else row-major compact, no swizzle).
  std::optional<cute::LayoutAttribute> bufferLayout;
  int64_t bufferAlignment = 128; ///< bytes
  hw::Arch arch = hw::Arch::Sm90;
  bool tmemArch = false; ///< sm_100 / sm_103: the TMEM term counts
  int64_t numWarps = 4;
  /// gather / scatter along `indexedAxis` (0 rows, 1 columns): the index
  /// is data, so a thread's access is contiguous only along the other
  /// axis. -1: a tiled access.
  int indexedAxis = -1;
  /// A tiled_atomic (combines the tile into the buffer; isLoad is false).
  bool atomic = false;
};

/// The structurally legal candidates of an access (memory space, shape,
/// alignment), with their cost terms, in a fixed order: bulk tensor copy,
/// ldmatrix/stmatrix, tcgen05.ld/st, universal vector access.
Expected<std::vector<Candidate>> candidatesFor(const AccessShape &a);

/// The candidates of a tiled_atomic: the TMA reduction
/// "cp.reduce.async.bulk.tensor" (smem -> global, legal where the bulk
/// tensor copy is, the value in smem, terms 1, 0, 0) and the per-thread
/// atomic "universal" (register, blocked), one element wide, into smem or
/// global memory.
Expected<std::vector<Candidate>> atomicCandidatesFor(const AccessShape &a);

/// The candidates of a gather or scatter (a.indexedAxis is 0 or 1): only
/// the per-thread vector access ("universal", register, blocked) from or
/// into smem or global memory; its width is limited as for a tiled access
/// and, along the columns, to one element (the bulk copy and the matrix
/// atoms move whole tiles at positions known before the access). Empty
/// for other memory kinds.
Expected<std::vector<Candidate>> indexedCandidatesFor(const AccessShape &a);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_LAYOUTCOST_H
