//===- Structure.cpp - Constructors, structural queries, dim surgery -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Structure.h"

#include "LinearSupport.h"

#include "layoutkit/core/Bits.h"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

namespace lk::linear {

using namespace detail;

Expected<DimSize> dimSizeOf(DimId id, int64_t size) {
  int k = log2Exact(size);
  if (k < 0)
    return Diagnostic::error("dim '" + name(id) + "': size " +
                             std::to_string(size) +
                             " is not a power of two (expected 2^k, k < 63)");
  return DimSize{id, k};
}

Expected<LinearLayout> strided1D(int64_t size, int64_t stride, DimId in,
                                 DimId out) {
  int k = log2Exact(size), s = log2Exact(stride);
  if (k < 0)
    return Diagnostic::error("strided_1d: size " + std::to_string(size) +
                             " is not a power of two");
  if (s < 0)
    return Diagnostic::error("strided_1d: stride " + std::to_string(stride) +
                             " is not a power of two (L(x) = stride * x is "
                             "linear over F2 only then)");
  if (k + s > 62)
    return Diagnostic::error("strided_1d: size * stride = 2^" +
                             std::to_string(k + s) + " exceeds 2^62");
  LinearLayout l;
  uint64_t cols[64];
  for (int i = 0; i < k; ++i)
    cols[i] = uint64_t(1) << (i + s);
  LK_CHECK(l.appendOut(out, k + s));
  LK_CHECK(l.appendIn(in, k, cols));
  return l;
}

Expected<LinearLayout> zeros1D(int64_t size, DimId in, DimId out,
                               int64_t outSize) {
  int k = log2Exact(size), o = log2Exact(outSize);
  if (k < 0)
    return Diagnostic::error("zeros_1d: size " + std::to_string(size) +
                             " is not a power of two");
  if (o < 0)
    return Diagnostic::error("zeros_1d: out size " + std::to_string(outSize) +
                             " is not a power of two");
  LinearLayout l;
  LK_CHECK(l.appendOut(out, o));
  LK_CHECK(l.appendIn(in, k, nullptr));
  return l;
}

namespace {
int totalBits(std::span<const DimSize> dims) {
  int64_t t = 0;
  for (const DimSize &d : dims)
    t += d.log2;
  return int(std::min<int64_t>(t, 1 << 20));
}
} // namespace

Expected<LinearLayout> fromF2Matrix(std::span<const DimSize> ins,
                                    std::span<const DimSize> outs,
                                    std::span<const int64_t> bits, int64_t rows,
                                    int64_t cols) {
  int inBits = totalBits(ins), outBits = totalBits(outs);
  if (rows != outBits || cols != inBits)
    return Diagnostic::error(
        "from_f2_matrix: the matrix is " + std::to_string(rows) + " x " +
        std::to_string(cols) + " but the dims need " + std::to_string(outBits) +
        " rows (out bits) x " + std::to_string(inBits) + " columns (in bits)");
  if (inBits > LinearLayout::kMaxBits || outBits > LinearLayout::kMaxBits)
    return Diagnostic::error("from_f2_matrix: at most 64 in and 64 out bits");
  std::vector<uint64_t> columns(size_t(cols), 0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t v = bits[size_t(i * cols + j)];
      if (v != 0 && v != 1)
        return Diagnostic::error("from_f2_matrix: entry [" + std::to_string(i) +
                                 ", " + std::to_string(j) + "] is " +
                                 std::to_string(v) + ", expected 0 or 1");
      columns[size_t(j)] |= uint64_t(v) << i;
    }
  return LinearLayout::fromColumns(ins, outs, columns);
}

int64_t numConsecutiveInOut(const LinearLayout &l) {
  if (l.numInDims() == 0 || l.numOutDims() == 0)
    return 1;
  int s0 = l.outShift(0), w0 = l.outDim(0).log2, k0 = l.inDim(0).log2;
  int consec = 0;
  while (consec < k0 && consec < w0 &&
         l.column(consec) == uint64_t(1) << (s0 + consec))
    ++consec;
  uint64_t other = 0;
  for (int j = consec; j < l.totalInBits(); ++j) // all but the run
    other |= (l.column(j) >> s0) & lowMask(w0);
  int t = other ? std::countr_zero(other) : 64;
  return int64_t(1) << std::min(consec, t);
}

namespace {
bool contains(std::span<const DimId> s, DimId d) {
  return std::find(s.begin(), s.end(), d) != s.end();
}
/// The mask of the out bits of the out-dims in `dims`.
uint64_t outMaskOf(const LinearLayout &l, std::span<const DimId> dims) {
  uint64_t m = 0;
  for (int k = 0; k < l.numOutDims(); ++k)
    if (contains(dims, l.outDim(k).id))
      m |= lowMask(l.outDim(k).log2) << l.outShift(k);
  return m;
}
} // namespace

bool isTrivialOver(const LinearLayout &l, std::span<const DimId> dims) {
  for (DimId d : dims)
    if (!l.hasInDim(d) && !l.hasOutDim(d))
      return false;
  for (DimId d : dims)
    if (l.inDimLog2(d) != l.outDimLog2(d))
      return false;
  uint64_t dOut = outMaskOf(l, dims);
  for (int i = 0; i < l.numInDims(); ++i) {
    DimSize in = l.inDim(i);
    bool inD = contains(dims, in.id);
    int k = inD ? l.outDimIndex(in.id) : -1;
    for (int b = 0; b < in.log2; ++b) {
      uint64_t c = l.column(l.inShift(i) + b);
      if (inD ? c != uint64_t(1) << (l.outShift(k) + b) : (c & dOut) != 0)
        return false;
    }
  }
  return true;
}

std::optional<LinearLayout> quotient(const LinearLayout &l,
                                     std::span<const DimId> dims) {
  if (!isTrivialOver(l, dims))
    return std::nullopt;
  std::vector<DimId> ins, outs;
  for (int i = 0; i < l.numInDims(); ++i)
    if (!contains(dims, l.inDim(i).id))
      ins.push_back(l.inDim(i).id);
  for (int k = 0; k < l.numOutDims(); ++k)
    if (!contains(dims, l.outDim(k).id))
      outs.push_back(l.outDim(k).id);
  Expected<LinearLayout> r = l.sublayout(ins, outs);
  if (!r)
    return std::nullopt; // unreachable: the names come from l
  return *r;
}

namespace {
/// `l` with every out-dim, and in-dim i's columns filtered by `keep` (the
/// other in-dims unchanged); in-dims for which `drop` holds are left out.
template <class Keep, class Drop>
Expected<LinearLayout> rebuild(const LinearLayout &l, Keep keep, Drop drop,
                               DimId dropOut) {
  LinearLayout r;
  for (int k = 0; k < l.numOutDims(); ++k)
    if (l.outDim(k).id != dropOut)
      LK_CHECK(r.appendOut(l.outDim(k).id, l.outDim(k).log2));
  // The out bits keep their positions unless dropOut (of size 1, no bits)
  // is removed, which moves nothing either.
  for (int i = 0; i < l.numInDims(); ++i) {
    DimSize in = l.inDim(i);
    if (drop(in.id))
      continue;
    uint64_t cols[64];
    int n = 0;
    for (int b = 0; b < in.log2; ++b) {
      uint64_t c = l.column(l.inShift(i) + b);
      if (keep(in.id, c))
        cols[n++] = c;
    }
    LK_CHECK(r.appendIn(in.id, n, cols));
  }
  return r;
}
} // namespace

Expected<LinearLayout> removeZeroBases(const LinearLayout &l, DimId in) {
  if (!l.hasInDim(in)) {
    Diagnostic d = l.findInDim(name(in)).error();
    d.message = "remove_zero_bases: " + d.message;
    return d;
  }
  return rebuild(
      l, [&](DimId d, uint64_t c) { return d != in || c != 0; },
      [](DimId) { return false; }, dims::kNoDim);
}

Expected<LinearLayout> removeUnitInDim(const LinearLayout &l, DimId d) {
  if (!l.hasInDim(d) || l.inDimLog2(d) != 0)
    return Diagnostic::error(
        "expected input dim '" + name(d) + "' of size 1, " +
        (l.hasInDim(d) ? "it has size " + std::to_string(l.inDimSize(d))
                       : std::string("the layout has none")));
  return rebuild(
      l, [](DimId, uint64_t) { return true; }, [&](DimId x) { return x == d; },
      dims::kNoDim);
}

Expected<LinearLayout> removeUnitOutDim(const LinearLayout &l, DimId d) {
  if (!l.hasOutDim(d) || l.outDimLog2(d) != 0)
    return Diagnostic::error(
        "expected output dim '" + name(d) + "' of size 1, " +
        (l.hasOutDim(d) ? "it has size " + std::to_string(l.outDimSize(d))
                        : std::string("the layout has none")));
  return rebuild(
      l, [](DimId, uint64_t) { return true; }, [](DimId) { return false; }, d);
}

bool equalIgnoringOutDimSizes(const LinearLayout &a, const LinearLayout &b) {
  if (a.numInDims() != b.numInDims() || a.numOutDims() != b.numOutDims())
    return false;
  for (int i = 0; i < a.numInDims(); ++i)
    if (a.inDim(i) != b.inDim(i))
      return false;
  for (int k = 0; k < a.numOutDims(); ++k)
    if (a.outDim(k).id != b.outDim(k).id)
      return false;
  for (int i = 0; i < a.numInDims(); ++i)
    if (a.bases(i) != b.bases(i))
      return false;
  return true;
}

} // namespace lk::linear
