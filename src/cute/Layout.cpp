//===- Layout.cpp ---------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Layout.h"
#include "layoutkit/core/Checked.h"

#include <limits>

namespace lk::cute {

Expected<Layout> Layout::make(IntTuple shape, IntTuple stride) {
  if (!congruent(shape, stride))
    return Diagnostic::error("shape " + shape.str() + " and stride " +
                             stride.str() + " are not congruent");
  for (const IntTuple::Node &n : shape.leaves()) {
    if (n.basis != 0)
      return Diagnostic::error("shape " + shape.str() +
                               " has a basis leaf; only strides may be bases");
    if (n.value < 1)
      return Diagnostic::error("shape " + shape.str() + " has a leaf " +
                               std::to_string(n.value) +
                               "; shape leaves must be positive");
  }
  if (shape.leafCount() > kMaxLeaves)
    return Diagnostic::error("layout has " + std::to_string(shape.leafCount()) +
                             " leaves; at most " + std::to_string(kMaxLeaves) +
                             " are supported");
  LK_CHECK(checkRange(shape, stride));
  return unchecked(std::move(shape), std::move(stride));
}

Status Layout::checkRange(const IntTuple &shape, const IntTuple &stride) {
  Arith sz;
  int64_t size = 1;
  for (const IntTuple::Node &n : shape.leaves())
    size = sz.mul(size, n.value);
  if (!sz.ok())
    return Diagnostic::error("layout " + shape.str() + ":" + stride.str() +
                             " has a size (product of " + shape.str() +
                             ") that does not fit in 64 bits");
  for (const IntTuple::Node &n : stride.leaves())
    if (n.value == std::numeric_limits<int64_t>::min())
      return Diagnostic::error("stride " + std::to_string(n.value) +
                               " is out of range (its magnitude does not fit "
                               "in 64 bits)");
  // Every offset of the domain (each codomain component, for basis strides)
  // is at most sum (s-1)*|d| in magnitude: evaluation cannot overflow.
  Arith ar;
  int64_t reach = 1;
  auto s = shape.leaves(), d = stride.leaves();
  for (size_t i = 0; i < s.size(); ++i)
    reach = ar.add(reach, ar.mul(s[i].value - 1, absValue(d[i].value)));
  if (!ar.ok())
    return Diagnostic::error("layout " + shape.str() + ":" + stride.str() +
                             " reaches offsets (its cosize) that do not fit "
                             "in 64 bits");
  return Ok{};
}

Expected<Layout> Layout::fromBuilders(const IntTuple::Builder &shape,
                                      const IntTuple::Builder &stride) {
  LK_CHECK(shape.check());
  LK_CHECK(stride.check());
  Expected<Layout> r = Layout();
  shape.buildInto(r->shape_);
  stride.buildInto(r->stride_);
  LK_CHECK(checkRange(r->shape_, r->stride_));
  return r;
}

Expected<Layout> Layout::compact(const IntTuple &shape, int64_t start) {
  Arith ar;
  SmallVector<int64_t, 16> strides;
  int64_t running = start;
  for (const IntTuple::Node &n : shape.leaves()) {
    if (n.value < 1)
      return Diagnostic::error("shape " + shape.str() +
                               " has a non-positive leaf");
    strides.push_back(n.value == 1 ? 0 : running);
    running = ar.mul(running, n.value);
  }
  if (!ar.ok())
    return Arith::diagnostic("compact layout of " + shape.str());
  return unchecked(shape, shape.withLeaves(strides.data()));
}

int64_t Layout::size() const {
  int64_t p = 1;
  for (const IntTuple::Node &n : shape_.leaves())
    p *= n.value;
  return p;
}

Expected<int64_t> Layout::cosize() const {
  if (hasBasisStrides())
    return Diagnostic::error("cosize is not defined for the basis-stride "
                             "layout " +
                             str())
        .note("its codomain is multi-dimensional; evaluate it to see where "
              "a coordinate goes");
  Arith ar;
  int64_t hi = 0;
  auto s = shape_.leaves();
  auto d = stride_.leaves();
  for (size_t i = 0; i < s.size(); ++i)
    hi = ar.add(hi, ar.mul(s[i].value - 1, absValue(d[i].value)));
  hi = ar.add(hi, 1);
  if (!ar.ok())
    return Arith::diagnostic("cosize of " + str());
  return hi;
}

Expected<Layout> makeLayout(std::initializer_list<Layout> modes) {
  ModeBuilder b;
  for (const Layout &m : modes)
    b.append(m);
  return b.build();
}

Expected<Layout> makeLayout(const std::vector<Layout> &modes) {
  ModeBuilder b;
  for (const Layout &m : modes)
    b.append(m);
  return b.build();
}

} // namespace lk::cute
