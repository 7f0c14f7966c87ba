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

namespace lk::tileas {

class LayoutEquality;

/// Runs the cleanup on `fn` to a fixed point. Every rewrite erases a
/// conversion or moves one up a chain, so it converges (each conversion
/// merges once, top-down); it fails past ten rewrites per op and operand
/// of `fn`, a fault's bound. Identity
/// conversions are those between one placement (LayoutEquality.h); `eq`
/// keeps its cache across calls. `changed`, when given, becomes true if the
/// cleanup changed `fn` (it is never reset). `listener`, when given, is
/// told of every op the cleanup erases (and of the driver's other
/// notifications).
mlir::LogicalResult
cleanupConversions(mlir::Operation *fn, LayoutEquality &eq,
                   bool *changed = nullptr,
                   mlir::RewriterBase::Listener *listener = nullptr);
mlir::LogicalResult cleanupConversions(mlir::Operation *fn,
                                       bool *changed = nullptr);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_CLEANUP_H
