//===- SwizzleModeTest.cpp - Hardware swizzle modes -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/SwizzleMode.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::hw;

namespace {

int64_t phys(SwizzleMode m, int64_t a) {
  Expected<int64_t> r = swizzleAddress(m, a);
  EXPECT_TRUE(r);
  return r ? *r : -1;
}

// §5.1 test vectors.
TEST(SwizzleMode, AddressTestVectors) {
  EXPECT_EQ(phys(SwizzleMode::B128, 0x080), 0x090);
  EXPECT_EQ(phys(SwizzleMode::B128, 0x100), 0x120);
  EXPECT_EQ(phys(SwizzleMode::B128, 0x200), 0x240);
  EXPECT_EQ(phys(SwizzleMode::B128, 0x380), 0x3f0);
  EXPECT_EQ(phys(SwizzleMode::B128, 0x3f0), 0x380);
  EXPECT_EQ(phys(SwizzleMode::B128, 0x400), 0x400);
  EXPECT_EQ(phys(SwizzleMode::B64, 0x100), 0x120);
  EXPECT_EQ(phys(SwizzleMode::B64, 0x380), 0x3b0);
  EXPECT_EQ(phys(SwizzleMode::B64, 0x3f0), 0x3c0);
  EXPECT_EQ(phys(SwizzleMode::B32, 0x080), 0x090);
  EXPECT_EQ(phys(SwizzleMode::B32, 0x3f0), 0x3e0);
  EXPECT_EQ(phys(SwizzleMode::B128Atom32B, 0x080), 0x0a0);
  EXPECT_EQ(phys(SwizzleMode::B128Atom32B, 0x180), 0x1e0);
  EXPECT_EQ(phys(SwizzleMode::B128Atom32B, 0x3f0), 0x390);
}

// §5.1 formulas, checked on every address of a few repeats.
TEST(SwizzleMode, FormulasOfTheTable) {
  for (int64_t a = 0; a < 4096; ++a) {
    EXPECT_EQ(phys(SwizzleMode::None, a), a);
    EXPECT_EQ(phys(SwizzleMode::B32, a), a ^ (((a >> 7) & 1) << 4));
    EXPECT_EQ(phys(SwizzleMode::B64, a), a ^ (((a >> 7) & 3) << 4));
    EXPECT_EQ(phys(SwizzleMode::B128, a), a ^ (((a >> 7) & 7) << 4));
    EXPECT_EQ(phys(SwizzleMode::B128Atom32B, a), a ^ (((a >> 7) & 3) << 5));
    // UNVERIFIED mode: pins the sheet's formula.
    EXPECT_EQ(phys(SwizzleMode::B128Atom64B, a), a ^ (((a >> 7) & 1) << 6));
    // Every mode is a permutation of its repeat (self-inverse).
    for (const SwizzleModeInfo &m : swizzleModes())
      if (m.hasCute) {
        EXPECT_EQ(phys(m.mode, phys(m.mode, a)), a);
      }
  }
}

TEST(SwizzleMode, TableColumns) {
  struct Row {
    SwizzleMode mode;
    const char *name;
    int64_t span, granule, repeat;
    int tma, wgmma, umma;
    bool verified;
  } rows[] = {
      {SwizzleMode::None, "none", 16, 16, 0, 0, 0, 0, true},
      {SwizzleMode::B32, "32B", 32, 16, 256, 1, 3, 6, true},
      {SwizzleMode::B64, "64B", 64, 16, 512, 2, 2, 4, true},
      {SwizzleMode::B128, "128B", 128, 16, 1024, 3, 1, 2, true},
      {SwizzleMode::B128Atom32B, "128B_atom32B", 128, 32, 512, 4, -1, 1, true},
      {SwizzleMode::B128Atom32BFlip8B, "128B_atom32B_flip8B", 128, 32, 512, 5,
       -1, -1, false},
      {SwizzleMode::B128Atom64B, "128B_atom64B", 128, 64, 256, 6, -1, -1,
       false},
  };
  ASSERT_EQ(swizzleModes().size(), std::size(rows));
  for (const Row &r : rows) {
    const SwizzleModeInfo &i = info(r.mode);
    EXPECT_EQ(i.name, r.name);
    EXPECT_EQ(i.spanBytes, r.span) << r.name;
    EXPECT_EQ(i.granuleBytes, r.granule) << r.name;
    EXPECT_EQ(i.repeatBytes, r.repeat) << r.name;
    EXPECT_EQ(i.tmaCode, r.tma) << r.name;
    EXPECT_EQ(i.wgmmaCode, r.wgmma) << r.name;
    EXPECT_EQ(i.ummaCode, r.umma) << r.name;
    EXPECT_EQ(i.verified, r.verified) << r.name;
    EXPECT_EQ(*swizzleFromTmaCode(r.tma), r.mode);
    if (r.wgmma >= 0) {
      EXPECT_EQ(*swizzleFromWgmmaCode(r.wgmma), r.mode);
    }
    if (r.umma >= 0) {
      EXPECT_EQ(*swizzleFromUmmaCode(r.umma), r.mode);
    }
  }
  // §5.3: Blackwell code >> 1 == Hopper code for the 16-byte-granule modes.
  for (SwizzleMode m : {SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128})
    EXPECT_EQ(info(m).ummaCode >> 1, info(m).wgmmaCode);
  EXPECT_EQ(
      swizzleFromUmmaCode(3).error().message,
      "UMMA descriptor swizzle code 3 is not defined (allowed: 0 (none), 6 "
      "(32B), 4 (64B), 2 (128B), 1 (128B_atom32B))");
  EXPECT_FALSE(swizzleFromWgmmaCode(4));
  EXPECT_FALSE(swizzleFromTmaCode(7));
}

TEST(SwizzleMode, CuteForms) {
  EXPECT_EQ(byteSwizzle(SwizzleMode::None)->str(), "Sw<0,4,3>");
  EXPECT_EQ(byteSwizzle(SwizzleMode::B32)->str(), "Sw<1,4,3>");
  EXPECT_EQ(byteSwizzle(SwizzleMode::B64)->str(), "Sw<2,4,3>");
  EXPECT_EQ(byteSwizzle(SwizzleMode::B128)->str(), "Sw<3,4,3>");
  EXPECT_EQ(byteSwizzle(SwizzleMode::B128Atom32B)->str(), "Sw<2,5,2>");
  EXPECT_EQ(byteSwizzle(SwizzleMode::B128Atom64B)->str(), "Sw<1,6,1>");
  Expected<cute::Swizzle> flip = byteSwizzle(SwizzleMode::B128Atom32BFlip8B);
  ASSERT_FALSE(flip);
  EXPECT_EQ(flip.error().message, "swizzle mode 128B_atom32B_flip8B has no "
                                  "CuTe form (UNVERIFIED flip parity)");
  // §4.4: Swizzle<B,4,3> on bytes is Swizzle<B, 4 - log2(bytes/elem), 3>.
  EXPECT_EQ(elementSwizzle(SwizzleMode::B128, 16)->str(), "Sw<3,3,3>");
  EXPECT_EQ(elementSwizzle(SwizzleMode::B64, 16)->str(), "Sw<2,3,3>");
  EXPECT_EQ(elementSwizzle(SwizzleMode::B32, 16)->str(), "Sw<1,3,3>");
  EXPECT_EQ(elementSwizzle(SwizzleMode::B128, 32)->str(), "Sw<3,2,3>");
  EXPECT_EQ(elementSwizzle(SwizzleMode::B128, 8)->str(), "Sw<3,4,3>");
  EXPECT_EQ(elementSwizzle(SwizzleMode::B128, 4)->str(), "Sw<3,5,3>");
  EXPECT_EQ(elementSwizzle(SwizzleMode::B128, 128)->str(), "Sw<3,0,3>");
  // CUTLASS Layout_MN_SW128_32B_Atom_Bits = Sw<2,5,2> o ... in bits: the
  // element form for 32-bit (tf32) is Sw<2,3,2>.
  EXPECT_EQ(elementSwizzle(SwizzleMode::B128Atom32B, 32)->str(), "Sw<2,3,2>");
  EXPECT_FALSE(elementSwizzle(SwizzleMode::B128, 6));
  EXPECT_FALSE(elementSwizzle(SwizzleMode::B128, 256));
}

} // namespace
