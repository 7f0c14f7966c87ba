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

} // namespace lk::bench
