//===- InstrDescriptorTest.cpp - tcgen05.mma instruction descriptor -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/InstrDescriptor.h"

#include <gtest/gtest.h>

#include <random>

using namespace lk;
using namespace lk::hw;

namespace {

UmmaInstrDescriptor bf16() {
  UmmaInstrDescriptor d;
  d.kind = UmmaKind::F16;
  d.a = d.b = UmmaFormat::BF16;
  d.d = UmmaAccum::F32;
  d.m = 128;
  d.n = 256;
  return d;
}

std::string error(const UmmaInstrDescriptor &d) {
  Expected<uint32_t> r = encodeUmmaInstrDescriptor(d);
  EXPECT_FALSE(r);
  return r ? std::string() : r.error().message;
}

// §6.6 test vectors.
TEST(InstrDescriptor, TestVectors) {
  EXPECT_EQ(*encodeUmmaInstrDescriptor(bf16()), 0x08400490u);

  UmmaInstrDescriptor f16;
  f16.kind = UmmaKind::F16;
  f16.a = f16.b = UmmaFormat::F16;
  f16.d = UmmaAccum::F32;
  f16.m = 64;
  f16.n = 64;
  f16.majorA = f16.majorB = Major::MN;
  EXPECT_EQ(*encodeUmmaInstrDescriptor(f16), 0x04118010u);

  UmmaInstrDescriptor mx;
  mx.kind = UmmaKind::Mxf8f6f4;
  mx.a = mx.b = UmmaFormat::E4M3;
  mx.scaleType = UmmaScaleType::UE8M0;
  mx.m = 128;
  mx.n = 128;
  EXPECT_EQ(*encodeUmmaInstrDescriptor(mx), 0x08A00000u);

  UmmaInstrDescriptor nv;
  nv.kind = UmmaKind::Mxf4nvf4;
  nv.a = nv.b = UmmaFormat::E2M1;
  nv.scaleType = UmmaScaleType::UE4M3;
  nv.m = 128;
  nv.n = 256;
  EXPECT_EQ(*encodeUmmaInstrDescriptor(nv), 0x08400480u);

  EXPECT_EQ(*decodeUmmaInstrDescriptor(0x08400490u, UmmaKind::F16), bf16());
  EXPECT_EQ(*decodeUmmaInstrDescriptor(0x04118010u, UmmaKind::F16), f16);
  EXPECT_EQ(*decodeUmmaInstrDescriptor(0x08A00000u, UmmaKind::Mxf8f6f4), mx);
  EXPECT_EQ(*decodeUmmaInstrDescriptor(0x08400480u, UmmaKind::Mxf4nvf4), nv);
}

// §6.6: CUTLASS writes M >> 4 into bits 24-28 of the block-scaled word; for
// the legal M (128, 256) that equals PTX's M >> 7 in bits 27-28.
TEST(InstrDescriptor, BlockScaledMEncodingMatchesCutlass) {
  for (int64_t m : {128, 256}) {
    UmmaInstrDescriptor d;
    d.kind = UmmaKind::Mxf8f6f4;
    d.a = d.b = UmmaFormat::E4M3;
    d.m = m;
    d.n = 128;
    d.ctaGroup = 2;
    uint32_t w = *encodeUmmaInstrDescriptor(d);
    EXPECT_EQ((w >> 24) & 0x1F, uint32_t(m >> 4));
  }
}

TEST(InstrDescriptor, FieldTables) {
  auto dense = ummaInstrFields(UmmaKind::I8);
  EXPECT_EQ(dense.size(), 13u);
  for (UmmaKind k : {UmmaKind::F16, UmmaKind::Mxf8f6f4, UmmaKind::Mxf4}) {
    uint64_t seen = 0;
    for (const BitField &f : ummaInstrFields(k)) {
      EXPECT_EQ(seen & f.mask(), 0u) << f.name;
      seen |= f.mask();
    }
    for (const FixedBits &f : ummaInstrFixedBits(k)) {
      BitField b{f.name, f.lowBit, f.width, {}};
      EXPECT_EQ(seen & b.mask(), 0u) << f.name;
      seen |= b.mask();
    }
    EXPECT_EQ(seen, 0xFFFFFFFFull) << info(k).name;
  }
  EXPECT_EQ(info(UmmaKind::F16).k, 16);
  EXPECT_EQ(info(UmmaKind::Tf32).k, 8);
  EXPECT_EQ(info(UmmaKind::Mxf4nvf4).k, 64);
  EXPECT_EQ(*parseUmmaKind("mxf4nvf4"), UmmaKind::Mxf4nvf4);
  EXPECT_FALSE(parseUmmaKind("f64"));
}

// §6.6 A/B type codes.
TEST(InstrDescriptor, FormatCodes) {
  struct Row {
    UmmaKind kind;
    UmmaFormat f;
    uint32_t code;
  } rows[] = {{UmmaKind::F16, UmmaFormat::F16, 0},
              {UmmaKind::F16, UmmaFormat::BF16, 1},
              {UmmaKind::Tf32, UmmaFormat::TF32, 2},
              {UmmaKind::F8f6f4, UmmaFormat::E4M3, 0},
              {UmmaKind::F8f6f4, UmmaFormat::E5M2, 1},
              {UmmaKind::F8f6f4, UmmaFormat::E2M3, 3},
              {UmmaKind::F8f6f4, UmmaFormat::E3M2, 4},
              {UmmaKind::F8f6f4, UmmaFormat::E2M1, 5},
              {UmmaKind::I8, UmmaFormat::U8, 0},
              {UmmaKind::I8, UmmaFormat::S8, 1},
              {UmmaKind::Mxf4, UmmaFormat::E2M1, 1}};
  for (const Row &r : rows) {
    UmmaInstrDescriptor d;
    d.kind = r.kind;
    d.a = d.b = r.f;
    d.d = r.kind == UmmaKind::I8 ? UmmaAccum::S32 : UmmaAccum::F32;
    d.m = 128;
    d.n = 64;
    Expected<uint32_t> w = encodeUmmaInstrDescriptor(d);
    ASSERT_TRUE(w) << w.error().message;
    EXPECT_EQ((*w >> 7) & 7, r.code) << name(r.f);
    EXPECT_EQ((*w >> 10) & (r.kind == UmmaKind::Mxf4 ? 3 : 7), r.code)
        << name(r.f);
  }
}

// §6.7 shape table.
TEST(InstrDescriptor, Shapes) {
  auto ok = [](UmmaKind kind, UmmaFormat f, UmmaAccum acc, int64_t m, int64_t n,
               int64_t cg, bool ws = false) {
    UmmaInstrDescriptor d;
    d.kind = kind;
    d.a = d.b = f;
    d.d = acc;
    d.m = m;
    d.n = n;
    d.ctaGroup = cg;
    d.weightStationary = ws;
    return bool(encodeUmmaInstrDescriptor(d));
  };
  const auto F = UmmaAccum::F32;
  for (int64_t n = 8; n <= 264; n += 8) {
    EXPECT_EQ(ok(UmmaKind::F16, UmmaFormat::F16, F, 128, n, 1), n <= 256) << n;
    EXPECT_EQ(ok(UmmaKind::F16, UmmaFormat::F16, F, 256, n, 2),
              n <= 256 && n % 16 == 0);
    EXPECT_EQ(ok(UmmaKind::I8, UmmaFormat::S8, UmmaAccum::S32, 64, n, 1),
              n <= 32 || (n >= 48 && n <= 256 && n % 16 == 0))
        << n;
    EXPECT_EQ(ok(UmmaKind::I8, UmmaFormat::S8, UmmaAccum::S32, 128, n, 2),
              n >= 32 && n <= 256 && n % 32 == 0);
    EXPECT_EQ(ok(UmmaKind::Mxf8f6f4, UmmaFormat::E4M3, F, 128, n, 1), n <= 256);
  }
  EXPECT_TRUE(ok(UmmaKind::Tf32, UmmaFormat::TF32, F, 64, 8, 1));
  EXPECT_FALSE(ok(UmmaKind::Tf32, UmmaFormat::TF32, F, 256, 8, 1));
  EXPECT_FALSE(ok(UmmaKind::Mxf4, UmmaFormat::E2M1, F, 64, 64, 1));
  EXPECT_TRUE(ok(UmmaKind::Mxf4, UmmaFormat::E2M1, F, 256, 64, 2));
  // .ws: M 32/64/128, N 64/128/256, cta_group::1.
  EXPECT_TRUE(ok(UmmaKind::F16, UmmaFormat::F16, F, 32, 64, 1, true));
  EXPECT_FALSE(ok(UmmaKind::F16, UmmaFormat::F16, F, 32, 96, 1, true));
  EXPECT_FALSE(ok(UmmaKind::F16, UmmaFormat::F16, F, 64, 64, 2, true));
  EXPECT_FALSE(ok(UmmaKind::Mxf8f6f4, UmmaFormat::E4M3, F, 128, 64, 1, true));

  UmmaInstrDescriptor d = bf16();
  d.m = 96;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::f16): field 'M' (bits "
            "24-28) = 96; allowed: 64, 128 for kind::f16 with cta_group::1");
  d = bf16();
  d.n = 12;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::f16): field 'N' (bits "
            "17-22) = 12; allowed: 8 to 256 in steps of 8 for kind::f16 "
            "with cta_group::1");
  d.kind = UmmaKind::I8;
  d.a = d.b = UmmaFormat::S8;
  d.d = UmmaAccum::S32;
  d.n = 40;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::i8): field 'N' (bits "
            "17-22) = 40; allowed: 8 to 32 in steps of 8, 48 to 256 in "
            "steps of 16 for kind::i8 with cta_group::1");
}

TEST(InstrDescriptor, Diagnostics) {
  UmmaInstrDescriptor d = bf16();
  d.a = UmmaFormat::E4M3;
  EXPECT_EQ(error(d), "UMMA instruction descriptor (kind::f16): field 'A type' "
                      "(bits 7-9) = f8e4m3; allowed: f16, bf16");
  d = bf16();
  d.d = UmmaAccum::F16; // bf16 inputs need an f32 accumulator
  EXPECT_EQ(error(d), "UMMA instruction descriptor (kind::f16): field 'D type' "
                      "(bits 4-5) = f16; allowed: f16 (f16 inputs only), f32");
  d.a = d.b = UmmaFormat::F16;
  EXPECT_TRUE(encodeUmmaInstrDescriptor(d));
  d = bf16();
  d.kind = UmmaKind::Tf32;
  d.a = d.b = UmmaFormat::TF32;
  d.d = UmmaAccum::S32;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::tf32): field 'D type' "
            "(bits 4-5) = s32; allowed: f32");
  d = bf16();
  d.kind = UmmaKind::I8;
  d.a = d.b = UmmaFormat::S8;
  d.d = UmmaAccum::S32;
  d.negateA = true;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::i8): field 'negate A' "
            "(bit 13) = 1; allowed: 0 for kind::i8");
  d.negateA = false;
  d.saturate = true;
  EXPECT_TRUE(encodeUmmaInstrDescriptor(d));
  EXPECT_EQ(*encodeUmmaInstrDescriptor(d) & 8u, 8u);
  // 8-bit MN-major B: N % 16 (cta_group::1).
  d.majorB = Major::MN;
  d.n = 48;
  EXPECT_TRUE(encodeUmmaInstrDescriptor(d));
  d.kind = UmmaKind::F8f6f4;
  d.a = d.b = UmmaFormat::E4M3;
  d.d = UmmaAccum::F32;
  d.saturate = false;
  d.n = 24;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::f8f6f4): field 'N' "
            "(bits 17-22) = 24; allowed: a multiple of 16 with an 8-bit "
            "MN-major B (cta_group::1)");
  d = bf16();
  d.saturate = true;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::f16): field 'saturate' "
            "(bit 3) = 1; allowed: 0 (saturate is for kind::i8 only)");
  d = bf16();
  d.sparsitySelector = 2;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::f16): field 'sparsity "
            "selector' (bits 0-1) = 2; allowed: 0 for a dense MMA");
  d.sparse = true;
  EXPECT_TRUE(encodeUmmaInstrDescriptor(d));
  d = bf16();
  d.maxShift = 16;
  EXPECT_EQ(error(d),
            "UMMA instruction descriptor (kind::f16): field 'max shift' "
            "(bits 30-31) = 16; allowed: 0 without .ws");

  UmmaInstrDescriptor mx;
  mx.kind = UmmaKind::Mxf4;
  mx.a = mx.b = UmmaFormat::E2M1;
  mx.m = 128;
  mx.n = 128;
  mx.scaleType = UmmaScaleType::UE4M3;
  EXPECT_EQ(error(mx), "UMMA instruction descriptor (kind::mxf4): field 'scale "
                       "type' (bit 23) = ue4m3; allowed: ue8m0 for kind::mxf4");
  mx.scaleType = UmmaScaleType::UE8M0;
  mx.sfaId = 1;
  EXPECT_EQ(error(mx),
            "UMMA instruction descriptor (kind::mxf4): field 'SFA ID' "
            "(bits 29-30) = 1; allowed: 0 or 2");
  mx.sfaId = 2;
  mx.sfbId = 2;
  EXPECT_EQ(*encodeUmmaInstrDescriptor(mx),
            0x08000000u | (2u << 29) | (2u << 4) | (1u << 23) | (16u << 17) |
                (1u << 7) | (1u << 10));
  mx.majorA = Major::MN;
  EXPECT_EQ(error(mx), "UMMA instruction descriptor (kind::mxf4): field "
                       "'transpose A' (bit 15) = 1 (MN-major); allowed: 0 "
                       "(K-major) for kind::mxf4");
  mx.majorA = Major::K;
  mx.k = 96;
  EXPECT_EQ(error(mx),
            "UMMA instruction descriptor (kind::mxf4): field 'K size' "
            "(bit 31) = 96; allowed: 96 only with M = 256 and cta_group::2");
  mx.m = 256;
  mx.ctaGroup = 2;
  EXPECT_EQ(*encodeUmmaInstrDescriptor(mx) >> 31, 1u);
  mx.kind = UmmaKind::Mxf8f6f4;
  mx.a = mx.b = UmmaFormat::E4M3;
  mx.k = 0;
  mx.sfaId = 3;
  mx.sfbId = 1;
  EXPECT_TRUE(encodeUmmaInstrDescriptor(mx));
}

TEST(InstrDescriptor, DecodeDiagnostics) {
  auto err = [](uint32_t w, UmmaKind k) {
    Expected<UmmaInstrDescriptor> r = decodeUmmaInstrDescriptor(w, k);
    EXPECT_FALSE(r);
    return r ? std::string() : r.error().message;
  };
  EXPECT_EQ(err(0x08400490u | (1u << 6), UmmaKind::F16),
            "UMMA instruction descriptor (kind::f16): bit 6 (reserved) must be "
            "0, got 1");
  EXPECT_EQ(err(0x08400490u | (1u << 23), UmmaKind::F16),
            "UMMA instruction descriptor (kind::f16): bit 23 (reserved) must "
            "be 0, got 1");
  EXPECT_EQ(
      err((0x08400490u & ~(7u << 7)) | (2u << 7), UmmaKind::F16),
      "UMMA instruction descriptor (kind::f16): field 'A type' (bits 7-9) = "
      "2; allowed: 0 (f16), 1 (bf16)");
  EXPECT_EQ(
      err(0x08400490u | (3u << 4), UmmaKind::F16),
      "UMMA instruction descriptor (kind::f16): field 'D type' (bits 4-5) = "
      "3; allowed: 0 (f16), 1 (f32), 2 (s32)");
  EXPECT_EQ(
      err(0x08A00000u | (1u << 31), UmmaKind::Mxf8f6f4),
      "UMMA instruction descriptor (kind::mxf8f6f4): bit 31 (reserved) must "
      "be 0, got 1");
  EXPECT_EQ(
      err(0x08400480u | (1u << 12), UmmaKind::Mxf4nvf4),
      "UMMA instruction descriptor (kind::mxf4nvf4): bit 12 (reserved) must "
      "be 0, got 1");
  // The same word is a different descriptor under another kind: the
  // bf16 vector read as kind::i8 has D type f32.
  EXPECT_FALSE(decodeUmmaInstrDescriptor(0x08400490u, UmmaKind::I8));
}

// Random valid descriptors round-trip.
TEST(InstrDescriptor, RoundTripRandom) {
  std::mt19937_64 rng(99);
  int valid = 0;
  for (int i = 0; i < 20000; ++i) {
    UmmaInstrDescriptor d;
    d.kind = UmmaKind(rng() % 7);
    const UmmaFormat fs[] = {
        UmmaFormat::F16,  UmmaFormat::BF16, UmmaFormat::TF32, UmmaFormat::E4M3,
        UmmaFormat::E5M2, UmmaFormat::E2M3, UmmaFormat::E3M2, UmmaFormat::E2M1,
        UmmaFormat::U8,   UmmaFormat::S8};
    d.a = fs[rng() % 10];
    d.b = fs[rng() % 10];
    d.d = UmmaAccum(rng() % 3);
    d.ctaGroup = 1 + int64_t(rng() % 2);
    const int64_t ms[] = {64, 128, 256};
    d.m = ms[rng() % 3];
    d.n = 8 * int64_t(1 + rng() % 32);
    d.majorA = rng() % 2 ? Major::MN : Major::K;
    d.majorB = rng() % 2 ? Major::MN : Major::K;
    d.negateA = rng() % 2;
    d.negateB = rng() % 2;
    d.sparse = rng() % 2;
    if (!info(d.kind).blockScaled && d.sparse)
      d.sparsitySelector = int64_t(rng() % 4);
    d.saturate = d.kind == UmmaKind::I8 && rng() % 2;
    if (info(d.kind).blockScaled) {
      d.scaleType = rng() % 2 ? UmmaScaleType::UE8M0 : UmmaScaleType::UE4M3;
      d.sfaId = int64_t(rng() % 4);
      d.sfbId = int64_t(rng() % 4);
      d.k = (d.kind != UmmaKind::Mxf8f6f4 && rng() % 2) ? 96 : 0;
    }
    Expected<uint32_t> w = encodeUmmaInstrDescriptor(d);
    if (!w)
      continue; // an invalid combination: rejected with a diagnostic
    ++valid;
    Expected<UmmaInstrDescriptor> back =
        decodeUmmaInstrDescriptor(*w, d.kind, d.ctaGroup, d.weightStationary);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, d);
    EXPECT_EQ(*encodeUmmaInstrDescriptor(*back), *w);
    // Field positions (§6.6).
    EXPECT_EQ((*w >> 17) & 0x3F, uint32_t(d.n >> 3));
    if (info(d.kind).blockScaled)
      EXPECT_EQ((*w >> 27) & 3, uint32_t(d.m >> 7));
    else
      EXPECT_EQ((*w >> 24) & 0x1F, uint32_t(d.m >> 4));
  }
  EXPECT_GT(valid, 200); // about 1 in 75 random combinations is legal
}

} // namespace
