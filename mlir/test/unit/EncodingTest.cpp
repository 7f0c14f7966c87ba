//===- EncodingTest.cpp - The encoding's layout-size rule in C++ ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The rule of #tileas.encoding as a tensor encoding (docs/mlir.md, "Types:
// tiles and their encodings"): a memory layout places exactly the tensor's
// elements. The lit tests see it through the parser; these see the two
// paths a pass takes:
//
//  * RankedTensorType::getChecked runs it: (8,8):(8,1) places 8 * 8 = 64
//    elements, a tensor of shape 16x16 holds 256, so no type and one message;
//    (16,16):(1,16) on 16x16 (256 = 256), the same (8,8) layout on the
//    dynamic ?x16 (not checked) and a register layout with 64 slots over
//    8 elements (no size rule) give types;
//  * RankedTensorType::get does not, in release builds of MLIR; the
//    verifier of alloc_tensor applies the rule to such a type, with the
//    same message after "result: ", once.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace lk::tileas;

namespace {

class EncodingTest : public ::testing::Test {
protected:
  EncodingTest()
      : handler(&ctx, [this](Diagnostic &d) {
          messages.push_back(d.str());
          return success();
        }) {
    ctx.loadDialect<TileASDialect>();
  }

  /// #tileas.encoding<kind, family, layout = #tileas.layout<text>>.
  EncodingAttr encoding(MemKind kind, LayoutFamily family, const char *text) {
    lk::Expected<lk::cute::LayoutAttribute> l =
        lk::cute::parseLayoutAttribute(text);
    if (!l) {
      ADD_FAILURE() << text << ": " << l.error().message;
      return {};
    }
    return EncodingAttr::get(&ctx, kind, family, LayoutAttr::get(&ctx, *l), "",
                             std::nullopt);
  }

  RankedTensorType checked(ArrayRef<int64_t> shape, Type elt,
                           EncodingAttr enc) {
    return RankedTensorType::getChecked(
        [&] { return emitError(UnknownLoc::get(&ctx)); }, shape, elt, enc);
  }

  MLIRContext ctx;
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler;
};

TEST_F(EncodingTest, GetCheckedRejectsALayoutOfAnotherSize) {
  EncodingAttr enc =
      encoding(MemKind::Smem, LayoutFamily::Shared, "<(8,8),(8,1)>");
  EXPECT_FALSE(checked({16, 16}, Float16Type::get(&ctx), enc));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0],
            "smem layout <(8,8),(8,1)> places 64 elements, the tensor of "
            "shape 16x16 holds 256");
}

TEST_F(EncodingTest, GetCheckedAcceptsWhatTheRuleLetsThrough) {
  Type f16 = Float16Type::get(&ctx);
  EXPECT_TRUE(checked(
      {16, 16}, f16,
      encoding(MemKind::Smem, LayoutFamily::Shared, "<(16,16),(1,16)>")));
  EXPECT_TRUE(
      checked({ShapedType::kDynamic, 16}, f16,
              encoding(MemKind::Smem, LayoutFamily::Shared, "<(8,8),(8,1)>")));
  EXPECT_TRUE(checked({8}, Float32Type::get(&ctx),
                      encoding(MemKind::Register, LayoutFamily::Blocked,
                               "<((4,8),2),((2,0),1)>")));
  EXPECT_TRUE(messages.empty());
}

TEST_F(EncodingTest, BufferVerifierChecksAnUncheckedType) {
#ifdef NDEBUG
  // Built unchecked, as a pass's RankedTensorType::get builds it.
  auto type = RankedTensorType::get(
      {16, 16}, Float16Type::get(&ctx),
      encoding(MemKind::Smem, LayoutFamily::Shared, "<(8,8),(8,1)>"));
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> m = ModuleOp::create(UnknownLoc::get(&ctx));
  b.setInsertionPointToEnd(m->getBody());
  AllocTensorOp::create(b, UnknownLoc::get(&ctx), type);
  EXPECT_TRUE(failed(verify(*m)));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "'tileas.alloc_tensor' op result: smem layout "
                         "<(8,8),(8,1)> places 64 elements, the tensor of "
                         "shape 16x16 holds 256");
#else
  GTEST_SKIP() << "MLIR with assertions verifies RankedTensorType::get";
#endif
}

} // namespace
