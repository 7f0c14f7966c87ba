//===- Table3Test.cpp - Reductions over standard layouts ----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected values: the paper reports every layout family supported by
// linear layouts (its Triton-Linear pass rates); the case counts follow
// from the grid (4 sizes x 4 warp counts x the tensor's rank in axes);
// elimination may only remove stores. The per-case counts are checked by
// hand in tests/plan/ReduceTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/paper/Table3.h"

#include <gtest/gtest.h>

namespace {

using namespace lk::paper;

TEST(PaperTable3, EveryCaseIsSupportedAndSimulatedCorrect) {
  auto rows = table3();
  ASSERT_TRUE(rows) << rows.error().message;
  const char *names[] = {"blocked",       "mma",       "mma-input",
                         "slice-blocked", "slice-mma", "slice-mma-input",
                         "custom"};
  const int64_t cases[] = {32, 32, 32, 16, 16, 16, 32};
  ASSERT_EQ(rows->size(), 7u);
  for (size_t i = 0; i < rows->size(); ++i) {
    const Table3Row &r = (*rows)[i];
    SCOPED_TRACE(r.layout);
    EXPECT_EQ(r.layout, names[i]);
    EXPECT_EQ(r.cases, cases[i]);
    EXPECT_EQ(r.supported, r.cases) << r.firstFailure;
    EXPECT_LE(r.storeInstructions, r.storeInstructionsNoElim);
    EXPECT_LE(r.storeLanes, r.storeLanesNoElim);
    EXPECT_GT(r.storeInstructionsNoElim, 0);
  }
}

// A slice along dim 0 broadcasts over the lanes and warps that held dim 0,
// so elimination must remove thread stores there (each of the sliced
// families has such lanes at every size).
TEST(PaperTable3, SlicedLayoutsStoreFewerThreadValues) {
  auto rows = table3();
  ASSERT_TRUE(rows);
  for (const Table3Row &r : *rows)
    if (r.layout.rfind("slice", 0) == 0) {
      SCOPED_TRACE(r.layout);
      EXPECT_LT(r.storeLanes, r.storeLanesNoElim);
    }
}

} // namespace
