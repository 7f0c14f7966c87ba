//===- Layout.cpp ---------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Layout.h"
#include "layoutkit/core/Checked.h"

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
  LK_TRY(int64_t size, shape.product());
  (void)size;
  return unchecked(std::move(shape), std::move(stride));
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
    return Diagnostic::error("cosize of " + str() +
                             " is not an integer: it has basis strides");
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

Layout makeLayout(std::initializer_list<Layout> modes) {
  ModeBuilder b;
  for (const Layout &m : modes)
    b.append(m);
  return b.build();
}

Layout makeLayout(const std::vector<Layout> &modes) {
  ModeBuilder b;
  for (const Layout &m : modes)
    b.append(m);
  return b.build();
}

} // namespace lk::cute
