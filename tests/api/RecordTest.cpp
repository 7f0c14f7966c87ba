//===- RecordTest.cpp - api::Record, api::toJson and api::describe --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Record.h"
#include "layoutkit/api/Describe.h"
#include "layoutkit/cute/Text.h"

#include <gtest/gtest.h>

#include <limits>

using namespace lk;
using api::Record;
using api::Value;

TEST(Record, JsonKeepsTheOrderAndEscapes) {
  Record r;
  r.add("layout", "(8,4):(1,8)").add("size", 32);
  r.add("shape", Value::ints({8, 4})).add("cosize", Value());
  EXPECT_EQ(
      api::toJson(r),
      R"j({"layout":"(8,4):(1,8)","size":32,"shape":[8,4],"cosize":null})j");
  // Quote, backslash, newline and another control character.
  EXPECT_EQ(api::toJson(Value("a\"b\\c\nd\x01")),
            R"j("a\"b\\c\u000ad\u0001")j");
}

TEST(Record, AddingAKeyAgainReplacesItInPlace) {
  Record r;
  r.add("a", 1).add("b", 2).add("a", true);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r.key(0), "a");
  EXPECT_EQ(api::toJson(r), R"j({"a":true,"b":2})j");
  ASSERT_NE(r.find("b"), nullptr);
  EXPECT_EQ(r.find("b")->asInt(), 2);
  EXPECT_EQ(r.find("c"), nullptr);
}

TEST(Record, PreEncodedJsonIsWrittenAsItIs) {
  Record r;
  r.add("coords", Value::json("[0,1,2]")).add("n", 3);
  EXPECT_EQ(r.find("coords")->kind(), Value::Kind::Json);
  EXPECT_EQ(r.find("coords")->asJson(), "[0,1,2]");
  EXPECT_EQ(api::toJson(r), R"j({"coords":[0,1,2],"n":3})j");
  EXPECT_EQ(api::toJson(Value::encodedInts(std::vector<int64_t>{4, -1, 0})),
            "[4,-1,0]");
  EXPECT_EQ(api::toJson(Value::encodedInts({})), "[]");
}

TEST(Record, DoublesReadBackAndNonFiniteIsNull) {
  EXPECT_EQ(api::toJson(Value(0.1)), "0.1");
  // The shortest of 15-17 significant digits that reads back as the value.
  EXPECT_EQ(api::toJson(Value(1.0 / 3)), "0.3333333333333333");
  EXPECT_EQ(api::toJson(Value(std::numeric_limits<double>::infinity())),
            "null");
  EXPECT_EQ(api::toJson(Value(INT64_MIN)), "-9223372036854775808");
  // A whole double keeps its point, as the CLI's JSON writes it: 36.0
  // (not the int 36), -2.0, 1e+20.
  EXPECT_EQ(api::toJson(Value(36.0)), "36.0");
  EXPECT_EQ(api::toJson(Value(-2.0)), "-2.0");
  EXPECT_EQ(api::toJson(Value(1e20)), "1e+20");
}

TEST(Describe, PresetRecord) {
  // The row of tile/TilePresets.cpp, as `layoutkit tile presets NAME
  // --json` prints it and the demo lists it.
  auto p = tile::findPreset("mma_m8n8_fragment");
  ASSERT_TRUE(p);
  EXPECT_EQ(api::toJson(api::describe(**p)),
            R"j({"name":"mma_m8n8_fragment",)j"
            R"j("layout":"S[(8,4,2):(4@laneid,1@laneid,1)]","shape":[8,8],)j"
            R"j("summary":"m8n8 MMA fragment: 32 lanes x 2 registers"})j");
}

TEST(Describe, LayoutRecord) {
  // cosize = 1 + 7*1 + 3*8 = 32.
  Expected<cute::Layout> l = cute::parseLayout("(8,4):(1,8)");
  ASSERT_TRUE(l);
  EXPECT_EQ(api::toJson(api::describe(*l)),
            R"j({"layout":"(8,4):(1,8)","shape":[8,4],"stride":[1,8],)j"
            R"j("size":32,"cosize":32,"rank":2,"depth":1})j");
  // A basis-stride leaf 1@1 is {scale, basis}; such a layout has no cosize.
  Expected<cute::Layout> b = cute::parseLayout("(2,3):(1@0,1@1)");
  ASSERT_TRUE(b);
  Record rb = api::describe(*b);
  ASSERT_NE(rb.find("stride"), nullptr);
  EXPECT_EQ(api::toJson(*rb.find("stride")),
            R"j([{"scale":1,"basis":[0]},{"scale":1,"basis":[1]}])j");
  EXPECT_TRUE(rb.find("cosize")->isNull());
}

TEST(Describe, DiagnosticRecordHasTheSameKeysWithAndWithoutARange) {
  Diagnostic at = Diagnostic::at("bad", "(2,3:(3,1)", 4, 1);
  Diagnostic plain = Diagnostic::error("bad");
  Record a = api::describe(at), p = api::describe(plain);
  ASSERT_EQ(a.size(), p.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(a.key(i), p.key(i));
  EXPECT_EQ(a.find("column")->asInt(), 5); // 1-based
  EXPECT_EQ(a.find("offset")->asInt(), 4); // 0-based
  EXPECT_TRUE(p.find("column")->isNull());
  EXPECT_EQ(p.find("length")->asInt(), 0);
}
