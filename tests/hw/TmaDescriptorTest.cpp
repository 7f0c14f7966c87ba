//===- TmaDescriptorTest.cpp - TMA descriptions ---------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/TmaDescriptor.h"

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/hw/CanonicalLayout.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::hw;

namespace {

TmaDescription bf16Tile() {
  TmaDescription d;
  d.dataType = TmaDataType::BFloat16;
  d.globalDims = {4096, 4096};
  d.globalStrides = {8192};
  d.boxDims = {64, 128};
  d.swizzle = SwizzleMode::B128;
  d.globalAddress = 0x10000;
  return d;
}

std::string error(const TmaDescription &d, Arch a = Arch::Sm100,
                  TmaDirection dir = TmaDirection::Load) {
  Status s = validateTma(d, a, dir);
  EXPECT_FALSE(s);
  return s ? std::string() : s.error().message;
}

TEST(TmaDescriptor, DataTypeTable) {
  ASSERT_EQ(tmaDataTypes().size(), 16u);
  for (size_t i = 0; i < tmaDataTypes().size(); ++i) {
    EXPECT_EQ(tmaDataTypes()[i].code, int(i)); // cuda.h enumerator order
    EXPECT_EQ(size_t(tmaDataTypes()[i].type), i);
  }
  EXPECT_EQ(info(TmaDataType::BFloat16).name, "bfloat16");
  EXPECT_EQ(info(TmaDataType::BFloat16).code, 9);
  EXPECT_EQ(info(TmaDataType::TFloat32).globalBits, 32);
  EXPECT_EQ(info(TmaDataType::U6x16Align16B).globalBits, 6);
  EXPECT_EQ(info(TmaDataType::U6x16Align16B).sharedBits, 8); // UNVERIFIED
  EXPECT_EQ(info(TmaDataType::U4x16Align8B).sharedBits, 4);
  EXPECT_EQ(*parseTmaDataType("float16"), TmaDataType::Float16);
  EXPECT_FALSE(parseTmaDataType("half"));
  EXPECT_EQ(name(TmaInterleave::B32), "32B");
}

TEST(TmaDescriptor, ValidExample) {
  EXPECT_TRUE(validateTma(bf16Tile(), Arch::Sm90));
  EXPECT_TRUE(validateTma(bf16Tile(), Arch::Sm100));
  EXPECT_EQ(innerBoxBytes(bf16Tile()), 128);
  EXPECT_EQ(error(bf16Tile(), Arch::Sm80),
            "TMA description: sm_80 has no TMA (sm_90 and later)");
}

// §5.2: inner box bytes <= span (32 / 64 / 128 B); multiple of 16 B.
TEST(TmaDescriptor, InnerBoxAgainstSpan) {
  struct Row {
    SwizzleMode mode;
    int64_t span;
  } rows[] = {
      {SwizzleMode::B32, 32},          {SwizzleMode::B64, 64},
      {SwizzleMode::B128, 128},        {SwizzleMode::B128Atom32B, 128},
      {SwizzleMode::B128Atom64B, 128}, {SwizzleMode::B128Atom32BFlip8B, 128}};
  for (const Row &r : rows) {
    TmaDescription d = bf16Tile();
    d.swizzle = r.mode;
    d.boxDims[0] = r.span / 2;
    EXPECT_TRUE(validateTma(d, Arch::Sm100)) << name(r.mode);
    d.boxDims[0] = r.span / 2 + 8;
    EXPECT_EQ(error(d),
              "TMA description: field 'boxDim[0]' = " +
                  std::to_string(r.span / 2 + 8) + " (" +
                  std::to_string(r.span + 16) +
                  " B per row); allowed: at most " + std::to_string(r.span) +
                  " B per row with swizzle " + std::string(name(r.mode)));
  }
  TmaDescription d = bf16Tile();
  d.boxDims[0] = 128;
  EXPECT_EQ(error(d),
            "TMA description: field 'boxDim[0]' = 128 (256 B per row); "
            "allowed: at most 128 B per row with swizzle 128B");
  d.swizzle = SwizzleMode::None;
  EXPECT_TRUE(validateTma(d, Arch::Sm90)); // no span limit without swizzle
  d.boxDims[0] = 4;
  EXPECT_EQ(error(d),
            "TMA description: field 'boxDim[0]' = 4 (8 B per row); "
            "allowed: a multiple of 16 B per row with interleave none");
}

TEST(TmaDescriptor, RanksAndRanges) {
  TmaDescription d = bf16Tile();
  d.boxDims[1] = 257;
  EXPECT_EQ(error(d),
            "TMA description: field 'boxDim[1]' = 257; allowed: 1 to 256");
  d.boxDims[1] = 0;
  EXPECT_EQ(error(d),
            "TMA description: field 'boxDim[1]' = 0; allowed: 1 to 256");
  d = bf16Tile();
  d.elementStrides = {1, 9};
  EXPECT_EQ(error(d),
            "TMA description: field 'elementStride[1]' = 9; allowed: 1 to 8");
  d.elementStrides = {1};
  EXPECT_EQ(error(d), "TMA description: field 'elementStrides.size' = 1; "
                      "allowed: 2 for a rank-2 tensor");
  d = bf16Tile();
  d.globalDims = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(error(d), "TMA description: field 'rank' = 6; allowed: 1 to 5");
  d = bf16Tile();
  d.globalStrides = {};
  EXPECT_EQ(error(d), "TMA description: field 'globalStrides.size' = 0; "
                      "allowed: 1 for a rank-2 tensor");
  d = bf16Tile();
  d.globalDims[0] = 0;
  EXPECT_EQ(error(d),
            "TMA description: field 'globalDim[0]' = 0; allowed: 1 to 2^32");
  d = bf16Tile();
  d.interleave = TmaInterleave::B16;
  EXPECT_EQ(error(d), "TMA description: field 'rank' = 2; allowed: at least 3 "
                      "with interleave 16B");
}

TEST(TmaDescriptor, InterleaveRules) {
  TmaDescription d;
  d.dataType = TmaDataType::Float16;
  d.globalDims = {16, 64, 64};
  d.globalStrides = {32, 2048};
  d.boxDims = {16, 64, 8};
  d.interleave = TmaInterleave::B32;
  d.swizzle = SwizzleMode::B64;
  d.globalAddress = 0;
  EXPECT_EQ(error(d), "TMA description: field 'swizzle' = 64B; allowed: 32B "
                      "with interleave 32B");
  d.swizzle = SwizzleMode::B32;
  EXPECT_TRUE(validateTma(d, Arch::Sm90));
  d.globalAddress = 16;
  EXPECT_EQ(error(d), "TMA description: field 'globalAddress' = 0x10; allowed: "
                      "a multiple of 32 B with interleave 32B");
  d.globalAddress = 0;
  d.globalStrides = {48, 2048};
  EXPECT_EQ(error(d),
            "TMA description: field 'globalStride[1]' = 48; allowed: a "
            "positive multiple of 32 B below 2^40 with interleave 32B");
}

TEST(TmaDescriptor, Alignment) {
  TmaDescription d = bf16Tile();
  d.globalAddress = 0x10008;
  EXPECT_EQ(error(d), "TMA description: field 'globalAddress' = 0x10008; "
                      "allowed: a multiple of 16 B");
  d.globalAddress = 0x10010;
  EXPECT_EQ(error(d),
            "TMA description: field 'globalAddress' = 0x10010; "
            "allowed: a multiple of 128 B with swizzle 128B (CUDA guide)");
  d.swizzle = SwizzleMode::None;
  EXPECT_TRUE(validateTma(d, Arch::Sm90));
  d = bf16Tile();
  d.globalStrides = {8200};
  EXPECT_EQ(error(d),
            "TMA description: field 'globalStride[1]' = 8200; allowed: "
            "a positive multiple of 16 B below 2^40");
  d.globalStrides = {int64_t(1) << 40};
  EXPECT_FALSE(validateTma(d, Arch::Sm90));
  d.globalStrides = {(int64_t(1) << 40) - 16};
  EXPECT_TRUE(validateTma(d, Arch::Sm90));
  d = bf16Tile();
  d.sharedAddress = 64;
  EXPECT_EQ(error(d),
            "TMA description: field 'sharedAddress' = 0x40; allowed: a "
            "multiple of 128 B (CUDA guide)");
  d.sharedAddress = 1024;
  EXPECT_TRUE(validateTma(d, Arch::Sm90));
}

TEST(TmaDescriptor, AtomModesNeedSm100) {
  TmaDescription d = bf16Tile();
  d.swizzle = SwizzleMode::B128Atom32B;
  EXPECT_TRUE(validateTma(d, Arch::Sm100));
  EXPECT_EQ(error(d, Arch::Sm90),
            "TMA description: field 'swizzle' = 128B_atom32B; allowed: none, "
            "32B, 64B, 128B on sm_90 (the 128B_atom* modes need sm_100)");
}

TEST(TmaDescriptor, PackedTypes) {
  TmaDescription d = bf16Tile();
  d.dataType = TmaDataType::U6x16Align16B;
  d.boxDims[0] = 128; // 128 values widened to 8 bits = 128 B
  d.globalStrides = {4096};
  d.swizzle = SwizzleMode::B64;
  d.boxDims[0] = 64;
  EXPECT_EQ(error(d), "TMA description: field 'swizzle' = 64B; allowed: none, "
                      "128B, 128B_atom32B (and 128B_atom64B for stores) with "
                      "data type 16u6_align16b");
  d.swizzle = SwizzleMode::B128Atom64B;
  EXPECT_FALSE(validateTma(d, Arch::Sm100, TmaDirection::Load));
  EXPECT_TRUE(validateTma(d, Arch::Sm100, TmaDirection::Store));
  d.swizzle = SwizzleMode::B128;
  EXPECT_TRUE(validateTma(d, Arch::Sm100));
  d.globalAddress = 0x10010;
  d.swizzle = SwizzleMode::None;
  EXPECT_EQ(error(d),
            "TMA description: field 'globalAddress' = 0x10010; allowed: "
            "a multiple of 32 B for data type 16u6_align16b");
  d = bf16Tile();
  d.dataType = TmaDataType::U4x16Align16B;
  d.swizzle = SwizzleMode::B32;
  d.boxDims[0] = 32;
  d.globalStrides = {4096};
  EXPECT_EQ(error(d, Arch::Sm100, TmaDirection::Store),
            "TMA description: field 'swizzle' = 32B; allowed: none, 128B, "
            "128B_atom32B with data type 16u4_align16b");
}

TEST(TmaDescriptor, BoxLayout) {
  TmaDescription d = bf16Tile();
  d.boxDims = {64, 8};
  EXPECT_EQ(tmaBoxLayout(d, Arch::Sm90)->str(), "Sw<3,3,3> o (64,8):(1,64)");
  // A narrower row still occupies the full 128-byte span (§5.2).
  d.boxDims = {32, 8};
  EXPECT_EQ(tmaBoxLayout(d, Arch::Sm90)->str(), "Sw<3,3,3> o (32,8):(1,64)");
  EXPECT_EQ(boxRowPitchBytes(d), 128);
  d.swizzle = SwizzleMode::None;
  d.boxDims = {16, 4};
  d.sharedAddress = 1024;
  EXPECT_EQ(tmaBoxLayout(d, Arch::Sm90)->str(),
            "Sw<0,3,3> o 512 o (16,4):(1,16)");
  d.boxDims = {8, 4};
  d.globalDims = {64, 64, 64};
  d.globalStrides = {128, 8192};
  d.boxDims = {8, 4, 6};
  d.elementStrides = {1, 1, 4};
  EXPECT_EQ(tmaBoxLayout(d, Arch::Sm90)->str(),
            "Sw<0,3,3> o 512 o (8,4,2):(1,8,32)");
  d = bf16Tile();
  d.swizzle = SwizzleMode::B128Atom32BFlip8B;
  EXPECT_FALSE(tmaBoxLayout(d, Arch::Sm100));
}

// §5.3: a K-major 128B bf16 tile written by TMA boxes of (64, rows) is the
// canonical K-major 128B layout with SBO = 8 x span = 1024 B. The TMA box
// is indexed (k, mn), the canonical layout (mn, k).
TEST(TmaDescriptor, BoxAgreesWithCanonicalKMajor) {
  for (SwizzleMode m :
       {SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128}) {
    int64_t span = info(m).spanBytes;
    TmaDescription d = bf16Tile();
    d.swizzle = m;
    d.boxDims = {span / 2, 128};
    d.sharedAddress = 4096;
    cute::ComposedLayout box = *tmaBoxLayout(d, Arch::Sm90);
    CanonicalSpec s{Major::K, m, 16, 128, span / 2, 16, 8 * span, 4096};
    cute::ComposedLayout canon = *canonicalLayout(s);
    for (int64_t mn = 0; mn < 128; ++mn)
      for (int64_t k = 0; k < span / 2; ++k)
        ASSERT_EQ(*cute::crd2idx(IntTuple::tuple({k, mn}), box),
                  *cute::crd2idx(IntTuple::tuple({mn, k}), canon))
            << name(m) << " mn=" << mn << " k=" << k;
    // And the reverse direction finds SBO = 8 * span.
    Expected<SmemDescriptor> desc = descriptorFor(canon, Major::K, 16);
    ASSERT_TRUE(desc);
    EXPECT_EQ(desc->strideByteOffset, 8 * span);
  }
}

} // namespace
