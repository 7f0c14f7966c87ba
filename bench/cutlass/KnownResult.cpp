//===- KnownResult.cpp - The least an operation's call can cost ------------===//

#include "KnownResult.h"

namespace lk::bench {

/// Written as the fast paths write a result: the Expected<Layout> built in
/// the caller's slot, then its nodes written in place.
[[gnu::noinline]] Expected<cute::Layout>
returnKnown(const cute::Layout &result) {
  Expected<cute::Layout> r{std::in_place};
  const size_t n = result.shape().nodeCount();
  const IntTuple::Node *from = result.shape().nodes(),
                       *by = result.stride().nodes();
  IntTuple::Node *s, *d;
  r->nodesForOverwrite(n, s, d);
  for (size_t k = 0; k < n; ++k) {
    s[k] = from[k];
    d[k] = by[k];
  }
  return r;
}

[[gnu::noinline]] int64_t readNodes(const cute::Layout &l) {
  const IntTuple::Node *s = l.shape().nodes(), *d = l.stride().nodes();
  const int e = s->span;
  int64_t sum = 0;
  uint32_t basis = 0;
#pragma GCC unroll 4
  for (int k = 0; k < e; ++k) {
    if (s[k].rank != IntTuple::kLeaf)
      continue;
    sum += s[k].value ^ d[k].value;
    basis |= d[k].basis;
  }
  return basis != 0 ? -1 : sum;
}

} // namespace lk::bench
