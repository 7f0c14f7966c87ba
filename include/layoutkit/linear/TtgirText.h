//===- TtgirText.h - Triton's layout attributes as TTGIR text ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the layout attributes of Triton's GPU dialect as an IR dump prints
/// them, and prints an Encoding back in that form. The fields go through
/// makeEncoding() (EncodingFields.h), so the names, ranges and diagnostics
/// are those of the JSON form; each diagnostic points at the field (or the
/// kind) with a caret.
///
/// Grammar (blanks and newlines free between tokens):
///
///   text     := line* layout          one layout, after alias lines
///   line     := '#' name '=' attr     an alias, usable by later lines
///             | '//' comment
///   layout   := attr | type
///   type     := 'tensor<' dims elem ',' attr '>'
///             | '!ttg.memdesc<' dims elem ',' attr (',' anything)* '>'
///   dims     := (N 'x')+              the tensor shape, e.g. 128x64x
///   attr     := '#' name              an alias defined above
///             | '#ttg.' kind '<{' (field (',' field)*)? '}>'
///   field    := name '=' value
///   value    := integer | 'true' | 'false' | '[' (value (',' value)*)? ']'
///             | attr                  (a parent)
///
/// `#triton_gpu.` is read as `#ttg.`. The kinds (TTGIR name -> Encoding):
/// blocked, nvidia_mma (versions 2 and 3), amd_mfma, amd_wmma, dot_op,
/// slice, swizzled_shared, nvmma_shared, linear. When the text is only
/// alias lines, the last alias is the layout.
///
/// Examples:
///   #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
///                 warpsPerCTA = [4, 1], order = [1, 0]}>
///     -> blocked, no shape
///   #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0,
///                           warpsPerCTA = [4, 1], instrShape = [16, 8]}>
///   tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
///     -> dot_operand of that mma, shape [128, 64]
///   #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32],
///                 warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
///     -> two CTAs splitting dim0
///   #ttg.blocked<{sizePerThread = [1, 4], order = [1, 0]}>
///     -> error "missing field 'threadsPerWarp' (blocked needs it)", caret
///        under "blocked"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_TTGIRTEXT_H
#define LAYOUTKIT_LINEAR_TTGIRTEXT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/Standard.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lk::linear {

/// A layout read from TTGIR text.
struct TtgirLayout {
  Encoding encoding;
  /// The shape of the tensor (or memdesc) type, when the text is a type.
  std::optional<std::vector<int64_t>> shape;
  /// Whether the type is a `!ttg.memdesc` (shared memory).
  bool memdesc = false;
  /// The type's element type as written (`f16`, `!tt.ptr<f32>`) and its
  /// byte offset in the text; empty for an attribute alone.
  std::string elem;
  size_t elemAt = 0;
};

/// Reads TTGIR text (see the file comment).
Expected<TtgirLayout> parseTtgir(std::string_view text);

/// The encoding's TTGIR attribute, parents inline, CTA fields when set
/// (as `CGALayout` when given so, else CTAsPerCGA/CTASplitNum/CTAOrder).
/// Fails for kinds Triton's GPU dialect does not print (intel_dpas,
/// shmem_for_reg_to_reg).
/// Example: the blocked encoding above prints as
///   #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
///   warpsPerCTA = [4, 1], order = [1, 0]}>   (one line)
Expected<std::string> printTtgir(const Encoding &e);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_TTGIRTEXT_H
