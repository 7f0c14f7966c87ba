//===- Coalesce.h - Blocked layouts for coalesced global access -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The blocked layout a Triton-style coalescing heuristic gives a load or
/// store of a tensor that is contiguous in memory in row-major order (the
/// last dim fastest, no padding), in two styles (linear-layouts paper,
/// §5.1 and Table 2):
///
///  * `PerDim` (the legacy heuristic): the contiguous dim is the fastest
///    dim of size > 1 (for [512, 1] that is dim 0: its stride is 1); a
///    thread holds E = min(size of that dim, 128 / elementBits, elements per
///    thread) elements along it and one along every other dim.
///  * `AcrossDims`: a thread holds E = min(128 / elementBits, elements per
///    thread) elements that are contiguous in memory, filling dims from the
///    last: sizePerThread[last] = min(shape[last], E), then the dim before
///    gets what is left of E, and so on.
///
/// In both, "elements per thread" is max(1, numel / (32 * numWarps)): no
/// thread holds copies when the tensor has enough elements. Lanes, then
/// warps, are then spread from the fastest dim outwards (the construction
/// of Triton's default blocked encoding): along each dim but the slowest,
/// as many threads as the dim has groups of sizePerThread left (at most the
/// threads left), lanes first; the slowest dim takes the remaining lanes
/// and warps (which may broadcast when it is too short).
///
/// Example: f16[512, 2], 4 warps: 1024 / 128 = 8 elements per thread;
/// AcrossDims gives sizePerThread [4, 2], threadsPerWarp [32, 1],
/// warpsPerCTA [4, 1] (8 contiguous f16 = 128 bits); PerDim gives
/// sizePerThread [1, 2] (2 contiguous f16 = 32 bits).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_PAPER_COALESCE_H
#define LAYOUTKIT_PAPER_COALESCE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/Standard.h"

#include <cstdint>
#include <span>
#include <string>

namespace lk::paper {

enum class CoalesceStyle { PerDim, AcrossDims };

/// The blocked encoding of the file comment for `shape` (rank 1..4, every
/// extent a power of two), elements of `elementBits` (8, 16, 32 or 64) and
/// `numWarps` (a power of two, 1..32) warps of 32 lanes. Fails on other
/// arguments, naming the one at fault.
Expected<linear::Encoding> coalescedEncoding(std::span<const int64_t> shape,
                                             int elementBits, int numWarps,
                                             CoalesceStyle style);

/// The widest global access of one thread for `bits` contiguous bits (at
/// most 128): "v4.b32" for 128, "v2.b32" for 64, "v1.b32" for 32, "v1.b16"
/// for 16, "v1.b8" for 8. Fails on other widths.
Expected<std::string> accessInstruction(int64_t bits);

} // namespace lk::paper

#endif // LAYOUTKIT_PAPER_COALESCE_H
