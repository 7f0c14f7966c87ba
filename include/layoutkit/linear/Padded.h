//===- Padded.h - Linear layouts of non-power-of-two shapes ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A linear layout needs power-of-two dim sizes. A tensor of another shape
/// is held in the layout of its padded shape (each extent rounded up to the
/// next power of two) with a *mask*: the coordinates past the logical
/// extent are padding, never read or written (docs/linear.md,
/// "Non-power-of-two shapes").
///
/// ## The model
///
/// A PaddedLayout is a hardware -> logical linear layout L (Triton's
/// direction: register / lane / warp / offset -> dim0, dim1, ...) whose
/// out-dim d has size P_d = nextPow2(n_d), together with the logical shape
/// n = (n_0, ..., n_{r-1}), one extent per out-dim in out-dim order.
///
///   valid(y)  = y_d < n_d for every out-dim d     (y a logical coordinate)
///   valid(x)  = valid(L(x))                       (x a hardware input)
///
///   elements  = prod P_d,  valid elements = prod n_d,
///   padded elements = elements - valid elements,
///   fraction  = padded elements / elements.
///
/// Slots are the hardware inputs x (every register of every lane of every
/// warp, or every offset): slots = prod of the in-dim sizes, masked slots
/// = #{x : !valid(x)}. With broadcast (zero columns) several slots hold one
/// element, so slots and elements are counted separately.
///
/// A value v of in-dim k is *fully masked* when every input with that
/// value holds padding: for all x with x_k = v, !valid(x). Such a register
/// is never allocated, such a lane or warp never issues an access, such an
/// offset is never touched.
///
/// ## Worked example
///
/// blocked(sizePerThread [2], threadsPerWarp [32], warpsPerCTA [1]) over
/// the shape [48], built over the padded shape [64]:
///
///   {register: [(1)], lane: [(2), (4), (8), (16), (32)]} -> {dim0: 64}
///
/// Register r of lane l holds element 2l + r. It is valid when 2l + r < 48,
/// i.e. l < 24 (for both r). So lanes 24..31 are fully masked (8 of 32
/// lanes, each with 2 padded slots); no register is fully masked (lane 0
/// holds the valid elements 0 and 1). Elements 64, valid 48, padded 16
/// (fraction 0.25); slots 64, masked 16.
///
/// Registers get masked when the register bits are the high ones:
/// {register: [(16), (32)], lane: [(1), (2), (4), (8)]} -> {dim0: 64} over
/// [48] holds element 16r + l in register r of lane l; register 3 holds
/// 48..63 in every lane: register 3 is fully masked, no lane is.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_PADDED_H
#define LAYOUTKIT_LINEAR_PADDED_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace lk::linear {

/// The smallest power of two >= n: nextPow2(48) = 64, nextPow2(64) = 64,
/// nextPow2(1) = 1. Fails for n < 1 and for n > 2^62, whose next power of
/// two (2^63) is beyond int64 ("integer overflow in the padded extent: the
/// power of two >= 9223372036854775807 is 2^63, beyond int64").
Expected<int64_t> nextPow2(int64_t n);

/// The padded shape: nextPow2 of every extent. Fails on an extent < 1 or
/// above 2^62 (naming the dim).
Expected<std::vector<int64_t>> paddedShape(std::span<const int64_t> logical);

/// The values of one in-dim whose every slot holds padding.
struct MaskedInputs {
  DimId dim = 0;
  int64_t size = 0;            ///< the in-dim's size
  std::vector<int64_t> values; ///< fully masked values, ascending
};

/// What padding costs (see the file comment for the definitions).
struct Waste {
  int64_t elements = 0, validElements = 0, paddedElements = 0;
  int64_t slots = 0, maskedSlots = 0;
  double fraction = 0; ///< paddedElements / elements
  /// One entry per in-dim, in in-dim order.
  std::vector<MaskedInputs> masked;
  /// "16 of 64 elements padded (25%); 16 of 64 slots masked; lane: 8 of 32
  /// masked (24..31)" (values as ranges; in-dims with none left out).
  std::string str() const;
};

/// "24..31", "3", "0..1, 6" for ascending values.
std::string rangesText(std::span<const int64_t> values);

class PaddedLayout {
public:
  /// Work bound of maskedInputs / waste: at most 2^kMaxEnumerationBits
  /// inputs are visited.
  static constexpr int kMaxEnumerationBits = 24;

  /// Builds from a layout whose out-dim d has size nextPow2(logical[d]).
  /// Fails when the rank differs from the number of out-dims, an extent is
  /// < 1, or an out-dim's size is not the next power of two of its extent
  /// ("out-dim dim0 has size 32; the padded extent of 48 is 64"); the rank
  /// and size faults name the parameter "logical" (Diagnostic::parameter).
  static Expected<PaddedLayout> make(LinearLayout layout,
                                     std::span<const int64_t> logical);

  const LinearLayout &layout() const { return layout_; }
  std::span<const int64_t> logicalShape() const { return logical_; }
  /// True when some extent is not a power of two (something is masked).
  bool isPadded() const;

  /// valid(y) for a flattened output y of the layout.
  bool validOut(uint64_t flatOut) const;
  /// valid(L(x)) for a flattened input x.
  bool validIn(uint64_t flatIn) const {
    return validOut(layout_.applyFlat(flatIn));
  }

  int64_t elements() const { return layout_.totalOutSize(); }
  int64_t validElements() const;
  int64_t paddedElements() const { return elements() - validElements(); }

  /// Fully masked values of every in-dim (in-dim order). Visits every input
  /// once; fails past 2^kMaxEnumerationBits inputs.
  Expected<std::vector<MaskedInputs>> maskedInputs() const;
  /// The waste report (visits every input once, same bound).
  Expected<Waste> waste() const;

  /// "<layout text> over (48)" with the logical shape.
  std::string str() const;

private:
  LinearLayout layout_;
  std::vector<int64_t> logical_;
};

/// Builds the layout of the padded shape of `logical` with `build` (e.g. a
/// standard layout's constructor, given the padded shape) and masks it:
///
///   pad({48}, [&](std::span<const int64_t> s) {
///     return blockedLayout(spt, tpw, wpc, order, s);   // s = {64}
///   })   -> the worked example of the file comment
///
/// Fails when the shape is not padded (paddedShape) or `build` fails, or
/// as PaddedLayout::make.
Expected<PaddedLayout>
pad(std::span<const int64_t> logical,
    const std::function<Expected<LinearLayout>(std::span<const int64_t>)>
        &build);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_PADDED_H
