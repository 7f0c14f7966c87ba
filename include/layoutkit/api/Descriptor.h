//===- Descriptor.h - Descriptor words and a tile's TMA ----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Inputs front ends give the hw layer's descriptor checks
/// (docs/hardware.md):
///
///  * parseWord: a 64-bit descriptor word in decimal or 0x hex
///    ("0x40004010", "1073758224"); at most 16 hex or 20 decimal digits;
///  * tileTma: the TMA description that loads exactly one (mn, k) tile of
///    `elementBits`-bit elements into shared memory with `swizzle`: the
///    global tensor is the tile itself, inner dim first (k when K-major,
///    mn when MN-major), its row pitch the inner extent's bytes rounded up
///    to 16 (TMA's stride granule); the box is the whole tile. The data type
///    is a TMA data type's own name (uint8, 16u4_align8b, ...) or comes from
///    an element type (api::elementTypeNamed): f64, f32, tf32, f16, bf16,
///    i32, i64, u32, u64 -> float64, float32, tfloat32, float16, bfloat16,
///    int32, int64, uint32, uint64; any other 8/16/32/64-bit type -> the
///    raw uint8/16/32/64 (f8e4m3 -> uint8). elementBits must be the type's
///    width; a sub-byte element type is refused (its packed TMA type is
///    named instead). mn and k must be in 1..2^32 (TMA's global dims) and
///    elementBits in 1..64, checked before any arithmetic (2^62 is refused,
///    not wrapped).
///
/// Example: tileTma("f16", 16, K, 64, 64, B128) -> globalDims {64, 64},
/// globalStrides {128}, boxDims {64, 64}, float16, 128B.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_DESCRIPTOR_H
#define LAYOUTKIT_API_DESCRIPTOR_H

#include "layoutkit/api/Record.h"
#include "layoutkit/core/Expected.h"
#include "layoutkit/hw/CanonicalLayout.h"
#include "layoutkit/hw/InstrDescriptor.h"
#include "layoutkit/hw/SmemDescriptor.h"
#include "layoutkit/hw/TmaDescriptor.h"

#include <cstdint>
#include <string_view>

namespace lk::api {

/// A 64-bit word in decimal or 0x hex (see the file comment).
Expected<uint64_t> parseWord(std::string_view text);

/// `v` as lower-case hex with a 0x prefix, no leading zeros: 0 -> "0x0",
/// 0x40004010 -> "0x40004010" (the form parseWord reads back).
std::string hexWord(uint64_t v);

/// The descriptor kind named "wgmma" or "umma"; any other text is
/// "unknown descriptor kind 'X' (known: wgmma, umma)".
Expected<hw::SmemDescriptorKind> parseDescriptorKind(std::string_view name);

/// The hw swizzle mode by its name in hw::swizzleModes() (none, 32B, 64B,
/// 128B, 128B_atom32B, ...); other text is "unknown swizzle mode 'X'
/// (known: <the names in table order>)".
Expected<hw::SwizzleMode> parseHwSwizzle(std::string_view name);

/// "K" or "MN" (exact case); other text is "unknown major 'X' (known: K,
/// MN)".
Expected<hw::Major> parseMajor(std::string_view name);

/// The shared-memory descriptor record: start_address, leading_byte_offset,
/// stride_byte_offset, base_offset (ints, bytes except the 0..7 base
/// field), swizzle (the mode's name), lbo_absolute (bool). Example: the
/// default wgmma fields {0, 16, 16, 0, none, false}.
Record describe(const hw::SmemDescriptor &d);

/// The UMMA instruction descriptor record (hw idesc): kind, a, b, d (the
/// kind's and formats' names), m, n, major_a, major_b ("K" / "MN"),
/// negate_a, negate_b, sparse, saturate. Example: 0x08400490 as f16 ->
/// {"kind":"f16","a":"bf16","b":"bf16","d":"f32","m":128,"n":256,
/// "major_a":"K","major_b":"K","negate_a":false,...}.
Record describe(const hw::UmmaInstrDescriptor &d);

/// The TMA description record of a tile (tileTma; Python's tile_tma):
/// data_type (the TMA type's name), global_dims, global_strides, box_dims
/// (lists of ints: elements, bytes, elements), swizzle (the mode's name).
/// Example: tileTma("f16", 16, K, 64, 64, B128) -> {"data_type":"float16",
/// "global_dims":[64,64],"global_strides":[128],"box_dims":[64,64],
/// "swizzle":"128B"}.
Record describe(const hw::TmaDescription &t);

/// The TMA description of one (mn, k) tile (see the file comment).
Expected<hw::TmaDescription> tileTma(std::string_view elementType,
                                     int64_t elementBits, hw::Major major,
                                     int64_t mn, int64_t k,
                                     hw::SwizzleMode swizzle);

} // namespace lk::api

#endif // LAYOUTKIT_API_DESCRIPTOR_H
