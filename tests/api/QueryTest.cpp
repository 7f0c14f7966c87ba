//===- QueryTest.cpp - evaluate, owners, holders, banks, values -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Query.h"

#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

namespace lk::api {
namespace {

using tile::Axis;
using tile::AxisValue;

IntTuple intTuple(std::string_view t) { return *cute::parseIntTuple(t); }

tile::SwizzledTileLayout tileOf(std::string_view text) {
  return tile::SwizzledTileLayout(tile::SwizzleLayout(),
                                  *tile::parseTileLayout(text));
}

/// The m8n8 fragment: x = 8 i0 + 2 i1 + i2 over (8,4,2) -> laneid 4 i0 + i1,
/// m = i2.
constexpr const char *kFragment = "S[(8,4,2):(4@laneid,1@laneid,1)]";

TEST(ApiQuery, CheckWork) {
  EXPECT_TRUE(checkWork("offsets", 1 << 12, 1 << 12, kMaxArrayValues));
  Status over = checkWork("offsets", kMaxArrayValues + 1, 1, kMaxArrayValues);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().message,
            "offsets: 16777217 elements x 1 values exceed the limit of "
            "16777216 values");
  // 2^40 x 2^40 overflows int64: refused, not wrapped to a small count.
  EXPECT_FALSE(
      checkWork("eval", int64_t(1) << 40, int64_t(1) << 40, kMaxArrayValues));
}

TEST(ApiQuery, ParseInteger) {
  EXPECT_EQ(*parseInteger(" -12 "), -12);
  EXPECT_EQ(*parseInteger("+7"), 7);
  EXPECT_EQ(parseInteger("12x").error().message,
            "unexpected character after integer");
  EXPECT_EQ(parseInteger("99999999999999999999").error().message,
            "integer does not fit in 64 bits");
  EXPECT_FALSE(parseInteger("  ").hasValue());
}

TEST(ApiQuery, EvaluateCute) {
  // Sw<3,4,3> xors bits 7-9 into bits 4-6: (2,0) -> 128 -> 128 ^ 16 = 144.
  cute::ComposedLayout sw =
      *cute::parseComposedLayout("Sw<3,4,3> o (8,64):(64,1)");
  EXPECT_EQ(*evaluate(sw, intTuple("(2,0)")), IntTuple(144));
  // Basis strides give the codomain tuple.
  cute::ComposedLayout basis;
  basis.layout = *cute::parseLayout("(4,8):(1@0,1@1)");
  EXPECT_EQ(*evaluate(basis, intTuple("(2,5)")), intTuple("(2,5)"));
  basis.swizzle = sw.swizzle;
  EXPECT_FALSE(evaluate(basis, intTuple("(2,5)")).hasValue());
}

TEST(ApiQuery, Tabulate) {
  cute::ComposedLayout c;
  c.layout = *cute::parseLayout("(2,3):(3,1)");
  Expected<OffsetTable> t = tabulate(c);
  ASSERT_TRUE(t.hasValue());
  EXPECT_EQ(t->title, "(2,3):(3,1)");
  EXPECT_EQ(t->rows, 2);
  EXPECT_EQ(t->cols, 3);
  EXPECT_EQ(t->at(1, 2), IntTuple(5)); // 3 * 1 + 1 * 2
  c.layout = *cute::parseLayout("(2,2,2):(1,2,4)");
  Expected<OffsetTable> rank3 = tabulate(c);
  ASSERT_FALSE(rank3.hasValue());
  EXPECT_NE(rank3.error().notes.front().find("group_modes"), std::string::npos);
  // Grouped: modes 1 and 2 across, colexicographic: column c = c1 + 2 c2
  // holds 2 c1 + 4 c2 = 2c, so cell (r, c) = r + 2c.
  Expected<OffsetTable> grouped = tabulateGrouped(c);
  ASSERT_TRUE(grouped.hasValue());
  EXPECT_EQ(grouped->title, "(2,2,2):(1,2,4)");
  EXPECT_EQ(grouped->rows, 2);
  EXPECT_EQ(grouped->cols, 4);
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t col = 0; col < 4; ++col)
      EXPECT_EQ(grouped->at(r, col), IntTuple(r + 2 * col)) << r << "," << col;
  EXPECT_EQ(grouped->grouping, "modes 1..2 grouped across (mode 1 fastest)");
  // Rank <= 2 is tabulate's table, no grouping.
  c.layout = *cute::parseLayout("(2,3):(3,1)");
  EXPECT_EQ(tabulateGrouped(c)->grouping, "");
  EXPECT_EQ(tabulateGrouped(c)->at(1, 2), IntTuple(5));
}

TEST(ApiQuery, TileShapeAndIndex) {
  tile::TileLayout t = *tile::parseTileLayout(kFragment);
  EXPECT_EQ(*tileShape(intTuple("(8,8)"), t), (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(*tileShape(intTuple("64"), t), (std::vector<int64_t>{64}));
  EXPECT_FALSE(tileShape(intTuple("(8,(2,4))"), t).hasValue());
  EXPECT_FALSE(
      tileShape(intTuple("(3,5)"), t).hasValue()); // 15 elements, not 64
  const std::vector<int64_t> shape = {8, 8};
  EXPECT_EQ(*tileIndex(intTuple("(1,2)"), t, shape), 10); // row-major 8 * 1 + 2
  EXPECT_EQ(*tileIndex(intTuple("9"), t, shape), 9);
  EXPECT_FALSE(tileIndex(intTuple("70"), t, shape).hasValue());
  EXPECT_FALSE(tileIndex(intTuple("((1,2),3)"), t, shape).hasValue());
  // A rank-1 mode is a tuple too: ((1),2) is no flat coordinate.
  EXPECT_EQ(tileIndex(intTuple("((1),2)"), t, shape).error().message,
            "a coordinate is a flat tuple, e.g. (7,15); got ((1),2)");
}

TEST(ApiQuery, OwnersAndHolders) {
  tile::SwizzledTileLayout t = tileOf(kFragment);
  // x = 9: i0 = 1, i1 = 0, i2 = 1 -> laneid 4, m 1.
  std::vector<Owner> o = owners(t, 9);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].owner, (std::vector<AxisValue>{{Axis::laneid(), 4}}));
  EXPECT_EQ(o[0].at, (std::vector<AxisValue>{{Axis::m(), 1}}));
  // Lane 4 holds i0 = 1, i1 = 0, both i2: x = 8 and 9.
  std::vector<AxisValue> lane4 = {{Axis::laneid(), 4}};
  EXPECT_EQ(*holders(t, lane4), (std::vector<int64_t>{8, 9}));
  // A replica: two owners.
  std::vector<Owner> two =
      owners(tileOf("S[(4):(1@laneid)] + R[2:4@laneid]"), 3);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].owner[0].value, 3);
  EXPECT_EQ(two[1].owner[0].value, 7);
  // Swizzled: refused.
  tile::SwizzledTileLayout sw =
      *tile::parseSwizzledTileLayout("Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]");
  EXPECT_FALSE(holders(sw, lane4).hasValue());
}

TEST(ApiQuery, TileMapListsEveryPointAndTheFirstPointsThread) {
  // S[(2,2):(1@warpid,1@laneid)]: x = 2 w + l (the last iter fastest)
  // holds (warpid w, laneid l), thread 32 w + l.
  const tile::SwizzledTileLayout l = tileOf("S[(2,2):(1@warpid,1@laneid)]");
  auto map = tileMap(l, 4, "test");
  ASSERT_TRUE(map) << map.error().message;
  ASSERT_EQ(map->axes.size(), 2u);
  EXPECT_EQ(map->axes[0], tile::Axis::warpid());
  EXPECT_EQ(map->replicas, 1);
  EXPECT_EQ(map->coords, (std::vector<int64_t>{0, 0, 0, 1, 1, 0, 1, 1}));
  EXPECT_EQ(map->threads, (std::vector<int64_t>{0, 1, 32, 33}));
  EXPECT_EQ(map->point(2, 0)[0], 1);
  // A replica doubles the points: 4 elements x 2 replicas > 7.
  const tile::SwizzledTileLayout r = tileOf("S[4:1@laneid] + R[2:1@warpid]");
  auto refused = tileMap(r, 7, "the map");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("the map: 4 elements x 2 values"),
            std::string::npos)
      << refused.error().message;
  auto both = tileMap(r, 8, "the map");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->coords, (std::vector<int64_t>{0, 0, 0, 1, 1, 0, 1, 1, 2, 0, 2,
                                                1, 3, 0, 3, 1}));
}

TEST(ApiQuery, LinearGridListsTheInputsOfEachCell) {
  // x = register + 2 lane: register -> (0,1), lane -> (1,0), so x lands on
  // (lane, register), cell lane * 2 + register.
  auto l = linear::parseLinearLayout(
      "{register: [(0,1)], lane: [(1,0)]} -> {dim0: 2, dim1: 2}");
  ASSERT_TRUE(l) << l.error().message;
  auto g = linearGrid(*l, 4);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(g->rows, 2);
  EXPECT_EQ(g->cols, 2);
  EXPECT_EQ(g->holders,
            (std::vector<std::vector<int64_t>>{{0}, {1}, {2}, {3}}));
  // A broadcast lane bit: lanes 0 and 2 (x and x + 4) share each cell.
  auto b = linear::parseLinearLayout(
      "{register: [(1)], lane: [(2), (0)]} -> {dim0: 4}");
  ASSERT_TRUE(b) << b.error().message;
  auto gb = linearGrid(*b, 8);
  ASSERT_TRUE(gb) << gb.error().message;
  EXPECT_EQ(gb->rows, 1);
  EXPECT_EQ(gb->holders, (std::vector<std::vector<int64_t>>{
                             {0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  // Refused before any work: 8 inputs over a limit of 7; three out dims.
  EXPECT_FALSE(linearGrid(*b, 7));
  auto three = linear::parseLinearLayout(
      "{register: [(1,0,0)]} -> {dim0: 2, dim1: 2, dim2: 2}");
  ASSERT_TRUE(three) << three.error().message;
  auto refused = linearGrid(*three, 8);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("one or two output dims"),
            std::string::npos);
}

TEST(ApiQuery, LinearThreadIsLanePlus32Warp) {
  // in-dims register, lane, warp, block with 4 warps: register 1, lane 3,
  // warp 1, block 1 -> 3 + 32 + 32 * 4 = 163.
  auto l = linear::parseLinearLayout(
      "{register: [(1)], lane: [(2), (4), (8), (16), (32)], warp: [(64), "
      "(128)], block: [(256)]} -> {dim0: 512}");
  ASSERT_TRUE(l) << l.error().message;
  std::vector<int64_t> in{1, 3, 1, 1};
  EXPECT_EQ(*linearThread(*l, in), 163);
  std::vector<int64_t> lane5{0, 5, 0, 0};
  EXPECT_EQ(*linearThread(*l, lane5), 5);
  // A shared-memory layout (offset -> dim0) has no thread: refused, not 0.
  auto smem = linear::parseLinearLayout("{offset: [(1), (2)]} -> {dim0: 4}");
  ASSERT_TRUE(smem) << smem.error().message;
  std::vector<int64_t> off1{1};
  auto refused = linearThread(*smem, off1);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("'offset' of size 4"),
            std::string::npos)
      << refused.error().message;
}

TEST(ApiQuery, ThreadIndex) {
  // 32 lanes per warp, 4 warps (128 threads) per warpgroup:
  // lane 4 of warp 2 is 4 + 2*32 = 68; thread 5 of warpgroup 1 is 133.
  const std::vector<AxisValue> lw = {{Axis::laneid(), 4}, {Axis::warpid(), 2}};
  EXPECT_EQ(*threadIndex(lw), 68);
  const std::vector<AxisValue> wg = {{Axis::tid_in_wg(), 5}, {Axis::wgid(), 1}};
  EXPECT_EQ(*threadIndex(wg), 133);
  const std::vector<AxisValue> tid = {{Axis::tid(), 77}};
  EXPECT_EQ(*threadIndex(tid), 77);
  // The CTA, the device and a memory slot number no thread.
  const std::vector<AxisValue> other = {{Axis::cta(), 3}, {Axis::m(), 7}};
  EXPECT_EQ(*threadIndex(other), 0);
  EXPECT_EQ(threadWeight(Axis::pid()), 0);
  // The owners of element 9 of the fragment: lane 4 -> thread 4.
  EXPECT_EQ(*threadIndex(owners(tileOf(kFragment), 9)[0].owner), 4);
  // The formula names the terms of the axes given, in their order.
  const Axis wl[] = {Axis::warpid(), Axis::laneid(), Axis::m()};
  EXPECT_EQ(threadFormula(wl), "32 warpid + laneid");
  const Axis wgAxes[] = {Axis::tid_in_wg(), Axis::wgid()};
  EXPECT_EQ(threadFormula(wgAxes), "tid_in_wg + 128 wgid");
  const Axis none[] = {Axis::m(), Axis::cta()};
  EXPECT_EQ(threadFormula(none), "");
  // 2^58 warps overflow int64 at x 32.
  const std::vector<AxisValue> huge = {{Axis::warpid(), int64_t(1) << 58}};
  Expected<int64_t> o = threadIndex(huge);
  ASSERT_FALSE(o.hasValue());
  EXPECT_NE(o.error().message.find("the thread number"), std::string::npos);
}

TEST(ApiQuery, TvGrid) {
  // (2,2):(1,2): tv(t, v) = t + 2v, the cell (t, v) of a 2 x 2 tile.
  const int64_t square[] = {2, 2};
  Expected<TvGrid> g = tvGrid(*cute::parseLayout("(2,2):(1,2)"), square);
  ASSERT_TRUE(g.hasValue()) << g.error().message;
  EXPECT_EQ(g->threads, 2);
  EXPECT_EQ(g->values, 2);
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 2; ++c)
      EXPECT_EQ(g->holders[size_t(r * 2 + c)], (std::vector<TvPair>{{r, c}}));
  // (2,2):(1,0): both values of thread t are index t, cell (t, 0) of a
  // 2 x 1 tile; thread-major order.
  const int64_t column[] = {2};
  Expected<TvGrid> b = tvGrid(*cute::parseLayout("(2,2):(1,0)"), column);
  ASSERT_TRUE(b.hasValue()) << b.error().message;
  EXPECT_EQ(b->holders[1], (std::vector<TvPair>{{1, 0}, {1, 1}}));
  // Index 3 (thread 1, value 1) is outside a tile of 3 elements.
  const int64_t three[] = {3};
  Expected<TvGrid> out = tvGrid(*cute::parseLayout("(2,2):(1,2)"), three);
  ASSERT_FALSE(out.hasValue());
  EXPECT_EQ(out.error().message, "thread 1, value 1 maps to index 3, outside "
                                 "the shape's 3 elements");
  const int64_t huge[] = {100000, 100000};
  Expected<TvGrid> big = tvGrid(*cute::parseLayout("(2,2):(1,2)"), huge);
  ASSERT_FALSE(big.hasValue());
  EXPECT_NE(big.error().message.find("100000 rows x 100000 columns = "
                                     "10000000000 cells; the view draws at "
                                     "most 65536 cells"),
            std::string::npos);
  EXPECT_FALSE(
      tvGrid(*cute::parseLayout("(2,2,2):(1,2,4)"), square).hasValue());
  const int64_t rank3[] = {2, 2, 2};
  EXPECT_FALSE(tvGrid(*cute::parseLayout("(2,2):(1,2)"), rank3).hasValue());
}

TEST(ApiQuery, AxisValues) {
  Expected<std::vector<AxisValue>> w = parseAxisValues("laneid=3, warpid = 1");
  ASSERT_TRUE(w.hasValue()) << w.error().message;
  EXPECT_EQ(*w,
            (std::vector<AxisValue>{{Axis::laneid(), 3}, {Axis::warpid(), 1}}));
  Expected<std::vector<AxisValue>> twice = parseAxisValues("laneid=3,laneid=4");
  ASSERT_FALSE(twice.hasValue());
  EXPECT_EQ(twice.error().message, "axis laneid is given twice");
  ASSERT_TRUE(twice.error().range.has_value());
  EXPECT_EQ(twice.error().range->begin.column, 10u); // the second name
  // A value is read as every integer is: 0x hex too.
  EXPECT_EQ(parseAxisValues("laneid=0x1f")->at(0).value, 31);
  EXPECT_FALSE(parseAxisValues("laneid=5x").hasValue());
  EXPECT_FALSE(parseAxisValues("laneid").hasValue());
  // An unknown axis: the caret under it and the note of the known axes.
  Expected<std::vector<AxisValue>> unknown = parseAxisValues("laneid=1,lnae=1");
  ASSERT_FALSE(unknown.hasValue());
  EXPECT_EQ(unknown.error().message, "unknown axis 'lnae'");
  EXPECT_EQ(unknown.error().range->begin.column, 10u);
  ASSERT_EQ(unknown.error().notes.size(), 1u);
  EXPECT_EQ(unknown.error().notes[0].rfind("known axes: m, laneid, ", 0), 0u)
      << unknown.error().notes[0];
  EXPECT_FALSE(parseAxisValues("laneid=-1").hasValue());
  EXPECT_FALSE(parseAxisValues("").hasValue());
  // 2^66 does not fit: said as such, the caret under the whole value.
  Expected<std::vector<AxisValue>> big =
      parseAxisValues("laneid=73786976294838206464");
  ASSERT_FALSE(big.hasValue());
  EXPECT_NE(big.error().message.find("(the value of axis laneid)"),
            std::string::npos)
      << big.error().message;
  ASSERT_TRUE(big.error().range.has_value());
  EXPECT_EQ(big.error().range->begin.column, 8u);
  EXPECT_EQ(big.error().range->end.offset - big.error().range->begin.offset,
            20u);
}

TEST(ApiQuery, HoldersRefuseANegativeAxisValue) {
  // Front ends that build AxisValues themselves (Python's keywords) get
  // the same refusal as the text reader.
  Expected<std::vector<int64_t>> h =
      holders(tileOf("S[(8,4,2):(4@laneid,1@laneid,1)]"),
              std::vector<AxisValue>{{Axis::laneid(), -1}});
  ASSERT_FALSE(h.hasValue());
  EXPECT_EQ(h.error().message,
            "expected a non-negative value for axis laneid, got -1");
}

TEST(ApiQuery, BanksOfAColumnRead) {
  // 8 rows of 64 f16 = 128 B each: column 0 of every row is in bank 0.
  tile::SwizzledTileLayout rows = tileOf("S[(8,64):(64,1)]");
  tile::MemoryLayout plain = *memoryLayout(rows, 16);
  ColumnRead read;
  read.rows = 8;
  read.cols = 64;
  EXPECT_EQ(laneCount(read), 8); // min(8, 32)
  Expected<tile::BankConflicts> c = columnConflicts(plain, 16, read);
  ASSERT_TRUE(c.hasValue()) << c.error().message;
  EXPECT_EQ(c->ways, 8);
  // The 128-byte swizzle for f16 (Swizzle(M=3,B=3,S=3)) moves row r's 16-B
  // chunk 0 to chunk r: all 8 in different banks.
  Expected<tile::MemoryLayout> swizzled = memoryLayout(rows, 16, "128B");
  ASSERT_TRUE(swizzled.hasValue()) << swizzled.error().message;
  EXPECT_EQ(swizzled->str(), tile::MemoryLayout::of(
                                 *tile::parseSwizzledTileLayout(
                                     "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]"))
                                 ->str());
  EXPECT_EQ(columnConflicts(*swizzled, 16, read)->ways, 1);
  // Already swizzled: a second swizzle is refused.
  Expected<tile::MemoryLayout> again = memoryLayout(
      *tile::parseSwizzledTileLayout("Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]"),
      16, "128B");
  ASSERT_FALSE(again.hasValue());
  EXPECT_NE(again.error().message.find("already has a swizzle"),
            std::string::npos);
  read.rows = 64;
  EXPECT_EQ(laneCount(read), 32);
  read.lanes = 4;
  EXPECT_EQ(laneCount(read), 4);
  // A tile shape the layout does not admit is refused (size 256, not 512).
  read.rows = 8;
  read.cols = 32;
  EXPECT_EQ(columnConflicts(plain, 16, read).error().message,
            "shape (8,32) of size 256 is not admitted by a layout of size 512 "
            "(the product of the shard extents)");
}

TEST(ApiQuery, DimValues) {
  linear::LinearLayout l = *linear::parseLinearLayout(
      "{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]} -> "
      "{dim0: 8, dim1: 8}");
  EXPECT_EQ(*parseDimValues("lane=5", l), (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(*parseDimValues(" register = 1 ,lane=2", l),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(*parseDimValues("", l), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(parseDimValues("reg=1", l).error().message,
            "the layout has no in-dim 'reg' (its in-dims: register, lane)");
  EXPECT_FALSE(parseDimValues("lane", l).hasValue());
  EXPECT_FALSE(parseDimValues("lane=x", l).hasValue());
  // A comma ends a pair, so one at the end is a missing pair (caret at
  // column 8, past the text), not a silently accepted one.
  auto trailing = parseDimValues("lane=5,", l);
  ASSERT_FALSE(trailing.hasValue());
  EXPECT_EQ(trailing.error().message, "expected dim=value after ','");
  EXPECT_EQ(trailing.error().range->begin.column, 8u);
  // A dim given twice: the caret at the second (offset 7 of the text).
  auto twice = parseDimValues("lane=1, lane=2", l);
  ASSERT_FALSE(twice.hasValue());
  EXPECT_EQ(twice.error().message,
            "in-dim 'lane' is given twice (first at column 1)");
  ASSERT_TRUE(twice.error().range.has_value());
  EXPECT_EQ(twice.error().range->begin.column, 9u);
  EXPECT_EQ(twice.error().range->end.column, 13u);
  // 2^64 does not fit: said so, the caret under the value (columns 6..25).
  auto wide = parseDimValues("lane=18446744073709551616", l);
  ASSERT_FALSE(wide.hasValue());
  EXPECT_EQ(wide.error().message, "the value for lane does not fit in 64 bits");
  ASSERT_TRUE(wide.error().range.has_value());
  EXPECT_EQ(wide.error().range->begin.column, 6u);
  EXPECT_EQ(wide.error().range->end.column, 26u);
  EXPECT_EQ(parseDimValues("lane=x", l).error().message,
            "expected an integer value for lane");
  // lane has 5 bases: values 0..31; 32 and -1 are refused at the value.
  EXPECT_EQ(*parseDimValues("lane=31", l), (std::vector<int64_t>{0, 31}));
  auto past = parseDimValues("register=1,lane=32", l);
  ASSERT_FALSE(past.hasValue());
  EXPECT_EQ(past.error().message,
            "value 32 is outside in-dim 'lane' of size 32");
  ASSERT_TRUE(past.error().range.has_value());
  EXPECT_EQ(past.error().range->begin.column, 17u);
  EXPECT_EQ(past.error().range->end.column, 19u);
  EXPECT_FALSE(parseDimValues("register=-1", l).hasValue());
  EXPECT_FALSE(parseDimValues("register=2", l).hasValue());
}

// Values by name (Python's apply): any order, dims left out 0; a name the
// layout lacks, or given twice, fails (the last value does not win).
TEST(ApiQuery, InputsByName) {
  linear::LinearLayout l = *linear::parseLinearLayout(
      "{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]} -> "
      "{dim0: 8, dim1: 8}");
  using Given = std::vector<std::pair<std::string, int64_t>>;
  EXPECT_EQ(*inputsByName(l, Given{{"lane", 5}}), (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(*inputsByName(l, Given{{"lane", 5}, {"register", 1}}),
            (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(*inputsByName(l, Given{}), (std::vector<int64_t>{0, 0}));
  auto twice = inputsByName(l, Given{{"lane", 1}, {"lane", 2}});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message, "in-dim 'lane' is given twice");
  auto absent = inputsByName(l, Given{{"warp", 0}});
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().message,
            "the layout has no in-dim 'warp' (its in-dims: register, lane)");
}

// One bound on elements x replicas: the replica count is the product of
// every replica iter's extent (two iters of 128 and 256: 2^15).
TEST(TilePointBound, CountsEveryReplicaIter) {
  tile::TileLayout one = *tile::parseTileLayout("S[4:1]");
  EXPECT_EQ(*tilePointBound(one, 4, "x"), 4);
  tile::TileLayout two =
      *tile::parseTileLayout("S[4:1] + R[128:1@warpid] + R[256:1@laneid]");
  EXPECT_EQ(*tilePointBound(two, 2, "x"), int64_t(1) << 16); // at the limit
  auto over = tilePointBound(two, 3, "tile show");
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().message,
            "tile show would enumerate 98304 points (3 elements x 32768 "
            "replicas); the limit is 65536 points");
  // elements x replicas past int64.
  tile::TileLayout huge =
      *tile::parseTileLayout("S[4:1] + R[4611686018427387904:1@warpid]");
  auto wrap = tilePointBound(huge, 4, "eval");
  ASSERT_FALSE(wrap);
  EXPECT_NE(wrap.error().message.find("more than 2^63 points"),
            std::string::npos);
}

// holders starts its search once per replica: 2^23 replicas (more than
// kMaxHolderVisits = 2^22) are refused before any is listed; 2^20 are
// searched (m = 1 is element 1 in every replica, reported once).
TEST(ApiQuery, HoldersBoundsTheReplicas) {
  AxisValue m1[] = {{Axis::m(), 1}};
  auto many = holders(tileOf("S[4:1] + R[8388608:1@warpid]"), m1);
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().message,
            "the search for the elements held starts once per replica; the "
            "layout has 8388608 replicas, more than 4194304 (the limit of "
            "holders)");
  EXPECT_EQ(*holders(tileOf("S[4:1] + R[1048576:1@warpid]"), m1),
            (std::vector<int64_t>{1}));
}

} // namespace
} // namespace lk::api

namespace {

// mma.m16n8k16 C fragment (16 x 8): value v of thread t is at row
// t/4 + 8*(v/2), column 2*(t%4) + v%2, each element held once.
TEST(ApiAtomGrid, MmaAccumulatorCells) {
  lk::Expected<const lk::hw::Atom *> a = lk::hw::findAtom("mma.m16n8k16.f16.C");
  ASSERT_TRUE(a.hasValue()) << a.error().message;
  lk::Expected<lk::api::TvGrid> g = lk::api::atomGrid(**a);
  ASSERT_TRUE(g.hasValue()) << g.error().message;
  EXPECT_EQ(g->rows, 16);
  EXPECT_EQ(g->cols, 8);
  EXPECT_EQ(g->threads, 32);
  EXPECT_EQ(g->values, 4);
  using P = std::vector<lk::api::TvPair>;
  EXPECT_EQ(g->holders[0 * 8 + 0], (P{{0, 0}}));
  EXPECT_EQ(g->holders[0 * 8 + 1], (P{{0, 1}}));
  EXPECT_EQ(g->holders[8 * 8 + 0], (P{{0, 2}}));
  EXPECT_EQ(g->holders[1 * 8 + 6], (P{{7, 0}}));   // t=7: row 1, col 6
  EXPECT_EQ(g->holders[15 * 8 + 7], (P{{31, 3}})); // t=31, v=3
  for (const P &cell : g->holders)
    EXPECT_EQ(cell.size(), 1u);
}

} // namespace

namespace {

lk::IntTuple tup(std::string_view text) {
  return *lk::cute::parseIntTuple(text);
}

// c = (idx / d) % s per leaf: 13 over (4,8):(1,4) -> (13 % 4, (13/4) % 8).
TEST(ApiIdx2crd, StridedLeaves) {
  EXPECT_EQ(lk::api::idx2crd(tup("13"), tup("(4,8)"), tup("(1,4)"))->str(),
            "(1,3)");
  // An index tuple goes mode by mode: (5 / 2) % 3 = 2, (7 / 1) % 4 = 3.
  EXPECT_EQ(lk::api::idx2crd(tup("(5,7)"), tup("(3,4)"), tup("(2,1)"))->str(),
            "(2,3)");
  // C++ division truncates: -7 / 2 = -3, -3 % 4 = -3.
  EXPECT_EQ(lk::api::idx2crd(tup("-7"), tup("4"), tup("2"))->str(), "-3");
  EXPECT_EQ(
      lk::api::idx2crd(tup("1"), tup("(4,8)"), tup("4")).error().message,
      "idx2crd(1, (4,8), 4): the index, shape and stride are not congruent");
  EXPECT_EQ(lk::api::idx2crd(tup("1"), tup("4"), tup("0")).error().message,
            "idx2crd(1, 4, 0): strides must be nonzero and shapes positive");
  EXPECT_FALSE(lk::api::idx2crd(lk::IntTuple(INT64_MIN), tup("4"), tup("-1"))
                   .hasValue());
}

TEST(ApiOffsets, EveryIndexInOrder) {
  // (2,2):(2,1): i = 0..3 -> 0, 2, 1, 3.
  lk::cute::ComposedLayout plain{{}, 0, *lk::cute::parseLayout("(2,2):(2,1)")};
  EXPECT_EQ(*lk::api::offsets(plain), (std::vector<int64_t>{0, 2, 1, 3}));
  // Sw<1,0,1> o 1 o 4:1: x ^ ((x >> 1) & 1) of 1, 2, 3, 4 -> 1, 3, 2, 4.
  lk::cute::ComposedLayout sw{{1, 0, 1}, 1, *lk::cute::parseLayout("4:1")};
  EXPECT_EQ(*lk::api::offsets(sw), (std::vector<int64_t>{1, 3, 2, 4}));
  lk::cute::ComposedLayout basis{
      {}, 0, *lk::cute::parseLayout("(2,2):(1@0,1@1)")};
  EXPECT_EQ(lk::api::offsets(basis).error().message,
            "offsets: the layout has basis strides");
  lk::cute::ComposedLayout huge{
      {}, 0, *lk::cute::parseLayout("(4096,8192):(1,4096)")};
  EXPECT_FALSE(lk::api::offsets(huge).hasValue()); // 2^25 > kMaxArrayValues
}

} // namespace

namespace {

// Two columns over 4:2 and 2:8: out[e] = 2 a[e] + 8 b[e].
TEST(ApiEvaluateColumns, SumsColumnsAndNamesTheFailingElement) {
  const int64_t a[] = {0, 1, 2, 3}, b[] = {1, 1, 1, 1};
  std::vector<lk::api::EvalColumn> cols = {{a, *lk::cute::parseLayout("4:2")},
                                           {b, *lk::cute::parseLayout("2:8")}};
  std::vector<int64_t> out(4);
  EXPECT_FALSE(lk::api::evaluateColumns(cols, out).has_value());
  EXPECT_EQ(out, (std::vector<int64_t>{8, 10, 12, 14}));
  // Composed Sw<1,0,1> o 1: x + 1 = 9, 11, 13, 15 -> x ^ ((x >> 1) & 1):
  // 0b1001 -> 9, 0b1011 -> 10, 0b1101 -> 13, 0b1111 -> 14.
  lk::cute::ComposedLayout c{
      {1, 0, 1}, 1, *lk::cute::parseLayout("(4,2):(2,8)")};
  EXPECT_FALSE(lk::api::evaluateColumns(cols, out, &c).has_value());
  EXPECT_EQ(out, (std::vector<int64_t>{9, 10, 13, 14}));
  // An index outside [0, size) wraps as crd2idx: 5 over 4:2 -> 2 * 5 = 10.
  const int64_t wide[] = {5};
  std::vector<lk::api::EvalColumn> one = {
      {wide, *lk::cute::parseLayout("4:2")}};
  std::vector<int64_t> o1(1);
  EXPECT_FALSE(lk::api::evaluateColumns(one, o1).has_value());
  EXPECT_EQ(o1[0], 10);
  // 2^62 * 2 overflows at element 1.
  const int64_t big[] = {1, int64_t(1) << 62};
  std::vector<lk::api::EvalColumn> over = {
      {big, *lk::cute::parseLayout("4:2")}};
  std::vector<int64_t> o2(2);
  std::optional<lk::api::ColumnFailure> f = lk::api::evaluateColumns(over, o2);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->element, 1);
}

} // namespace

namespace {

// register bit 0 -> 1, lane bits -> 2 and 0 over dim0 of 4: x = r + 2 l0
// + 4 l1 gives r + 2 l0 (l1 is broadcast).
TEST(ApiLinearOutputs, EveryPackedInput) {
  auto l = lk::linear::parseLinearLayout(
      "{register: [(1)], lane: [(2), (0)]} -> {dim0: 4}");
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_EQ(*lk::api::linearOutputs(*l),
            (std::vector<int64_t>{0, 1, 2, 3, 0, 1, 2, 3}));
  // Two out-dims: out[x * 2 + j].
  auto two = lk::linear::parseLinearLayout(
      "{register: [(1, 0), (0, 1)]} -> {dim0: 2, dim1: 2}");
  ASSERT_TRUE(two) << two.error().message;
  EXPECT_EQ(*lk::api::linearOutputs(*two),
            (std::vector<int64_t>{0, 0, 1, 0, 0, 1, 1, 1}));
}

} // namespace
