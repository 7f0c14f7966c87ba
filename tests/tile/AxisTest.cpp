//===- AxisTest.cpp - The axis registry -----------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/Axis.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::tile;

namespace {

TEST(Axis, BuiltinsHaveFixedIdsNamesAndKinds) {
  struct Row {
    Axis axis;
    const char *name;
    AxisKind kind;
  };
  const Row rows[] = {
      {Axis::m(), "m", AxisKind::Memory},
      {Axis::laneid(), "laneid", AxisKind::Thread},
      {Axis::warpid(), "warpid", AxisKind::Thread},
      {Axis::tid(), "tid", AxisKind::Thread},
      {Axis::tid_in_wg(), "tid_in_wg", AxisKind::Thread},
      {Axis::wgid(), "wgid", AxisKind::Thread},
      {Axis::cta(), "cta", AxisKind::Thread},
      {Axis::pid(), "pid", AxisKind::Device},
      {Axis::TLane(), "TLane", AxisKind::TensorMemory},
      {Axis::TCol(), "TCol", AxisKind::TensorMemory},
      {Axis::P(), "P", AxisKind::Scratchpad},
      {Axis::F(), "F", AxisKind::Scratchpad},
  };
  ASSERT_EQ(std::size(rows), Axis::kBuiltins);
  for (size_t i = 0; i < std::size(rows); ++i) {
    EXPECT_EQ(rows[i].axis.id(), i);
    EXPECT_EQ(rows[i].axis.name(), rows[i].name);
    EXPECT_EQ(rows[i].axis.kind(), rows[i].kind);
    EXPECT_FALSE(rows[i].axis.meaning().empty());
    EXPECT_EQ(*Axis::byName(rows[i].name), rows[i].axis);
  }
  EXPECT_EQ(Axis(), Axis::m());
  EXPECT_TRUE(Axis::m().isMemory());
  EXPECT_EQ(kindName(AxisKind::TensorMemory), "tensor memory");
}

TEST(Axis, TidAndTidInWarpgroupAreDistinct) {
  EXPECT_NE(Axis::tid(), Axis::tid_in_wg());
  Expected<TileLayout> l = parseTileLayout("S[(2,2):(1@tid,1@tid_in_wg)]");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->axes().size(), 2u);
  EXPECT_EQ(l->footprint(Axis::tid()).span(), 2);
  EXPECT_EQ(l->footprint(Axis::tid_in_wg()).span(), 2);
}

TEST(Axis, UnknownNamesAreDiagnosed) {
  Expected<Axis> a = Axis::byName("lane");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "unknown axis 'lane'");
  ASSERT_EQ(a.error().notes.size(), 1u);
  EXPECT_EQ(a.error().notes[0].rfind(
                "known axes: m, laneid, warpid, tid, tid_in_wg", 0),
            0u);
  EXPECT_EQ(a.error().notes[0].find("registerAxis"), std::string::npos);
  EXPECT_FALSE(Axis::byName("LANEID")); // case-sensitive
  EXPECT_FALSE(Axis::byName(""));
}

TEST(Axis, Registration) {
  Expected<Axis> v =
      Axis::registerAxis("vreg_test", AxisKind::Memory, "vector register");
  ASSERT_TRUE(v);
  EXPECT_GE(v->id(), Axis::kBuiltins);
  EXPECT_EQ(v->name(), "vreg_test");
  EXPECT_EQ(v->meaning(), "vector register");
  EXPECT_EQ(*Axis::byName("vreg_test"), *v);
  // Same name and kind: the same axis.
  EXPECT_EQ(*Axis::registerAxis("vreg_test", AxisKind::Memory, "again"), *v);
  // Another kind: refused.
  Expected<Axis> clash = Axis::registerAxis("tid", AxisKind::Memory, "");
  ASSERT_FALSE(clash);
  EXPECT_EQ(clash.error().message,
            "axis 'tid' is already registered as a thread axis, not memory");
  EXPECT_FALSE(Axis::registerAxis("9lives", AxisKind::Thread, ""));
  EXPECT_FALSE(Axis::registerAxis("a-b", AxisKind::Thread, ""));
  // A registered axis works in the text form and prints by name.
  Expected<TileLayout> l =
      parseTileLayout("S[(4,2):(1@vreg_test,1)] + 3@vreg_test");
  ASSERT_TRUE(l) << l.error().render();
  EXPECT_EQ(l->str(), "S[(4,2):(1@vreg_test,1)] + 3@vreg_test");
  bool listed = false;
  for (Axis a : Axis::all())
    listed |= a == *v;
  EXPECT_TRUE(listed);
}

} // namespace
