//===- EncodingFields.h - Triton encodings from named fields ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one reader of Triton layout encodings behind every syntax: a front
/// end turns its syntax (a JSON object, a Python dict, TTGIR text) into a
/// kind and a list of named field values, and makeEncoding() checks and
/// stores them. So every syntax accepts the same names, refuses the same
/// values and reports the same diagnostic:
///
///   unknown field       "amd_mfma has no field 'mDims'"  (+ the field list)
///   missing field       "missing field 'order' (blocked needs it)"
///   wrong type          "field 'order' must be a list of integers, got
///                        true"
///   value out of range  "field 'vec' must be in 0..2^30, got -1"
///   consistency         checkEncoding(): ranks that disagree, a parent
///                        nested deeper than 8, ...
///
/// Each field carries the place its reader found it (offset and length in
/// the reader's text); given that text, the diagnostic points there with a
/// caret. Names are Triton's attribute parameters; where the JSON form of
/// the linear oracle and Triton's printed form differ, both are accepted:
///
///   kind             fields (required first; `|` spellings of one field)
///   blocked          sizePerThread, threadsPerWarp, warpsPerCTA, order
///   nvidia_mma       versionMajor, warpsPerCTA, instrShape; versionMinor
///   amd_mfma         warpsPerCTA, instrShape = [m, n(, k)] | mDim + nDim;
///                    version | versionMajor, versionMinor, isTransposed,
///                    tilesPerWarp (all ones)
///   amd_wmma         version, warpsPerCTA; isTranspose | isTransposed,
///                    instrShape = [16, 16(, k)]
///   intel_dpas       repeatCount, systolicDepth, executionSize,
///                    opsPerChan | opsPerChannel, threadsPerWarp (one
///                    integer), warpsPerCTA, repCluster
///   dot_operand      opIdx, parent; kWidth (0 when absent, as in Triton)
///   slice            dim, parent
///   swizzled_shared  vec, perPhase, maxPhase, order
///   nvmma_shared     swizzlingByteWidth | swizzleSizeInBytes,
///                    elementBitWidth; transposed, fp4Padded, order (must
///                    be the matrix order `transposed` implies)
///   shmem_for_reg_to_reg  tensorShape, repShape, order
///   linear           register, lane, warp, block (lists of bases)
///
/// A field named `CTALayout` (the linear oracle's description of the CTA
/// fields) is skipped.
/// Every kind but dot_operand, slice, intel_dpas, shmem_for_reg_to_reg and
/// linear also takes the CTA fields: CTAsPerCGA, CTASplitNum, CTAOrder
/// (all three or none) or CGALayout (bases), never both spellings.
/// Integers are 0..2^30; lists hold at most 8 entries (the rank), bases
/// lists at most 32 bases.
///
/// Example (what the TTGIR reader passes for
/// `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8,
/// order = [1, 0]}>`):
///   makeEncoding(SwizzledShared, {{"vec", 8}, {"perPhase", 1},
///                                 {"maxPhase", 8}, {"order", [1, 0]}})
///     -> the swizzled_shared encoding, one CTA.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_ENCODINGFIELDS_H
#define LAYOUTKIT_LINEAR_ENCODINGFIELDS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/Standard.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lk::linear {

/// The name of a kind in the JSON form: "blocked", "nvidia_mma",
/// "amd_mfma", "amd_wmma", "intel_dpas", "dot_operand", "slice",
/// "swizzled_shared", "nvmma_shared", "shmem_for_reg_to_reg", "linear".
std::string_view encodingKindName(EncodingKind k);
/// The kind of a JSON name (also TTGIR's "dot_op"), or nullopt.
std::optional<EncodingKind> encodingKindFromName(std::string_view name);

/// A value that fits no field type, described for the diagnostic ("a
/// string", "a number that is not an integer").
struct OtherValue {
  std::string description;
};

/// A field's value as its reader found it. An empty list is accepted where
/// a list of bases is expected.
using FieldValue = std::variant<int64_t, bool, std::vector<int64_t>,
                                std::vector<std::vector<int64_t>>,
                                std::shared_ptr<const Encoding>, OtherValue>;

/// One named field, with where its reader found it (for a caret).
struct EncodingField {
  std::string name;
  FieldValue value;
  size_t offset = 0, length = 0;
};

/// The encoding of `kind` with `fields` (see the file comment), checked by
/// the field table and then checkEncoding(). A diagnostic about a field
/// points into `source` at that field when `source` is not empty; a
/// missing field points at `kindOffset`.
Expected<Encoding> makeEncoding(EncodingKind kind,
                                std::span<const EncodingField> fields,
                                std::string_view source = {},
                                size_t kindOffset = 0);

/// The consistency checks of an encoding however it was made: integer
/// fields in 0..2^30, lists of one length where the kind needs it (e.g.
/// blocked's four lists, the CTA fields), a parent for dot_operand and
/// slice nested at most 8 deep, a layout for linear.
Status checkEncoding(const Encoding &e);

/// `d` (a failure of toLinearLayout(e, ...), which has no position) pointed
/// at the parameter it is about (d.parameter, set by the check that
/// failed) in `source`, the text e was read from: that parameter's place
/// in e.places, else in its parents' ("parent.order" starts at e's
/// parent); a field of that kind the text leaves out (kWidth absent) is
/// pointed at the kind (e.kindOffset). Unchanged when d has a position,
/// names no parameter or none of the kind's fields, or `source` is empty.
/// Example: "every entry of threadsPerWarp must be a power of two (got 5)"
/// (parameter threadsPerWarp) from `#ttg.blocked<{..., threadsPerWarp =
/// [8, 5], ...}>` -> the caret under `threadsPerWarp`'s place.
Diagnostic placeAtField(Diagnostic d, const Encoding &e,
                        std::string_view source);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_ENCODINGFIELDS_H
