//===- SmemDescriptorTest.cpp - wgmma / UMMA smem descriptors -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Bit layouts and test vectors of docs/hardware.md: §4.3 (wgmma), §6.5
// (UMMA).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/SmemDescriptor.h"

#include <gtest/gtest.h>

#include <random>

using namespace lk;
using namespace lk::hw;

namespace {

constexpr SmemDescriptorKind kW = SmemDescriptorKind::Wgmma;
constexpr SmemDescriptorKind kU = SmemDescriptorKind::Umma;

SmemDescriptor example() {
  SmemDescriptor d;
  d.startAddress = 0x400;
  d.leadingByteOffset = 16;
  d.strideByteOffset = 1024;
  d.swizzle = SwizzleMode::B128;
  return d;
}

std::string encodeError(SmemDescriptorKind k, const SmemDescriptor &d) {
  Expected<uint64_t> r = encodeSmemDescriptor(k, d);
  EXPECT_FALSE(r);
  return r ? std::string() : r.error().message;
}

std::string decodeError(SmemDescriptorKind k, uint64_t w) {
  Expected<SmemDescriptor> r = decodeSmemDescriptor(k, w);
  EXPECT_FALSE(r);
  return r ? std::string() : r.error().message;
}

// §4.3 / §6.5 encode test vectors.
TEST(SmemDescriptor, TestVectors) {
  EXPECT_EQ(*encodeWgmmaDescriptor(example()), 0x4000004000010040ull);
  EXPECT_EQ(*encodeUmmaDescriptor(example()), 0x4000404000010040ull);
  EXPECT_EQ(*decodeWgmmaDescriptor(0x4000004000010040ull), example());
  EXPECT_EQ(*decodeUmmaDescriptor(0x4000404000010040ull), example());
  EXPECT_EQ(str(example()), "start=0x400 LBO=16 SBO=1024 base=0 swizzle=128B");
}

// §4.3 bit table; §6.5 table.
TEST(SmemDescriptor, FieldTables) {
  auto w = smemDescriptorFields(kW);
  ASSERT_EQ(w.size(), 5u);
  struct Row {
    const char *name;
    int lo, width;
  };
  Row wRows[] = {{"start address", 0, 14},
                 {"leading byte offset", 16, 14},
                 {"stride byte offset", 32, 14},
                 {"base offset", 49, 3},
                 {"swizzle", 62, 2}};
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(w[i].name, wRows[i].name);
    EXPECT_EQ(w[i].lowBit, wRows[i].lo);
    EXPECT_EQ(w[i].width, wRows[i].width);
  }
  auto u = smemDescriptorFields(kU);
  ASSERT_EQ(u.size(), 6u);
  Row uRows[] = {{"start address", 0, 14},
                 {"leading byte offset", 16, 14},
                 {"stride byte offset", 32, 14},
                 {"base offset", 49, 3},
                 {"LBO mode", 52, 1},
                 {"layout type", 61, 3}};
  for (size_t i = 0; i < u.size(); ++i) {
    EXPECT_EQ(u[i].name, uRows[i].name);
    EXPECT_EQ(u[i].lowBit, uRows[i].lo);
    EXPECT_EQ(u[i].width, uRows[i].width);
  }
  // Fields and fixed ranges tile the 64-bit word exactly once.
  for (SmemDescriptorKind k : {kW, kU}) {
    uint64_t seen = 0;
    for (const BitField &f : smemDescriptorFields(k)) {
      EXPECT_EQ(seen & f.mask(), 0u) << f.name;
      seen |= f.mask();
    }
    for (const FixedBits &f : smemDescriptorFixedBits(k)) {
      BitField b{f.name, f.lowBit, f.width, {}};
      EXPECT_EQ(seen & b.mask(), 0u) << f.name;
      seen |= b.mask();
    }
    EXPECT_EQ(seen, ~uint64_t(0));
  }
}

// §6.5: Blackwell codes 2/4/6 >> 1 = Hopper codes 1/2/3, so bits 62-63 agree;
// UMMA adds bit 46 (version) and bit 61 (128B_atom32B).
TEST(SmemDescriptor, HopperAndBlackwellShareBits62And63) {
  for (SwizzleMode m : {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                        SwizzleMode::B128}) {
    SmemDescriptor d = example();
    d.swizzle = m;
    uint64_t h = *encodeWgmmaDescriptor(d), b = *encodeUmmaDescriptor(d);
    EXPECT_EQ(b, h | (uint64_t(1) << 46)) << name(m);
  }
  SmemDescriptor d = example();
  d.swizzle = SwizzleMode::B128Atom32B;
  EXPECT_EQ(*encodeUmmaDescriptor(d), 0x2000404000010040ull);
  d.lboAbsolute = true;
  EXPECT_EQ(*encodeUmmaDescriptor(d), 0x2010404000010040ull);
  EXPECT_EQ(*decodeUmmaDescriptor(0x2010404000010040ull), d);
}

TEST(SmemDescriptor, BaseOffsetRule) {
  EXPECT_EQ(baseOffsetFor(SwizzleMode::B128, 0x400), 0);
  EXPECT_EQ(baseOffsetFor(SwizzleMode::B128, 0x480), 1);
  EXPECT_EQ(baseOffsetFor(SwizzleMode::B128, 0x780), 7);
  EXPECT_EQ(baseOffsetFor(SwizzleMode::B64, 0x200), 0);
  EXPECT_EQ(baseOffsetFor(SwizzleMode::B64, 0x300), 6);
  EXPECT_EQ(baseOffsetFor(SwizzleMode::B32, 0x100), 0);
  EXPECT_EQ(baseOffsetFor(SwizzleMode::None, 0x480), 0);
  SmemDescriptor d = example();
  d.baseOffset = 5;
  uint64_t w = *encodeWgmmaDescriptor(d);
  EXPECT_EQ(w, 0x4000004000010040ull | (uint64_t(5) << 49));
  EXPECT_EQ(*decodeWgmmaDescriptor(w), d);
}

TEST(SmemDescriptor, EncodeDiagnosticsNameTheField) {
  SmemDescriptor d = example();
  d.startAddress = 1032;
  EXPECT_EQ(encodeError(kW, d),
            "wgmma descriptor: field 'start address' (bits 0-13) = 1032 B; "
            "allowed: a multiple of 16 B in [0, 262144)");
  d.startAddress = 262144;
  EXPECT_EQ(encodeError(kU, d),
            "UMMA descriptor: field 'start address' (bits 0-13) = 262144 B; "
            "allowed: a multiple of 16 B in [0, 262144)");
  d = example();
  d.leadingByteOffset = -16;
  EXPECT_EQ(
      encodeError(kW, d),
      "wgmma descriptor: field 'leading byte offset' (bits 16-29) = -16 B; "
      "allowed: a multiple of 16 B in [0, 262144)");
  d = example();
  d.strideByteOffset = 1000;
  EXPECT_EQ(
      encodeError(kW, d),
      "wgmma descriptor: field 'stride byte offset' (bits 32-45) = 1000 B; "
      "allowed: a multiple of 16 B in [0, 262144)");
  d = example();
  d.baseOffset = 8;
  EXPECT_EQ(encodeError(kW, d), "wgmma descriptor: field 'base offset' (bits "
                                "49-51) = 8; allowed: 0 to 7");
  d.baseOffset = 1;
  d.swizzle = SwizzleMode::None;
  EXPECT_EQ(encodeError(kU, d),
            "UMMA descriptor: field 'base offset' (bits 49-51) = 1; allowed: 0 "
            "when the swizzle is none");
  d = example();
  d.swizzle = SwizzleMode::B128Atom32B;
  EXPECT_EQ(encodeError(kW, d),
            "wgmma descriptor: field 'swizzle' (bits 62-63) = 128B_atom32B; "
            "allowed: none, 32B, 64B, 128B");
  d.swizzle = SwizzleMode::B128Atom64B;
  EXPECT_EQ(encodeError(kU, d),
            "UMMA descriptor: field 'layout type' (bits 61-63) = 128B_atom64B; "
            "allowed: none, 32B, 64B, 128B, 128B_atom32B");
  d = example();
  d.lboAbsolute = true;
  EXPECT_EQ(encodeError(kW, d),
            "wgmma descriptor: absolute LBO mode exists only in the UMMA "
            "descriptor (bit 52, sm_103a)");
}

TEST(SmemDescriptor, DecodeDiagnostics) {
  const uint64_t h = 0x4000004000010040ull, b = 0x4000404000010040ull;
  EXPECT_EQ(decodeError(kW, h | (1ull << 14)),
            "wgmma descriptor: bits 14-15 (reserved) must be 0, got 1");
  EXPECT_EQ(decodeError(kW, h | (3ull << 30)),
            "wgmma descriptor: bits 30-31 (reserved) must be 0, got 3");
  // A UMMA word is not a wgmma word (bit 46).
  EXPECT_EQ(decodeError(kW, b),
            "wgmma descriptor: bits 46-48 (reserved) must be 0, got 1");
  EXPECT_EQ(decodeError(kW, h | (1ull << 61)),
            "wgmma descriptor: bits 52-61 (reserved) must be 0, got 512");
  EXPECT_EQ(decodeError(kU, h),
            "UMMA descriptor: bits 46-48 (version) must be 1, got 0");
  EXPECT_EQ(decodeError(kU, b | (1ull << 53)),
            "UMMA descriptor: bits 53-60 (reserved) must be 0, got 1");
  for (uint64_t code : {3ull, 5ull, 7ull})
    EXPECT_EQ(decodeError(kU, (b & ~(7ull << 61)) | (code << 61)),
              "UMMA descriptor: field 'layout type' (bits 61-63) = " +
                  std::to_string(code) +
                  "; allowed: 0 (none), 6 (32B), 4 (64B), 2 (128B), 1 "
                  "(128B_atom32B)");
  // Base offset without swizzle.
  EXPECT_EQ(
      decodeError(kW, 0x0000004000010040ull | (2ull << 49)),
      "wgmma descriptor: field 'base offset' (bits 49-51) = 2; allowed: 0 "
      "when the swizzle is none");
}

// Random valid fields: decode(encode(d)) == d and encode(decode(w)) == w.
TEST(SmemDescriptor, RoundTripRandomFields) {
  std::mt19937_64 rng(20261122);
  for (SmemDescriptorKind k : {kW, kU}) {
    std::vector<SwizzleMode> modes;
    for (const SwizzleModeInfo &i : swizzleModes())
      if ((k == kW ? i.wgmmaCode : i.ummaCode) >= 0)
        modes.push_back(i.mode);
    for (int n = 0; n < 5000; ++n) {
      SmemDescriptor d;
      d.startAddress = int64_t(rng() % 16384) * 16;
      d.leadingByteOffset = int64_t(rng() % 16384) * 16;
      d.strideByteOffset = int64_t(rng() % 16384) * 16;
      d.swizzle = modes[rng() % modes.size()];
      d.baseOffset = d.swizzle == SwizzleMode::None ? 0 : int64_t(rng() % 8);
      d.lboAbsolute = k == kU && rng() % 2;
      Expected<uint64_t> w = encodeSmemDescriptor(k, d);
      ASSERT_TRUE(w) << w.error().message;
      Expected<SmemDescriptor> back = decodeSmemDescriptor(k, *w);
      ASSERT_TRUE(back) << back.error().message;
      EXPECT_EQ(*back, d);
      EXPECT_EQ(*encodeSmemDescriptor(k, *back), *w);
      // Field by field against the sheet's formulas.
      EXPECT_EQ(*w & 0x3FFF, uint64_t(d.startAddress & 0x3FFFF) >> 4);
      EXPECT_EQ((*w >> 16) & 0x3FFF,
                uint64_t(d.leadingByteOffset & 0x3FFFF) >> 4);
      EXPECT_EQ((*w >> 32) & 0x3FFF,
                uint64_t(d.strideByteOffset & 0x3FFFF) >> 4);
      EXPECT_EQ((*w >> 49) & 7, uint64_t(d.baseOffset));
      if (k == kW) {
        EXPECT_EQ(*w >> 62, uint64_t(info(d.swizzle).wgmmaCode));
      } else {
        EXPECT_EQ(*w >> 61, uint64_t(info(d.swizzle).ummaCode));
        EXPECT_EQ((*w >> 46) & 7, 1u);
      }
    }
  }
}

} // namespace
