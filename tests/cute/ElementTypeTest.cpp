//===- ElementTypeTest.cpp - The element type registry --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/ElementType.h"

#include <gtest/gtest.h>

#include <thread>
#include <utility>
#include <vector>

using namespace lk;
using namespace lk::cute;

namespace {

TEST(ElementType, Builtins) {
  const std::pair<const char *, int64_t> expected[] = {
      {"f64", 64},   {"f32", 32},   {"tf32", 32},  {"f16", 16},   {"bf16", 16},
      {"f8e4m3", 8}, {"f8e5m2", 8}, {"f6e2m3", 6}, {"f6e3m2", 6}, {"f4e2m1", 4},
      {"nvfp4", 4},  {"mxf4", 4},   {"mxf6", 6},   {"mxf8", 8},   {"ue8m0", 8},
      {"ue4m3", 8},  {"i32", 32},   {"i16", 16},   {"i8", 8},     {"i4", 4},
      {"u8", 8},     {"b1", 1}};
  for (auto [name, bits] : expected) {
    Expected<ElementType> t = lookupElementType(name);
    ASSERT_TRUE(t) << name;
    EXPECT_EQ(t->name, name);
    EXPECT_EQ(t->bits, bits) << name;
  }
}

TEST(ElementType, UnknownNames) {
  for (const char *name : {"fp4", "F16", "", "f16 ", "nvfp4x", "e4m3"}) {
    Expected<ElementType> t = lookupElementType(name);
    ASSERT_FALSE(t) << name;
    EXPECT_EQ(t.error().message,
              "unknown element type '" + std::string(name) + "'");
    // The note lists the registered names, builtins first.
    ASSERT_EQ(t.error().notes.size(), 1u);
    EXPECT_EQ(t.error().notes[0].rfind("known element types: f64, f32, ", 0),
              0u)
        << t.error().notes[0];
  }
}

TEST(ElementType, RegisterInPrivateRegistry) {
  ElementTypeRegistry r;
  EXPECT_TRUE(r.contains("f16"));
  EXPECT_FALSE(r.contains("e3m4"));
  ASSERT_TRUE(r.add("e3m4", 8));
  EXPECT_EQ(r.lookup("e3m4")->bits, 8);
  EXPECT_EQ(r.all().back(), (ElementType{"e3m4", 8}));
  // The global registry is a different registry.
  EXPECT_FALSE(lookupElementType("e3m4"));

  ElementTypeRegistry none = ElementTypeRegistry::empty();
  EXPECT_TRUE(none.all().empty());
  EXPECT_FALSE(none.lookup("f16"));
  ASSERT_TRUE(none.add("f16", 16));
  EXPECT_TRUE(none.contains("f16"));
}

TEST(ElementType, RegistrationValidation) {
  ElementTypeRegistry r;
  size_t before = r.all().size();
  auto fails = [&](std::string_view name, int64_t bits, std::string_view msg) {
    Status s = r.add(name, bits);
    if (s)
      return ::testing::AssertionFailure() << name << " was accepted";
    if (s.error().message.find(msg) == std::string::npos)
      return ::testing::AssertionFailure() << s.error().message;
    return ::testing::AssertionSuccess();
  };
  EXPECT_TRUE(
      fails("f16", 16, "element type 'f16' is already registered (16 bits)"));
  EXPECT_TRUE(fails("f16", 8, "already registered"));
  EXPECT_TRUE(fails("", 8, "must not be empty"));
  EXPECT_TRUE(fails("8bit", 8, "is not an identifier"));
  EXPECT_TRUE(fails("my-type", 8, "is not an identifier"));
  EXPECT_TRUE(fails("a b", 8, "is not an identifier"));
  EXPECT_TRUE(fails(std::string(65, 'a'), 8, "longer than 64 characters"));
  EXPECT_TRUE(fails("zero", 0, "must have 1 to 1024 bits, not 0"));
  EXPECT_TRUE(fails("neg", -4, "must have 1 to 1024 bits, not -4"));
  EXPECT_TRUE(fails("wide", 1025, "must have 1 to 1024 bits"));
  EXPECT_EQ(r.all().size(), before);
  EXPECT_TRUE(r.add(std::string(64, 'a'), 1024));
  EXPECT_TRUE(r.add("_x9", 1));
}

TEST(ElementType, GlobalRegistration) {
  ASSERT_TRUE(registerElementType("lk_test_e2m5", 8));
  EXPECT_EQ(lookupElementType("lk_test_e2m5")->bits, 8);
  EXPECT_FALSE(registerElementType("lk_test_e2m5", 8));
}

TEST(ElementType, ConcurrentUse) {
  ElementTypeRegistry r;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&r, t] {
      for (int i = 0; i < 200; ++i) {
        (void)r.add("t" + std::to_string(t) + "_" + std::to_string(i), 8);
        (void)r.lookup("f16");
      }
    });
  for (std::thread &th : threads)
    th.join();
  EXPECT_EQ(r.all().size(), ElementTypeRegistry().all().size() + 800);
}

} // namespace
