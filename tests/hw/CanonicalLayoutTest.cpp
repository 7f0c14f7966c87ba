//===- CanonicalLayoutTest.cpp - Descriptor <-> canonical layout ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/CanonicalLayout.h"

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"

#include <gtest/gtest.h>

#include <random>

using namespace lk;
using namespace lk::hw;

namespace {

cute::ComposedLayout parse(const char *text) {
  Expected<cute::ComposedLayout> l = cute::parseComposedLayout(text);
  EXPECT_TRUE(l) << text << ": " << (l ? "" : l.error().message);
  return l ? *l : cute::ComposedLayout{};
}

bool sameFunction(const cute::ComposedLayout &a,
                  const cute::ComposedLayout &b) {
  Expected<bool> e = cute::equivalent(a, b);
  EXPECT_TRUE(e) << (e ? "" : e.error().message);
  return e && *e;
}

// §4.4 atom table, 16-bit elements (CUTLASS GMMA::Layout_*_Atom<half_t>).
TEST(CanonicalLayout, AtomTable16Bit) {
  struct Row {
    Major major;
    SwizzleMode mode;
    const char *layout;
    int64_t bytes;
  } rows[] = {
      {Major::K, SwizzleMode::None, "Sw<0,3,3> o (8,8):(8,1)", 128},
      {Major::K, SwizzleMode::B32, "Sw<1,3,3> o (8,16):(16,1)", 256},
      {Major::K, SwizzleMode::B64, "Sw<2,3,3> o (8,32):(32,1)", 512},
      {Major::K, SwizzleMode::B128, "Sw<3,3,3> o (8,64):(64,1)", 1024},
      {Major::MN, SwizzleMode::None, "Sw<0,3,3> o (8,8):(1,8)", 128},
      {Major::MN, SwizzleMode::B32, "Sw<1,3,3> o (16,8):(1,16)", 256},
      {Major::MN, SwizzleMode::B64, "Sw<2,3,3> o (32,8):(1,32)", 512},
      {Major::MN, SwizzleMode::B128, "Sw<3,3,3> o (64,8):(1,64)", 1024},
  };
  for (const Row &r : rows) {
    Expected<cute::ComposedLayout> a = canonicalAtom(r.major, r.mode, 16);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->str(), r.layout);
    EXPECT_EQ(*a->layout.cosize() * 2, r.bytes) << r.layout;
    // The atom is the canonical layout of one atom-sized tile.
    CanonicalSpec s;
    s.major = r.major;
    s.swizzle = r.mode;
    s.elementBits = 16;
    s.mn = cute::Layout(a->layout).mode(0).size();
    s.k = cute::Layout(a->layout).mode(1).size();
    EXPECT_TRUE(sameFunction(*canonicalLayout(s), *a)) << r.layout;
  }
}

// The 32B-atom mode (UMMA 128B_BASE32B, MN-major only): CUTLASS
// Layout_MN_SW128_32B_Atom_Bits = Sw<2,5,2> o (1024,4):(1,1024) (bits), so
// in bytes Sw<2,5,2> o (128,4):(1,128) and for tf32 Sw<2,3,2> o (32,4):(1,32).
// Pins the current model (UNVERIFIED, see CanonicalLayout.h).
TEST(CanonicalLayout, Atom32BIsMnMajorOnly) {
  EXPECT_EQ(canonicalAtom(Major::MN, SwizzleMode::B128Atom32B, 8)->str(),
            "Sw<2,5,2> o (128,4):(1,128)");
  EXPECT_EQ(canonicalAtom(Major::MN, SwizzleMode::B128Atom32B, 32)->str(),
            "Sw<2,3,2> o (32,4):(1,32)");
  CanonicalSpec s{Major::MN, SwizzleMode::B128Atom32B, 32, 64, 8, 512, 1024, 0};
  Expected<cute::ComposedLayout> l = canonicalLayout(s);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->str(), "Sw<2,3,2> o ((4,8,2),(4,2)):((1,4,128),(32,256))");
  Expected<SmemDescriptor> d = descriptorFor(*l, Major::MN, 32);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->swizzle, SwizzleMode::B128Atom32B);
  EXPECT_EQ(d->leadingByteOffset, 512);
  EXPECT_EQ(d->strideByteOffset, 1024);
  Expected<cute::ComposedLayout> k =
      canonicalAtom(Major::K, SwizzleMode::B128Atom32B, 32);
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().message, "swizzle mode 128B_atom32B has no K-major "
                               "canonical layout (it is MN-major only)");
}

// §4.4 table "in 16-byte units" (T = 1), checked as functions.
TEST(CanonicalLayout, SixteenByteUnitTable) {
  struct Row {
    Major major;
    SwizzleMode mode;
    const char *sheet; // m = 2, k = 2 (so "2k" = 4), LBO = 32, SBO = 64 units
  } rows[] = {
      {Major::K, SwizzleMode::None, "Sw<0,0,3> o ((8,2),4):((1,64),32)"},
      {Major::K, SwizzleMode::B32, "Sw<1,0,3> o ((8,2),2):((2,64),1)"},
      {Major::K, SwizzleMode::B64, "Sw<2,0,3> o ((8,2),4):((4,64),1)"},
      {Major::K, SwizzleMode::B128, "Sw<3,0,3> o ((8,2),4):((8,64),1)"},
      {Major::MN, SwizzleMode::None,
       "Sw<0,0,3> o ((1,2),(8,2)):((0,64),(1,32))"},
      {Major::MN, SwizzleMode::B32,
       "Sw<1,0,3> o ((2,2),(8,2)):((1,32),(2,64))"},
      {Major::MN, SwizzleMode::B64,
       "Sw<2,0,3> o ((4,2),(8,2)):((1,32),(4,64))"},
      {Major::MN, SwizzleMode::B128,
       "Sw<3,0,3> o ((8,2),(8,2)):((1,32),(8,64))"},
  };
  for (const Row &r : rows) {
    cute::ComposedLayout sheet = parse(r.sheet);
    CanonicalSpec s;
    s.major = r.major;
    s.swizzle = r.mode;
    s.elementBits = 128;
    s.mn = cute::Layout(sheet.layout).mode(0).size();
    s.k = cute::Layout(sheet.layout).mode(1).size();
    s.leadingByteOffset = 32 * 16;
    s.strideByteOffset = 64 * 16;
    Expected<cute::ComposedLayout> l = canonicalLayout(s);
    ASSERT_TRUE(l) << r.sheet << ": " << l.error().message;
    EXPECT_TRUE(sameFunction(*l, sheet)) << r.sheet << " vs " << l->str();
  }
}

struct Vector {
  const char *name;
  Major major;
  int64_t bits;
  const char *tile;
  int64_t lbo, sbo;        // bytes
  uint64_t encLbo, encSbo; // descriptor fields
};

// §4.4 descriptor test vectors; tiles as CuTe tile_to_shape(atom, shape)
// builds them (atoms stacked along MN first), derived by hand:
//   128x64 K 128B: 16 atoms of 8x64 along MN, 1024 B apart.
//   64x16 K none : 8 core matrices along MN (128 B apart), then 2 along K
//                  (8*128 = 1024 B apart).
//   256x64 MN 128B: 4 atoms of 64x8 along MN (1024 B apart), then 8 along K
//                  (4*1024 = 4096 B apart).
const Vector kVectors[] = {
    {"128x64 K 128B", Major::K, 16, "Sw<3,3,3> o ((8,16),64):((64,512),1)", 16,
     1024, 1, 64},
    {"64x16 K none", Major::K, 16, "Sw<0,3,3> o ((8,8),(8,2)):((8,64),(1,512))",
     1024, 128, 64, 8},
    {"256x64 MN 128B", Major::MN, 16,
     "Sw<3,3,3> o ((64,4),(8,8)):((1,512),(64,2048))", 1024, 4096, 64, 256},
    {"PTX 16-bit MN 64B", Major::MN, 16,
     "Sw<2,3,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))", 512, 1024, 32, 64},
    {"PTX tf32 K none", Major::K, 32,
     "Sw<0,2,3> o ((8,2),(4,4)):((4,32),(1,64))", 256, 128, 16, 8},
};

TEST(CanonicalLayout, DescriptorTestVectors) {
  for (const Vector &v : kVectors) {
    cute::ComposedLayout tile = parse(v.tile);
    Expected<SmemDescriptor> d = descriptorFor(tile, v.major, v.bits);
    ASSERT_TRUE(d) << v.name << ": " << d.error().message;
    EXPECT_EQ(d->leadingByteOffset, v.lbo) << v.name;
    EXPECT_EQ(d->strideByteOffset, v.sbo) << v.name;
    EXPECT_EQ(d->startAddress, 0) << v.name;
    EXPECT_EQ(d->baseOffset, 0) << v.name;
    for (SmemDescriptorKind k :
         {SmemDescriptorKind::Wgmma, SmemDescriptorKind::Umma}) {
      Expected<uint64_t> w = encodeSmemDescriptor(k, *d);
      ASSERT_TRUE(w);
      EXPECT_EQ((*w >> 16) & 0x3FFF, v.encLbo) << v.name;
      EXPECT_EQ((*w >> 32) & 0x3FFF, v.encSbo) << v.name;
    }
    // And back: the descriptor denotes the same function.
    Expected<cute::ComposedLayout> back =
        smemLayoutOf(*d, v.major, v.bits, tile.layout.mode(0).size(),
                     tile.layout.mode(1).size());
    ASSERT_TRUE(back) << v.name << ": " << back.error().message;
    EXPECT_TRUE(sameFunction(*back, tile)) << v.name << ": " << back->str();
  }
}

// The two PTX examples come back structurally identical.
TEST(CanonicalLayout, PtxExamplesExactly) {
  SmemDescriptor d;
  d.leadingByteOffset = 512;
  d.strideByteOffset = 1024;
  d.swizzle = SwizzleMode::B64;
  EXPECT_EQ(smemLayoutOf(d, Major::MN, 16, 64, 16)->str(),
            "Sw<2,3,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))");
  d.leadingByteOffset = 256;
  d.strideByteOffset = 128;
  d.swizzle = SwizzleMode::None;
  EXPECT_EQ(smemLayoutOf(d, Major::K, 32, 16, 16)->str(),
            "Sw<0,2,3> o ((8,2),(4,4)):((4,32),(1,64))");
  // The §4.3 encode vector read as a 128 x 64 K-major bf16 tile.
  Expected<SmemDescriptor> w = decodeWgmmaDescriptor(0x4000004000010040ull);
  ASSERT_TRUE(w);
  EXPECT_EQ(smemLayoutOf(*w, Major::K, 16, 128, 64)->str(),
            "Sw<3,3,3> o 512 o ((8,16),(8,8)):((64,512),(1,8))");
}

// §4.3: K-advance inside a swizzle atom adds the byte offset to the start
// address (+32 B per K=16 step, 16-bit K-major): the descriptor at start+32
// denotes columns 16..31 of the full atom.
TEST(CanonicalLayout, KAdvanceInsideTheAtom) {
  SmemDescriptor d;
  d.startAddress = 0x800;
  d.leadingByteOffset = 16;
  d.strideByteOffset = 1024;
  d.swizzle = SwizzleMode::B128;
  cute::ComposedLayout full = *smemLayoutOf(d, Major::K, 16, 64, 64);
  for (int64_t step = 0; step < 4; ++step) {
    SmemDescriptor s = d;
    s.startAddress += 32 * step;
    cute::ComposedLayout part = *smemLayoutOf(s, Major::K, 16, 64, 16);
    for (int64_t i = 0; i < 64; ++i)
      for (int64_t j = 0; j < 16; ++j)
        EXPECT_EQ(*cute::crd2idx(IntTuple::tuple({i, j}), part),
                  *cute::crd2idx(IntTuple::tuple({i, 16 * step + j}), full));
  }
}

// Derive -> reverse -> derive over random valid specs.
TEST(CanonicalLayout, RoundTripRandomSpecs) {
  std::mt19937_64 rng(7);
  const SwizzleMode modes[] = {SwizzleMode::None, SwizzleMode::B32,
                               SwizzleMode::B64, SwizzleMode::B128,
                               SwizzleMode::B128Atom32B};
  const int64_t widths[] = {4, 8, 16, 32, 64};
  int checked = 0;
  for (int n = 0; n < 400; ++n) {
    CanonicalSpec s;
    s.major = rng() % 2 ? Major::K : Major::MN;
    s.swizzle = modes[rng() % 5];
    if (s.swizzle == SwizzleMode::B128Atom32B && s.major == Major::K)
      s.swizzle = SwizzleMode::B128;
    s.elementBits = widths[rng() % 5];
    int64_t T = 128 / s.elementBits;
    int64_t S =
        s.swizzle == SwizzleMode::None ? 1 : info(s.swizzle).spanBytes / 16;
    if (s.major == Major::K) {
      s.mn = 8 * int64_t(1 + rng() % 4);
      s.k = T * (s.swizzle == SwizzleMode::None ? int64_t(1 + rng() % 3)
                                                : int64_t(1 + rng() % S));
    } else if (s.swizzle == SwizzleMode::B128Atom32B) {
      s.mn = 8 * T * int64_t(1 + rng() % 3);
      s.k = 4 * int64_t(1 + rng() % 3);
    } else {
      s.mn = S * T * int64_t(1 + rng() % 3);
      s.k = 8 * int64_t(1 + rng() % 3);
    }
    s.leadingByteOffset = 16 * int64_t(rng() % 512);
    s.strideByteOffset = 16 * int64_t(rng() % 512);
    s.startAddress = 16 * int64_t(rng() % 4096);
    Expected<cute::ComposedLayout> l = canonicalLayout(s);
    ASSERT_TRUE(l) << l.error().message;
    Expected<SmemDescriptor> d = descriptorFor(*l, s.major, s.elementBits);
    ASSERT_TRUE(d) << l->str() << ": " << d.error().message;
    EXPECT_EQ(d->swizzle, s.swizzle);
    EXPECT_EQ(d->startAddress, s.startAddress);
    Expected<cute::ComposedLayout> back =
        smemLayoutOf(*d, s.major, s.elementBits, s.mn, s.k);
    ASSERT_TRUE(back) << back.error().message;
    for (int64_t j = 0; j < s.k; ++j)
      for (int64_t i = 0; i < s.mn; ++i) {
        IntTuple c = IntTuple::tuple({i, j});
        ASSERT_EQ(*cute::crd2idx(c, *back), *cute::crd2idx(c, *l)) << l->str();
      }
    ++checked;
  }
  EXPECT_EQ(checked, 400);
}

TEST(CanonicalLayout, Diagnostics) {
  CanonicalSpec s{Major::K, SwizzleMode::B128, 16, 128, 128, 16, 1024, 0};
  EXPECT_EQ(
      canonicalLayout(s).error().message,
      "K-major 128B: k = 128 exceeds the swizzle span of 64 elements (128 B)");
  s.k = 60;
  EXPECT_EQ(canonicalLayout(s).error().message,
            "K-major 128B: k = 60 is not a positive multiple of 8 (16-byte "
            "core-matrix rows)");
  s = CanonicalSpec{Major::MN, SwizzleMode::B64, 16, 48, 16, 512, 1024, 0};
  EXPECT_EQ(canonicalLayout(s).error().message,
            "MN-major 64B: mn = 48 is not a positive multiple of 32 "
            "(swizzle-atom rows)");
  s = CanonicalSpec{Major::K, SwizzleMode::None, 16, 64, 16, 24, 128, 0};
  EXPECT_EQ(canonicalLayout(s).error().message,
            "LBO = 24 B; allowed: a non-negative multiple of 16 B");
  s.elementBits = 6;
  EXPECT_EQ(canonicalLayout(s).error().message,
            "element width 6 bits: canonical layouts need a power of two from "
            "1 to 128 bits");
  s = CanonicalSpec{Major::K, SwizzleMode::B128Atom64B, 16, 64, 16, 16, 128, 0};
  EXPECT_EQ(canonicalLayout(s).error().message,
            "swizzle mode 128B_atom64B has no canonical MMA layout");

  // A row pitch of 72 elements is not the 128B atom's 64.
  Expected<SmemDescriptor> bad = descriptorFor(
      parse("Sw<3,3,3> o ((8,16),64):((72,1024),1)"), Major::K, 16);
  ASSERT_FALSE(bad);
  // got Sw(72) = 72 ^ 8 = 64, canonical Sw(64) = 64 ^ 8 = 72.
  EXPECT_EQ(
      bad.error().message,
      "the layout is not the canonical K-major 128B layout: at (mn=1, k=0) "
      "it gives element 64, the canonical layout with LBO=16 B, SBO=2048 B "
      "gives 72");
  Expected<SmemDescriptor> sw =
      descriptorFor(parse("Sw<3,4,3> o (8,64):(64,1)"), Major::K, 16);
  ASSERT_FALSE(sw);
  EXPECT_EQ(sw.error().message,
            "the layout's swizzle Sw<3,4,3> is not a hardware swizzle of a "
            "K-major operand of 16-bit elements (hardware: Sw<0,3,3> none, "
            "Sw<1,3,3> 32B, Sw<2,3,3> 64B, Sw<3,3,3> 128B)");
  Expected<SmemDescriptor> r3 =
      descriptorFor(parse("Sw<0,3,3> o (8,8,2):(8,1,64)"), Major::K, 16);
  ASSERT_FALSE(r3);
  EXPECT_EQ(r3.error().message, "the layout (8,8,2):(8,1,64) has rank 3; a "
                                "matrix operand has rank 2 (MN, K)");
  // A K-major tile read as MN-major is not canonical.
  EXPECT_FALSE(
      descriptorFor(parse("Sw<3,3,3> o (8,64):(64,1)"), Major::MN, 16));

  SmemDescriptor d;
  d.swizzle = SwizzleMode::B128;
  d.baseOffset = 1;
  Expected<cute::ComposedLayout> l = smemLayoutOf(d, Major::K, 16, 8, 64);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message,
            "base offset 1 is not modelled by the layout derivation");
}

// §4.2 / §6.5 valid major / width / swizzle combinations.
TEST(CanonicalLayout, OperandCombinations) {
  const SwizzleMode four[] = {SwizzleMode::None, SwizzleMode::B32,
                              SwizzleMode::B64, SwizzleMode::B128};
  for (SwizzleMode m : four) {
    for (int64_t bits : {4, 8, 16, 32}) {
      EXPECT_TRUE(checkWgmmaOperand(Major::K, bits, m));
      EXPECT_TRUE(checkUmmaOperand(Major::K, bits, m));
    }
    EXPECT_TRUE(checkWgmmaOperand(Major::MN, 16, m));
    EXPECT_FALSE(checkWgmmaOperand(Major::MN, 8, m));
    EXPECT_FALSE(checkWgmmaOperand(Major::MN, 32, m));
    EXPECT_TRUE(checkUmmaOperand(Major::MN, 8, m));
    EXPECT_TRUE(checkUmmaOperand(Major::MN, 16, m));
    EXPECT_FALSE(checkUmmaOperand(Major::MN, 32, m));
  }
  EXPECT_TRUE(checkUmmaOperand(Major::MN, 32, SwizzleMode::B128Atom32B));
  EXPECT_FALSE(checkUmmaOperand(Major::MN, 16, SwizzleMode::B128Atom32B));
  EXPECT_FALSE(checkUmmaOperand(Major::K, 32, SwizzleMode::B128Atom32B));
  EXPECT_FALSE(checkWgmmaOperand(Major::K, 16, SwizzleMode::B128Atom32B));
  EXPECT_FALSE(checkUmmaOperand(Major::MN, 4, SwizzleMode::B128));
  EXPECT_EQ(checkUmmaOperand(Major::MN, 32, SwizzleMode::B128).error().message,
            "tcgen05: an MN-major 32-bit operand needs swizzle 128B_atom32B, "
            "got 128B");
  EXPECT_EQ(
      checkWgmmaOperand(Major::MN, 32, SwizzleMode::None).error().message,
      "wgmma: an MN-major (transposed) operand must be 16-bit (f16 / bf16), "
      "got 32-bit");
}

// §4.4: CUTLASS's bit-unit atoms. The layout part in 1-bit units is
// (8,1024):(1024,1) (K) and (1024,8):(1,1024) (MN); CUTLASS writes the
// swizzle as Sw<3,4,3> because it applies to the byte pointer, which in
// bit units is Sw<3,7,3>.
TEST(CanonicalLayout, BitUnitAtoms) {
  cute::ComposedLayout k = *canonicalAtom(Major::K, SwizzleMode::B128, 1);
  EXPECT_EQ(k.layout.str(), "(8,1024):(1024,1)");
  EXPECT_EQ(k.swizzle.str(), "Sw<3,7,3>");
  cute::ComposedLayout mn = *canonicalAtom(Major::MN, SwizzleMode::B128, 1);
  EXPECT_EQ(mn.layout.str(), "(1024,8):(1,1024)");
  EXPECT_EQ(canonicalAtom(Major::MN, SwizzleMode::B32, 1)->layout.str(),
            "(256,8):(1,256)");
  EXPECT_EQ(canonicalAtom(Major::K, SwizzleMode::None, 1)->layout.str(),
            "(8,128):(128,1)");
}

} // namespace
