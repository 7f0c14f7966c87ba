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
    and chains within one memory kind. A conversion between memory kinds
    never folds; one with a fence, async_wait or a pipeline of depth > 1
    between it and its producer stays. See docs/mlir.md.
  }];
  let dependentDialects = ["::lk::tileas::TileASDialect"];
}

def TileASRemoveBufferAlias
    : InterfacePass<"tileas-remove-buffer-alias",
                    "mlir::FunctionOpInterface"> {
  let summary = "rewrites aliased smem/tmem buffers through selects and "
                "loops onto their canonical allocation";
  let description = [{
    Traces a buffer back through view, copy, select and scf.for iter-args
    to its alloc_tensor and the element offset it accumulated. A
    tileas.select of two buffers of one allocation becomes
    view(alloc, offset = select(cond, offset_true, offset_false)) (through
    a copy into a fresh buffer when the select's layout differs); uses of
    a loop-carried buffer whose init and yield are the same allocation at
    the same offset refer to the allocation directly. An untraceable
    buffer, or a select whose arms trace to different allocations, gets
    the warning "Cannot find last written SSA." and stays.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileASRemoveDeadArgs
    : InterfacePass<"tileas-remove-dead-args", "mlir::FunctionOpInterface"> {
  let summary = "removes dead block arguments of scf.for and "
                "tileas.async.pipeline.execute";
  let description = [{
    An scf.for iter-arg is dead when its only use is being yielded back
    unchanged at its own position (uses of its result become the init
    value), or when neither it nor its result has a use; it goes with its
    init operand, its yield operand and its result. A block argument of
    tileas.async.pipeline.execute with no use goes with its operand.
    Feeding the terminator at another position keeps an argument live.
  }];
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
