//===- ShapeOpsTest.cpp - The linear shape operations by name -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// api::findShapeOp / checkShapeArg / applyShapeOp: each name calls the
// operation of linear/ShapeOps.h in the direction asked, split being
// join's inverse, and bad arguments are refused before the call.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/ShapeOps.h"

#include "layoutkit/linear/ShapeOps.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

namespace lk::api {
namespace {

linear::LinearLayout blocked() {
  // The example of ShapeOps.h: 2 x 4 over one register and two lane bits.
  return *linear::parseLinearLayout(
      "{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}");
}

TEST(ApiShapeOps, TransIsTransForwardAndBack) {
  const ShapeOp *t = findShapeOp("trans");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->arg, ShapeArg::Order);
  const int64_t order[] = {1, 0};
  Expected<linear::LinearLayout> r = applyShapeOp(*t, blocked(), order, false);
  ASSERT_TRUE(r) << r.error().message;
  // dims swap: the register's (0,1) becomes (1,0), dim0 is 4 wide.
  EXPECT_EQ(r->str(),
            "{register: [(1,0)], lane: [(2,0), (0,1)]} -> {dim0: 4, dim1: 2}");
  Expected<linear::LinearLayout> back = applyShapeOp(*t, *r, order, true);
  ASSERT_TRUE(back) << back.error().message;
  const unsigned uorder[] = {1, 0};
  EXPECT_EQ(*back, *linear::transBackward(*r, uorder));
}

TEST(ApiShapeOps, SplitIsJoinsInverse) {
  const ShapeOp *join = findShapeOp("join"), *split = findShapeOp("split");
  ASSERT_NE(join, nullptr);
  ASSERT_NE(split, nullptr);
  Expected<linear::LinearLayout> joined =
      applyShapeOp(*join, blocked(), {}, false);
  ASSERT_TRUE(joined) << joined.error().message;
  EXPECT_EQ(*joined, *linear::joinForward(blocked()));
  // split forward undoes join forward; split backward is join forward.
  EXPECT_EQ(*applyShapeOp(*split, *joined, {}, false), blocked());
  EXPECT_EQ(*applyShapeOp(*split, blocked(), {}, true), *joined);
  EXPECT_EQ(*applyShapeOp(*join, *joined, {}, true), blocked());
  // A fault names the operation asked for: join backward runs split's
  // construction but is not called "split".
  Expected<linear::LinearLayout> odd = applyShapeOp(*join, blocked(), {}, true);
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error().message,
            "join: the minor dim must have size 2; dim1 has size 4");
  odd = applyShapeOp(*split, blocked(), {}, false);
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error().message,
            "split: the minor dim must have size 2; dim1 has size 4");
}

TEST(ApiShapeOps, ArgumentsAreCheckedBeforeTheCall) {
  EXPECT_EQ(findShapeOp("transpose"), nullptr);
  const ShapeOp *e = findShapeOp("expand_dims");
  ASSERT_NE(e, nullptr);
  const int64_t two[] = {0, 1}, big[] = {linear::LinearLayout::kMaxDims},
                neg[] = {-1}, zero[] = {0};
  EXPECT_EQ(checkShapeArg(*e, two).error().message,
            "expected one axis, e.g. 1");
  EXPECT_EQ(checkShapeArg(*e, big).error().message,
            "a dim index is 0.." +
                std::to_string(linear::LinearLayout::kMaxDims - 1) + ", got " +
                std::to_string(linear::LinearLayout::kMaxDims));
  EXPECT_FALSE(applyShapeOp(*findShapeOp("trans"), blocked(), neg, false));
  Expected<linear::LinearLayout> x = applyShapeOp(*e, blocked(), zero, false);
  ASSERT_TRUE(x) << x.error().message;
  EXPECT_EQ(*x, *linear::expandDimsForward(blocked(), 0));
  // A shape argument takes any extents (the operation checks them).
  const int64_t shape[] = {8};
  Expected<linear::LinearLayout> flat =
      applyShapeOp(*findShapeOp("reshape"), blocked(), shape, false);
  ASSERT_TRUE(flat) << flat.error().message;
  EXPECT_EQ(*flat, *linear::reshapeForward(blocked(), shape));
}

} // namespace
} // namespace lk::api
