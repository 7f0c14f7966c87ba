//===- DimTableTest.cpp - The process-wide table of dim names -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Dim names are interned to 16-bit ids for the life of the process, so a
// long-running process that reads hostile text (the demo, a Python session,
// a fuzzer) can fill the table. Past 65535 names a new name must not be
// given an id that already names something else (ids wrapped around, and
// fuzz_api read back '{...} -> {dZZ..Zim0: 4, ...}' with another dim's
// name): it gets dims::kNoDim, and no layout is built over it.
//
// Filling the table would change it for every later test of this binary,
// so the check runs in a child process (a death test that exits 0).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace lk::linear;

namespace {

/// Fills the table, then checks; exits 0 when every check holds.
[[noreturn]] void fillAndCheck() {
  auto fail = [](const char *what) {
    std::fprintf(stderr, "%s\n", what);
    std::exit(1);
  };
  DimId before = internDim("early_name");
  // Ids 0 .. 65534 are names; at most 65535 of them.
  for (int i = 0; i < 70000; ++i)
    if (internDim("n" + std::to_string(i)) == dims::kNoDim)
      break;
  if (internDim("one_more_name") != dims::kNoDim)
    fail("a new name got an id in a full table");
  if (internDim("early_name") != before || dimName(before) != "early_name")
    fail("a name interned before the table filled lost its id");
  if (internDim("lane") != dims::kLane)
    fail("a built-in name lost its id");
  // The parser names the dim it cannot hold, at its position.
  const std::string text = "{register: [(1)]} -> {a_new_dim: 2}";
  lk::Expected<LinearLayout> l = parseLinearLayout(text);
  if (l.hasValue())
    fail("a layout was built over a name the table could not hold");
  const lk::Diagnostic &d = l.error();
  if (d.message.find("dim 'a_new_dim' cannot be named: too many distinct dim "
                     "names in this process (at most 65535)") ==
      std::string::npos)
    fail(("unexpected message: " + d.message).c_str());
  if (!d.range || d.range->begin.offset != text.find("a_new_dim"))
    fail("the diagnostic does not point at the name");
  // The constructors refuse kNoDim too.
  if (LinearLayout::identity1D(4, dims::kNoDim, dims::dim(0)).hasValue() ||
      LinearLayout::identity1D(4, dims::kRegister, dims::kNoDim).hasValue())
    fail("identity1D built a layout over kNoDim");
  // Names already held still parse.
  if (!parseLinearLayout("{register: [(1)], early_name: [(2)]} -> {dim0: 4}"))
    fail("a layout over held names no longer parses");
  std::exit(0);
}

} // namespace

#if GTEST_HAS_DEATH_TEST
TEST(DimTableDeathTest, AFullTableNamesNoNewDim) {
  EXPECT_EXIT(fillAndCheck(), ::testing::ExitedWithCode(0), "");
}
#endif
