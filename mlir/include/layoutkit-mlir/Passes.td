//===- Passes.td - The TileAS layout and buffer passes ------*- tablegen -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUTKIT_MLIR_PASSES_TD
#define LAYOUTKIT_MLIR_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileASAssignLoadStoreLayouts
    : InterfacePass<"tileas-assign-load-store-layouts",
                    "mlir::FunctionOpInterface"> {
  let summary = "chooses the memory kind, layout and copy atom of each "
                "load/store pipeline alias group";
  let description = [{
    Groups tiled loads and stores along produce_one / consume_one edges and
    convert_layout seeds, collects the candidates of each op, prunes those
    whose memory kind or layout family the whole group cannot share and
    those that are structurally illegal, and keeps the cheapest by
    w_smem * wavefronts + w_tmem * tcgen05 instructions + w_reg * registers
    (ties: fewer registers, then fewer bank-conflict wavefronts). The winner
    is written as the `tileas.layout` / `tileas.atom` attributes and into
    the result types. See docs/mlir.md.
  }];
  let dependentDialects = ["::lk::tileas::TileASDialect"];
  let options = [
    Option<"arch", "arch", "std::string", "\"sm_90\"",
           "target architecture: sm_80, sm_90, sm_100 or sm_103">,
    Option<"numWarps", "num-warps", "int64_t", "4",
           "warps that share a register tile">,
    ListOption<"weights", "weights", "double",
               "cost weights (smem wavefronts, tmem instructions, registers); "
               "default 1,4,0.25">,
    Option<"explain", "explain", "bool", "false",
           "attach a remark listing every candidate and its score">,
  ];
}

def TileASRemoveLayoutConversions
    : InterfacePass<"tileas-remove-layout-conversions",
                    "mlir::FunctionOpInterface"> {
  let summary = "commutes and deletes redundant convert_layout ops";
  let description = [{
    propagate (buffer side backwards: a producer whose result carries its
    layout is retyped to the conversion's target; register side forwards:
    conversions sink through elementwise ops) -> cleanup -> rewrite
    layout-sensitive ops (scf.if arms that convert alike convert once after
    the merge) -> cleanup -> cleanup. Cleanups fold identity conversions
    and chains within one memory kind; a conversion between two types of
    one placement (LayoutKit decides: LayoutEquality.h) is an identity. A
    conversion between memory kinds never folds; one with a fence,
    async_wait or a pipeline of depth > 1 between it and its producer
    stays. See docs/mlir.md.
  }];
  let dependentDialects = ["::lk::tileas::TileASDialect"];
}

def TileASReportConversions : Pass<"tileas-report-conversions"> {
  let summary = "remarks naming the conversion planner's strategy and cost "
                "of every convert_layout";
  let description = [{
    Emits a remark on every tileas.convert_layout: the strategy and cost
    that LayoutKit's conversion planner (api::planConversion) gives it, in
    the words of `layoutkit plan`, when both sides are register values
    whose encodings carry a (thread, value) layout; otherwise why it is not
    planned (a conversion between memory kinds, buffers, a side without a
    placement). Changes nothing. Run it after
    tileas-remove-layout-conversions to see what remains. See docs/mlir.md.
  }];
  let options = [
    Option<"arch", "arch", "std::string", "\"sm_90\"",
           "target architecture of the plans: sm_80, sm_90, sm_100 or sm_103">,
  ];
}

def TileASRemoveBufferAlias
    : InterfacePass<"tileas-remove-buffer-alias",
                    "mlir::FunctionOpInterface"> {
  let summary = "rewrites aliased smem/tmem buffers through selects and "
                "loops onto their canonical allocation";
  let description = [{
    Traces a buffer back through view, copy, select, scf.if results and
    scf.for iter-args to its alloc_tensor and the element offset it
    accumulated. A
    tileas.select of two buffers of one allocation becomes
    view(alloc, offset = select(cond, offset_true, offset_false)) (through
    a copy into a fresh buffer when the select's layout differs); uses of
    a loop-carried buffer whose init and yield are the same allocation at
    the same offset refer to the allocation directly. An untraceable
    buffer, or a select whose arms trace to different allocations, gets
    the warning "Cannot find last written SSA." and stays.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"explain", "explain", "bool", "false",
           "attach a remark with the sweeps that rewrote an alias and the "
           "deepest alias chain rewritten">,
  ];
  let statistics = [
    Statistic<"numSweeps", "sweeps",
              "sweeps that rewrote an alias (an alias chain of depth N "
              "takes N)">,
    Statistic<"numAliases", "aliases", "aliases rewritten">,
    Statistic<"numDeepest", "deepest-chain",
              "alias ops between the deepest rewritten alias and its "
              "allocation">,
  ];
}

def TileASRemoveDeadArgs
    : InterfacePass<"tileas-remove-dead-args", "mlir::FunctionOpInterface"> {
  let summary = "removes dead block arguments, operands and results of "
                "every region-branch op (scf.for, scf.while, scf.if, "
                "tileas.async.pipeline.*)";
  let description = [{
    Reads each RegionBranchOpInterface op through the interface: a slot is
    the forwarded operands (entry operands, terminator operands) and the
    inputs (block arguments, results) they populate. A slot whose inputs
    are used only by its own forwarded operands goes (an scf.for iter-arg
    yielded back at its own position with an unused result, an unused
    scf.while argument, an unused scf.if result). A cycle of slots, one
    region each, that only carries one entry value x (an scf.for iter-arg
    only yielded back; an scf.while before-argument only passed on and
    yielded back at its position) goes, and the uses of its results become
    x. Arguments that rotate between positions stay. Indices go from the
    highest down, in one step the verifier accepts.
  }];
  let statistics = [
    Statistic<"numSlots", "removed-slots",
              "slots (argument, operands, result) removed">,
  ];
}

def TileASResolveAgentBoundary
    : InterfacePass<"tileas-resolve-agent-boundary",
                    "mlir::FunctionOpInterface"> {
  let summary = "hands register tiles crossing into an agent_switch agent "
                "over through shared memory";
  let description = [{
    A value used in an agent region of tileas.async.pipeline.agent_switch
    and defined outside it crosses into the agent. A buffer (smem, tmem,
    global) or a scalar stays direct. A register tile goes through
    alloc_tensor (smem) + copy + produce_one before the outermost switch
    on the way, and consume_one + convert_layout back to its type at the
    start of the agent: one chain per (value, agent), shared by the uses
    in that agent.
  }];
  let dependentDialects = ["::lk::tileas::TileASDialect"];
  let statistics = [
    Statistic<"numHandoffs", "handoffs",
              "register tiles handed over through shared memory">,
  ];
}

def TileASSlicing
    : InterfacePass<"tileas-slicing", "mlir::FunctionOpInterface"> {
  let summary = "splits scf.for loops carrying sliceCount into consecutive "
                "loops over equal sub-ranges";
  let description = [{
    An scf.for with `sliceCount = N` (an integer attribute) whose trip count
    T is a multiple of N becomes N loops over [lb + k*c, lb + (k+1)*c) with
    c = (T / N) * step, each a clone of the body on its own induction
    variable, slice k + 1 starting from slice k's results. The lower bound
    must be a constant plus multiples of enclosing induction variables and
    the extent (upper minus lower bound) and step constants. Every sliced
    loop is planned before any is rewritten; a plan that fails reports one
    of the six slicing diagnostics and the pass changes nothing. See
    docs/mlir.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // LAYOUTKIT_MLIR_PASSES_TD
