//===- Passes.h - The TileAS layout and buffer passes ------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The passes of the TileAS layout and buffer family, declared in
/// Passes.td, and `tileas-layout-pipeline`, which runs them in the
/// family's order (docs/mlir.md):
///
///   assign-load-store-layouts, remove-layout-conversions,
///   remove-buffer-alias, remove-dead-args, resolve-agent-boundary, slicing
///
/// The pipeline holds the passes of that list that exist, in that order.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_PASSES_H
#define LAYOUTKIT_MLIR_PASSES_H

#include "layoutkit-mlir/TileAS.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace lk::tileas {

#define GEN_PASS_DECL
#include "layoutkit-mlir/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "layoutkit-mlir/Passes.h.inc"

/// Adds the family's passes, in order, to `pm` (nested on func.func), run
/// to a fixed point (FixedPoint.h); `checkChangeReports` makes each round
/// check that its passes report their changes; `verifyChanges` (off only
/// where the pass manager's verifier is off too) verifies after each pass
/// the ops it changed and the whole function once at the end.
void buildTileASLayoutPipeline(mlir::OpPassManager &pm,
                               bool checkChangeReports = false,
                               bool verifyChanges = true);
/// Registers `tileas-layout-pipeline`.
void registerTileASLayoutPipeline();

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_PASSES_H
