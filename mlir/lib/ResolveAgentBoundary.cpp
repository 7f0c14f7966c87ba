//===- ResolveAgentBoundary.cpp - tileas-resolve-agent-boundary -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Values crossing into an agent of `tileas.async.pipeline.agent_switch`
// (docs/design.md §4.1, docs/mlir.md). The agent of an op is the innermost
// agent region around it (none at the top of the function). A value used
// in agent region A but defined outside A (before the switch, or in an
// enclosing agent) crosses into A:
//
//  * a memory value (smem, tmem, global buffer) or a scalar stays direct:
//    every agent can address a buffer, and a scalar is uniform;
//  * a register tile T is handed over through shared memory, one chain per
//    (value, destination agent), shared by all of its uses in A:
//
//      // before the outermost switch that A lies in, in the defining agent
//      %buf  = tileas.alloc_tensor : S
//      %w    = tileas.copy %v, %buf {atom = "universal"} : T, S -> S
//      %slot = tileas.produce_one %w {depth = 1} : S -> S
//      ...
//      // first in agent A
//      %c = tileas.consume_one %slot : S -> S
//      %t = tileas.convert_layout %c : S -> T   // the consumers' layout
//
//    where S is T's shape and element type in `#tileas.encoding<smem,
//    shared>`. The uses of %v in A become %t.
//
// A register tile without a static shape cannot get a buffer: error. The
// output has no crossing register tile, so a second run changes nothing.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/RegionOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASRESOLVEAGENTBOUNDARY
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

/// The innermost agent region that is `r` or encloses it (null at the
/// function's top).
Region *agentAround(Region *r) {
  for (; r; r = r->getParentOp()->getParentRegion())
    if (isa<AgentSwitchOp>(r->getParentOp()))
      return r;
  return nullptr;
}

/// The agent an op runs in.
Region *agentOf(Operation *op) { return agentAround(op->getParentRegion()); }

/// A tile that lives in registers (an undecided tile counts as one).
bool isRegisterTile(Value v) {
  return isa<RankedTensorType>(v.getType()) &&
         !isMemory(memKindOf(v.getType()));
}

/// The switch before which the producer side of a crossing into `agent`
/// of a value defined in `home` goes: the switch of the outermost agent
/// region on the way from `agent` up to `home`.
Operation *outermostSwitch(Region *agent, Region *home) {
  Region *outer = agent;
  for (Region *up = agentOf(agent->getParentOp()); up != home;
       up = agentOf(up->getParentOp()))
    outer = up;
  return outer->getParentOp();
}

/// Where a crossing value goes: the value and the destination agent.
using Crossing = std::pair<Value, Region *>;

struct ResolveAgentBoundary
    : lk::tileas::impl::TileASResolveAgentBoundaryBase<ResolveAgentBoundary> {
  using Base::Base;

  void runOnOperation() override {
    // The uses of each crossing register tile, per destination agent, in
    // IR order (post-order). Only ops inside agents have uses to look at:
    // the regions of each outermost agent switch (found in the function's
    // RegionOps, RegionOps.h) are walked, in IR order.
    llvm::MapVector<Crossing, SmallVector<OpOperand *>> crossings;
    auto visit = [&](Operation *op) {
      Region *agent = agentOf(op);
      if (!agent)
        return;
      for (OpOperand &use : op->getOpOperands()) {
        Value v = use.get();
        // Dominance: a value defined inside `agent` has `agent` as its
        // agent, so a different one means it was defined outside.
        if (isRegisterTile(v) && agentAround(v.getParentRegion()) != agent)
          crossings[{v, agent}].push_back(&use);
      }
    };
    std::optional<RegionOps> local;
    for (Operation *op : regionOpsOf(getOperation(), local).preOrder)
      if (isa<AgentSwitchOp>(op) && !agentOf(op))
        for (Region &region : op->getRegions())
          region.walk(visit);
    for (auto &[crossing, uses] : crossings)
      if (failed(handOver(crossing.first, crossing.second, uses)))
        return signalPassFailure();
    // No crossing: no verifier run, and the pipeline's fixed point sees it.
    // Changed inside the pipeline: the driver verifies the noted ops.
    if (crossings.empty() || logChange())
      markAllAnalysesPreserved();
  }

  /// The shared-memory chain of one crossing (see the file comment).
  LogicalResult handOver(Value v, Region *agent, ArrayRef<OpOperand *> uses) {
    auto tile = cast<RankedTensorType>(v.getType());
    if (!tile.hasStaticShape())
      return uses.front()->getOwner()->emitOpError()
             << "uses a register tile of the enclosing scope with a dynamic "
                "shape, "
             << tile
             << "; it cannot cross into the agent: a shared-memory handoff "
                "needs a static shape";
    MLIRContext *ctx = &getContext();
    auto smem = RankedTensorType::get(
        tile.getShape(), tile.getElementType(),
        EncodingAttr::get(ctx, MemKind::Smem, LayoutFamily::Shared,
                          LayoutAttr(), "", std::nullopt));
    Operation *sw = outermostSwitch(agent, agentAround(v.getParentRegion()));
    Location loc = v.getLoc();
    OpBuilder b(sw, insertionNoter());
    Value buf = AllocTensorOp::create(b, loc, smem);
    Value written =
        CopyOp::create(b, loc, smem, v, buf, b.getStringAttr("universal"));
    Value slot =
        ProduceOneOp::create(b, loc, smem, written, b.getI64IntegerAttr(1));
    b.setInsertionPointToStart(&agent->front());
    Value consumed = ConsumeOneOp::create(b, loc, smem, slot);
    Value converted = ConvertLayoutOp::create(b, loc, tile, consumed);
    for (OpOperand *use : uses) {
      use->set(converted);
      noteChanged(use->getOwner());
    }
    ++numHandoffs;
    return success();
  }
};

} // namespace
