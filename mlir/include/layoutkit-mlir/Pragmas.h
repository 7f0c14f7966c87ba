//===- Pragmas.h - Matching pragma_begin / pragma_end ------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// A pragma_end closes the latest pragma_begin of its kind name before it in
// its block that no other pragma_end closes (a stack per name). The verifier
// and the pragma rewrite of tileas-remove-layout-conversions both match a
// block's pairs with one pass over it (docs/mlir.md, "Ops").
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUTKIT_MLIR_PRAGMAS_H
#define LAYOUTKIT_MLIR_PRAGMAS_H

#include "mlir/IR/Block.h"

#include "llvm/ADT/DenseMap.h"

namespace lk::tileas {

/// The pragma pairs of one block.
struct PragmaPairs {
  /// pragma_begin -> the pragma_end that closes it.
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> endOf;
  /// The first pragma op of the block, in block order, without a partner
  /// (a begin never closed or an end with nothing open); null when none.
  mlir::Operation *unmatched = nullptr;
};

/// Matches the pragmas of `block` in one pass: O(ops of the block).
PragmaPairs matchPragmas(mlir::Block &block);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_PRAGMAS_H
