//===- Standard.h - Triton's standard GPU layouts as linear layouts -*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Constructors that produce, for the same parameters, exactly the bases
/// Triton's `toLinearLayout` produces (LinearLayoutConversions.cpp); the
/// transcribed expectations of tests/data/linear-public.jsonl pin
/// them. Register layouts have input dims [register, lane, warp, block];
/// memory layouts [offset, block]; output dims are dim0, dim1, ... (dim0 the
/// most major tensor dimension, as in Triton).
///
/// An *order* lists tensor dims from the fastest-varying to the slowest
/// (Triton's `order`). `shape` is the logical tensor shape; every
/// constructor ends with the tensor-shape handling of combineCtaCgaWithShape:
/// a layout smaller than the tensor repeats its registers (offsets) to cover
/// it, a larger one broadcasts: its largest bases are zeroed.
///
/// Worked example: blocked(sizePerThread [2], threadsPerWarp [4],
/// warpsPerCTA [1], order [0]) on shape [32]: the CTA tile covers 8 elements
/// (register [1], lane [2, 4]); the tensor is 4x larger, so two register
/// bits are added above: register [1, 8, 16], lane [2, 4].
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_STANDARD_H
#define LAYOUTKIT_LINEAR_STANDARD_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <memory>
#include <span>
#include <vector>

namespace lk::linear {

/// How the CTAs of a cluster (CGA) split the tensor (Triton's CTALayoutAttr).
struct CTALayout {
  std::vector<unsigned> ctasPerCGA, ctaSplitNum, ctaOrder;
  /// One CTA: all ones, order [rank-1, ..., 0].
  static CTALayout single(size_t rank);
};

enum class EncodingKind {
  Blocked,
  NvidiaMma,        ///< versionMajor 2 (mma.sync) or 3 (wgmma) accumulator
  AmdMfma,          ///< AMD MFMA accumulator (mDim = nDim = 16 or 32)
  AmdWmma,          ///< AMD WMMA accumulator (version 1 or 2)
  DotOperand,       ///< operand opIdx of a dot whose accumulator is `parent`
  Slice,            ///< `parent` with dim `dim` removed
  SwizzledShared,   ///< shared memory, vec/perPhase/maxPhase swizzle
  NvmmaShared,      ///< shared memory for (w)gmma: 0/32/64/128-byte swizzle
  ShmemForRegToReg, ///< the scratch layout of a register-to-register conversion
};

/// A Triton layout attribute: the fields of `kind` are used, the others
/// ignored. Names follow Triton's attribute parameters.
struct Encoding {
  EncodingKind kind = EncodingKind::Blocked;
  std::vector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  int versionMajor = 2, versionMinor = 0;
  std::vector<unsigned> instrShape;
  int mDim = 32, nDim = 32;
  bool isTransposed = false;
  int version = 1; ///< wmma
  int opIdx = 0, kWidth = 0;
  int dim = 0; ///< slice
  std::shared_ptr<const Encoding> parent;
  int vec = 1, perPhase = 1, maxPhase = 1;
  int swizzleSizeInBytes = 128, elementBitWidth = 16;
  bool transposed = false, fp4Padded = false;
  std::vector<unsigned> tensorShape, repShape; ///< shmem_for_reg_to_reg
  CTALayout cta;
};

/// The linear layout of `enc` applied to a tensor of `shape`. Fails with a
/// diagnostic on parameters Triton rejects (ranks that disagree, sizes that
/// are not powers of two, an unsupported combination).
Expected<LinearLayout> toLinearLayout(const Encoding &enc,
                                      std::span<const int64_t> shape);

//===----------------------------------------------------------------------===//
// Direct constructors (thin wrappers over toLinearLayout)
//===----------------------------------------------------------------------===//

Expected<LinearLayout> blockedLayout(std::span<const unsigned> sizePerThread,
                                     std::span<const unsigned> threadsPerWarp,
                                     std::span<const unsigned> warpsPerCTA,
                                     std::span<const unsigned> order,
                                     std::span<const int64_t> shape,
                                     const CTALayout *cta = nullptr);
/// versionMajor 2: instrShape is the [m, n] (or [1, m, n]) tile; 3: [m, n, k].
Expected<LinearLayout> nvidiaMmaLayout(int versionMajor,
                                       std::span<const unsigned> instrShape,
                                       std::span<const unsigned> warpsPerCTA,
                                       std::span<const int64_t> shape,
                                       const CTALayout *cta = nullptr);

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix
//===----------------------------------------------------------------------===//

/// The register layout ldmatrix produces for dot operand `dot` (an
/// NvidiaMma parent) of `shape` with elements of `elemBitWidth`, with or
/// without .trans (Triton's chooseLdMatrixLayout).
Expected<LinearLayout> ldmatrixLayout(const Encoding &dot,
                                      std::span<const int64_t> shape,
                                      bool trans, int elemBitWidth);
/// The shared-memory layout stmatrix writes an mma accumulator `mma` of a
/// 2-D `shape` with (swizzleByteSize 0) or without a leading offset
/// (32/64/128): input dims register, lane, warp, block; output dims offset,
/// iteration (Triton's chooseStMatrixLayout).
Expected<LinearLayout> stmatrixLayout(const Encoding &mma,
                                      std::span<const int64_t> shape,
                                      int swizzleByteSize);

//===----------------------------------------------------------------------===//
// Building blocks (Triton's LayoutUtils)
//===----------------------------------------------------------------------===//

/// identity1D products over `order` (fastest first) into dim0..dim{rank-1}:
/// the 1-D identity of size prod(shape) reshaped to the permuted shape.
Expected<LinearLayout> identityStandardND(DimId in,
                                          std::span<const unsigned> shape,
                                          std::span<const unsigned> order);
/// For each output dim (in the layout's order) smaller than `shape[dim k]`
/// (k = its dim number), repeats the first input dim (register / offset).
/// `shape` is indexed by the standard dim number of each output dim.
Expected<LinearLayout>
ensureLayoutNotSmallerThan(const LinearLayout &l,
                           std::span<const int64_t> shape);
/// For each output dim larger than the shape, zeroes its largest bases (in
/// decreasing value; ties in input order) until it fits; with
/// broadcastRegisters false, register bases are removed instead of zeroed.
/// Output sizes are then inferred from the bases.
Expected<LinearLayout>
ensureLayoutNotLargerThan(const LinearLayout &l, std::span<const int64_t> shape,
                          bool broadcastRegisters = true);
/// Triton's combineCtaCgaWithShape.
Expected<LinearLayout> combineCtaCgaWithShape(const LinearLayout &ctaLayout,
                                              const CTALayout &cta,
                                              std::span<const int64_t> shape);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_STANDARD_H
