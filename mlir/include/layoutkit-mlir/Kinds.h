//===- Kinds.h - Memory kinds and layout families ----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where a tile value lives (MemKind) and which layout family places it
/// (LayoutFamily), the two keys of `#tileas.encoding<kind, family>`.
/// Plain C++, shared by the dialect and the cost model.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_KINDS_H
#define LAYOUTKIT_MLIR_KINDS_H

#include <cstdint>

namespace lk::tileas {

/// Where a tile value lives.
enum class MemKind : uint32_t { Register, Smem, Tmem, Global };
/// The layout family that places it (Triton's encodings).
enum class LayoutFamily : uint32_t { Shared, Blocked, DotOperand, Linear };

/// True for smem, tmem and global.
inline bool isMemory(MemKind k) { return k != MemKind::Register; }

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_KINDS_H
