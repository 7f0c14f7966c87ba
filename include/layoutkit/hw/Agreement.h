//===- Agreement.h - Buffer layout, TMA and MMA descriptor agree -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A shared-memory operand tile is described three times: by the layout the
/// compiler attached to the buffer, by the TMA description that writes it,
/// and by the shared-memory descriptor the MMA reads it with. They must put
/// every element at the same address (docs/hardware.md §5.3). checkAgreement
/// evaluates all three on every element of the (MN, K) tile and reports the
/// first element where they differ, with the reason when one is visible in
/// the parameters (swizzle modes, element width, row pitch, start address).
///
/// Every layout is in ELEMENT units of `elementBits` bits (as in
/// CanonicalLayout.h): the buffer layout maps (mn, k) to an element offset
/// in shared memory; the TMA box layout (tmaBoxLayout) is indexed
/// innermost-first, so a K-major box is (k, mn) and an MN-major box
/// (mn, k); the descriptor's layout is smemLayoutOf(descriptor, major,
/// elementBits, MN, K).
///
/// Example (bf16, K-major, 64 x 64, 128B everywhere): the buffer
/// Sw<3,3,3> o (64,64):(64,1), the TMA box (64, 64) with 128B swizzle and
/// the descriptor {SBO 1024 B, 128B} agree on all 4096 elements. A (64, 32)
/// tile whose buffer and descriptor use 64B but whose TMA writes 128B:
///   "the TMA disagrees at (mn=1, k=0): buffer 32, TMA 72, descriptor 32
///    (element offsets) -- TMA writes with swizzle 128B, the descriptor
///    reads with swizzle 64B (they must match: ...)"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_AGREEMENT_H
#define LAYOUTKIT_HW_AGREEMENT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/hw/CanonicalLayout.h"
#include "layoutkit/hw/SmemDescriptor.h"
#include "layoutkit/hw/TmaDescriptor.h"

#include <cstdint>
#include <optional>
#include <string>

namespace lk::hw {

/// The three descriptions of one shared-memory operand tile. The TMA and
/// the descriptor are optional: with one of them absent the other two are
/// compared.
struct OperandDescriptions {
  Arch arch = Arch::Sm90;
  Major major = Major::K;
  int64_t elementBits = 16;
  int64_t mn = 0; ///< tile extent along M or N, in elements
  int64_t k = 0;  ///< tile extent along K, in elements
  /// The layout attached to the buffer: (mn, k) -> element offset.
  cute::ComposedLayout buffer;
  /// The TMA that writes the tile in one rank-2 box: (K, MN) for K-major,
  /// (MN, K) for MN-major.
  std::optional<TmaDescription> tma;
  /// The descriptor the MMA reads the tile with, and its kind: a wgmma
  /// descriptor is read on sm_90, a umma one on sm_100 (else an error).
  std::optional<SmemDescriptor> mma;
  SmemDescriptorKind mmaKind = SmemDescriptorKind::Wgmma;
};

/// Where the descriptions first differ.
struct Disagreement {
  int64_t mn = 0;
  int64_t k = 0;
  /// Element offsets at (mn, k); absent for a description not given.
  int64_t buffer = 0;
  std::optional<int64_t> tma;
  std::optional<int64_t> mma;
  /// One paragraph: which description disagrees, where, and why.
  std::string explanation;
};

/// The verdict: agree when `difference` is empty.
struct Agreement {
  std::optional<Disagreement> difference;
  /// Elements compared (mn * k).
  int64_t elements = 0;
  bool agree() const { return !difference.has_value(); }
  /// "all three descriptions agree on the 4096 elements ..." or the
  /// explanation of the difference.
  std::string explain() const;
};

/// Compares the descriptions on every element of the tile. Fails (a
/// diagnostic, not a verdict) when a description is itself invalid (an
/// invalid TMA description, a descriptor whose layout cannot be derived), or
/// when the shapes do not cover the tile: the buffer layout must have shape
/// (mn, k) and the TMA box must be rank 2 with the extents of the tile.
Expected<Agreement> checkAgreement(const OperandDescriptions &d);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_AGREEMENT_H
