//===- KnownResult.h - The least an operation's call can cost --------------===//
//
// An operation with LayoutKit's signature, `Expected<Layout> f(const
// Layout &, ...)` compiled in the library, does at least this: a call
// out of line, an Expected<Layout> built in the caller's slot with the
// result's shape and stride nodes, and its destruction. returnKnown does
// only that, with the answer already known, so its time is a floor under
// every implementation of the operation behind that signature: no
// arithmetic, no check, no read of the operation's operands (only a copy
// of the known result's nodes). CuteSideBySide.cpp times it per
// case as BM_floor/<case> beside CuTe and LayoutKit; readNodes, what
// reading an operand costs, runs as `--calls read/<case> n`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUTKIT_BENCH_KNOWNRESULT_H
#define LAYOUTKIT_BENCH_KNOWNRESULT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Layout.h"

namespace lk::bench {

/// Returns `result`, written in place as the fast paths write theirs, out
/// of line (its own translation unit).
/// @post *returnKnown(l) == l.
Expected<cute::Layout> returnKnown(const cute::Layout &result);

/// One pass over the nodes of `l`, out of line: each leaf's shape, stride
/// and basis read, tuple nodes skipped, unrolled four times as the fast
/// paths' loops are. An operation whose result depends on every leaf
/// (coalesce, the inverses, complement) reads at least this much on top of
/// the floor; CuTe, with static strides, reads nothing at run time.
/// @post the sum of each leaf's shape XOR stride, -1 on a basis stride.
int64_t readNodes(const cute::Layout &l);

} // namespace lk::bench

#endif // LAYOUTKIT_BENCH_KNOWNRESULT_H
