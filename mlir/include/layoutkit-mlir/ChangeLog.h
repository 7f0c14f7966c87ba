//===- ChangeLog.h - The ops a pass changed, verified alone -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Inside `tileas-layout-pipeline` the fixed-point driver (FixedPoint.h)
/// verifies after each pass the ops that pass changed, instead of the
/// whole function (MLIR's verifier after every changing pass), and the
/// whole function once when the family is done. The passes record here
/// what they change, at the place they change it:
///
/// * `noteChanged(op)`: `op` was created, moved, or had an operand, an
///   attribute or a result type changed;
/// * `noteUsers(v)`: the ops that use `v` (called after their operands
///   were set to `v`, or before `v`'s uses move elsewhere);
/// * `noteRetyped(v)`: `v` changed type: its defining op (for a block
///   argument, the op that owns the block) and its users;
/// * `insertionNoter()`: a builder listener that notes each op the builder
///   inserts (a builder reports the ops it creates in a new op's regions,
///   and those of a clone's regions, one by one);
/// * `eraseOp(op)`: forgets `op` and the ops nested in it, then erases
///   it (a record never points at a freed op).
///
/// The same notes keep the driver's lists of ops with regions and selects
/// up to date (RegionOps.h).
///
/// A noted terminator notes its parent too (unless that is isolated from
/// above, a function, whose terminator checks itself): the parent's
/// verifier compares the yielded types with its own. Verifying a noted op
/// is what MLIR's verifier checks of that op itself: its operands are
/// present, its invariants (operand and result constraints, traits,
/// verify()) and region invariants (traits over its regions,
/// verifyRegions()) hold, and each operand's definition dominates it. The
/// ops inside its regions are not visited (a changed one is noted itself).
///
/// Outside the driver (a pass run alone) no log is active: every call is
/// a no-op, and `logChange()` is false, so a pass that changed the
/// function does not preserve analyses and the pass manager verifies the
/// whole function after it, as MLIR does.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_CHANGELOG_H
#define LAYOUTKIT_MLIR_CHANGELOG_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace lk::tileas {

/// The ops noted by the passes of one step of the driver.
class ChangeLog {
public:
  void note(mlir::Operation *op);
  void forget(mlir::Operation *op);
  /// Set by a pass that changed the function (logChange).
  bool changed = false;
  /// Verifies each noted op (see above), last noted first (those are the
  /// likeliest still in cache) with diagnostics held back; on a failure,
  /// again in the order they were first noted, up to the first invalid
  /// op, whose error alone is emitted.
  mlir::LogicalResult verify();
  /// Drops the records (the function they were about has been verified).
  void clear();
  size_t size() const { return live.size(); }

private:
  /// The noted ops not erased since; `order` may hold erased ones too,
  /// which are skipped (never dereferenced) unless noted again.
  llvm::DenseSet<mlir::Operation *> live;
  std::vector<mlir::Operation *> order;
};

/// While alive, the passes on this thread note their changes in `*log`.
class ActiveChangeLog {
public:
  explicit ActiveChangeLog(ChangeLog *log);
  ~ActiveChangeLog();
  ActiveChangeLog(const ActiveChangeLog &) = delete;
  ActiveChangeLog &operator=(const ActiveChangeLog &) = delete;

private:
  ChangeLog *saved;
};

/// The log active on this thread, or null.
ChangeLog *activeChangeLog();

void noteChanged(mlir::Operation *op);
void noteUsers(mlir::Value v);
void noteRetyped(mlir::Value v);
void eraseOp(mlir::Operation *op);

/// A builder listener that notes the ops a builder inserts while a log is
/// active; null otherwise.
mlir::OpBuilder::Listener *insertionNoter();

/// For a pass that changed the function, at its end: true when a log is
/// active (the driver verifies the noted ops), and the pass then preserves
/// all analyses, so that the pass manager does not verify the whole
/// function after it; false outside the driver.
bool logChange();

/// A rewrite listener that notes what a rewriter does (ops inserted,
/// modified, erased; the users of replaced ops) in the active log, and
/// forwards every notification to `next` (may be null).
class ChangeLogListener : public mlir::RewriterBase::ForwardingListener {
public:
  explicit ChangeLogListener(mlir::OpBuilder::Listener *next)
      : ForwardingListener(next) {}
  void notifyOperationInserted(mlir::Operation *op,
                               mlir::OpBuilder::InsertPoint previous) override;
  void notifyOperationModified(mlir::Operation *op) override;
  void notifyOperationReplaced(mlir::Operation *op,
                               mlir::Operation *replacement) override;
  void notifyOperationReplaced(mlir::Operation *op,
                               mlir::ValueRange replacement) override;
  void notifyOperationErased(mlir::Operation *op) override;
};

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_CHANGELOG_H
