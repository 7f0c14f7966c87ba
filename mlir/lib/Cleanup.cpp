//===- Cleanup.cpp - The conversion cleanup shared by the passes ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// A worklist of the ops the cleanup can change, not the whole function:
//
//  1. one pre-order walk puts every constant into an OperationFolder (which
//     hoists it to the top of the function and replaces duplicates, the
//     first one seen in pre-order staying), and every conversion and every
//     trivially dead op on the worklist;
//  2. the worklist runs top-down (in the walk's order): a dead op goes, and
//     the producers of the values it (or an op nested in it) used from
//     outside are looked at again, as they may be dead now; a conversion
//     folds when it is an identity or the second of a chain, and what the
//     fold can have enabled goes back on the list: the conversions whose
//     operand it changed (the users of the folded conversion, which now use
//     its source or the merged conversion) and the merged conversion.
//
// Top-down, a conversion is visited after the conversion it converts, which
// has already merged with its own chain, so each conversion merges once and
// a chain of n conversions takes O(n) steps. Every fold erases a conversion
// or replaces one by a conversion of an earlier value of the chain, so the
// list empties. The step bound (ten per op and operand of the function)
// is there to turn a fault into a failure instead of a hang.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/FoldUtils.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

using namespace mlir;
using namespace lk::tileas;

namespace {

bool sameMemKind(Type a, Type b) { return memKindOf(a) == memKindOf(b); }

/// True when every user of `cvt` still verifies with the conversion's
/// source in its place (a terminator: its parent op too, which checks what
/// it yields). The uses are restored; the verifier's messages are dropped.
bool usersAccept(ConvertLayoutOp cvt) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : cvt->getUses())
    uses.push_back(&use);
  for (OpOperand *use : uses)
    use->set(cvt.getSource());
  ScopedDiagnosticHandler quiet(cvt->getContext(),
                                [](Diagnostic &) { return success(); });
  bool ok = llvm::all_of(uses, [](OpOperand *use) {
    Operation *user = use->getOwner();
    Operation *parent = user->getParentOp();
    return succeeded(verify(user, /*verifyRecursively=*/false)) &&
           (!user->hasTrait<OpTrait::IsTerminator>() || !parent ||
            succeeded(verify(parent, /*verifyRecursively=*/false)));
  });
  for (OpOperand *use : uses)
    use->set(cvt.getResult());
  return ok;
}

/// A LIFO worklist without duplicates; an op taken off it (erased) leaves
/// a hole that pop() skips.
class Worklist {
public:
  void push(Operation *op) {
    if (op && where_.try_emplace(op, ops_.size()).second)
      ops_.push_back(op);
  }
  Operation *pop() {
    while (!ops_.empty()) {
      Operation *op = ops_.back();
      ops_.pop_back();
      if (op) {
        where_.erase(op);
        return op;
      }
    }
    return nullptr;
  }
  void remove(Operation *op) {
    auto it = where_.find(op);
    if (it == where_.end())
      return;
    ops_[it->second] = nullptr;
    where_.erase(it);
  }

private:
  std::vector<Operation *> ops_;
  llvm::DenseMap<Operation *, size_t> where_;
};

class Cleanup {
public:
  Cleanup(Operation *fn, LayoutEquality &eq)
      : fn_(fn), eq_(eq), folder_(fn->getContext()) {}

  LogicalResult run(bool &changed);

private:
  void seed(bool &changed);
  void eraseDead(Operation *op);
  bool foldIdentity(ConvertLayoutOp cvt);
  bool foldChain(ConvertLayoutOp cvt);
  SmallVector<Operation *, 4> convertUsers(Value v);

  Operation *fn_;
  LayoutEquality &eq_;
  OperationFolder folder_;
  Worklist work_;
  size_t size_ = 0; ///< ops and operands of the function
};

/// Step 1: constants into the folder, conversions and dead ops onto the
/// list so that they come off it in pre-order.
void Cleanup::seed(bool &changed) {
  std::vector<Operation *> constants, found;
  fn_->walk<WalkOrder::PreOrder>([&](Operation *op) {
    size_ += 1 + op->getNumOperands();
    if (op == fn_)
      return;
    if (op->hasTrait<OpTrait::ConstantLike>() && !isOpTriviallyDead(op))
      constants.push_back(op);
    else if (isa<ConvertLayoutOp>(op) || isOpTriviallyDead(op))
      found.push_back(op);
  });
  for (auto it = found.rbegin(); it != found.rend(); ++it)
    work_.push(*it);
  for (Operation *c : constants) {
    Attribute value;
    if (!matchPattern(c, m_Constant(&value)))
      continue; // a constant-like op that does not fold: left alone
    Block *block = c->getBlock();
    Operation *before = c->getPrevNode();
    if (!folder_.insertKnownConstant(c, value) || c->getBlock() != block ||
        c->getPrevNode() != before)
      changed = true; // replaced by an earlier twin, or hoisted
  }
}

/// Erases a dead op (its nested ops leave the list with it) and queues the
/// producers of the values it and its nested ops used from outside it,
/// which may be dead now (e.g. a constant used only in a dead loop's body).
void Cleanup::eraseDead(Operation *op) {
  SmallVector<Operation *, 4> producers;
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (Operation *p = v.getDefiningOp(); p && !op->isAncestor(p))
        producers.push_back(p);
    work_.remove(nested);
    if (nested->hasTrait<OpTrait::ConstantLike>())
      folder_.notifyRemoval(nested);
  });
  op->erase();
  for (Operation *p : producers)
    if (isOpTriviallyDead(p))
      work_.push(p);
}

/// The conversions among the users of `v` (collected before a fold moves
/// them to another value).
SmallVector<Operation *, 4> Cleanup::convertUsers(Value v) {
  SmallVector<Operation *, 4> users;
  for (Operation *user : v.getUsers())
    if (isa<ConvertLayoutOp>(user))
      users.push_back(user);
  return users;
}

/// convert_layout(x : A -> B) is x when A and B are one placement and the
/// users take x (a conversion between two types of one function that a
/// user needs by name, e.g. a function result, stays).
bool Cleanup::foldIdentity(ConvertLayoutOp cvt) {
  Value source = cvt.getSource();
  Type from = source.getType();
  if (from != cvt.getType() &&
      (!eq_.equal(from, cvt.getType()) || !usersAccept(cvt)))
    return false;
  SmallVector<Operation *, 4> moved = convertUsers(cvt.getResult());
  cvt.getResult().replaceAllUsesWith(source);
  eraseDead(cvt);
  for (Operation *user : moved)
    work_.push(user);
  return true;
}

/// convert(convert(x : A -> B) : B -> C) is convert(x : A -> C) when A, B
/// and C share a memory kind; the first conversion goes when nothing else
/// uses it.
bool Cleanup::foldChain(ConvertLayoutOp cvt) {
  auto inner = cvt.getSource().getDefiningOp<ConvertLayoutOp>();
  if (!inner)
    return false;
  Type a = inner.getSource().getType(), b = inner.getType(), c = cvt.getType();
  if (!sameMemKind(a, b) || !sameMemKind(b, c))
    return false;
  OpBuilder builder(cvt);
  auto merged =
      ConvertLayoutOp::create(builder, cvt.getLoc(), c, inner.getSource());
  SmallVector<Operation *, 4> moved = convertUsers(cvt.getResult());
  cvt.getResult().replaceAllUsesWith(merged.getResult());
  eraseDead(cvt);
  work_.push(merged);
  for (Operation *user : moved)
    work_.push(user);
  return true;
}

/// Step 2: the worklist, top-down, within the step bound.
LogicalResult Cleanup::run(bool &changed) {
  seed(changed);
  const size_t bound = 10 * size_ + 64;
  for (size_t steps = 0; Operation *op = work_.pop(); ++steps) {
    if (steps == bound)
      return failure();
    if (isOpTriviallyDead(op)) {
      eraseDead(op);
      changed = true;
      continue;
    }
    auto cvt = dyn_cast<ConvertLayoutOp>(op);
    if (cvt && (foldIdentity(cvt) || foldChain(cvt)))
      changed = true;
  }
  return success();
}

} // namespace

LogicalResult lk::tileas::cleanupConversions(Operation *fn,
                                             LayoutEquality &eq,
                                             bool *changed) {
  bool rewrote = false;
  LogicalResult result = Cleanup(fn, eq).run(rewrote);
  if (changed && rewrote)
    *changed = true;
  return result;
}

LogicalResult lk::tileas::cleanupConversions(Operation *fn, bool *changed) {
  LayoutEquality eq;
  return cleanupConversions(fn, eq, changed);
}
