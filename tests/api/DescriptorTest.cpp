//===- DescriptorTest.cpp - parseWord, tileTma ----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Descriptor.h"

#include <gtest/gtest.h>

namespace lk::api {
namespace {

TEST(ApiDescriptor, Words) {
  EXPECT_EQ(*parseWord("0x10"), 16u);
  EXPECT_EQ(*parseWord("0XfF"), 255u);
  EXPECT_EQ(*parseWord("1073758224"), 1073758224u);
  EXPECT_EQ(*parseWord("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parseWord("18446744073709551616").error().message,
            "'18446744073709551616' does not fit in 64 bits");
  EXPECT_FALSE(parseWord("0x").hasValue());
  EXPECT_FALSE(parseWord("12g").hasValue());
  EXPECT_FALSE(parseWord("0x11112222333344445").hasValue()); // 17 hex digits
  EXPECT_FALSE(parseWord("").hasValue());
}

TEST(ApiDescriptor, TileTma) {
  // K-major 64x64 f16: inner k = 64 elements = 128 B per row.
  Expected<hw::TmaDescription> t =
      tileTma("f16", 16, hw::Major::K, 64, 64, hw::SwizzleMode::B128);
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(t->dataType, hw::TmaDataType::Float16);
  EXPECT_EQ(t->globalDims, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(t->globalStrides, (std::vector<int64_t>{128}));
  EXPECT_EQ(t->boxDims, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(t->swizzle, hw::SwizzleMode::B128);
  // MN-major 128x32 of 8-bit elements: inner mn = 128 B.
  Expected<hw::TmaDescription> m =
      tileTma("f8e4m3", 8, hw::Major::MN, 128, 32, hw::SwizzleMode::None);
  ASSERT_TRUE(m.hasValue()) << m.error().message;
  EXPECT_EQ(m->dataType, hw::TmaDataType::UInt8);
  EXPECT_EQ(m->globalDims, (std::vector<int64_t>{128, 32}));
  EXPECT_EQ(m->globalStrides, (std::vector<int64_t>{128}));
  // Two f32 per row are 8 B: padded to TMA's 16-B granule.
  Expected<hw::TmaDescription> f =
      tileTma("f32", 32, hw::Major::K, 8, 2, hw::SwizzleMode::None);
  ASSERT_TRUE(f.hasValue()) << f.error().message;
  EXPECT_EQ(f->dataType, hw::TmaDataType::Float32);
  EXPECT_EQ(f->globalStrides, (std::vector<int64_t>{16}));
  EXPECT_EQ(
      tileTma("bf16", 16, hw::Major::K, 8, 8, hw::SwizzleMode::None)->dataType,
      hw::TmaDataType::BFloat16);
  // The data type follows the element type's name, and its width must be
  // the type's: i32 is int32 (not uint32), tf32 tfloat32, an 8-bit float
  // raw bytes (also in Triton's spelling), a TMA type's own name itself.
  auto typeOf = [](std::string_view type, int64_t bits) {
    return tileTma(type, bits, hw::Major::K, 8, 8, hw::SwizzleMode::None);
  };
  EXPECT_EQ(typeOf("i32", 32)->dataType, hw::TmaDataType::Int32);
  EXPECT_EQ(typeOf("tf32", 32)->dataType, hw::TmaDataType::TFloat32);
  EXPECT_EQ(typeOf("f64", 64)->dataType, hw::TmaDataType::Float64);
  EXPECT_EQ(typeOf("i16", 16)->dataType, hw::TmaDataType::UInt16);
  EXPECT_EQ(typeOf("f8E4M3FN", 8)->dataType, hw::TmaDataType::UInt8);
  EXPECT_EQ(typeOf("16u4_align8b", 4)->dataType, hw::TmaDataType::U4x16Align8B);
  EXPECT_EQ(typeOf("f32", 16).error().message,
            "tile TMA: element type 'f32' has 32 bits, not 16");
  EXPECT_EQ(typeOf("bf16", 7).error().message,
            "tile TMA: element type 'bf16' has 16 bits, not 7");
  EXPECT_EQ(typeOf("nonsense", 16).error().message,
            "unknown element type 'nonsense'");
  EXPECT_EQ(typeOf("f4e2m1", 4).error().message,
            "tile TMA: element type 'f4e2m1' has 4 bits; TMA moves it only as "
            "a packed data type (16u4_align8b, 16u4_align16b, 16u6_align16b), "
            "not chosen from it");
  EXPECT_EQ(typeOf("b1", 1).error().message,
            "tile TMA: element type 'b1' has 1 bit; TMA has no data type of "
            "that width");
  // Extents outside TMA's 1..2^32 and widths outside 1..64 are refused
  // before the pitch is computed (2^62 * 16 bits would wrap).
  const int64_t big = int64_t(1) << 62;
  EXPECT_FALSE(
      tileTma("f16", 16, hw::Major::K, big, big, hw::SwizzleMode::None));
  EXPECT_FALSE(tileTma("f16", 16, hw::Major::K, 64, 0, hw::SwizzleMode::None));
  EXPECT_FALSE(
      tileTma("f16", 16, hw::Major::MN, -8, 64, hw::SwizzleMode::None));
  EXPECT_FALSE(tileTma("f16", 65, hw::Major::K, 8, 8, hw::SwizzleMode::None));
  // The largest inner extent TMA takes still gives an exact pitch.
  Expected<hw::TmaDescription> wide = tileTma(
      "f16", 16, hw::Major::K, 1, int64_t(1) << 32, hw::SwizzleMode::None);
  ASSERT_TRUE(wide.hasValue()) << wide.error().message;
  EXPECT_EQ(wide->globalStrides, (std::vector<int64_t>{int64_t(1) << 33}));
}

TEST(ApiDescriptor, HexWord) {
  EXPECT_EQ(hexWord(0), "0x0");
  EXPECT_EQ(hexWord(255), "0xff");
  EXPECT_EQ(hexWord(0x4000004000010000ull), "0x4000004000010000");
  EXPECT_EQ(hexWord(UINT64_MAX), "0xffffffffffffffff");
  EXPECT_EQ(*parseWord(hexWord(1073758224)), 1073758224u); // round trip
}

TEST(ApiDescriptor, Names) {
  EXPECT_EQ(*parseDescriptorKind("wgmma"), hw::SmemDescriptorKind::Wgmma);
  EXPECT_EQ(*parseDescriptorKind("umma"), hw::SmemDescriptorKind::Umma);
  EXPECT_EQ(parseDescriptorKind("WGMMA").error().message,
            "unknown descriptor kind 'WGMMA' (known: wgmma, umma)");
  EXPECT_EQ(*parseMajor("K"), hw::Major::K);
  EXPECT_EQ(*parseMajor("MN"), hw::Major::MN);
  EXPECT_EQ(parseMajor("k").error().message,
            "unknown major 'k' (known: K, MN)");
  EXPECT_EQ(*parseHwSwizzle("none"), hw::SwizzleMode::None);
  EXPECT_EQ(*parseHwSwizzle("128B"), hw::SwizzleMode::B128);
  Expected<hw::SwizzleMode> bad = parseHwSwizzle("256B");
  ASSERT_FALSE(bad.hasValue());
  // The message lists every name of the table, first "none".
  EXPECT_EQ(bad.error().message.rfind(
                "unknown swizzle mode '256B' (known: none, ", 0),
            0u)
      << bad.error().message;
  for (const hw::SwizzleModeInfo &m : hw::swizzleModes())
    EXPECT_NE(bad.error().message.find(std::string(m.name)), std::string::npos);
}

TEST(ApiDescriptor, DescribeSmemDescriptor) {
  hw::SmemDescriptor d{1024, 16, 1024, 3, hw::SwizzleMode::B128, true};
  EXPECT_EQ(toJson(describe(d)),
            R"({"start_address":1024,"leading_byte_offset":16,)"
            R"("stride_byte_offset":1024,"base_offset":3,"swizzle":"128B",)"
            R"("lbo_absolute":true})");
}

TEST(ApiDescriptor, DescribeUmmaInstrDescriptor) {
  hw::UmmaInstrDescriptor d;
  d.kind = hw::UmmaKind::F16;
  d.a = hw::UmmaFormat::BF16;
  d.b = hw::UmmaFormat::BF16;
  d.m = 128;
  d.n = 256;
  d.majorB = hw::Major::MN;
  d.negateA = true;
  EXPECT_EQ(toJson(describe(d)),
            R"({"kind":"f16","a":"bf16","b":"bf16","d":"f32","m":128,)"
            R"("n":256,"major_a":"K","major_b":"MN","negate_a":true,)"
            R"("negate_b":false,"sparse":false,"saturate":false})");
}

TEST(ApiDescriptor, DescribeTileTma) {
  // K-major 64x64 f16 (TileTma above): row pitch 64 * 2 B = 128 B.
  Expected<hw::TmaDescription> t =
      tileTma("f16", 16, hw::Major::K, 64, 64, hw::SwizzleMode::B128);
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(toJson(describe(*t)),
            R"({"data_type":"float16","global_dims":[64,64],)"
            R"("global_strides":[128],"box_dims":[64,64],"swizzle":"128B"})");
}

} // namespace
} // namespace lk::api
