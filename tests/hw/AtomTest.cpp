//===- AtomTest.cpp - Register-fragment atoms against docs/hardware.md ----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every atom of the catalog is checked, for every (thread, value), against
// the closed formula of docs/hardware.md written out here again
// (independently of the catalog's CuTe data): §2.1-2.5 mma.sync, §3.1-3.2
// ldmatrix/stmatrix, §4.1-4.2 wgmma, §6.3 tcgen05.ld/st. Rows of the sheet's
// tables are checked literally. Then the three views (cute, tile, linear)
// are checked to agree element by element.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Atom.h"

#include "layoutkit/linear/Standard.h"
#include "layoutkit/tile/Axis.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace lk;
using namespace lk::hw;

namespace {

using V = std::vector<int64_t>;

bool startsWith(const std::string &s, const std::string &p) {
  return s.compare(0, p.size(), p) == 0;
}
bool has(const std::string &s, const std::string &p) {
  return s.find(p) != std::string::npos;
}

/// The sheet's formula for (thread, value) of atom `a`, or nullopt when the
/// test knows no formula for it (a catalog test then fails).
std::optional<V> sheet(const Atom &a, int64_t t, int64_t i) {
  const std::string &n = a.name;
  const int64_t l = t & 31, w = t >> 5, g = l >> 2, q = l & 3;
  const char op = n.back();
  if (startsWith(n, "mma.m8n8k4.")) { // §2.5
    int64_t r = (l & 3) + 4 * (l >= 16);
    if (n == "mma.m8n8k4.f32.C")
      return V{(l & 1) + 2 * ((i >> 1) & 1) + 4 * (l >= 16),
               2 * ((l >> 1) & 1) + (i & 1) + 4 * (i >> 2)};
    if (op == 'B')
      return V{i, r};
    return V{r, i};
  }
  if (startsWith(n, "mma.")) {
    if (op == 'C') // §2.1 C/D, shared by every m16n8 shape
      return V{g + 8 * (i >> 1), 2 * q + (i & 1)};
    bool k16 = startsWith(n, "mma.m16n8k16."),
         k8 = startsWith(n, "mma.m16n8k8.");
    bool k32 = startsWith(n, "mma.m16n8k32.");
    bool b8 = has(n, ".s8.") || has(n, ".u8.") || has(n, ".e4m3.") ||
              has(n, ".e5m2.");
    bool tf32 = has(n, ".tf32.");
    if (k16 && !b8) // §2.1
      return op == 'A'
                 ? V{g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)}
                 : V{2 * q + (i & 1) + 8 * (i >> 1), g};
    if (k8 && !tf32) // §2.2
      return op == 'A' ? V{g + 8 * (i >> 1), 2 * q + (i & 1)} : V{2 * q + i, g};
    if (k8 && tf32) // §2.3
      return op == 'A' ? V{g + 8 * (i & 1), q + 4 * (i >> 1)} : V{q + 4 * i, g};
    if (k32) // §2.4
      return op == 'A'
                 ? V{g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)}
                 : V{4 * q + (i & 3) + 16 * (i >> 2), g};
    if (k16 && b8) // §2.4 (k16)
      return op == 'A' ? V{g + 8 * (i >> 2), 4 * q + (i & 3)} : V{4 * q + i, g};
    return std::nullopt;
  }
  if (startsWith(n, "ldmatrix.m16n16.")) { // §3.3: reg 2j+h, byte b
    int64_t b = i & 3, h = (i >> 2) & 1, j = i >> 3;
    return V{j, 4 * q + b, g + 8 * h};
  }
  if (startsWith(n, "ldmatrix.m8n16.")) { // §3.3: reg j, byte b
    int64_t b = i & 3, j = i >> 2;
    return V{j, g, 4 * q + b};
  }
  if (startsWith(n, "stmatrix.m16n8.")) { // §3.3: reg j, byte b
    int64_t b = i & 3, j = i >> 2;
    return V{j, 2 * q + (b & 1), g + 8 * (b >> 1)};
  }
  if (startsWith(n, "ldmatrix.") || startsWith(n, "stmatrix.")) { // §3.1-3.2
    int64_t j = i >> 1, h = i & 1;
    if (has(n, ".trans"))
      return V{j, 2 * q + h, g};
    return V{j, g, 2 * q + h};
  }
  if (startsWith(n, "wgmma.")) { // §4.1-4.2
    if (op == 'C')
      return V{16 * w + g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * q + (i & 1)};
    if (has(n, ".tf32."))
      return V{16 * w + g + 8 * (i & 1), q + 4 * (i >> 1)};
    if (has(n, ".f16.") || has(n, ".bf16."))
      return V{16 * w + g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)};
    return V{16 * w + g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)};
  }
  if (startsWith(n, "tcgen05.")) { // §6.3
    const int64_t r = i;
    if (has(n, ".32x32b."))
      return V{l, r};
    if (has(n, ".16x64b."))
      return V{(l >> 2) + 8 * (l & 1), 2 * r + ((l >> 1) & 1)};
    if (has(n, ".16x128b."))
      return V{(l >> 2) + 8 * (r & 1), 4 * (r >> 1) + (l & 3)};
    if (has(n, ".16x256b."))
      return V{(l >> 2) + 8 * ((r >> 1) & 1),
               8 * (r >> 2) + 2 * (l & 3) + (r & 1)};
    if (has(n, ".16x32bx2.")) {
      int64_t imm = a.values; // CUTLASS emits I = N
      return V{l & 15, r + imm * (l >> 4)};
    }
  }
  return std::nullopt;
}

const Atom &atom(const char *name) {
  auto a = findAtom(name);
  EXPECT_TRUE(a.hasValue()) << name;
  return **a;
}

V at(const char *name, int64_t t, int64_t v) {
  auto r = atom(name).eval(t, v);
  EXPECT_TRUE(r.hasValue()) << name << " " << t << " " << v;
  return r.hasValue() ? *r : V{};
}

} // namespace

//===----------------------------------------------------------------------===//
// Catalog
//===----------------------------------------------------------------------===//

TEST(AtomCatalog, EveryRowIsWellFormed) {
  std::set<std::string> names;
  for (const Atom &a : atoms()) {
    EXPECT_TRUE(names.insert(a.name).second) << "duplicate " << a.name;
    EXPECT_EQ(a.tv.rank(), 2u) << a.name;
    EXPECT_EQ(a.tv.mode(0).size(), a.threads) << a.name;
    EXPECT_EQ(a.tv.size(), a.threads * a.values) << a.name;
    EXPECT_EQ(a.cuteExtents.size(), a.logicalOrder.size()) << a.name;
    EXPECT_EQ(a.coordNames.size(), a.logicalOrder.size()) << a.name;
  }
  // 5 mma shapes x types x 3 operands + m8n8k4 (4), 12 ldmatrix/stmatrix,
  // wgmma and tcgen05 families.
  EXPECT_GT(atoms().size(), 500u);
}

TEST(AtomCatalog, FindAndList) {
  EXPECT_TRUE(findAtom("mma.m16n8k16.f16.A").hasValue());
  EXPECT_TRUE(findAtom("wgmma.m64n256k16.f16.C").hasValue());
  EXPECT_TRUE(findAtom("wgmma.m64n48k32.s8.C").hasValue());
  EXPECT_FALSE(findAtom("wgmma.m64n40k32.s8.C").hasValue()); // §4.1 s32 N
  EXPECT_TRUE(findAtom("tcgen05.ld.32x32b.x128").hasValue());
  EXPECT_FALSE(findAtom("tcgen05.ld.16x256b.x64").hasValue()); // n/a, §6.3
  EXPECT_FALSE(findAtom("tcgen05.ld.16x128b.x128").hasValue());
  auto bad = findAtom("mma.m16n8k16.f64.A");
  ASSERT_FALSE(bad.hasValue());
  EXPECT_EQ(bad.error().message, "unknown atom 'mma.m16n8k16.f64.A'");
  EXPECT_FALSE(bad.error().notes.empty());
  // An instruction is not an atom: its atoms are named (at most 6, else 3
  // and the count), as listAtoms's instruction filter gives them.
  EXPECT_EQ(findAtom("mma.m16n8k16.f16").error().message,
            "'mma.m16n8k16.f16' is an instruction, not one atom: its atoms "
            "are mma.m16n8k16.f16.A, mma.m16n8k16.f16.B, mma.m16n8k16.f16.C");
  const size_t mmas = listAtoms({std::nullopt, "mma", ""})->size();
  ASSERT_GT(mmas, 6u);
  EXPECT_EQ(
      findAtom("mma").error().message,
      "'mma' is an instruction, not one atom: its atoms are "
      "mma.m16n8k16.f16.A, mma.m16n8k16.f16.B, mma.m16n8k16.f16.C, ... (" +
          std::to_string(mmas) + " in all)");
  // The empty name is no instruction (no filter), just unknown.
  EXPECT_EQ(findAtom("").error().message, "unknown atom ''");
  // A long unknown name is quoted in part.
  EXPECT_EQ(findAtom(std::string(5000, 'x')).error().message,
            "unknown atom '" + std::string(40, 'x') + "...'");

  // wgmma: 32 N values for f16.
  auto wg = *listAtoms({Arch::Sm90, "wgmma", "C"});
  int f16 = 0;
  for (const Atom *a : wg)
    f16 += a->name.find(".f16.C") != std::string::npos;
  EXPECT_EQ(f16, 32);
  // s8: N = 8, 16, 24, 32, 48, ..., 256 -> 4 + 14.
  int s8 = 0;
  for (const Atom *a : wg)
    s8 += a->name.find(".s8.C") != std::string::npos;
  EXPECT_EQ(s8, 18);
  // Instruction prefix match stops at a '.': "mma" is not "mma8".
  auto mma = *listAtoms({std::nullopt, "mma.m16n8k16", "B"});
  EXPECT_EQ(mma.size(), 4u); // f16, bf16, s8, u8
  // The prefix is of the atom's name, its type included: the f16 atom's
  // A, B and C; a type cut short matches nothing; a whole name itself.
  auto byType = *listAtoms({std::nullopt, "mma.m16n8k16.f16", ""});
  ASSERT_EQ(byType.size(), 3u);
  EXPECT_EQ(byType[0]->name, "mma.m16n8k16.f16.A");
  EXPECT_TRUE(listAtoms({std::nullopt, "mma.m16n8k16.f", ""})->empty());
  EXPECT_EQ(listAtoms({std::nullopt, "mma.m16n8k16.f16.C", ""})->size(), 1u);
  auto tcgen05 = *listAtoms({Arch::Sm100, "tcgen05", ""});
  for (const Atom *a : tcgen05)
    EXPECT_TRUE(a->instruction.rfind("tcgen05.", 0) == 0) << a->name;
  EXPECT_EQ(listAtoms({Arch::Sm90, "stmatrix", "frag"})->size(), 6u);
  EXPECT_EQ(listAtoms({Arch::Sm80, "ldmatrix", ""})->size(), 6u);
  // An arch lists what runs on it: sm_80's 6 b16 ldmatrix forms, and on
  // sm_100 its §3.3 b8 forms too: m16n16 x1/x2, m8n16 x1/x2/x4 (two
  // decompressions); stmatrix: sm_90's 6 and sm_100's m16n8 x1/x2/x4.
  EXPECT_EQ(listAtoms({Arch::Sm90, "ldmatrix", ""})->size(), 6u);
  EXPECT_EQ(listAtoms({Arch::Sm100, "ldmatrix", ""})->size(), 6u + 8u);
  EXPECT_EQ(listAtoms({Arch::Sm100, "stmatrix", ""})->size(), 6u + 3u);
  EXPECT_EQ(listAtoms({Arch::Sm90, "mma.m16n8k16", "B"})->size(), 4u);
  // fp8 mma.sync needs sm_89: not sm_80's, but sm_90's (e4m3, e5m2 x A, B,
  // C); the other m16n8k32 types (s8, u8) run on sm_80.
  EXPECT_EQ(listAtoms({Arch::Sm80, "mma.m16n8k32", ""})->size(), 6u);
  EXPECT_EQ(listAtoms({Arch::Sm90, "mma.m16n8k32", ""})->size(), 12u);
  // wgmma is sm_90a's alone: not on sm_80, nor on sm_100.
  EXPECT_TRUE(listAtoms({Arch::Sm80, "wgmma", ""})->empty());
  EXPECT_TRUE(listAtoms({Arch::Sm100, "wgmma", ""})->empty());
  // The rule itself, on one atom of each kind.
  EXPECT_TRUE((*findAtom("mma.m16n8k16.f16.A"))->runsOn(Arch::Sm90));
  EXPECT_FALSE((*findAtom("wgmma.m64n64k16.f16.C"))->runsOn(Arch::Sm100));
  EXPECT_TRUE((*findAtom("wgmma.m64n64k16.f16.C"))->runsOn(Arch::Sm90));
  EXPECT_FALSE((*findAtom("mma.m16n8k32.e4m3.A"))->runsOn(Arch::Sm80));
  EXPECT_TRUE((*findAtom("mma.m16n8k32.e4m3.A"))->runsOn(Arch::Sm90));
  EXPECT_EQ(listAtoms({std::nullopt, "", "D"}).error().message,
            "unknown operand 'D': expected A, B, C (the accumulator, C and "
            "D) or frag");
  EXPECT_EQ(atomArchName(Arch::Sm100), "sm_100");
  // The first architecture shown: the capability that runs it where it is
  // above its arch's (fp8 mma.sync, sm_89), else the arch.
  EXPECT_EQ((*findAtom("mma.m16n8k32.e4m3.A"))->firstArchName(), "sm_89");
  EXPECT_EQ((*findAtom("mma.m16n8k32.s8.A"))->firstArchName(), "sm_80");
  EXPECT_EQ((*findAtom("wgmma.m64n64k16.f16.C"))->firstArchName(), "sm_90");
}

TEST(AtomCatalog, UnverifiedIsMarked) {
  // §6.3: .16x64b is CUTLASS-only, UNVERIFIED until tested on hardware.
  EXPECT_TRUE(atom("tcgen05.ld.16x64b.x1").unverified);
  EXPECT_TRUE(atom("tcgen05.st.16x64b.x8").unverified);
  EXPECT_FALSE(atom("tcgen05.ld.32x32b.x1").unverified);
  EXPECT_EQ(atom("mma.m16n8k32.e4m3.A").note, "sm_89+");
}

TEST(AtomCatalog, EvalRejectsOutOfRange) {
  const Atom &a = atom("mma.m16n8k16.f16.C");
  EXPECT_FALSE(a.eval(32, 0).hasValue());
  EXPECT_FALSE(a.eval(0, 4).hasValue());
  EXPECT_FALSE(a.eval(-1, 0).hasValue());
}

//===----------------------------------------------------------------------===//
// Agreement with the sheet's formulas, every atom, every (thread, value)
//===----------------------------------------------------------------------===//

TEST(AtomFacts, EveryAtomMatchesTheSheetFormula) {
  for (const Atom &a : atoms()) {
    for (int64_t t = 0; t < a.threads; ++t) {
      for (int64_t v = 0; v < a.values; ++v) {
        std::optional<V> want = sheet(a, t, v);
        ASSERT_TRUE(want.has_value()) << "no formula for " << a.name;
        auto got = a.eval(t, v);
        ASSERT_TRUE(got.hasValue()) << a.name << " " << got.error().message;
        ASSERT_EQ(*got, *want) << a.name << " thread " << t << " value " << v;
      }
    }
  }
}

// §2.1 tables, rows copied from the sheet (A: a0..a7, B: b0..b3, C: c0..c3).
TEST(AtomFacts, Mma16816TableRows) {
  const std::map<int, std::vector<V>> a = {
      {0, {{0, 0}, {0, 1}, {8, 0}, {8, 1}, {0, 8}, {0, 9}, {8, 8}, {8, 9}}},
      {5, {{1, 2}, {1, 3}, {9, 2}, {9, 3}, {1, 10}, {1, 11}, {9, 10}, {9, 11}}},
      {14,
       {{3, 4},
        {3, 5},
        {11, 4},
        {11, 5},
        {3, 12},
        {3, 13},
        {11, 12},
        {11, 13}}},
      {31,
       {{7, 6},
        {7, 7},
        {15, 6},
        {15, 7},
        {7, 14},
        {7, 15},
        {15, 14},
        {15, 15}}}};
  const std::map<int, std::vector<V>> b = {
      {0, {{0, 0}, {1, 0}, {8, 0}, {9, 0}}},
      {5, {{2, 1}, {3, 1}, {10, 1}, {11, 1}}},
      {18, {{4, 4}, {5, 4}, {12, 4}, {13, 4}}},
      {31, {{6, 7}, {7, 7}, {14, 7}, {15, 7}}}};
  const std::map<int, std::vector<V>> c = {
      {0, {{0, 0}, {0, 1}, {8, 0}, {8, 1}}},
      {7, {{1, 6}, {1, 7}, {9, 6}, {9, 7}}},
      {22, {{5, 4}, {5, 5}, {13, 4}, {13, 5}}},
      {31, {{7, 6}, {7, 7}, {15, 6}, {15, 7}}}};
  for (const char *ty : {"f16", "bf16"}) {
    std::string p = std::string("mma.m16n8k16.") + ty;
    for (const auto &[lane, row] : a)
      for (size_t i = 0; i < row.size(); ++i)
        EXPECT_EQ(at((p + ".A").c_str(), lane, int64_t(i)), row[i]);
    for (const auto &[lane, row] : b)
      for (size_t i = 0; i < row.size(); ++i)
        EXPECT_EQ(at((p + ".B").c_str(), lane, int64_t(i)), row[i]);
    for (const auto &[lane, row] : c)
      for (size_t i = 0; i < row.size(); ++i)
        EXPECT_EQ(at((p + ".C").c_str(), lane, int64_t(i)), row[i]);
  }
}

// §2.2-2.5 CuTe layouts as the sheet writes them.
TEST(AtomFacts, CuteLayoutsOfTheSheet) {
  const std::map<std::string, std::string> want = {
      {"mma.m16n8k16.f16.A", "((4,8),(2,2,2)):((32,1),(16,8,128))"},
      {"mma.m16n8k16.f16.B", "((4,8),(2,2)):((16,1),(8,64))"},
      {"mma.m16n8k16.f16.C", "((4,8),(2,2)):((32,1),(16,8))"},
      {"mma.m16n8k8.f16.A", "((4,8),(2,2)):((32,1),(16,8))"},
      {"mma.m16n8k8.f16.B", "((4,8),2):((16,1),8)"},
      {"mma.m16n8k8.tf32.A", "((4,8),(2,2)):((16,1),(8,64))"},
      {"mma.m16n8k8.tf32.B", "((4,8),2):((8,1),32)"},
      {"mma.m16n8k32.s8.A", "((4,8),(4,2,2)):((64,1),(16,8,256))"},
      {"mma.m16n8k32.e4m3.B", "((4,8),(4,2)):((32,1),(8,128))"},
      {"mma.m16n8k16.s8.A", "((4,8),(4,2)):((64,1),(16,8))"},
      {"mma.m16n8k16.u8.B", "((4,8),4):((32,1),8)"},
      {"wgmma.m64n64k16.f16.C", "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"},
      {"wgmma.m64n64k16.bf16.A", "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"},
      {"wgmma.m64n64k32.e4m3.A", "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"},
      {"wgmma.m64n64k8.tf32.A", "((4,8,4),(2,2)):((64,1,16),(8,256))"},
  };
  for (const auto &[name, text] : want)
    EXPECT_EQ(atom(name.c_str()).cuteLayout().str(), text) << name;
}

// §2.5: quad pair {4p..4p+3, 16+4p..16+4p+3} computes its own product.
TEST(AtomFacts, M8n8k4QuadPairs) {
  EXPECT_EQ(at("mma.m8n8k4.f16.A", 17, 3), (V{5, 3}));
  EXPECT_EQ(at("mma.m8n8k4.f16.A", 5, 2), (V{1, 2})); // p = 1, r = 1
  EXPECT_EQ(at("mma.m8n8k4.f16.B", 19, 1), (V{1, 7}));
  EXPECT_EQ(at("mma.m8n8k4.f16.C", 30, 7), (V{6, 7}));
  EXPECT_EQ(at("mma.m8n8k4.f32.C", 19, 7), (V{7, 7})); // row 1+2+4, col 2+1+4
  EXPECT_EQ(at("mma.m8n8k4.f32.C", 2, 2), (V{2, 2}));
}

// §3.1 table (lanes 0..7) and the x4 "typical use" of the sheet.
TEST(AtomFacts, LdmatrixTable) {
  const int rowNt[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  const int colNt[8] = {0, 2, 4, 6, 0, 2, 4, 6};
  for (const char *name : {"ldmatrix.x1.b16", "ldmatrix.x2.b16",
                           "ldmatrix.x4.b16", "stmatrix.x4.b16"})
    for (int l = 0; l < 8; ++l) {
      EXPECT_EQ(at(name, l, 0), (V{0, rowNt[l], colNt[l]})) << name << l;
      EXPECT_EQ(at(name, l, 1), (V{0, rowNt[l], colNt[l] + 1})) << name << l;
    }
  // trans: lo = (row,col), hi = (row,col) of the stored matrix.
  const int lo[8][2] = {{0, 0}, {2, 0}, {4, 0}, {6, 0},
                        {0, 1}, {2, 1}, {4, 1}, {6, 1}};
  for (const char *name : {"ldmatrix.x1.trans.b16", "ldmatrix.x4.trans.b16",
                           "stmatrix.x2.trans.b16"})
    for (int l = 0; l < 8; ++l) {
      EXPECT_EQ(at(name, l, 0), (V{0, lo[l][0], lo[l][1]})) << name << l;
      EXPECT_EQ(at(name, l, 1), (V{0, lo[l][0] + 1, lo[l][1]})) << name << l;
    }
  // Typical use: x4 with matrices (rows 0-7|8-15) x (cols 0-7|8-15) placed
  // at A(16 x 16) = matrix j at rows 8*(j&1), cols 8*(j>>1) gives exactly
  // the m16n8k16 A fragment: register j = {a_2j, a_2j+1}.
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t v = 0; v < 8; ++v) {
      V m = at("ldmatrix.x4.b16", l, v);
      V aFrag = at("mma.m16n8k16.f16.A", l, v);
      EXPECT_EQ((V{m[1] + 8 * (m[0] & 1), m[2] + 8 * (m[0] >> 1)}), aFrag);
    }
}

// §3.3: the b8 ldmatrix.m16n16.trans gives, in the transposed view, the
// 8-bit mma A pattern of one 16x16 K-half (a0..a7 of m16n8k32): byte b of
// register 2j+h is T[g + 8h][4q + b] with T = stored^T.
TEST(AtomFacts, LdmatrixB8IsTheK32AFragment) {
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t v = 0; v < 8; ++v) {
      V st = at("ldmatrix.m16n16.x1.trans.b8", l, v); // [0, row, col] stored
      V a = at("mma.m16n8k32.s8.A", l, v);            // [row, k]
      EXPECT_EQ((V{st[2], st[1]}), a) << l << " " << v;
    }
  // stmatrix.m16n8.trans.b8: byte b of lane l = X[g + 8*(b>>1)][2q + (b&1)],
  // X = stored^T: the m16n8 accumulator pattern.
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t v = 0; v < 4; ++v) {
      V st = at("stmatrix.m16n8.x1.trans.b8", l, v);
      V c = at("mma.m16n8k16.f16.C", l, v);
      EXPECT_EQ((V{st[2], st[1]}), c) << l << " " << v;
    }
  EXPECT_TRUE(atom("ldmatrix.m16n16.x2.trans.b8").unverified);
  EXPECT_TRUE(atom("stmatrix.m16n8.x4.trans.b8").unverified);
}

// §4.1 spot checks.
TEST(AtomFacts, WgmmaSpotChecks) {
  for (int n : {8, 64, 136, 256}) {
    std::string name = "wgmma.m64n" + std::to_string(n) + "k16.f16.C";
    EXPECT_EQ(at(name.c_str(), 0, 0), (V{0, 0}));
    EXPECT_EQ(at(name.c_str(), 0, 1), (V{0, 1}));
    EXPECT_EQ(at(name.c_str(), 0, 2), (V{8, 0}));
    EXPECT_EQ(at(name.c_str(), 5, 3), (V{9, 3}));
    EXPECT_EQ(at(name.c_str(), 127, n / 2 - 1), (V{63, n - 1}));
    if (n >= 16) {
      EXPECT_EQ(at(name.c_str(), 0, 4), (V{0, 8}));
      EXPECT_EQ(at(name.c_str(), 37, 6), (V{25, 10}));
    }
  }
  // §4.2: each warp's part is the mma.sync A fragment shifted by 16w rows.
  for (int64_t t = 0; t < 128; ++t)
    for (int64_t v = 0; v < 8; ++v) {
      V w = at("wgmma.m64n8k16.f16.A", t, v);
      V m = at("mma.m16n8k16.f16.A", t & 31, v);
      EXPECT_EQ(w, (V{m[0] + 16 * (t >> 5), m[1]}));
    }
}

// §6.3 x1 table, rows copied from the sheet.
TEST(AtomFacts, TcgenLdX1Table) {
  struct Row {
    int l;
    V s64, s128a, s128b, s256[4], bx2;
  };
  const int I = 1; // .16x32bx2.x1: CUTLASS immediate I = N = 1
  const std::vector<Row> rows = {
      {0, {0, 0}, {0, 0}, {8, 0}, {{0, 0}, {0, 1}, {8, 0}, {8, 1}}, {0, 0}},
      {1, {8, 0}, {0, 1}, {8, 1}, {{0, 2}, {0, 3}, {8, 2}, {8, 3}}, {1, 0}},
      {2, {0, 1}, {0, 2}, {8, 2}, {{0, 4}, {0, 5}, {8, 4}, {8, 5}}, {2, 0}},
      {7, {9, 1}, {1, 3}, {9, 3}, {{1, 6}, {1, 7}, {9, 6}, {9, 7}}, {7, 0}},
      {13,
       {11, 0},
       {3, 1},
       {11, 1},
       {{3, 2}, {3, 3}, {11, 2}, {11, 3}},
       {13, 0}},
      {16, {4, 0}, {4, 0}, {12, 0}, {{4, 0}, {4, 1}, {12, 0}, {12, 1}}, {0, I}},
      {22, {5, 1}, {5, 2}, {13, 2}, {{5, 4}, {5, 5}, {13, 4}, {13, 5}}, {6, I}},
      {31,
       {15, 1},
       {7, 3},
       {15, 3},
       {{7, 6}, {7, 7}, {15, 6}, {15, 7}},
       {15, I}},
  };
  for (const char *op : {"tcgen05.ld", "tcgen05.st"}) {
    std::string p = op;
    for (const Row &r : rows) {
      EXPECT_EQ(at((p + ".16x64b.x1").c_str(), r.l, 0), r.s64) << r.l;
      EXPECT_EQ(at((p + ".16x128b.x1").c_str(), r.l, 0), r.s128a) << r.l;
      EXPECT_EQ(at((p + ".16x128b.x1").c_str(), r.l, 1), r.s128b) << r.l;
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(at((p + ".16x256b.x1").c_str(), r.l, k), r.s256[k]) << r.l;
      EXPECT_EQ(at((p + ".16x32bx2.x1").c_str(), r.l, 0), r.bx2) << r.l;
      EXPECT_EQ(at((p + ".32x32b.x1").c_str(), r.l, 0), (V{r.l, 0}));
    }
  }
  // Registers per thread (§6.3 table): x1 -> 1 / 2 / 4; x32 -> 32 / 64 / 128.
  EXPECT_EQ(atom("tcgen05.ld.16x64b.x1").values, 1);
  EXPECT_EQ(atom("tcgen05.ld.16x128b.x1").values, 2);
  EXPECT_EQ(atom("tcgen05.ld.16x256b.x1").values, 4);
  EXPECT_EQ(atom("tcgen05.ld.32x32b.x128").values, 128);
  EXPECT_EQ(atom("tcgen05.ld.16x128b.x64").values, 128);
  EXPECT_EQ(atom("tcgen05.ld.16x256b.x32").values, 128);
  // .16x256b.x1 reproduces the mma.sync C pattern on a 16x8 block.
  for (int64_t l = 0; l < 32; ++l)
    for (int64_t r = 0; r < 4; ++r)
      EXPECT_EQ(at("tcgen05.ld.16x256b.x1", l, r),
                at("mma.m16n8k16.f16.C", l, r));
}

//===----------------------------------------------------------------------===//
// The three views agree, every atom, every element
//===----------------------------------------------------------------------===//

TEST(AtomViews, TileViewAgreesWithEval) {
  for (const Atom &a : atoms()) {
    auto tl = a.tileLayout();
    ASSERT_TRUE(tl.hasValue()) << a.name << ": " << tl.error().message;
    std::vector<int64_t> shape = a.logicalShape();
    // Owners (thread, value) of each logical element, from eval.
    std::map<V, std::set<V>> owners;
    for (int64_t t = 0; t < a.threads; ++t)
      for (int64_t v = 0; v < a.values; ++v) {
        auto c = a.eval(t, v);
        ASSERT_TRUE(c.hasValue());
        owners[*c].insert(V{t, v});
      }
    int lane = tl->axisSlot(tile::Axis::laneid());
    int warp = tl->axisSlot(tile::Axis::warpid());
    int m = tl->axisSlot(tile::Axis::m());
    ASSERT_GE(lane, 0) << a.name;
    for (const auto &[coord, who] : owners) {
      auto set = tl->eval(shape, coord);
      ASSERT_TRUE(set.hasValue()) << a.name;
      std::set<V> fromTile;
      for (size_t k = 0; k < set->size(); ++k) {
        auto pc = (*set)[k];
        int64_t t = pc[size_t(lane)] + (warp >= 0 ? 32 * pc[size_t(warp)] : 0);
        int64_t v = m >= 0 ? pc[size_t(m)] : 0;
        fromTile.insert(V{t, v});
      }
      ASSERT_EQ(fromTile, who) << a.name << " " << tl->str();
    }
    // Every logical element is held (the map is onto the tile).
    int64_t cells = 1;
    for (int64_t e : shape)
      cells *= e;
    ASSERT_EQ(int64_t(owners.size()), cells) << a.name;
  }
}

TEST(AtomViews, TileTexts) {
  EXPECT_EQ(atom("mma.m16n8k16.f16.C").tileLayout()->str(),
            "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]");
  EXPECT_EQ(atom("mma.m16n8k8.tf32.A").tileLayout()->str(),
            "S[(2,8,2,4):(1,4@laneid,2,1@laneid)]");
  EXPECT_EQ(atom("mma.m8n8k4.f16.A").tileLayout()->str(),
            "S[(2,4,4):(16@laneid,1@laneid,1)] + R[4:4@laneid]");
  EXPECT_EQ(atom("wgmma.m64n8k16.f16.C").tileLayout()->str(),
            "S[(4,2,8,4,2):(1@warpid,2,4@laneid,1@laneid,1)]");
}

TEST(AtomViews, LinearViewAgreesWithEval) {
  int linear = 0;
  for (const Atom &a : atoms()) {
    bool pow2 = true;
    for (int64_t e : a.logicalShape())
      pow2 = pow2 && (e & (e - 1)) == 0;
    pow2 = pow2 && (a.values & (a.values - 1)) == 0;
    auto ll = a.linearLayout();
    if (!pow2) {
      EXPECT_FALSE(ll.hasValue()) << a.name;
      continue;
    }
    ASSERT_TRUE(ll.hasValue()) << a.name << ": " << ll.error().message;
    ++linear;
    for (int64_t t = 0; t < a.threads; ++t)
      for (int64_t v = 0; v < a.values; ++v) {
        V in = {v, t & 31};
        if (a.threads > 32)
          in.push_back(t >> 5);
        auto got = ll->apply(in);
        ASSERT_TRUE(got.hasValue());
        ASSERT_EQ(*got, *a.eval(t, v)) << a.name;
      }
  }
  EXPECT_GT(linear, 100);
}

TEST(AtomViews, LinearBasesOfTheMmaAccumulator) {
  // C of m16n8k16: register bits -> (0,1), (8,0); lane bits -> (0,2), (0,4),
  // (1,0), (2,0), (4,0) (the row = g, col = 2q pattern).
  auto ll = atom("mma.m16n8k16.f16.C").linearLayout();
  ASSERT_TRUE(ll.hasValue());
  auto bases = ll->allBases();
  ASSERT_EQ(bases.size(), 2u);
  EXPECT_EQ(bases[0].bases, (std::vector<V>{{0, 1}, {8, 0}}));
  EXPECT_EQ(bases[1].bases,
            (std::vector<V>{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}));
  // m8n8k4: the quad-pair bits (lane bits 2, 3) broadcast: zero bases.
  auto q = atom("mma.m8n8k4.f16.A").linearLayout();
  ASSERT_TRUE(q.hasValue());
  EXPECT_EQ(q->bases(1)[2], (V{0, 0}));
  EXPECT_EQ(q->bases(1)[3], (V{0, 0}));
  EXPECT_EQ(q->bases(1)[4], (V{4, 0}));
  // wgmma N = 24 has no linear view.
  EXPECT_FALSE(atom("wgmma.m64n24k16.f16.C").linearLayout().hasValue());
}

//===----------------------------------------------------------------------===//
// Cross-check with the linear model's Triton constructors (Standard.h)
//===----------------------------------------------------------------------===//

namespace {

/// Compares an atom with a Triton layout on every (register, lane, warp)
/// the atom has (block = 0; extra warps of the Triton layout are ignored).
void expectSameAsTriton(const Atom &a, const linear::LinearLayout &tri) {
  for (int64_t t = 0; t < a.threads; ++t)
    for (int64_t v = 0; v < a.values; ++v) {
      std::vector<int64_t> in;
      for (int d = 0; d < tri.numInDims(); ++d) {
        linear::DimId id = tri.inDim(d).id;
        in.push_back(id == linear::dims::kRegister ? v
                     : id == linear::dims::kLane   ? (t & 31)
                     : id == linear::dims::kWarp   ? (t >> 5)
                                                   : 0);
      }
      auto got = tri.apply(in);
      ASSERT_TRUE(got.hasValue()) << a.name;
      ASSERT_EQ(*got, *a.eval(t, v))
          << a.name << " thread " << t << " value " << v;
    }
}

} // namespace

TEST(AtomViews, AgreesWithTritonMmaAccumulators) {
  // mma.sync (v2) accumulator, one warp, one 16x8 tile.
  {
    std::vector<unsigned> instr = {16, 8}, warps = {1, 1};
    std::vector<int64_t> shape = {16, 8};
    auto tri = linear::nvidiaMmaLayout(2, instr, warps, shape);
    ASSERT_TRUE(tri.hasValue()) << tri.error().message;
    expectSameAsTriton(atom("mma.m16n8k16.f16.C"), *tri);
  }
  // wgmma (v3) accumulator, one warpgroup (warpsPerCTA [4,1]), 64 x N.
  for (unsigned n : {8u, 64u, 256u}) {
    std::vector<unsigned> instr = {16, n, 16}, warps = {4, 1};
    std::vector<int64_t> shape = {64, int64_t(n)};
    auto tri = linear::nvidiaMmaLayout(3, instr, warps, shape);
    ASSERT_TRUE(tri.hasValue()) << tri.error().message;
    std::string name = "wgmma.m64n" + std::to_string(n) + "k16.f16.C";
    expectSameAsTriton(atom(name.c_str()), *tri);
  }
}

TEST(AtomViews, AgreesWithTritonDotOperands) {
  // mma.sync v2 dot operands with kWidth = 2 (16-bit), one warp:
  // A is 16 x 16 ([row, k]), B is 16 x 8 ([k, n]).
  auto parent = std::make_shared<linear::Encoding>();
  parent->kind = linear::EncodingKind::NvidiaMma;
  parent->versionMajor = 2;
  parent->instrShape = {16, 8};
  parent->warpsPerCTA = {1, 1};
  parent->cta = linear::CTALayout::single(2);
  for (int op : {0, 1}) {
    linear::Encoding dot;
    dot.kind = linear::EncodingKind::DotOperand;
    dot.opIdx = op;
    dot.kWidth = 2;
    dot.parent = parent;
    dot.cta = linear::CTALayout::single(2);
    std::vector<int64_t> shape =
        op == 0 ? std::vector<int64_t>{16, 16} : std::vector<int64_t>{16, 8};
    auto tri = linear::toLinearLayout(dot, shape);
    ASSERT_TRUE(tri.hasValue()) << tri.error().message;
    expectSameAsTriton(
        atom(op == 0 ? "mma.m16n8k16.f16.A" : "mma.m16n8k16.f16.B"), *tri);
  }
}
