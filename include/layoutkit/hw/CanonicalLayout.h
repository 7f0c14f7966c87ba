//===- CanonicalLayout.h - Descriptor <-> shared-memory layout ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The canonical shared-memory layouts that wgmma and tcgen05 read through
/// a matrix descriptor (docs/hardware.md §4.4, §6.5), and the two directions
/// between a descriptor and the layout it denotes:
///
///   smemLayoutOf(descriptor, major, elementBits, mn, k) -> Sw o start o L
///   descriptorFor(Sw o start o L, major, elementBits)   -> descriptor fields
///
/// UNITS. Every layout here is in units of ELEMENTS of `elementBits` bits:
/// L maps the (MN, K) coordinate of the operand tile (MN = rows of A / cols
/// of B, K = the reduction dimension; shape (mn, k), colexicographic) to an
/// element offset; the ComposedLayout's offset is the start address in
/// elements (startAddress * 8 / elementBits); the swizzle is the hardware's
/// byte-address swizzle rewritten in element units (elementSwizzle). Pass
/// elementBits = 8 to work in bytes and elementBits = 128 to work in the
/// 16-byte units CUTLASS's make_gmma_desc / make_umma_desc use. LBO and SBO
/// in SmemDescriptor stay BYTES. elementBits must be a power of two <= 128.
///
/// With T = 128 / elementBits elements per 16 bytes, S = span / 16 (1 for
/// none, 2 / 4 / 8 for 32B / 64B / 128B), LBO and SBO in elements:
///
///   major swizzle   canonical layout (shape (MN, K))
///   K     none      ((8, mn/8), (T, k/T)) : ((T, SBO), (1, LBO))
///   K     32/64/128 ((8, mn/8), (T, k/T)) : ((S*T, SBO), (1, T))    k <= S*T
///   MN    none      ((T, 1, mn/T), (8, k/8)) : ((1, T, SBO), (T, LBO))
///   MN    32/64/128 ((T, S, mn/(S*T)), (8, k/8)) : ((1, T, LBO), (S*T, SBO))
///   MN    128B_atom32B ((T, 8, mn/(8T)), (4, k/4)) : ((1, T, LBO), (8T, SBO))
///
/// composed with the element-unit swizzle (Sw<B, 7 - log2(bits), 3>, or
/// Sw<2, 8 - log2(bits), 2> for 128B_atom32B). The 128B_atom32B row follows
/// CUTLASS's atom definition Layout_MN_SW128_32B_Atom_Bits =
/// Sw<2,5,2> o (1024,4):(1,1024) (4 K-rows of 128 B per atom, SBO between
/// 4-row groups); the sheet's 16-byte-unit comment writes a K stride of 4
/// instead of 8, so this row is **UNVERIFIED** (§6.5).
///
/// What LBO and SBO mean (docs/hardware.md §4.4): K-major none: LBO = between
/// core matrices adjacent along K, SBO = between 8-row groups along MN; K-major
/// swizzled: LBO unused (the hardware assumes 1, i.e. 16 B; descriptorFor
/// writes 16 B), SBO = between 8-row groups; MN-major none: LBO = between
/// 8-K-row groups, SBO = between core matrices along MN; MN-major swizzled:
/// LBO = between swizzle atoms along MN, SBO = between 8-row groups along K.
///
/// Worked examples (docs/hardware.md §4.4, 16-bit elements, T = 8):
///   K 128B, 128 x 64, SBO 1024 B (512 el.):
///     Sw<3,3,3> o ((8,16),(8,8)):((64,512),(1,8))        encoded (LBO, SBO) =
///     (1, 64)
///   K none, 64 x 16, LBO 1024 B, SBO 128 B:
///     Sw<0,3,3> o ((8,8),(8,2)):((8,64),(1,512))          encoded (64, 8)
///   MN 64B, PTX example: ((8,4,2),(8,2)):((1,8,256),(32,512)) -> LBO 512 B,
///     SBO 1024 B, encoded (32, 64)
///   tf32 K none, PTX example: ((8,2),(4,4)):((4,32),(1,64)) -> LBO 256 B,
///     SBO 128 B, encoded (16, 8)
///
/// The swizzle acts on the ABSOLUTE address (start + L(c)), the model TMA
/// documents. Whether the MMA's XOR is keyed on absolute address bits when
/// the operand starts inside a swizzle period is **UNVERIFIED**
/// (docs/hardware.md open item 6); smemLayoutOf refuses a non-zero base offset,
/// and the safe rule is to align every swizzled tile to its repeat
/// (1024 B for 128B).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_CANONICALLAYOUT_H
#define LAYOUTKIT_HW_CANONICALLAYOUT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/hw/SmemDescriptor.h"
#include "layoutkit/hw/SwizzleMode.h"

#include <cstdint>
#include <string_view>

namespace lk::hw {

/// Which dimension is contiguous in 16-byte rows: K-major (the
/// non-transposed operand) or MN-major (transposed).
enum class Major : uint8_t { K, MN };

/// "K" / "MN".
std::string_view name(Major major);

/// The smallest tile of the mode, CUTLASS's
/// GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom and
/// UMMA::Layout_MN_SW128_32B_Atom, in element units, shape (MN, K):
///   K:  Sw o (8, S*T):(S*T, 1)      MN: Sw o (S*T, 8):(1, S*T)
///   MN 128B_atom32B: Sw o (8T, 4):(1, 8T)
/// Example (16-bit): K 128B -> Sw<3,3,3> o (8,64):(64,1).
Expected<cute::ComposedLayout> canonicalAtom(Major major, SwizzleMode mode,
                                             int64_t elementBits);

/// Everything a canonical layout depends on.
struct CanonicalSpec {
  Major major = Major::K;
  SwizzleMode swizzle = SwizzleMode::None;
  int64_t elementBits = 16;
  int64_t mn = 0; ///< tile extent along M (A) or N (B), in elements
  int64_t k = 0;  ///< tile extent along K, in elements
  int64_t leadingByteOffset = 16; ///< LBO, bytes
  int64_t strideByteOffset = 16;  ///< SBO, bytes
  int64_t startAddress = 0;       ///< bytes
};

/// The table above for one spec. Fails (naming the field) on an element
/// width that is not a power of two <= 128, on extents that do not divide
/// into core matrices / atoms (e.g. "K-major 128B: k = 96 exceeds the
/// swizzle span of 64 elements (128 B)"), on a mode that has no canonical
/// layout for the majorness (128B_atom32B is MN-only; the flip and 64B-atom
/// TMA modes have none), and on byte offsets that are not whole elements.
Expected<cute::ComposedLayout> canonicalLayout(const CanonicalSpec &spec);

/// The layout a descriptor denotes for an (mn x k) tile of `elementBits`
/// elements read `major`-major. Refuses a non-zero base offset and the
/// absolute LBO mode (not modelled).
Expected<cute::ComposedLayout> smemLayoutOf(const SmemDescriptor &d,
                                            Major major, int64_t elementBits,
                                            int64_t mn, int64_t k);

/// The reverse: the descriptor fields of a layout that is canonical for
/// `major` (rank 2, shape (MN, K), element units as above). The swizzle
/// mode is read off the layout's swizzle, the start address off its offset,
/// LBO / SBO off the layout at the first coordinate of the next core-matrix
/// group; a field the tile does not use is returned as 16 B (encoded 1, as
/// CUTLASS writes). The layout is then compared with the canonical layout of
/// those fields at every coordinate; the first difference is reported:
///   "the layout is not the canonical K-major 128B layout: at (mn=8, k=0) it
///    gives element 520, the canonical layout with LBO=16 B, SBO=1024 B gives
///    512"
/// Base offset is always 0.
Expected<SmemDescriptor> descriptorFor(const cute::ComposedLayout &layout,
                                       Major major, int64_t elementBits);

/// Which (majorness, element width, swizzle) an MMA may read through a
/// descriptor:
///  * wgmma (§4.2): MN-major (transposed) only for 16-bit (f16 / bf16)
///    operands; K-major any width; modes none / 32B / 64B / 128B.
///  * tcgen05 (§6.5): K-major: none / 32B / 64B / 128B (the 32B-atom mode
///    defines only an MN-major atom); MN-major 8- and 16-bit: every mode
///    except 128B_atom32B; MN-major 32-bit (tf32): only 128B_atom32B;
///    other MN-major widths are not listed and are rejected.
/// Example: checkUmmaOperand(MN, 32, 128B) -> "tcgen05: an MN-major 32-bit
/// operand needs swizzle 128B_atom32B, got 128B".
Status checkWgmmaOperand(Major major, int64_t elementBits, SwizzleMode mode);
Status checkUmmaOperand(Major major, int64_t elementBits, SwizzleMode mode);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_CANONICALLAYOUT_H
