//===- CuteOpsTest.cpp - The registry of cute operations ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The registry's rows and its checked call. Expected values are derived by
// hand beside each case (docs/cute.md's definitions).

#include "layoutkit/api/CuteOps.h"

#include "layoutkit/cute/Text.h"

#include <gtest/gtest.h>

#include <set>

namespace lk::api {
namespace {

CuteValue text(CuteKind k, std::string_view t) {
  Expected<CuteValue> v = parseCuteValue(k, t);
  EXPECT_TRUE(v) << t << ": " << (v ? "" : v.error().message);
  return v ? *v : CuteValue{int64_t(0)};
}
CuteValue lay(std::string_view t) { return text(CuteKind::Layout, t); }
CuteValue tup(std::string_view t) { return text(CuteKind::IntTuple, t); }
CuteValue num(int64_t n) { return CuteValue{n}; }

/// The answer of `name` on `args` as text ("error: ..." on failure).
std::string call(std::string_view name, std::vector<CuteValue> args) {
  const CuteOp *op = findCuteOp(name);
  if (!op)
    return "no such op";
  Expected<CuteValue> r = callCuteOp(*op, std::move(args));
  return r ? r->str() : "error: " + r.error().message;
}

TEST(CuteOps, RowsAreWellFormed) {
  std::set<std::string_view> names;
  for (const CuteOp &op : cuteOps()) {
    EXPECT_TRUE(names.insert(op.name).second) << op.name;
    EXPECT_FALSE(op.doc.empty()) << op.name;
    EXPECT_FALSE(op.params.empty()) << op.name;
    EXPECT_NE(op.call, nullptr) << op.name;
    // Optional parameters only trail.
    for (size_t i = op.requiredParams(); i < op.params.size(); ++i)
      EXPECT_TRUE(op.params[i].optional) << op.name;
    EXPECT_EQ(findCuteOp(op.name), &op);
  }
  // 4 properties, 2 coordinate maps, 3 structure ops, composition,
  // complement, 2 inverses, 2 max_common ops, 4 divides, 6 products.
  EXPECT_EQ(names.size(), 25u);
  EXPECT_EQ(findCuteOp("no_such_op"), nullptr);
}

TEST(CuteOps, HandDerivedAnswers) {
  // size 8, cosize 1 + 3*1 + 1*4 = 8, rank 2, depth 1.
  EXPECT_EQ(call("size", {lay("(4,2):(1,4)")}), "8");
  EXPECT_EQ(call("cosize", {lay("(4,2):(1,4)")}), "8");
  EXPECT_EQ(call("rank", {lay("(4,2):(1,4)")}), "2");
  EXPECT_EQ(call("depth", {lay("((2,2),2):((1,2),4)")}), "2");
  // (1,1) in (4,2):(1,4): 1*1 + 1*4 = 5; index 5 in (4,2): (5 % 4, 5 / 4).
  EXPECT_EQ(call("crd2idx", {tup("(1,1)"), lay("(4,2):(1,4)")}), "5");
  EXPECT_EQ(call("idx2crd", {num(5), tup("(4,2)")}), "(1,1)");
  EXPECT_EQ(call("coalesce", {lay("(2,4):(1,2)")}), "8:1");
  // With profile (1,1) each mode coalesces alone: nothing merges.
  EXPECT_EQ(call("coalesce", {lay("(2,4):(1,2)"), tup("(1,1)")}),
            "(2,4):(1,2)");
  // composition(8:2, 4) composes with 4:1: offsets 0, 2, 4, 6.
  EXPECT_EQ(call("composition", {lay("8:2"), num(4)}), "4:2");
  // 4:32 covers 0, 32, 64, 96; the gaps up to 256: (32,2):(1,128).
  EXPECT_EQ(call("complement", {lay("4:32"), num(256)}), "(32,2):(1,128)");
  EXPECT_EQ(call("complement", {lay("4:2")}), "2:1");
  EXPECT_EQ(call("logical_divide", {lay("128:1"), lay("32:1")}),
            "(32,4):(1,32)");
  EXPECT_EQ(call("right_inverse", {lay("(4,2):(2,1)")}), "(2,4):(4,1)");
  EXPECT_EQ(call("max_common_vector", {lay("(4,2):(1,8)"), lay("8:1")}), "4");
}

TEST(CuteOps, ArityAndKindsAreChecked) {
  EXPECT_EQ(call("logical_divide", {lay("128:1")}),
            "error: logical_divide takes 2 arguments (A, TILER), got 1");
  EXPECT_EQ(call("complement", {lay("4:2"), num(8), num(9)}),
            "error: complement takes 1 to 2 arguments (LAYOUT, COTARGET?), "
            "got 3");
  EXPECT_EQ(call("blocked_product", {lay("2:1"), num(3)}),
            "error: argument B of blocked_product: expected a layout, got an "
            "integer (3)");
  EXPECT_EQ(call("idx2crd", {tup("(1,2)"), tup("(4,2)")}),
            "error: argument INDEX of idx2crd: expected an integer, got an "
            "int tuple ((1,2))");
  // A library error comes back as it is.
  Expected<CuteValue> r =
      callCuteOp(*findCuteOp("cosize"), {lay("(4,8):(1@0,1@1)")});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("basis-stride"), std::string::npos);
}

TEST(CuteOps, ParseByKind) {
  EXPECT_EQ(text(CuteKind::Tiler, "(4:1,_)").str(), "(4:1,_)");
  EXPECT_EQ(text(CuteKind::Integer, "0x40").str(), "64");
  EXPECT_FALSE(parseCuteValue(CuteKind::Integer, "(1,2)"));
  Expected<CuteValue> bad = parseCuteValue(CuteKind::Layout, "(4,2):(1");
  ASSERT_FALSE(bad);
}

} // namespace
} // namespace lk::api
