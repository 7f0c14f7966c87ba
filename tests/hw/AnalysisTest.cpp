//===- AnalysisTest.cpp - Costs of a warp's memory access -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected values: docs/hardware.md §1.3 (wavefront table), §7 (sectors and
// lines) and the (8,64) float16 bank example of docs/design.md §6.3;
// derivations beside
// each test.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Analysis.h"

#include "layoutkit/tile/SwizzleLayout.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

namespace lk::hw {
namespace {

tile::TileLayout tileOf(const std::string &text) {
  auto t = tile::parseTileLayout(text);
  EXPECT_TRUE(t) << t.error().render();
  return *t;
}

tile::MemoryLayout memoryOf(const std::string &text) {
  Expected<tile::MemoryLayout> m = Diagnostic::error("unparsed");
  if (text.rfind("Swizzle", 0) == 0)
    m = tile::MemoryLayout::of(*tile::parseSwizzledTileLayout(text));
  else
    m = tile::MemoryLayout::of(tileOf(text));
  EXPECT_TRUE(m) << m.error().message;
  return *m;
}

WarpAccess access(const std::string &distributed, const std::string &memory,
                  int64_t bits, int64_t bytes) {
  return WarpAccess{tileOf(distributed), memoryOf(memory), bits, bytes};
}

TEST(Analysis, SpecColumnReadIsEightWayUnswizzled) {
  // Lane i holds row i of an (8,64) f16 tile, register r = column r; one
  // 2-byte access per column: lanes 0..7 at bytes 128 i -> bank 0 eight
  // times (8 wavefronts) for every column.
  WarpAccess a = access("S[(8,64):(1@laneid,1@m)]", "S[(8,64):(64,1)]", 16, 2);
  auto r = sharedAccess(a, Arch::Sm90);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->wavefronts.size(), 64u);
  for (int64_t w : r->wavefronts)
    EXPECT_EQ(w, 8);
  EXPECT_EQ(r->total, 512);
  EXPECT_EQ(r->minimum, 64);
  EXPECT_NE(r->explanation.find(
                "instruction 0: 8 wavefronts (minimum 1)\n"
                "  lanes 0-31: bank 0 serves 8 words: word 0 <- lane 0; "
                "word 32 <- lane 1;"),
            std::string::npos)
      << r->explanation;
}

TEST(Analysis, SpecColumnReadIsConflictFreeUnder128B) {
  // Swizzle(3,3,3): (i, j) at 64i + 8((j/8) xor i) + j mod 8, so column j
  // of the 8 rows lands in banks 4((j/8) xor i) + (j mod 8)/2: distinct.
  WarpAccess a = access("S[(8,64):(1@laneid,1@m)]",
                        "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]", 16, 2);
  auto r = sharedAccess(a, Arch::Sm90);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->total, 64);
  EXPECT_EQ(r->minimum, 64);
  EXPECT_EQ(r->explanation,
            "64 instructions of 2 bytes per lane: 64 wavefronts "
            "(conflict-free: 64)\n");
}

TEST(Analysis, WavefrontTableOfTheSheet) {
  // §1.3: 32-bit, lane i at 8 i -> 2 wavefronts (banks 0,2,..,30 twice).
  auto stride2 =
      sharedAccess(access("S[32:1@laneid]", "S[32:2]", 32, 4), Arch::Sm80);
  ASSERT_TRUE(stride2) << stride2.error().message;
  EXPECT_EQ(stride2->total, 2);
  // §1.3: 128-bit, lane i at 16 i -> 4 wavefronts, the minimum.
  auto vec = sharedAccess(
      access("S[(32,4):(1@laneid,1@m)]", "S[(32,4):(4,1)]", 32, 16),
      Arch::Sm80);
  ASSERT_TRUE(vec) << vec.error().message;
  EXPECT_EQ(vec->total, 4);
  EXPECT_EQ(vec->minimum, 4);
  // §1.3: 32-bit, lane i at 128 i -> 32 wavefronts.
  auto column =
      sharedAccess(access("S[32:1@laneid]", "S[32:32]", 32, 4), Arch::Sm100);
  ASSERT_TRUE(column);
  EXPECT_EQ(column->total, 32);
}

TEST(Analysis, SwizzledColumnsOf16BytesTakeOneWavefront) {
  // The general statement of docs/design.md §6.3 at the hardware level:
  // eight lanes (one quarter-warp
  // group of a 16-byte access) each read a 16-byte vector of the same
  // column of a tile whose rows are one swizzle row (32, 64 or 128 bytes);
  // any eight consecutive rows, any column: one wavefront, for 8-, 16- and
  // 32-bit elements. Unswizzled, 8 x width / 128 wavefronts.
  for (tile::SwizzleMode mode : {tile::SwizzleMode::B32, tile::SwizzleMode::B64,
                                 tile::SwizzleMode::B128})
    for (int64_t bits : {8, 16, 32}) {
      int64_t width = tile::swizzleModeBytes(mode);
      int64_t cols = width * 8 / bits, v = 128 / bits;
      auto sw = tile::SwizzleLayout::forDtype(bits, mode);
      ASSERT_TRUE(sw);
      std::string lanes = "S[(8," + std::to_string(v) + "):(1@laneid,1@m)]";
      for (int64_t first = 0; first + 8 <= 32; first += 3)
        for (int64_t c = 0; c < cols / v; ++c) {
          std::string tile = "S[(8," + std::to_string(v) + "):(" +
                             std::to_string(cols) + ",1)] + " +
                             std::to_string(first * cols + c * v) + "@m";
          auto r = sharedAccess(
              access(lanes, sw->str() + " o " + tile, bits, 16), Arch::Sm90);
          ASSERT_TRUE(r) << r.error().message;
          EXPECT_EQ(r->total, 1)
              << sw->str() << " rows " << first << ".. col " << c << "\n"
              << r->explanation;
          EXPECT_EQ(r->minimum, 1);
          auto plain = sharedAccess(access(lanes, tile, bits, 16), Arch::Sm90);
          ASSERT_TRUE(plain);
          EXPECT_EQ(plain->total, 8 * width / 128);
        }
    }
}

TEST(Analysis, LdmatrixRowsOfTheSheet) {
  // §1.3 / §3 [MODEL]: x4, row r of matrix j at byte 2048 j + 128 r: all
  // eight rows of a matrix in bank slot 0 -> 8 wavefronts each, 32 in all.
  // f16 memory with rows of 64 elements (128 B); matrix j starts at row 16j.
  tile::MemoryLayout plain = memoryOf("S[(64,64):(64,1)]");
  tile::MemoryLayout sw = memoryOf("Swizzle(M=3,B=3,S=3) o S[(64,64):(64,1)]");
  std::vector<int64_t> rows;
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t r = 0; r < 8; ++r)
      rows.push_back((16 * j + r) * 64); // element of byte 2048 j + 128 r
  auto p = matrixAccess(plain, 16, rows, Arch::Sm90);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->wavefronts, 32);
  EXPECT_EQ(p->minimum, 4);
  EXPECT_NE(p->explanation.find("matrix 0: lanes 0,1,2,3,4,5,6,7 share 16-byte "
                                "bank slot 0"),
            std::string::npos)
      << p->explanation;
  // Through the 128B swizzle row r's chunk moves to slot r: 4 wavefronts.
  auto s = matrixAccess(sw, 16, rows, Arch::Sm90);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->wavefronts, 4);
  EXPECT_EQ(s->explanation, "4 matrices: 4 wavefronts (conflict-free: 4)\n");
  // Rows must be 16 contiguous, aligned bytes.
  std::vector<int64_t> bad = rows;
  bad[3] += 4; // 8-byte aligned only
  EXPECT_FALSE(matrixAccess(plain, 16, bad, Arch::Sm90));
  EXPECT_FALSE(matrixAccess(plain, 16, std::span(rows).first(12), Arch::Sm90));
  tile::MemoryLayout columns = memoryOf("S[(64,64):(1,64)]");
  auto c = matrixAccess(columns, 16, rows, Arch::Sm90);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("is not 16 contiguous bytes"),
            std::string::npos);
}

TEST(Analysis, GlobalSectorsAndLines) {
  // §7: 4 B per lane at 4 + 4 i -> bytes 4..131: 5 sectors, 2 lines.
  auto r = globalAccess(access("S[32:1@laneid]", "S[32:1] + 1@m", 32, 4),
                        Arch::Sm90);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->perInstruction.size(), 1u);
  EXPECT_EQ(r->sectors, 5);
  EXPECT_EQ(r->lines, 2);
  // 32 x 4 B = 128 B fit 4 sectors: 5 is not coalesced.
  EXPECT_EQ(r->minimumSectors, 4);
  EXPECT_EQ(r->explanation,
            "instruction 0: 32 lanes x 4 B touch 5 sectors (at best 4) in 2 "
            "lines\n");
  // §7: 16 B per lane at 16 i -> 16 sectors, 4 lines.
  auto v = globalAccess(
      access("S[(32,4):(1@laneid,1@m)]", "S[(32,4):(4,1)]", 32, 16),
      Arch::Sm90);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->sectors, 16);
  EXPECT_EQ(v->lines, 4);
  // 32 x 16 B = 512 B = 16 sectors: the minimum, coalesced.
  EXPECT_EQ(v->minimumSectors, 16);
  // Register index m = 32 x row: 993 instructions (m = 0..992), of which
  // the 961 with m not a multiple of 32 hold no element. Each of the 32
  // others reads a row, 128 contiguous bytes: 4 sectors. The empty ones
  // touch nothing and cost nothing at best either: 128 of 128, coalesced.
  auto g = globalAccess(
      access("S[(32,32):(32@m,1@laneid)]", "S[(32,32):(32,1)]", 32, 4),
      Arch::Sm90);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(g->perInstruction.size(), 993u);
  EXPECT_EQ(g->sectors, 128);
  EXPECT_EQ(g->minimumSectors, 128);
  // A broadcast: lane l holds row l % 8 (four f32, 16 B at byte 16 (l % 8)),
  // so the 32 lanes read 8 x 16 = 128 distinct bytes, 4 sectors: the
  // minimum, coalesced, every byte of the sectors used (not 512 B asked
  // of 4 sectors, an efficiency of 4).
  auto b = globalAccess(access("S[(8,4):(1@laneid,1@m)] + R[4:8@laneid]",
                               "S[(8,4):(4,1)]", 32, 16),
                        Arch::Sm90);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->sectors, 4);
  EXPECT_EQ(b->minimumSectors, 4);
  EXPECT_EQ(b->requestedBytes, 128);
  EXPECT_DOUBLE_EQ(b->efficiency, 1.0);
  EXPECT_EQ(b->explanation, "instruction 0: 32 lanes x 16 B (128 distinct B) "
                            "touch 4 sectors (at best 4) in 1 lines\n");
}

TEST(Analysis, VectorWidthFollowsTheRegisters) {
  // Row-major (32,4) f32 with lane i holding row i: four consecutive
  // floats per lane, 16-byte aligned -> 16 B.
  auto row = vectorBytes(tileOf("S[(32,4):(1@laneid,1@m)]"),
                         memoryOf("S[(32,4):(4,1)]"), 32);
  ASSERT_TRUE(row) << row.error().message;
  EXPECT_EQ(*row, 16);
  // Column-major storage: a lane's registers are 32 elements apart -> 4 B.
  auto col = vectorBytes(tileOf("S[(32,4):(1@laneid,1@m)]"),
                         memoryOf("S[(32,4):(1,32)]"), 32);
  ASSERT_TRUE(col);
  EXPECT_EQ(*col, 4);
  // f16 pairs (m8n8 fragment: lane i holds (i/4, 2(i mod 4) + r)) of a
  // row-major 8x8 tile: 2 consecutive halves -> 4 B.
  auto pairs = vectorBytes(tileOf("S[(8,4,2):(4@laneid,1@laneid,1)]"),
                           memoryOf("S[(8,8):(8,1)]"), 16);
  ASSERT_TRUE(pairs);
  EXPECT_EQ(*pairs, 4);
  // A width of 0 bits (or over 1024) is refused before any division by it.
  for (int64_t bits : {int64_t(0), int64_t(-8), int64_t(2048)}) {
    auto none = vectorBytes(tileOf("S[(32,4):(1@laneid,1@m)]"),
                            memoryOf("S[(32,4):(4,1)]"), bits);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().message, "element width " + std::to_string(bits) +
                                        " bits is outside [1, 1024]");
  }
  // The failure says which lane and registers break the vector.
  auto bad = warpInstructions(
      access("S[(32,4):(1@laneid,1@m)]", "S[(32,4):(1,32)]", 32, 16));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(
                "lane 0 registers 0..3 hold elements at addresses 0, 32"),
            std::string::npos)
      << bad.error().message;
}

TEST(Analysis, ReplicationNamesTheHolders) {
  // S[16:1@laneid] + R[2:16@laneid]: element e in lanes e and e + 16.
  auto r = replication(tileOf("S[16:1@laneid] + R[2:16@laneid]"));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->replicated.size(), 16u);
  EXPECT_EQ(r->replicated[3].element, 3);
  EXPECT_EQ(r->replicated[3].holders,
            (std::vector<std::pair<int64_t, int64_t>>{{3, 0}, {19, 0}}));
  EXPECT_EQ(r->explanation.substr(0, r->explanation.find('\n')),
            "element 0 is held by lane 0 r0, lane 16 r0");
  auto none = replication(tileOf("S[(8,4,2):(4@laneid,1@laneid,1)]"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->replicated.empty());
  EXPECT_EQ(none->explanation, "no element is held twice in the warp\n");
  // Other warps (warpid != 0) are not part of the warp analysed.
  auto warps = replication(tileOf("S[(2,32):(1@warpid,1@laneid)]"));
  ASSERT_TRUE(warps);
  EXPECT_TRUE(warps->replicated.empty());
}

TEST(Analysis, RefusesWhatIsNotAWarpAccess) {
  EXPECT_FALSE(sharedAccess(access("S[64:1@laneid]", "S[64:1]", 32, 4),
                            Arch::Sm90)); // 64 lanes
  EXPECT_FALSE(sharedAccess(access("S[32:1@TLane]", "S[32:1]", 32, 4),
                            Arch::Sm100)); // no laneid
  EXPECT_FALSE(sharedAccess(access("S[32:1@laneid]", "S[32:1]", 32, 3),
                            Arch::Sm90)); // 3-byte access
  auto misaligned = sharedAccess(
      access("S[(32,2):(1@laneid,1@m)]", "S[(32,2):(2,1)] + 1@m", 16, 4),
      Arch::Sm90);
  ASSERT_FALSE(misaligned);
  EXPECT_NE(misaligned.error().message.find("not aligned to 4 bytes"),
            std::string::npos)
      << misaligned.error().message;
}

// Block-wide thread axes: warp 0 is threads 0..31, lane = tid mod 32
// (Analysis.h).

TEST(Analysis, TidWarpZeroIsTheLaneidLayoutItEncodes) {
  // S[(8,64):(1@tid,1@m)]: thread i holds row i, threads 0..7 all in warp
  // 0 as lanes 0..7: the same access as S[(8,64):(1@laneid,1@m)], so the
  // same counts (SpecColumnRead*: 512 wavefronts unswizzled at 2 B, 64
  // through the 128B swizzle).
  for (const char *thread : {"tid", "tid_in_wg"}) {
    std::string tid = std::string("S[(8,64):(1@") + thread + ",1@m)]";
    const std::pair<const char *, int64_t> memories[] = {
        {"S[(8,64):(64,1)]", 512},
        {"Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]", 64}};
    for (const auto &[memory, total] : memories) {
      auto byTid = sharedAccess(access(tid, memory, 16, 2), Arch::Sm90);
      auto byLane = sharedAccess(
          access("S[(8,64):(1@laneid,1@m)]", memory, 16, 2), Arch::Sm90);
      ASSERT_TRUE(byTid) << byTid.error().message;
      ASSERT_TRUE(byLane);
      EXPECT_EQ(byTid->wavefronts, byLane->wavefronts) << tid << memory;
      EXPECT_EQ(byTid->explanation, byLane->explanation);
      EXPECT_EQ(byTid->total, total);
      auto gTid = globalAccess(access(tid, memory, 16, 2), Arch::Sm90);
      auto gLane = globalAccess(
          access("S[(8,64):(1@laneid,1@m)]", memory, 16, 2), Arch::Sm90);
      ASSERT_TRUE(gTid && gLane);
      EXPECT_EQ(gTid->sectors, gLane->sectors);
      EXPECT_EQ(gTid->lines, gLane->lines);
    }
    auto v = vectorBytes(tileOf(tid), memoryOf("S[(8,64):(64,1)]"), 16);
    ASSERT_TRUE(v);
    EXPECT_EQ(*v, 16); // 8 consecutive halves of a row
  }
}

TEST(Analysis, TidWarpZeroHoldsOnlyItsOwnThreads) {
  // S[(8,16):(16@tid,1@m)]: row i to thread 16 i. Warp 0 = threads 0 and
  // 16 (rows 0 and 1) = lanes 0 and 16; rows 2..7 are warps 1..3. f32
  // row-major (16,1): a row is 16 consecutive floats, so 16-byte vectors:
  // 4 instructions, lane 0 at byte 16k, lane 16 at 64 + 16k, the other
  // lanes idle.
  WarpAccess a = access("S[(8,16):(16@tid,1@m)]", "S[(8,16):(16,1)]", 32, 16);
  auto v = vectorBytes(a.distributed, a.memory, 32);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, 16);
  auto w = warpInstructions(a);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->laneAddresses.size(), 4u);
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t l = 0; l < 32; ++l)
      EXPECT_EQ(w->laneAddresses[size_t(k)][size_t(l)], l == 0    ? 16 * k
                                                        : l == 16 ? 64 + 16 * k
                                                                  : -1);
  // 16-byte accesses go in quarter-warp groups of 8 lanes: lanes 0 and 16
  // are in groups 0 and 2, one wavefront each: 2 per instruction, the
  // minimum.
  auto s = sharedAccess(a, Arch::Sm90);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->wavefronts, (std::vector<int64_t>{2, 2, 2, 2}));
  EXPECT_EQ(s->minimum, 8);
  // Global: sectors k/2 and 2 + k/2 of line 0 per instruction.
  auto g = globalAccess(a, Arch::Sm90);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->sectors, 8);
  EXPECT_EQ(g->lines, 4);
  // The same strides on laneid would need lanes up to 112: refused.
  auto lane = sharedAccess(
      access("S[(8,16):(16@laneid,1@m)]", "S[(8,16):(16,1)]", 32, 16),
      Arch::Sm90);
  ASSERT_FALSE(lane);
  EXPECT_NE(lane.error().message.find("reaches laneid 112"), std::string::npos)
      << lane.error().message;
}

TEST(Analysis, TidBeyondTheFirstWarpIsLeftOut) {
  // S[(64,2):(1@tid,1@m)] on f32 row-major (64,2): thread t holds row t at
  // bytes 8t, 8t + 4. Only threads 0..31 are warp 0. At 4 B per access, 2
  // instructions; lane l at byte 8l (+4): word 2l (+1), bank 2l mod 32, so
  // lanes l and l + 16 ask one bank for two words: 2 wavefronts each.
  // Thread 32 (word 64, bank 0 again) would make 3 if it were counted.
  WarpAccess a = access("S[(64,2):(1@tid,1@m)]", "S[(64,2):(2,1)]", 32, 4);
  auto s = sharedAccess(a, Arch::Sm90);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->wavefronts, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(s->minimum, 2);
  EXPECT_NE(s->explanation.find("  lanes 0-31: bank 0 serves 2 words: word 0 "
                                "<- lane 0; word 32 <- lane 16\n"),
            std::string::npos)
      << s->explanation;
  // 8 B: half-warp groups, each 16 lanes x 8 B = 128 consecutive bytes:
  // one wavefront per group.
  auto v = vectorBytes(a.distributed, a.memory, 32);
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, 8);
  a.accessBytes = 8;
  auto s8 = sharedAccess(a, Arch::Sm90);
  ASSERT_TRUE(s8);
  EXPECT_EQ(s8->total, 2);
  // Replication counts warp 0 only: S[64:1@tid] + R[2:32@tid] puts
  // element e on threads e and e + 32, never twice in warp 0; with
  // R[2:16@tid] on 32 elements, elements 0..15 sit on lanes e and e + 16
  // (elements 16..31 on threads 32..47 for their second copy).
  auto once = replication(tileOf("S[64:1@tid] + R[2:32@tid]"));
  ASSERT_TRUE(once) << once.error().message;
  EXPECT_TRUE(once->replicated.empty());
  auto twice = replication(tileOf("S[32:1@tid] + R[2:16@tid]"));
  ASSERT_TRUE(twice);
  ASSERT_EQ(twice->replicated.size(), 16u);
  EXPECT_EQ(twice->replicated[15].holders,
            (std::vector<std::pair<int64_t, int64_t>>{{15, 0}, {31, 0}}));
}

TEST(Analysis, RefusesTwoLaneAxesOrNone) {
  auto both = sharedAccess(
      access("S[(32,2):(1@laneid,32@tid)]", "S[(32,2):(2,1)]", 32, 4),
      Arch::Sm90);
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("names both laneid and tid"),
            std::string::npos)
      << both.error().message;
  auto none =
      sharedAccess(access("S[32:1@warpid]", "S[32:1]", 32, 4), Arch::Sm90);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("has no lane axis"), std::string::npos)
      << none.error().message;
  // tid already counts warps (tid = 32 warpid + laneid), and so does
  // tid_in_wg within its warpgroup: either with warpid, or with each other,
  // names a thread twice.
  for (const char *twice :
       {"S[(32,2):(1@tid,1@warpid)]", "S[(32,2):(1@tid_in_wg,32@tid)]"}) {
    auto r = sharedAccess(access(twice, "S[(32,2):(2,1)]", 32, 4), Arch::Sm90);
    ASSERT_FALSE(r) << twice;
    EXPECT_NE(r.error().message.find("names both"), std::string::npos)
        << r.error().message;
  }
  // Threads 32..63 only: warp 0 holds nothing.
  auto empty = sharedAccess(access("S[32:1@tid] + 32@tid", "S[32:1]", 32, 4),
                            Arch::Sm90);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("holds no element"), std::string::npos)
      << empty.error().message;
}

// The analysis evaluates every element to find warp 0's, so a layout over
// more than 2^20 elements is refused before any work: 2^20 threads x 2^12
// registers here (2^32 elements).
TEST(Analysis, RefusesLayoutsBeyondItsBound) {
  auto big = sharedAccess(access("S[(1048576,4096):(1@tid,1@m)]",
                                 "S[(1048576,4096):(4096,1)]", 32, 4),
                          Arch::Sm90);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("at most 1048576 points are analysed"),
            std::string::npos)
      << big.error().message;
  // Replicas count: 512 elements x 2^62 warps is refused before any work
  // (the product overflows), 512 x 4096 = 2^21 points too; 512 x 2048 =
  // 2^20 is analysed.
  const char *mem = "S[(8,64):(64,1)]";
  for (const char *warps : {"4611686018427387904", "4096"}) {
    std::string d =
        std::string("S[(8,64):(1@laneid,1@m)] + R[") + warps + ":1@warpid]";
    auto r = replication(tileOf(d));
    ASSERT_FALSE(r) << d;
    EXPECT_NE(r.error().message.find("512 elements x " + std::string(warps) +
                                     " replicas"),
              std::string::npos)
        << r.error().message;
  }
  EXPECT_TRUE(sharedAccess(
      access("S[(8,64):(1@laneid,1@m)] + R[2048:1@warpid]", mem, 16, 2),
      Arch::Sm90));
}

} // namespace
} // namespace lk::hw
