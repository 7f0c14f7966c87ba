//===- MachineTest.cpp - The hardware model against docs/hardware.md ------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every number is checked against docs/hardware.md: §1 (shared memory),
// §6.1-6.2 (tensor memory), §7 (global memory).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Machine.h"
#include "layoutkit/hw/SwizzleMode.h"

#include <gtest/gtest.h>

#include <vector>

using namespace lk;
using namespace lk::hw;

namespace {

std::vector<int64_t> lanes(int64_t n, auto f) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(f(i));
  return v;
}

int64_t sw128(int64_t a) { return *swizzleAddress(SwizzleMode::B128, a); }

TEST(Machine, TableHasThreeArchitectures) {
  ASSERT_EQ(machines().size(), 3u);
  EXPECT_EQ(machines()[0].name, "sm_80");
  EXPECT_EQ(machines()[1].name, "sm_90");
  EXPECT_EQ(machines()[2].name, "sm_100");
  for (Arch a : {Arch::Sm80, Arch::Sm90, Arch::Sm100})
    EXPECT_EQ(machine(a).arch, a);
  EXPECT_EQ(machine(Arch::Sm80).computeCapability, 80);
  EXPECT_EQ(machine(Arch::Sm90).computeCapability, 90);
  EXPECT_EQ(machine(Arch::Sm100).computeCapability, 100);
}

TEST(Machine, Features) {
  const Machine &a = machine(Arch::Sm80), &h = machine(Arch::Sm90),
                &b = machine(Arch::Sm100);
  EXPECT_TRUE(a.hasLdmatrix && h.hasLdmatrix && b.hasLdmatrix); // sm_75+
  EXPECT_FALSE(a.hasStmatrix);                                  // sm_90+
  EXPECT_TRUE(h.hasStmatrix && b.hasStmatrix);
  EXPECT_TRUE(h.hasWgmma);
  EXPECT_FALSE(a.hasWgmma || b.hasWgmma); // wgmma is sm_90a only
  EXPECT_FALSE(a.hasTma);
  EXPECT_TRUE(h.hasTma && b.hasTma);
  EXPECT_FALSE(h.hasTmaAtomSwizzles); // 128B_ATOM_* are sm_100+ (§5.1)
  EXPECT_TRUE(b.hasTmaAtomSwizzles);
  EXPECT_TRUE(b.hasTcgen05);
  EXPECT_FALSE(a.hasTcgen05 || h.hasTcgen05);
  EXPECT_EQ(a.warpsPerWarpgroup, 0);
  EXPECT_EQ(h.warpsPerWarpgroup, 4); // §4.1: 4 consecutive warps
  EXPECT_EQ(b.warpsPerWarpgroup, 4);
  for (const Machine &m : machines())
    EXPECT_EQ(m.warpSize, 32);
}

TEST(Machine, ParseArch) {
  EXPECT_EQ(*parseArch("sm_80"), Arch::Sm80);
  EXPECT_EQ(*parseArch("sm_90a"), Arch::Sm90);
  EXPECT_EQ(*parseArch("sm100a"), Arch::Sm100);
  Expected<Arch> bad = parseArch("sm_70");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "unknown architecture 'sm_70' (known: sm_80, sm_90, sm_100)");
}

// §1.1: 32 banks x 4 B, bank(a) = (a >> 2) & 31; §1.3 128 B per wavefront.
TEST(SharedMemory, BanksSameOnEveryArchitecture) {
  for (const Machine &m : machines()) {
    EXPECT_EQ(m.smem.banks, 32);
    EXPECT_EQ(m.smem.bankWidthBytes, 4);
    EXPECT_EQ(m.smem.wavefrontBytes, 128);
    EXPECT_TRUE(m.smem.loadBroadcast);
    EXPECT_TRUE(m.smem.storeOneWriterWins);
    for (int64_t a = 0; a < 4096; a += 3) {
      EXPECT_EQ(m.smem.bankOf(a), (a >> 2) & 31);
      EXPECT_EQ(m.smem.wordOf(a), a >> 2);
      EXPECT_EQ(m.smem.rowOf(a), (a >> 2) >> 5);
    }
  }
}

// §1.3 lane-group table.
TEST(SharedMemory, LaneGroupingTable) {
  struct Row {
    int64_t w, lanesPerGroup, groups, minWavefronts;
    bool verified;
  } rows[] = {{1, 32, 1, 1, true},
              {2, 32, 1, 1, true},
              {4, 32, 1, 1, true},
              {8, 16, 2, 2, false},
              {16, 8, 4, 4, false}};
  const SharedMemoryModel &s = machine(Arch::Sm90).smem;
  for (const Row &r : rows) {
    Expected<LaneGrouping> g = s.grouping(r.w);
    ASSERT_TRUE(g) << r.w;
    EXPECT_EQ(g->lanesPerGroup, r.lanesPerGroup) << r.w;
    EXPECT_EQ(g->groups, r.groups) << r.w;
    EXPECT_EQ(g->minWavefronts, r.minWavefronts) << r.w;
    EXPECT_EQ(g->verified, r.verified) << r.w; // 8/16 B UNVERIFIED
    // The minimum is the 128 B-per-pass limit: 32 lanes * w / 128.
    EXPECT_EQ(g->minWavefronts, std::max<int64_t>(1, 32 * r.w / 128));
  }
  Expected<LaneGrouping> bad = s.grouping(3);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "shared-memory access width 3 B is not supported (allowed: 1, 2, "
            "4, 8, 16)");
}

// §1.3 test vectors (model).
TEST(SharedMemory, WavefrontTestVectors) {
  const SharedMemoryModel &s = machine(Arch::Sm100).smem;
  auto wf = [&](std::vector<int64_t> a, int64_t w) {
    return *s.wavefronts(a, w);
  };
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 4 * i; }), 4), 1);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 8 * i; }), 4), 2);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 12 * i; }), 4), 1);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 128 * i; }), 4), 32);
  EXPECT_EQ(wf(lanes(32, [](int64_t) { return 0; }), 4), 1); // broadcast
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 2 * i; }), 2), 1);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return i; }), 1), 1);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 8 * i; }), 8), 2);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 16 * i; }), 16), 4);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return 128 * i; }), 16), 32);
  EXPECT_EQ(wf(lanes(32, [](int64_t i) { return sw128(128 * i); }), 16), 4);
}

TEST(SharedMemory, InactiveLanesAndErrors) {
  const SharedMemoryModel &s = machine(Arch::Sm80).smem;
  // Only lanes 0 and 1 active, both in bank 0, different words: 2.
  std::vector<int64_t> a(32, -1);
  a[0] = 0;
  a[1] = 128;
  EXPECT_EQ(*s.wavefronts(a, 4), 2);
  std::vector<int64_t> none(32, -1);
  EXPECT_EQ(*s.wavefronts(none, 4), 0);
  std::vector<int64_t> mis = {2};
  Expected<int64_t> e = s.wavefronts(mis, 4);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "lane 0: address 2 is not aligned to the access width 4 B");
  EXPECT_FALSE(s.wavefronts(std::vector<int64_t>(33, 0), 4));
}

// §1.3 ldmatrix rows of the test-vector table.
TEST(SharedMemory, LdmatrixTestVectors) {
  const SharedMemoryModel &s = machine(Arch::Sm90).smem;
  auto rows =
      lanes(32, [](int64_t l) { return 2048 * (l / 8) + 128 * (l % 8); });
  EXPECT_EQ(*s.ldmatrixWavefronts(rows, 4), 32);
  std::vector<int64_t> swz;
  for (int64_t r : rows)
    swz.push_back(sw128(r));
  EXPECT_EQ(*s.ldmatrixWavefronts(swz, 4), 4);
  EXPECT_EQ(
      *s.ldmatrixWavefronts(lanes(32, [](int64_t k) { return 16 * k; }), 4), 4);
  // Minimum = number of matrices.
  EXPECT_EQ(
      *s.ldmatrixWavefronts(lanes(8, [](int64_t k) { return 16 * k; }), 1), 1);
  EXPECT_EQ(
      *s.ldmatrixWavefronts(lanes(16, [](int64_t k) { return 16 * k; }), 2), 2);
  Expected<int64_t> bad = s.ldmatrixWavefronts(rows, 3);
  ASSERT_FALSE(bad);
  EXPECT_EQ(
      bad.error().message,
      "ldmatrix/stmatrix: 3 matrices is not supported (allowed: 1, 2, 4)");
  EXPECT_FALSE(s.ldmatrixWavefronts(rows, 2)); // 32 addresses for .x2
}

// §7: 32 B sectors, 128 B lines and the test-vector table.
TEST(GlobalMemory, SectorsAndLines) {
  for (const Machine &m : machines()) {
    EXPECT_EQ(m.gmem.sectorBytes, 32);
    EXPECT_EQ(m.gmem.lineBytes, 128);
    EXPECT_EQ(m.gmem.sectorsPerLine(), 4);
    EXPECT_EQ(m.gmem.mallocAlignment, 256);
  }
  const GlobalMemoryModel &g = machine(Arch::Sm80).gmem;
  using T = GlobalMemoryModel::Transactions;
  auto tx = [&](std::vector<int64_t> a, int64_t w) {
    return *g.transactions(a, w);
  };
  EXPECT_EQ(tx(lanes(32, [](int64_t i) { return 4 * i; }), 4), (T{4, 1}));
  EXPECT_EQ(tx(lanes(32, [](int64_t i) { return 4 + 4 * i; }), 4), (T{5, 2}));
  EXPECT_EQ(tx(lanes(32, [](int64_t i) { return 128 * i; }), 4), (T{32, 32}));
  EXPECT_EQ(tx(lanes(32, [](int64_t i) { return 16 * i; }), 16), (T{16, 4}));
  EXPECT_EQ(tx(lanes(32, [](int64_t i) { return 16 + 8 * i; }), 8), (T{9, 3}));
  EXPECT_EQ(tx(lanes(32, [](int64_t) { return 0; }), 4), (T{1, 1}));
  EXPECT_EQ(tx(lanes(32, [](int64_t i) { return 2 * i; }), 2), (T{2, 1}));
  Expected<T> mis = g.transactions(std::vector<int64_t>{4}, 8);
  ASSERT_FALSE(mis);
  EXPECT_EQ(mis.error().message,
            "lane 0: address 4 is not naturally aligned to 8 B");
  EXPECT_FALSE(g.transactions(std::vector<int64_t>{0}, 32));
}

// §6.1 geometry and allocation.
TEST(TensorMemory, Geometry) {
  const Machine &b = machine(Arch::Sm100);
  EXPECT_TRUE(b.tmem.present);
  EXPECT_EQ(b.tmem.lanes, 128);
  EXPECT_EQ(b.tmem.columns, 512);
  EXPECT_EQ(b.tmem.cellBits, 32);
  EXPECT_EQ(b.tmem.bytes(), 256 * 1024);
  EXPECT_EQ(b.tmem.allocMinColumns, 32);
  EXPECT_EQ(b.tmem.allocMaxColumns, 512);
  EXPECT_EQ(b.tmem.validAddressMask, 0x007F01FFu);
  EXPECT_FALSE(machine(Arch::Sm80).tmem.present);
  EXPECT_FALSE(machine(Arch::Sm90).tmem.present);
}

TEST(TensorMemory, Allocation) {
  const Machine &b = machine(Arch::Sm100);
  for (int64_t n : {32, 64, 128, 256, 512})
    EXPECT_TRUE(b.checkTmemAllocation(n)) << n;
  for (int64_t n : {0, 1, 16, 48, 96, 1024, -32}) {
    Status s = b.checkTmemAllocation(n);
    ASSERT_FALSE(s) << n;
    EXPECT_EQ(s.error().message,
              "tcgen05.alloc: " + std::to_string(n) +
                  " columns is not a power of two in [32, 512]");
  }
  Status none = machine(Arch::Sm90).checkTmemAllocation(32);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "sm_90 has no tensor memory");
}

// §6.2: warp w % 4 -> lanes [32w, 32w+32).
TEST(TensorMemory, WarpLaneWindows) {
  const Machine &b = machine(Arch::Sm100);
  EXPECT_EQ(*b.tmemLaneWindow(0), (LaneWindow{0, 32}));
  EXPECT_EQ(*b.tmemLaneWindow(1), (LaneWindow{32, 32}));
  EXPECT_EQ(*b.tmemLaneWindow(2), (LaneWindow{64, 32}));
  EXPECT_EQ(*b.tmemLaneWindow(3), (LaneWindow{96, 32}));
  EXPECT_EQ(*b.tmemLaneWindow(5), (LaneWindow{32, 32}));
  EXPECT_EQ(*b.tmemLaneWindow(6), (LaneWindow{64, 32}));
  // CUTLASS's check: (warp % 4) == ((lane / 32) % 4).
  for (int64_t w = 0; w < 16; ++w)
    for (int64_t lane = 0; lane < 128; ++lane)
      EXPECT_EQ(bool(b.checkTmemAccess(w, lane)), (w % 4) == (lane / 32) % 4);
  Status s = b.checkTmemAccess(5, 70);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "warp 5 (warp 1 of its warpgroup) may access "
                               "TMEM lanes 32..63, not lane 70");
  EXPECT_FALSE(machine(Arch::Sm80).tmemLaneWindow(0));
}

// §6.1: taddr = (lane << 16) | column.
TEST(TensorMemory, Addresses) {
  const Machine &b = machine(Arch::Sm100);
  EXPECT_EQ(*b.tmemAddress(0, 0), 0u);
  EXPECT_EQ(*b.tmemAddress(32, 0), 0x00200000u);
  EXPECT_EQ(*b.tmemAddress(127, 511), 0x007F01FFu);
  EXPECT_EQ(*b.decodeTmemAddress(0x00400010u), (TmemCoord{64, 16}));
  for (int64_t lane = 0; lane < 128; lane += 7)
    for (int64_t col = 0; col < 512; col += 13)
      EXPECT_EQ(*b.decodeTmemAddress(*b.tmemAddress(lane, col)),
                (TmemCoord{lane, col}));
  Expected<uint32_t> badLane = b.tmemAddress(128, 0);
  ASSERT_FALSE(badLane);
  EXPECT_EQ(badLane.error().message, "TMEM lane 128 is out of range [0, 128)");
  EXPECT_EQ(b.tmemAddress(0, 512).error().message,
            "TMEM column 512 is out of range [0, 512)");
  Expected<TmemCoord> bad = b.decodeTmemAddress(0x00800000u);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "TMEM address 0x00800000 has bits outside 0x007F01FF");
}

} // namespace
