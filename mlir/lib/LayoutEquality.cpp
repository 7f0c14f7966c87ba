//===- LayoutEquality.cpp - Tile types compared as placements -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/TileAS.h"

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/plan/Plan.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace lk::tileas;

namespace {

/// The layout attribute of `t` read by the api layer (a cute layout); an
/// attribute without `elem=` has the tensor's elements, whose width
/// converts its byte-address swizzle.
lk::Expected<lk::api::AnyLayout> layoutOf(mlir::RankedTensorType t) {
  EncodingAttr enc = encodingOf(t);
  if (!enc || !enc.getLayout())
    return lk::Diagnostic::error("its encoding carries no layout");
  lk::api::ParseOptions options;
  options.syntax = lk::api::Syntax::Attribute;
  options.elementBits = storageBits(t.getElementType());
  const bool sized = options.elementBits.has_value();
  std::string text = enc.getLayout().getText();
  LK_TRY(lk::api::AnyLayout l,
         lk::api::parseLayout(std::string_view(text.data(), text.size()),
                              options));
  // complex, vector, index: no width here, so no element form of a byte
  // swizzle (its bytes are not the offsets); such layouts compare unequal.
  if (!sized && !l.elem && !l.cute()->swizzle.isIdentity())
    return lk::Diagnostic::error("the swizzle's element width is unknown");
  return l;
}

/// Memory: the top-level mode sizes and index -> offset (linear, else
/// enumerated within kMaxEnumerated).
lk::Expected<Placement> memoryPlacement(const lk::api::AnyLayout &l) {
  const lk::cute::ComposedLayout &c = *l.cute();
  Placement p;
  for (size_t i = 0; i < c.layout.rank(); ++i)
    p.modeSizes.push_back(c.layout.mode(i).size());
  if (lk::Expected<lk::linear::LinearLayout> f = lk::api::toLinear(l)) {
    p.function = std::move(*f);
    return p;
  }
  int64_t n = c.layout.size();
  if (n > kMaxEnumerated)
    return lk::Diagnostic::error(
        "the layout has no linear form and " + std::to_string(n) +
        " elements, more than the " + std::to_string(kMaxEnumerated) +
        " compared one by one");
  p.offsets.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i)
    p.offsets.push_back(c.swizzle(c.offset + lk::cute::evaluate(c.layout, i)));
  return p;
}

bool samePlacement(const Placement &a, const Placement &b, bool registers) {
  if (a.modeSizes != b.modeSizes ||
      a.function.has_value() != b.function.has_value())
    return false;
  if (!a.function)
    return a.offsets == b.offsets;
  if (!registers)
    return *a.function == *b.function;
  lk::Expected<lk::plan::AlignedPair> aligned =
      lk::plan::alignLayouts(*a.function, *b.function);
  return aligned && aligned->src == aligned->dst;
}

} // namespace

lk::Expected<Placement> lk::tileas::placementOf(mlir::Type type) {
  auto t = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (!t || !t.hasStaticShape())
    return Diagnostic::error("it is not a tile of static shape");
  LK_TRY(api::AnyLayout l, layoutOf(t));
  if (isMemory(memKindOf(t)))
    return memoryPlacement(l);
  api::ParseOptions options;
  std::vector<IntTuple> dims;
  for (int64_t d : t.getShape())
    dims.push_back(IntTuple::leaf(d));
  options.shape = IntTuple::tuple(dims);
  LK_TRY(linear::LinearLayout f, api::distributedLayout(l, options));
  Placement p;
  p.function = std::move(f);
  return p;
}

const Placement *LayoutEquality::placement(mlir::Type t) {
  auto [it, inserted] = placements_.try_emplace(t);
  if (inserted)
    if (Expected<Placement> p = placementOf(t))
      it->second = std::move(*p);
  return it->second ? &*it->second : nullptr;
}

bool LayoutEquality::equal(mlir::Type a, mlir::Type b) {
  if (a == b)
    return true;
  auto [it, inserted] = pairs_.try_emplace({a, b}, false);
  if (!inserted)
    return it->second;
  auto ta = mlir::dyn_cast<mlir::RankedTensorType>(a);
  auto tb = mlir::dyn_cast<mlir::RankedTensorType>(b);
  if (!ta || !tb || ta.getShape() != tb.getShape() ||
      ta.getElementType() != tb.getElementType() ||
      memKindOf(a) != memKindOf(b))
    return false;
  EncodingAttr ea = encodingOf(a), eb = encodingOf(b);
  if (!ea || !eb || !ea.getLayout() || !eb.getLayout() ||
      ea.getLayout().getValue().elem != eb.getLayout().getValue().elem)
    return false;
  const Placement *pa = placement(a);
  const Placement *pb = pa ? placement(b) : nullptr;
  bool same = pb && samePlacement(*pa, *pb, !isMemory(memKindOf(a)));
  pairs_[{a, b}] = same;
  return same;
}
