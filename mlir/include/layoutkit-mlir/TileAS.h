//===- TileAS.h - The tileas dialect, attributes and ops ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `tileas` dialect (docs/mlir.md). Tile values are ranked tensors whose
/// encoding is an EncodingAttr:
///
///   tensor<128x64xf16, #tileas.encoding<smem, shared,
///                        layout =
///                        #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
///
/// A tensor without a tileas encoding is a register value whose placement is
/// not decided yet (memKindOf gives MemKind::Register).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_TILEAS_H
#define LAYOUTKIT_MLIR_TILEAS_H

#include "layoutkit-mlir/Kinds.h"
#include "layoutkit/cute/Attribute.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/Hashing.h"

#include <optional>

namespace lk::cute {
/// The hash of a layout attribute: of its canonical text (used by the
/// storage of #tileas.layout, which holds normal forms, so that equal
/// functions hash alike).
llvm::hash_code hash_value(const LayoutAttribute &a);
} // namespace lk::cute

namespace lk::tileas {

/// The normal form of `a`'s function: each top-level mode of the layout
/// coalesced (coalesced forms are canonical: two layouts with the same
/// top-level mode sizes and the same value at every index coalesce alike),
/// the swizzle and elem clauses kept. Example: ((8,16),(8,8)) :
/// ((64,512),(1,8)) -> (128,64) : (64,1).
cute::LayoutAttribute normalLayout(const cute::LayoutAttribute &a);

/// "register", "smem", "tmem", "global".
llvm::StringRef stringifyMemKind(MemKind k);
std::optional<MemKind> symbolizeMemKind(llvm::StringRef s);
/// "shared", "blocked", "dot_operand", "linear".
llvm::StringRef stringifyLayoutFamily(LayoutFamily f);
std::optional<LayoutFamily> symbolizeLayoutFamily(llvm::StringRef s);

} // namespace lk::tileas

#include "layoutkit-mlir/TileASDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "layoutkit-mlir/TileASAttrs.h.inc"

#define GET_OP_CLASSES
#include "layoutkit-mlir/TileASOps.h.inc"

namespace lk::tileas {

/// The tileas encoding of a ranked tensor, or null.
EncodingAttr encodingOf(mlir::Type type);
/// The memory kind of a tile type: its encoding's, Register without one.
MemKind memKindOf(mlir::Type type);
/// The bits one element of type `element` occupies in memory: its int or
/// float width, tf32 (19 bits of value) stored in 32; none for the others
/// (complex, vector, index), which have no width here.
/// Example: f16 -> 16, tf32 -> 32, i1 -> 1, complex<f32> -> none.
std::optional<int64_t> storageBits(mlir::Type element);

/// Registers the dialects a tileas program is written in: tileas and the
/// upstream func, arith, scf and affine around it (every tool, test and
/// benchmark of the family reads and builds programs with these).
void registerProgramDialects(mlir::DialectRegistry &registry);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_TILEAS_H
