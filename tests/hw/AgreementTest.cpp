//===- AgreementTest.cpp - Buffer layout, TMA and MMA descriptor agree ----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Tiles follow docs/hardware.md §5.3: a K-major bf16 tile whose TMA box row is
// one swizzle span (64 elements for 128B, 32 for 64B), rows at span pitch, and
// a descriptor with SBO = 8 x span.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Agreement.h"

#include "layoutkit/cute/Text.h"

#include <gtest/gtest.h>

namespace lk::hw {
namespace {

cute::ComposedLayout layout(const std::string &text) {
  auto c = cute::parseComposedLayout(text);
  EXPECT_TRUE(c) << c.error().message;
  return *c;
}

TmaDescription tmaBox(int64_t inner, int64_t outer, SwizzleMode mode) {
  TmaDescription t;
  t.dataType = TmaDataType::BFloat16;
  t.globalDims = {4096, 4096};
  t.globalStrides = {8192};
  t.boxDims = {inner, outer};
  t.swizzle = mode;
  return t;
}

SmemDescriptor descriptor(int64_t sbo, SwizzleMode mode, int64_t start = 0) {
  SmemDescriptor d;
  d.startAddress = start;
  d.leadingByteOffset = 16;
  d.strideByteOffset = sbo;
  d.swizzle = mode;
  return d;
}

/// The 64 x 64 bf16 K-major tile, 128B everywhere.
OperandDescriptions k128() {
  OperandDescriptions d;
  d.arch = Arch::Sm90;
  d.major = Major::K;
  d.elementBits = 16;
  d.mn = 64;
  d.k = 64;
  d.buffer = layout("Sw<3,3,3> o (64,64):(64,1)");
  d.tma = tmaBox(64, 64, SwizzleMode::B128);
  d.mma = descriptor(1024, SwizzleMode::B128);
  return d;
}

TEST(Agreement, TheCanonical128BTileAgrees) {
  auto a = checkAgreement(k128());
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_TRUE(a->agree()) << a->explain();
  EXPECT_EQ(a->elements, 4096);
  EXPECT_EQ(a->explain(), "the descriptions agree on all 4096 elements");
}

// A descriptor is read by its architecture's MMA only: wgmma's on sm_90,
// umma's on sm_100; the same tile read as umma on sm_100 agrees.
TEST(Agreement, TheDescriptorKindMustBeTheArchitectures) {
  OperandDescriptions d = k128();
  d.tma.reset();
  d.arch = Arch::Sm80;
  EXPECT_EQ(checkAgreement(d).error().message,
            "a wgmma descriptor is read on sm_90 only; the arch is sm_80");
  d.arch = Arch::Sm90;
  d.mmaKind = SmemDescriptorKind::Umma;
  EXPECT_EQ(checkAgreement(d).error().message,
            "a umma descriptor is read on sm_100 only; the arch is sm_90");
  d.arch = Arch::Sm100;
  Expected<Agreement> umma = checkAgreement(d);
  ASSERT_TRUE(umma) << umma.error().message;
  EXPECT_TRUE(umma->agree()) << umma->explain();
}

TEST(Agreement, TmaSwizzleDiffersFromTheDescriptor) {
  // (MN, K) = (64, 32): the buffer and descriptor use 64B (span 32
  // elements); the TMA writes 64-byte rows with 128B swizzle, at 128-byte
  // pitch (§5.2). Row 0 agrees (no swizzle bit set below 64 elements);
  // (1, 0): buffer Sw<2,3,3>(32) = 32, TMA Sw<3,3,3>(64) = 72.
  OperandDescriptions d = k128();
  d.k = 32;
  d.buffer = layout("Sw<2,3,3> o (64,32):(32,1)");
  d.tma = tmaBox(32, 64, SwizzleMode::B128);
  d.mma = descriptor(512, SwizzleMode::B64);
  auto a = checkAgreement(d);
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_FALSE(a->agree());
  const Disagreement &diff = *a->difference;
  EXPECT_EQ(diff.mn, 1);
  EXPECT_EQ(diff.k, 0);
  EXPECT_EQ(diff.buffer, 32);
  EXPECT_EQ(diff.tma, 72);
  EXPECT_EQ(diff.mma, 32);
  EXPECT_EQ(a->explain(),
            "the TMA disagrees at (mn=1, k=0): buffer 32, TMA 72, descriptor "
            "32 (element offsets) -- TMA writes with swizzle 128B, the "
            "descriptor reads with swizzle 64B (they must match: TMA 128B <-> "
            "wgmma 1 <-> UMMA 2, 64B <-> 2 <-> 4, 32B <-> 3 <-> 6, none <-> 0 "
            "<-> 0)");
}

TEST(Agreement, UnswizzledBufferIsNamed) {
  OperandDescriptions d = k128();
  d.buffer = layout("(64,64):(64,1)");
  auto a = checkAgreement(d);
  ASSERT_TRUE(a);
  ASSERT_FALSE(a->agree());
  // (1, 0): buffer 64; TMA and descriptor Sw<3,3,3>(64) = 72.
  EXPECT_EQ(a->explain(),
            "the buffer layout disagrees at (mn=1, k=0): buffer 64, TMA 72, "
            "descriptor 72 (element offsets) -- the buffer layout has no "
            "swizzle, but swizzle 128B on 16-bit elements is Sw<3,3,3>");
}

TEST(Agreement, StartAddressesAreCompared) {
  OperandDescriptions d = k128();
  d.mma = descriptor(1024, SwizzleMode::B128, 2048); // 1024 elements on
  auto a = checkAgreement(d);
  ASSERT_TRUE(a);
  ASSERT_FALSE(a->agree());
  EXPECT_EQ(a->difference->mma, 1024);
  EXPECT_EQ(a->explain(),
            "the MMA descriptor disagrees at (mn=0, k=0): buffer 0, TMA 0, "
            "descriptor 1024 (element offsets) -- the descriptions start at "
            "different addresses");
}

TEST(Agreement, TwoDescriptionsAreEnough) {
  OperandDescriptions d = k128();
  d.tma.reset();
  EXPECT_TRUE(checkAgreement(d)->agree());
  d.mma = descriptor(512, SwizzleMode::B128); // rows of 8 at 512 B: wrong SBO
  auto a = checkAgreement(d);
  ASSERT_TRUE(a);
  ASSERT_FALSE(a->agree());
  // (8, 0): buffer Sw<3,3,3>(8 * 64 = 512) = 512 (bits [6,9) of 512 are
  // 0); the descriptor's second 8-row group starts at SBO = 512 B = 256
  // elements, and Sw<3,3,3>(256) = 256 ^ (4 << 3) = 288.
  EXPECT_EQ(a->difference->mn, 8);
  EXPECT_EQ(a->difference->buffer, 512);
  EXPECT_EQ(a->difference->mma, 288);
  EXPECT_FALSE(a->difference->tma.has_value());
}

TEST(Agreement, ShapesMustCoverTheTile) {
  OperandDescriptions d = k128();
  d.tma->boxDims = {64, 32};
  auto a = checkAgreement(d);
  ASSERT_FALSE(a);
  EXPECT_NE(
      a.error().message.find("cover the K-major tile in one box: (64, 64)"),
      std::string::npos)
      << a.error().message;
  d = k128();
  d.buffer = layout("Sw<3,3,3> o (32,64):(64,1)");
  EXPECT_FALSE(checkAgreement(d));
  d = k128();
  d.tma->boxDims = {128, 64}; // 256-byte rows: invalid with 128B swizzle
  EXPECT_FALSE(checkAgreement(d));
}

} // namespace
} // namespace lk::hw
