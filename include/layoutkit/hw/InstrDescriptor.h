//===- InstrDescriptor.h - The tcgen05.mma instruction descriptor -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The 32-bit `idesc` operand of Blackwell `tcgen05.mma` (docs/hardware.md
/// §6.6), with the shape rules of §6.7 and the majorness rules of §6.5. The
/// kind (kind::f16, ::tf32, ::f8f6f4, ::i8, ::mxf8f6f4, ::mxf4, ::mxf4nvf4) is
/// part of the instruction, not of the word, so decode takes it; so do the
/// CTA group and the .ws flag, which only the shape rules need.
///
/// Dense kinds (f16 / tf32 / f8f6f4 / i8):
///   bits   field               values
///   0-1    sparsity selector   0-3 (sparse only)
///   2      sparse              0 dense, 1 sparse
///   3      saturate            i8 only
///   4-5    D type              0 F16, 1 F32, 2 S32
///   6      reserved            0
///   7-9    A type              f16: 0 F16, 1 BF16; tf32: 2; f8f6f4: 0 E4M3,
///                              1 E5M2, 3 E2M3, 4 E3M2, 5 E2M1; i8: 0 U8, 1 S8
///   10-12  B type              same codes
///   13/14  negate A / B        not for i8
///   15/16  transpose A / B     0 K-major, 1 MN-major
///   17-22  N >> 3
///   23     reserved
///   24-28  M >> 4
///   29     reserved
///   30-31  max shift (.ws)     0 none, 1/2/3 = 8/16/32
///
/// Block-scaled kinds (mxf8f6f4; mxf4 / mxf4nvf4 where different):
///   0-1 reserved, 2 sparse, 3 reserved, 4-5 SFB ID, 6 reserved, 7-9 A type
///   (mxf4*: E2M1 = 1), 10-12 B type (mxf4*: bits 10-11, bit 12 reserved),
///   13-16 negate / transpose (mxf4*: transpose 0), 17-22 N >> 3, 23 scale
///   type (0 UE4M3, mxf4nvf4 only; 1 UE8M0), 24-26 reserved, 27-28 M >> 7,
///   29-30 SFA ID, 31 K size (mxf4*: 0 K=64, 1 K=96; reserved for mxf8f6f4).
///   D is always F32 (no field). SF IDs: mxf8f6f4 0-3; mxf4* 0 or 2.
///
/// Worked examples (docs/hardware.md §6.6 test vectors):
///   f16 kind, bf16 x bf16 -> f32, M=128, N=256, K-major:
///     1<<4 | 1<<7 | 1<<10 | (256>>3)<<17 | (128>>4)<<24      = 0x08400490
///   f16 -> f32, M=64, N=64, both MN-major                    = 0x04118010
///   mxf8f6f4 E4M3 x E4M3, UE8M0, M=128, N=128, SF ids 0      = 0x08A00000
///   mxf4nvf4 E2M1, UE4M3, M=128, N=256                       = 0x08400480
///
/// Shapes (§6.7, dense, not .ws):
///   kind          cta_group::1 M / N               cta_group::2 M / N
///   f16,tf32,f8f6f4  64,128 / 8..256 step 8        128,256 / 16..256 step 16
///   i8            64,128 / 8,16,24,32, 48..256 step 16   128,256 / 32..256
///   step 32 mxf*          128 / 8..256 step 8              128,256 / 16..256
///   step 16 .ws (dense kinds, cta_group::1): M 32, 64, 128; N 64, 128, 256.
/// PTX also lists a step-16 f8f6f4 alternative whose condition is
/// **UNVERIFIED**; this model accepts step 8.
///
/// Errors: "UMMA instruction descriptor (kind::i8): field 'negate A' (bit
/// 13) = 1; allowed: 0 for kind::i8".
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_INSTRDESCRIPTOR_H
#define LAYOUTKIT_HW_INSTRDESCRIPTOR_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/hw/BitField.h"
#include "layoutkit/hw/CanonicalLayout.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace lk::hw {

enum class UmmaKind : uint8_t {
  F16,
  Tf32,
  F8f6f4,
  I8,
  Mxf8f6f4,
  Mxf4,
  Mxf4nvf4
};

struct UmmaKindInfo {
  UmmaKind kind = UmmaKind::F16;
  std::string_view name; ///< "f16", "tf32", ..., "mxf4nvf4"
  bool blockScaled = false;
  int64_t k = 0; ///< K per instruction (dense): 16, 8, 32, 32, 32, 64, 64
};
std::span<const UmmaKindInfo> ummaKinds();
const UmmaKindInfo &info(UmmaKind kind);
Expected<UmmaKind> parseUmmaKind(std::string_view name);

/// A / B element formats, named as the element-type registry names them.
enum class UmmaFormat : uint8_t {
  F16,
  BF16,
  TF32,
  E4M3,
  E5M2,
  E2M3,
  E3M2,
  E2M1,
  U8,
  S8
};
/// "f16", "bf16", "tf32", "f8e4m3", "f8e5m2", "f6e2m3", "f6e3m2", "f4e2m1",
/// "u8", "i8".
std::string_view name(UmmaFormat format);
/// Storage bits: 16, 16, 32, 8, 8, 6, 6, 4, 8, 8.
int64_t bits(UmmaFormat format);

/// The accumulator type (D type field): F16 0, F32 1, S32 2.
enum class UmmaAccum : uint8_t { F16, F32, S32 };
std::string_view name(UmmaAccum accum);

/// Block-scaled scale-factor type (bit 23): UE4M3 0, UE8M0 1.
enum class UmmaScaleType : uint8_t { UE4M3, UE8M0 };
std::string_view name(UmmaScaleType type);

struct UmmaInstrDescriptor {
  UmmaKind kind = UmmaKind::F16;
  UmmaFormat a = UmmaFormat::F16;
  UmmaFormat b = UmmaFormat::F16;
  UmmaAccum d = UmmaAccum::F32; ///< always F32 for block-scaled kinds
  int64_t m = 128;
  int64_t n = 128;
  Major majorA = Major::K; ///< transpose A bit: MN = 1
  Major majorB = Major::K;
  bool negateA = false;
  bool negateB = false;
  bool sparse = false;
  int64_t sparsitySelector = 0; ///< dense kinds only, 0-3
  bool saturate = false;        ///< i8 only
  int64_t maxShift = 0;         ///< 0, 8, 16, 32 (.ws only)
  // Block-scaled kinds only.
  UmmaScaleType scaleType = UmmaScaleType::UE8M0;
  int64_t sfaId = 0;
  int64_t sfbId = 0;
  int64_t k = 0; ///< mxf4 / mxf4nvf4: 64 or 96 (0 = the default 64)
  // Not encoded; used by the shape rules.
  int64_t ctaGroup = 1;          ///< 1 or 2
  bool weightStationary = false; ///< the .ws variant

  bool operator==(const UmmaInstrDescriptor &) const = default;
};

/// The field table of the word for `kind` (dense or block-scaled layout).
std::span<const BitField> ummaInstrFields(UmmaKind kind);
/// Reserved ranges of the word for `kind`.
std::span<const FixedBits> ummaInstrFixedBits(UmmaKind kind);

/// Validates (formats, D type, shapes, kind-specific flags) and packs.
Expected<uint32_t> encodeUmmaInstrDescriptor(const UmmaInstrDescriptor &d);
/// Unpacks and validates with the same rules; the context arguments are the
/// instruction's kind, cta_group and .ws flag.
Expected<UmmaInstrDescriptor>
decodeUmmaInstrDescriptor(uint32_t word, UmmaKind kind, int64_t ctaGroup = 1,
                          bool weightStationary = false);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_INSTRDESCRIPTOR_H
