//===- Interpreter.h - Reference interpreter of tileas -----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A reference interpreter of `tileas` functions at the logical-tensor level
/// (docs/mlir.md, "The reference interpreter"). Layouts and encodings place
/// elements, they never change values: `convert_layout` is the identity.
///
/// Every tile value is a reference {storage, offset, shape}: element
/// (i0, ..., ik) of the tile is storage[offset + row-major(i0, ..., ik)].
/// Register tiles own a fresh storage; buffers (alloc_tensor, memory-typed
/// arguments) are storages that grow on demand (zero-filled), and
/// `view {offset = k}` / `view[%k]` address the same storage k elements
/// further; `select` picks one of two references; `copy` and `tiled_store`
/// write through a reference; `produce_one` and `consume_one` take a
/// snapshot (a handoff carries the value as it was produced); `scf.while`
/// runs at most 2^20 rounds. Example: `%b = view %a {offset = 8192}` of a
/// 128x64 buffer is the second half of a 2 x 8192-element storage.
///
/// Elements are doubles (integers are exact below 2^53).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_INTERPRETER_H
#define LAYOUTKIT_MLIR_INTERPRETER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lk::tileas {

/// A tile (or a scalar: shape empty) referring to a storage at an offset.
struct InterpValue {
  std::shared_ptr<std::vector<double>> storage;
  int64_t offset = 0;
  std::vector<int64_t> shape;

  /// Number of elements: the product of the shape (1 for a scalar).
  int64_t numElements() const;
  /// The element at row-major position `i`, growing the storage if needed.
  double &at(int64_t i) const;
  /// The elements, in row-major order (a copy).
  std::vector<double> elements() const;
  /// A fresh storage holding `values` with `shape`.
  static InterpValue make(std::vector<int64_t> shape,
                          std::vector<double> values);
};

/// Runs `fn` on `args`; `results` gets the returned values. Fails (with a
/// message in `error`) on an op the interpreter does not know or a
/// malformed access.
mlir::LogicalResult interpret(mlir::func::FuncOp fn,
                              const std::vector<InterpValue> &args,
                              std::vector<InterpValue> &results,
                              std::string &error);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_INTERPRETER_H
