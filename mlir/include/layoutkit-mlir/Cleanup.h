//===- Cleanup.h - The conversion cleanup shared by the passes ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The cleanup of `tileas-remove-layout-conversions` (identity
/// conversions, chains of two conversions within one memory kind, dead
/// pure ops, constants deduplicated at the top of the function), run by
/// MLIR's greedy rewrite driver with two convert_layout patterns
/// (lib/Cleanup.cpp). The passes that run after it and expose new such
/// patterns (a removed iter-arg whose uses become its init, a select
/// turned into a view) end
/// with it, so that a second run of the pipeline changes nothing.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_CLEANUP_H
#define LAYOUTKIT_MLIR_CLEANUP_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseSet.h"

#include <tuple>
#include <utility>
#include <vector>

namespace lk::tileas {

class LayoutEquality;

/// What the cleanup's one pre-order walk of a function finds
/// (lib/Cleanup.cpp): visit(op) for each op of the walk, the function
/// first. A pass that walks the function anyway can fill one in its own
/// walk and hand it to cleanupConversions while the function is unchanged
/// since, which then does not walk it again.
class CleanupSurvey {
public:
  CleanupSurvey(mlir::Operation *fn, LayoutEquality &eq);
  /// Each op of one walk of `fn`, in pre-order, or in its reverse when
  /// `backward` is set.
  void visit(mlir::Operation *op);
  /// After the walk: the lists in pre-order and `constantsMove`.
  void finish();

  bool backward = false;
  mlir::Operation *fn;
  /// Ops (the step bound; counting operands too would read each op's
  /// operand storage, a cache line the walk otherwise leaves alone for
  /// most ops).
  int64_t size = 0;
  /// Whether the constant pass moves or merges a constant.
  bool constantsMove = false;
  /// A constant whose scope is not the function's body.
  bool nestedScope = false;
  /// The constants in pre-order, with their values.
  std::vector<std::pair<mlir::Operation *, mlir::Attribute>> constants;
  /// The conversions a pattern may rewrite and the trivially dead ops
  /// other than constants, pre-order.
  std::vector<mlir::Operation *> work;

private:
  bool mayRewrite(mlir::Operation *conversion);

  mlir::Block *entry; ///< null for a declaration (no body)
  LayoutEquality *eq;
};

/// Runs the cleanup on `fn` to a fixed point. Every rewrite erases a
/// conversion or moves one up a chain, so it converges (each conversion
/// merges once, top-down); it fails past thirty rewrites per op
/// of `fn`, a fault's bound. Identity
/// conversions are those between one placement (LayoutEquality.h); `eq`
/// keeps its cache across calls. `changed`, when given, becomes true if the
/// cleanup changed `fn` (it is never reset). `listener`, when given, is
/// told of every op the cleanup erases (and of the driver's other
/// notifications).
/// `found`, when given, is the survey of `fn` as it is now (it is used
/// up); else the cleanup walks `fn` for it.
mlir::LogicalResult
cleanupConversions(mlir::Operation *fn, LayoutEquality &eq,
                   bool *changed = nullptr,
                   mlir::RewriterBase::Listener *listener = nullptr,
                   CleanupSurvey *found = nullptr);
mlir::LogicalResult cleanupConversions(mlir::Operation *fn,
                                       bool *changed = nullptr);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_CLEANUP_H
