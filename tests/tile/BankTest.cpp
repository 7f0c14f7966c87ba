//===- BankTest.cpp - Banks, the line x bank view, conflicts --------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/Bank.h"

#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

#include <set>

namespace lk::tile {
namespace {

MemoryLayout memory(const std::string &text) {
  Expected<MemoryLayout> m = Diagnostic::error("unparsed");
  if (text.rfind("Swizzle", 0) == 0) {
    auto c = parseSwizzledTileLayout(text);
    EXPECT_TRUE(c) << c.error().render();
    m = MemoryLayout::of(*c);
  } else {
    auto t = parseTileLayout(text);
    EXPECT_TRUE(t) << t.error().render();
    m = MemoryLayout::of(*t);
  }
  EXPECT_TRUE(m) << m.error().message;
  return *m;
}

std::string rowMajor(int64_t rows, int64_t cols) {
  return "S[(" + std::to_string(rows) + "," + std::to_string(cols) + "):(" +
         std::to_string(cols) + ",1)]";
}

TEST(Bank, SlotFollowsTheFormula) {
  // bankword = floor(a * bytes / 4), bank = bankword mod 32, line =
  // floor(bankword / 32); computed on bits.
  EXPECT_EQ(bankSlot(0, 16), (BankSlot{0, 0, 0, 0, 1}));
  EXPECT_EQ(bankSlot(3, 16), (BankSlot{3, 1, 1, 0, 1}));    // byte 6
  EXPECT_EQ(bankSlot(64, 16), (BankSlot{64, 32, 0, 1, 1})); // byte 128
  EXPECT_EQ(bankSlot(72, 16), (BankSlot{72, 36, 4, 1, 1})); // byte 144
  EXPECT_EQ(bankSlot(5, 8), (BankSlot{5, 1, 1, 0, 1}));     // byte 5
  EXPECT_EQ(bankSlot(33, 32), (BankSlot{33, 33, 1, 1, 1}));
  EXPECT_EQ(bankSlot(3, 64), (BankSlot{3, 6, 6, 0, 2})); // words 6, 7
  EXPECT_EQ(bankSlot(9, 4), (BankSlot{9, 1, 1, 0, 1}));  // bit 36
}

TEST(Bank, SpecWorkedExampleUnswizzled) {
  // (8,64) float16 row-major: column j = 0 read by 8 lanes lands in bank 0
  // eight times (bankword = 64i * 2 / 4 = 32i).
  MemoryLayout m = memory(rowMajor(8, 64));
  auto access = columnAccess(8, 64, 0, 8, 0, 1);
  ASSERT_TRUE(access);
  auto c = bankConflicts(m, 16, *access);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->ways, 8);
  EXPECT_FALSE(c->conflictFree());
  ASSERT_EQ(c->banks[0].size(), 8u);
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(c->banks[0][size_t(i)].bankWord, 32 * i);
    EXPECT_EQ(c->banks[0][size_t(i)].lanes, std::vector<int64_t>{i});
  }
  for (int b = 1; b < 32; ++b)
    EXPECT_TRUE(c->banks[size_t(b)].empty());
  EXPECT_EQ(c->explain().substr(0, c->explain().find('\n')),
            "8-way bank conflict: a bank serves 8 distinct words");
  EXPECT_NE(
      c->explain().find("bank 0: 8 words (lines 0..7): word 0 <- lane 0;"),
      std::string::npos)
      << c->explain();
  // Any column j: bank floor(j/2) for every row.
  for (int64_t j = 0; j < 64; ++j) {
    auto cj = bankConflicts(m, 16, *columnAccess(8, 64, 0, 8, j, 1));
    EXPECT_EQ(cj->ways, 8);
    EXPECT_EQ(cj->banks[size_t(j / 2)].size(), 8u);
  }
}

TEST(Bank, SpecWorkedExampleSwizzled128B) {
  // Swizzle(3,3,3): addr(i, 0) = 72i, banks 0, 4, ..., 28.
  MemoryLayout m = memory("Swizzle(M=3,B=3,S=3) o " + rowMajor(8, 64));
  auto c = bankConflicts(m, 16, *columnAccess(8, 64, 0, 8, 0, 1));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->ways, 1);
  EXPECT_TRUE(c->conflictFree());
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(m.address(64 * i), 72 * i);
    ASSERT_EQ(c->banks[size_t(4 * i)].size(), 1u);
    EXPECT_EQ(c->banks[size_t(4 * i)][0].lanes, std::vector<int64_t>{i});
  }
  EXPECT_EQ(c->explain(),
            "conflict-free: every bank serves at most one word\n");
}

TEST(Bank, SwizzledColumnsOf16BytesAreConflictFreeForEveryModeAndDtype) {
  // docs/design.md §6.3: with a 32B / 64B / 128B swizzle, a read of any 8 x
  // 16-byte column is conflict-free, for 8-, 16- and 32-bit elements. The
  // tile is the canonical one for the mode: rows of `width` bytes (the
  // swizzle atom's row), 64 rows; eight lanes read eight consecutive rows
  // starting anywhere, each lane one 16-byte vector of the same column.
  // The unswizzled layout is the control: there the same reads conflict.
  for (SwizzleMode mode :
       {SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128})
    for (int64_t bits : {8, 16, 32}) {
      int64_t width = swizzleModeBytes(mode);
      int64_t cols = width * 8 / bits, vector = 128 / bits, rows = 64;
      auto s = SwizzleLayout::forDtype(bits, mode);
      ASSERT_TRUE(s);
      MemoryLayout m = memory(s->str() + " o " + rowMajor(rows, cols));
      MemoryLayout plain = memory(rowMajor(rows, cols));
      for (int64_t first = 0; first + 8 <= rows; ++first)
        for (int64_t col = 0; col < cols / vector; ++col) {
          auto a = columnAccess(rows, cols, first, 8, col, vector);
          ASSERT_TRUE(a);
          auto c = bankConflicts(m, bits, *a);
          ASSERT_TRUE(c);
          EXPECT_EQ(c->ways, 1) << s->str() << " bits=" << bits << " rows "
                                << first << ".. col " << col << "\n"
                                << c->explain();
          // Unswizzled: 128 / width rows share a line, so the 8 rows hit
          // the same banks 8 / (128 / width) times.
          auto u = bankConflicts(plain, bits, *a);
          EXPECT_EQ(u->ways, 8 * width / 128);
        }
    }
}

TEST(Bank, RowsWiderThanTheSwizzleStillConflict) {
  // (8,128) f16 rows are 256 bytes; under Swizzle(3,3,3) the 16-byte chunk
  // of (i, 0..7) is (2i mod 8) xor 0 in its line: four distinct chunks for
  // eight rows, so two rows share each bank group (2 ways).
  MemoryLayout m = memory("Swizzle(M=3,B=3,S=3) o " + rowMajor(8, 128));
  auto c = bankConflicts(m, 16, *columnAccess(8, 128, 0, 8, 0, 8));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->ways, 2) << c->explain();
}

TEST(Bank, ViewListsTheElementsOfEachWord) {
  // (2,8) float16 row-major (16-byte rows): the view puts (i, 2w) and
  // (i, 2w+1) in word 4i + w.
  MemoryLayout m = memory(rowMajor(2, 8));
  auto v = bankView(m, 16);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->firstLine, 0);
  EXPECT_EQ(v->lineCount, 1);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t w = 0; w < 4; ++w)
      EXPECT_EQ(v->at(0, 4 * i + w),
                (std::vector<int64_t>{8 * i + 2 * w, 8 * i + 2 * w + 1}));
  for (int64_t b = 8; b < 32; ++b)
    EXPECT_TRUE(v->at(0, b).empty());

  // The swizzled (8,64) f16 tile: every word holds two elements and every
  // element appears exactly once.
  MemoryLayout s = memory("Swizzle(M=3,B=3,S=3) o " + rowMajor(8, 64));
  auto sv = bankView(s, 16);
  ASSERT_TRUE(sv);
  EXPECT_EQ(sv->lineCount, 8);
  std::set<int64_t> seen;
  for (int64_t line = 0; line < 8; ++line)
    for (int64_t b = 0; b < 32; ++b) {
      const auto &cell = sv->at(line, b);
      ASSERT_EQ(cell.size(), 2u);
      for (int64_t e : cell) {
        EXPECT_EQ(bankSlot(s.address(e), 16).bank, b);
        seen.insert(e);
      }
    }
  EXPECT_EQ(seen.size(), 512u);
  // Column 0 of the view's rows: element (i, 0) sits in line i, bank 4i.
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(sv->at(i, 4 * i)[0], 64 * i);
}

TEST(Bank, WideElementsCoverSeveralWordsAndOffsetsShiftLines) {
  MemoryLayout m = memory("S[4:1] + 40@m");
  auto v = bankView(m, 64); // element k at words 2(40+k), 2(40+k)+1
  ASSERT_TRUE(v);
  EXPECT_EQ(v->firstLine, 2); // word 80 is in line 2
  EXPECT_EQ(v->at(2, 16), std::vector<int64_t>{0});
  EXPECT_EQ(v->at(2, 17), std::vector<int64_t>{0});
  EXPECT_EQ(v->at(2, 23), std::vector<int64_t>{3});
  // Two lanes reading the same element share the words: no conflict.
  auto c = bankConflicts(m, 64, BankAccess{{0}, {0}, {1}});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->ways, 1);
  EXPECT_EQ(c->banks[16][0].lanes, (std::vector<int64_t>{0, 1}));
}

TEST(Bank, ElementBanksShowTheSwizzleOverTheLogicalTile) {
  // (8,64) f16 row-major: (i, j) at address 64i + j, bankword
  // floor((64i + j) * 2 / 4) = 32i + j/2, bank (j / 2) mod 32: every row
  // has banks 0,0,1,1,...,31,31.
  auto plain = elementBanks(memory(rowMajor(8, 64)), 16);
  ASSERT_TRUE(plain) << plain.error().message;
  ASSERT_EQ(plain->size(), 512u);
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 64; ++j)
      EXPECT_EQ((*plain)[size_t(64 * i + j)], (j / 2) % 32) << i << "," << j;
  // Swizzle(M=3,B=3,S=3): address 64i + 8((j/8) xor i) + j mod 8, so bank
  // 4((j/8) xor i) + (j mod 8)/2: column 0 at 4i, (3, 9) at
  // 4(1 xor 3) + 0 = 8, (7, 63) at 4(7 xor 7) + 3 = 3.
  auto sw =
      elementBanks(memory("Swizzle(M=3,B=3,S=3) o " + rowMajor(8, 64)), 16);
  ASSERT_TRUE(sw);
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ((*sw)[size_t(64 * i)], 4 * i);
  EXPECT_EQ((*sw)[64 * 3 + 9], 8);
  EXPECT_EQ((*sw)[64 * 7 + 63], 3);
  // Every bank of the view agrees with the per-element list.
  auto v = bankView(memory("Swizzle(M=3,B=3,S=3) o " + rowMajor(8, 64)), 16);
  ASSERT_TRUE(v);
  for (int64_t line = v->firstLine; line < v->firstLine + v->lineCount; ++line)
    for (int64_t b = 0; b < kBanks; ++b)
      for (int64_t f : v->at(line, b))
        EXPECT_EQ((*sw)[size_t(f)], b);
  // Bounded before any work; bad widths and overflow refused.
  auto big = elementBanks(memory(rowMajor(8, 64)), 16, 511);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("are 512 elements; at most 511"),
            std::string::npos)
      << big.error().message;
  EXPECT_FALSE(elementBanks(memory(rowMajor(8, 8)), 0));
  EXPECT_FALSE(elementBanks(memory("S[2:4611686018427387904]"), 16));
}

TEST(Bank, RefusesNonMemoryLayoutsAndBadRequests) {
  auto lanes = parseTileLayout("S[(8,4):(4@laneid,1)]");
  ASSERT_TRUE(lanes);
  auto m = MemoryLayout::of(*lanes);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find(
                "shard iter 0 of S[(8,4):(4@laneid,1)] is on axis 'laneid'"),
            std::string::npos)
      << m.error().message;
  auto rep = parseTileLayout("S[8:1] + R[2:8]");
  ASSERT_TRUE(rep);
  EXPECT_FALSE(MemoryLayout::of(*rep));
  MemoryLayout ok = memory(rowMajor(8, 8));
  auto out = bankConflicts(ok, 16, BankAccess{{64}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find(
                "lane 0 reads element 64, outside the 64 elements"),
            std::string::npos);
  EXPECT_FALSE(bankConflicts(ok, 0, BankAccess{{0}}));
  EXPECT_FALSE(columnAccess(8, 8, 4, 8, 0, 1)); // rows 4..11
  EXPECT_FALSE(columnAccess(8, 8, 0, 8, 2, 4)); // columns 8..11
  // A bound is named with its value.
  EXPECT_EQ(columnAccess(8, 8, 0, 8, -1, 1).error().message,
            "column access: column is -1; expected a non-negative value");
  EXPECT_EQ(columnAccess(8, 8, 0, 8, 0, 0).error().message,
            "column access: vector is 0; expected a positive value");
  EXPECT_EQ(columnAccess(8, 8, -2, 8, 0, 1).error().message,
            "column access: first row is -2; expected a non-negative value");
  EXPECT_FALSE(bankView(memory("S[2:4611686018427387904]"), 16));
}

} // namespace
} // namespace lk::tile
