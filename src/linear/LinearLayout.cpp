//===- LinearLayout.cpp - Linear layouts over F2 --------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The packed representation: column j (flattened input bit j) is a uint64_t
/// whose bits are the flattened output. Elimination (linear/F2Basis.h) keeps
/// an XOR basis keyed by the highest set bit, together with the combination
/// of input columns that produced each basis vector, so rank, free
/// variables and the minimum-norm right inverse come out of one pass over
/// the columns.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/LinearLayout.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/linear/F2Basis.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace lk::linear {

//===----------------------------------------------------------------------===//
// Dim names
//===----------------------------------------------------------------------===//

namespace {

struct DimTable {
  std::mutex mu;
  std::deque<std::string> names;
  std::unordered_map<std::string_view, DimId> ids;

  DimTable() {
    for (const char *n :
         {"register", "lane", "warp", "block", "offset", "iteration"})
      add(n);
    for (int i = 0; i < dims::kNumStandardOutDims; ++i)
      add("dim" + std::to_string(i));
  }
  DimId add(std::string name) {
    names.push_back(std::move(name));
    DimId id = DimId(names.size() - 1);
    ids.emplace(std::string_view(names.back()), id);
    return id;
  }
};

DimTable &table() {
  static DimTable t;
  return t;
}

std::string name(DimId id) { return std::string(dimName(id)); }

} // namespace

DimId internDim(std::string_view n) {
  DimTable &t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.ids.find(n);
  if (it != t.ids.end())
    return it->second;
  return t.add(std::string(n));
}

std::string_view dimName(DimId id) {
  DimTable &t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  if (id >= t.names.size())
    return "?";
  return t.names[id];
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

Status LinearLayout::appendIn(DimId id, int log2, const uint64_t *cols) {
  if (nIn_ >= kMaxDims)
    return Diagnostic::error("too many input dims (at most " +
                             std::to_string(kMaxDims) + ")");
  if (log2 < 0 || inBits_ + log2 > kMaxBits)
    return Diagnostic::error("input dims exceed 64 bits in total (adding '" +
                             name(id) + "')");
  if (inDimIndex(id) >= 0)
    return Diagnostic::error("duplicate input dim '" + name(id) + "'");
  in_[nIn_++] = Dim{id, uint8_t(log2), inBits_};
  for (int i = 0; i < log2; ++i)
    cols_[inBits_ + i] = cols ? cols[i] : 0;
  inBits_ = uint8_t(inBits_ + log2);
  return Ok{};
}

Status LinearLayout::appendOut(DimId id, int log2) {
  if (nOut_ >= kMaxDims)
    return Diagnostic::error("too many output dims (at most " +
                             std::to_string(kMaxDims) + ")");
  if (log2 < 0 || outBits_ + log2 > kMaxBits)
    return Diagnostic::error("output dims exceed 64 bits in total (adding '" +
                             name(id) + "')");
  if (outDimIndex(id) >= 0)
    return Diagnostic::error("duplicate output dim '" + name(id) + "'");
  out_[nOut_++] = Dim{id, uint8_t(log2), outBits_};
  outBits_ = uint8_t(outBits_ + log2);
  return Ok{};
}

void LinearLayout::recomputeShifts() {
  uint8_t s = 0;
  for (int i = 0; i < nIn_; ++i) {
    in_[i].shift = s;
    s = uint8_t(s + in_[i].log2);
  }
  inBits_ = s;
  s = 0;
  for (int i = 0; i < nOut_; ++i) {
    out_[i].shift = s;
    s = uint8_t(s + out_[i].log2);
  }
  outBits_ = s;
}

Expected<LinearLayout> LinearLayout::identity1D(int64_t size, DimId in,
                                                DimId out) {
  int k = log2Exact(size);
  if (k < 0 || k > kMaxBits)
    return Diagnostic::error("identity1D: size " + std::to_string(size) +
                             " is not a power of two");
  LinearLayout l;
  uint64_t cols[64];
  for (int i = 0; i < k; ++i)
    cols[i] = uint64_t(1) << i;
  LK_CHECK(l.appendIn(in, k, cols));
  LK_CHECK(l.appendOut(out, k));
  return l;
}

Expected<LinearLayout> LinearLayout::zeros1D(int64_t size, DimId in,
                                             DimId out) {
  int k = log2Exact(size);
  if (k < 0 || k > kMaxBits)
    return Diagnostic::error("zeros1D: size " + std::to_string(size) +
                             " is not a power of two");
  LinearLayout l;
  LK_CHECK(l.appendIn(in, k, nullptr));
  LK_CHECK(l.appendOut(out, 0));
  return l;
}

namespace {
/// Packs the bases of one input dim with N output dims (N = 0: any count)
/// into `cols`: column = OR over k of value_k << shifts[k]. `over` collects
/// the bits of any value outside its dim (negative values included), `any`
/// the OR of the columns and `multi` the OR of c & (c - 1) over the columns
/// (non-zero iff some column has two or more bits), for isSurjective's fast
/// path. The masks and shifts are copied to locals so that they stay in
/// registers across the stores to `cols`.
template <int N, class Src>
inline void packDim(const Src &ins, size_t d, size_t n, size_t nOut,
                    const uint64_t *highMasks, const uint8_t *shifts,
                    uint64_t *cols, uint64_t &over, uint64_t &any,
                    uint64_t &multi) {
  if constexpr (N == 0) {
    for (size_t i = 0; i < n; ++i) {
      const int64_t *v = ins.values(d, i);
      uint64_t c = 0;
      for (size_t k = 0; k < nOut; ++k) {
        over |= uint64_t(v[k]) & highMasks[k];
        c |= uint64_t(v[k]) << shifts[k];
      }
      cols[i] = c;
      any |= c;
      multi |= c & (c - 1);
    }
  } else {
    uint64_t hm[N];
    unsigned sh[N];
    for (int k = 0; k < N; ++k) {
      hm[k] = highMasks[k];
      sh[k] = shifts[k];
    }
    uint64_t o = 0, a = 0, m = 0;
    for (size_t i = 0; i < n; ++i) {
      const int64_t *v = ins.values(d, i);
      uint64_t c = uint64_t(v[0]); // the first output dim starts at bit 0
      o |= c & hm[0];
      for (int k = 1; k < N; ++k) {
        o |= uint64_t(v[k]) & hm[k];
        c |= uint64_t(v[k]) << sh[k];
      }
      cols[i] = c;
      a |= c;
      m |= c & (c - 1);
    }
    over |= o;
    any |= a;
    multi |= m;
  }
}
} // namespace

template <class Src>
Expected<LinearLayout> LinearLayout::makeFrom(const Src &ins,
                                              std::span<const OutDim> outs,
                                              bool requireSurjective) {
  // Built in place inside the result; every return names `result`, so the
  // copy is elided (NRVO).
  Expected<LinearLayout> result{std::in_place};
  LinearLayout &l = *result;
  if (ins.size() > size_t(kMaxDims) || outs.size() > size_t(kMaxDims)) {
    result = Diagnostic::error("at most " + std::to_string(kMaxDims) +
                               " dims per side");
    return result;
  }
  uint8_t shifts[kMaxDims];
  uint64_t limits[kMaxDims];
  int bits = 0;
  for (size_t k = 0; k < outs.size(); ++k) {
    const OutDim &o = outs[k];
    int lg = log2Exact(o.size);
    if (lg < 0) {
      result = Diagnostic::error("size " + std::to_string(o.size) +
                                 " of output dim '" + name(o.dim) +
                                 "' is not a power of two");
      return result;
    }
    if (bits + lg > kMaxBits) {
      result = Diagnostic::error(
          "output dims exceed 64 bits in total (adding '" + name(o.dim) + "')");
      return result;
    }
    for (size_t m = 0; m < k; ++m)
      if (outs[m].dim == o.dim) {
        result =
            Diagnostic::error("duplicate output dim '" + name(o.dim) + "'");
        return result;
      }
    l.out_[k] = Dim{o.dim, uint8_t(lg), uint8_t(bits)};
    shifts[k] = uint8_t(bits);
    limits[k] = uint64_t(o.size);
    bits += lg;
  }
  l.nOut_ = uint8_t(outs.size());
  l.outBits_ = uint8_t(bits);
  const size_t nOut = outs.size();
  uint64_t highMasks[kMaxDims];
  for (size_t k = 0; k < nOut; ++k)
    highMasks[k] = ~(limits[k] - 1); // value bits at or above the dim's size
  uint64_t any = 0, multi = 0;
  int j = 0;
  for (size_t d = 0; d < ins.size(); ++d) {
    DimId inDim = ins.dim(d);
    size_t n = ins.count(d);
    if (size_t(j) + n > size_t(kMaxBits)) {
      result = Diagnostic::error("input dims exceed 64 bits in total (at '" +
                                 name(inDim) + "')");
      return result;
    }
    for (size_t m = 0; m < d; ++m)
      if (ins.dim(m) == inDim) {
        result = Diagnostic::error("duplicate input dim '" + name(inDim) + "'");
        return result;
      }
    for (size_t i = 0; i < n; ++i) {
      size_t arity = ins.arity(d, i);
      if (arity != nOut) {
        result =
            Diagnostic::error("basis " + std::to_string(i) + " of input dim '" +
                              name(inDim) + "' has " + std::to_string(arity) +
                              " values; expected one per "
                              "output dim (" +
                              std::to_string(nOut) + ")");
        return result;
      }
    }
    l.in_[d] = Dim{inDim, uint8_t(n), uint8_t(j)};
    uint64_t over = 0; // non-zero when a value is negative or too large
    // Fixed-length packing for the usual 1-3 output dims (a variable-length
    // loop of 2 is slower: it gets vectorized with a scalar tail).
    uint64_t *cols = l.cols_ + j;
    switch (nOut) {
    case 1:
      packDim<1>(ins, d, n, nOut, highMasks, shifts, cols, over, any, multi);
      break;
    case 2:
      packDim<2>(ins, d, n, nOut, highMasks, shifts, cols, over, any, multi);
      break;
    case 3:
      packDim<3>(ins, d, n, nOut, highMasks, shifts, cols, over, any, multi);
      break;
    default:
      packDim<0>(ins, d, n, nOut, highMasks, shifts, cols, over, any, multi);
    }
    j += int(n);
    if (over) { // find the offending value for the message
      for (size_t i = 0; i < n; ++i) {
        const int64_t *v = ins.values(d, i);
        for (size_t k = 0; k < nOut; ++k)
          if (uint64_t(v[k]) >= limits[k]) {
            result = Diagnostic::error(
                "basis " + std::to_string(i) + " of input dim '" + name(inDim) +
                "': value " + std::to_string(v[k]) + " on output dim '" +
                name(outs[k].dim) + "' is outside [0, " +
                std::to_string(outs[k].size) + ")");
            return result;
          }
      }
    }
  }
  l.nIn_ = uint8_t(ins.size());
  l.inBits_ = uint8_t(j);
  // isSurjective with the OR of the columns gathered while packing: unit
  // columns covering every output bit need no elimination.
  if (requireSurjective &&
      (any != l.outMask() || (multi != 0 && l.rank() != l.outBits_))) {
    result = Diagnostic::error("layout is not surjective: " + l.str());
    return result;
  }
  return result;
}

namespace {
/// makeFrom's view of nested vectors.
struct NestedBases {
  std::span<const InDimBases> in;
  size_t size() const { return in.size(); }
  DimId dim(size_t d) const { return in[d].dim; }
  size_t count(size_t d) const { return in[d].bases.size(); }
  size_t arity(size_t d, size_t i) const { return in[d].bases[i].size(); }
  const int64_t *values(size_t d, size_t i) const {
    return in[d].bases[i].data();
  }
};
/// makeFrom's view of flat tables.
struct FlatBases {
  std::span<const InDimTable> in;
  size_t nOut;
  size_t size() const { return in.size(); }
  DimId dim(size_t d) const { return in[d].dim; }
  size_t count(size_t d) const { return size_t(std::max(0, in[d].count)); }
  size_t arity(size_t, size_t) const { return nOut; }
  const int64_t *values(size_t d, size_t i) const {
    return in[d].values + i * nOut;
  }
};
} // namespace

Expected<LinearLayout> LinearLayout::make(std::span<const InDimBases> ins,
                                          std::span<const OutDim> outs,
                                          bool requireSurjective) {
  return makeFrom(NestedBases{ins}, outs, requireSurjective);
}

Expected<LinearLayout> LinearLayout::make(std::span<const InDimTable> ins,
                                          std::span<const OutDim> outs,
                                          bool requireSurjective) {
  return makeFrom(FlatBases{ins, outs.size()}, outs, requireSurjective);
}

Expected<LinearLayout> LinearLayout::make(std::span<const InDimBases> ins,
                                          std::span<const DimId> outNames) {
  std::vector<OutDim> outs;
  for (DimId d : outNames)
    outs.push_back({d, 1});
  for (const InDimBases &in : ins)
    for (const auto &b : in.bases) {
      if (b.size() != outs.size())
        return Diagnostic::error("a basis of input dim '" + name(in.dim) +
                                 "' has " + std::to_string(b.size()) +
                                 " values; expected " +
                                 std::to_string(outs.size()));
      for (size_t k = 0; k < b.size(); ++k) {
        if (b[k] < 0 || b[k] >= (int64_t(1) << 62))
          return Diagnostic::error("basis value " + std::to_string(b[k]) +
                                   " is negative or too large");
        outs[k].size =
            std::max(outs[k].size, int64_t(1) << bitWidth(uint64_t(b[k])));
      }
    }
  return make(ins, std::span<const OutDim>(outs), /*requireSurjective=*/true);
}

namespace {
/// fromColumns' dims of one side: checks sizes and names, and lays them out
/// from bit 0; `bits` receives the total.
Status placeDims(std::span<const DimSize> dims, LinearLayout::Dim *out,
                 const char *side, int &bits) {
  bits = 0;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k].log2 < 0 || bits + dims[k].log2 > LinearLayout::kMaxBits)
      return Diagnostic::error(std::string("fromColumns: ") + side +
                               " dims exceed 64 bits");
    for (size_t m = 0; m < k; ++m)
      if (dims[m].id == dims[k].id)
        return Diagnostic::error(std::string("fromColumns: duplicate ") + side +
                                 " dim '" + name(dims[k].id) + "'");
    out[k] = LinearLayout::Dim{dims[k].id, uint8_t(dims[k].log2), uint8_t(bits)};
    bits += dims[k].log2;
  }
  return Ok{};
}
} // namespace

Expected<LinearLayout>
LinearLayout::fromColumns(std::span<const DimSize> ins,
                          std::span<const DimSize> outs,
                          std::span<const uint64_t> columns) {
  Expected<LinearLayout> result{std::in_place};
  LinearLayout &l = *result;
  if (ins.size() > size_t(kMaxDims) || outs.size() > size_t(kMaxDims)) {
    result = Diagnostic::error("fromColumns: at most " +
                               std::to_string(kMaxDims) + " dims per side");
    return result;
  }
  int bits = 0;
  if (Status ok = placeDims(outs, l.out_, "output", bits); !ok) {
    result = std::move(ok).error();
    return result;
  }
  l.nOut_ = uint8_t(outs.size());
  l.outBits_ = uint8_t(bits);
  bits = 0;
  if (Status ok = placeDims(ins, l.in_, "input", bits); !ok) {
    result = std::move(ok).error();
    return result;
  }
  l.nIn_ = uint8_t(ins.size());
  l.inBits_ = uint8_t(bits);
  if (columns.size() != size_t(bits)) {
    result = Diagnostic::error(
        "fromColumns: " + std::to_string(columns.size()) + " columns for " +
        std::to_string(bits) + " input bits");
    return result;
  }
  uint64_t om = l.outMask(), bad = 0;
  for (int c = 0; c < bits; ++c) {
    l.cols_[c] = columns[size_t(c)];
    bad |= columns[size_t(c)] & ~om;
  }
  if (bad) {
    result =
        Diagnostic::error("fromColumns: a column has bits outside the output");
    return result;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Dims and bases
//===----------------------------------------------------------------------===//

int LinearLayout::inDimIndex(DimId id) const {
  for (int i = 0; i < nIn_; ++i)
    if (in_[i].id == id)
      return i;
  return -1;
}

int LinearLayout::outDimIndex(DimId id) const {
  for (int i = 0; i < nOut_; ++i)
    if (out_[i].id == id)
      return i;
  return -1;
}

int LinearLayout::inDimLog2(DimId id) const {
  int i = inDimIndex(id);
  return i < 0 ? 0 : in_[i].log2;
}
int LinearLayout::outDimLog2(DimId id) const {
  int i = outDimIndex(id);
  return i < 0 ? 0 : out_[i].log2;
}
int64_t LinearLayout::inDimSize(DimId id) const {
  return int64_t(1) << inDimLog2(id);
}
int64_t LinearLayout::outDimSize(DimId id) const {
  return int64_t(1) << outDimLog2(id);
}

int64_t LinearLayout::basis(DimId in, int bit, DimId out) const {
  int i = inDimIndex(in), o = outDimIndex(out);
  if (i < 0 || o < 0 || bit >= in_[i].log2)
    return 0;
  return int64_t((cols_[in_[i].shift + bit] >> out_[o].shift) &
                 lowMask(out_[o].log2));
}

std::vector<std::vector<int64_t>> LinearLayout::bases(int i) const {
  std::vector<std::vector<int64_t>> r;
  for (int b = 0; b < in_[i].log2; ++b)
    r.push_back(unpackOut(cols_[in_[i].shift + b]));
  return r;
}

std::vector<InDimBases> LinearLayout::allBases() const {
  std::vector<InDimBases> r;
  for (int i = 0; i < nIn_; ++i)
    r.push_back({in_[i].id, bases(i)});
  return r;
}

std::vector<OutDim> LinearLayout::outDims() const {
  std::vector<OutDim> r;
  for (int i = 0; i < nOut_; ++i)
    r.push_back({out_[i].id, int64_t(1) << out_[i].log2});
  return r;
}

uint64_t LinearLayout::packIn(std::span<const int64_t> in) const {
  uint64_t x = 0;
  for (int i = 0; i < nIn_ && i < int(in.size()); ++i)
    x |= (uint64_t(in[i]) & lowMask(in_[i].log2)) << in_[i].shift;
  return x;
}

std::vector<int64_t> LinearLayout::unpackOut(uint64_t flat) const {
  std::vector<int64_t> r(nOut_);
  for (int k = 0; k < nOut_; ++k)
    r[k] = int64_t((flat >> out_[k].shift) & lowMask(out_[k].log2));
  return r;
}

std::vector<int64_t> LinearLayout::unpackIn(uint64_t flat) const {
  std::vector<int64_t> r(nIn_);
  for (int k = 0; k < nIn_; ++k)
    r[k] = int64_t((flat >> in_[k].shift) & lowMask(in_[k].log2));
  return r;
}

Expected<std::vector<int64_t>>
LinearLayout::apply(std::span<const int64_t> in) const {
  if (in.size() != size_t(nIn_))
    return Diagnostic::error("apply: expected " + std::to_string(nIn_) +
                             " input values, got " + std::to_string(in.size()));
  for (int i = 0; i < nIn_; ++i)
    if (in[i] < 0 || in[i] >= (int64_t(1) << in_[i].log2))
      return Diagnostic::error("apply: value " + std::to_string(in[i]) +
                               " is outside input dim '" + name(in_[i].id) +
                               "' of size " +
                               std::to_string(int64_t(1) << in_[i].log2));
  return unpackOut(applyFlat(packIn(in)));
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

namespace {

/// Moves output fields of a column from one packing to another: field k
/// (srcShift[k], width[k]) goes to dstShift[k].
struct Repack {
  int n = 0;
  uint8_t srcShift[LinearLayout::kMaxDims];
  uint8_t width[LinearLayout::kMaxDims];
  uint8_t dstShift[LinearLayout::kMaxDims];
  bool identity = true;

  void add(int src, int w, int dst) {
    if (w == 0)
      return;
    srcShift[n] = uint8_t(src);
    width[n] = uint8_t(w);
    dstShift[n] = uint8_t(dst);
    if (src != dst)
      identity = false;
    ++n;
  }
  uint64_t operator()(uint64_t c) const {
    if (identity)
      return c;
    uint64_t r = 0;
    for (int k = 0; k < n; ++k)
      r |= ((c >> srcShift[k]) & lowMask(width[k])) << dstShift[k];
    return r;
  }
};

} // namespace

Expected<LinearLayout> LinearLayout::compose(const LinearLayout &outer) const {
  Expected<LinearLayout> result{std::in_place};
  if (nOut_ != outer.nIn_) {
    result = Diagnostic::error(
        "compose: the output dims of the first layout (" +
        std::to_string(nOut_) + ") must be the input dims of the second (" +
        std::to_string(outer.nIn_) + ")");
    return result;
  }
  Repack rp;
  for (int k = 0; k < nOut_; ++k) {
    int p = outer.inDimIndex(out_[k].id);
    if (p < 0) {
      result = Diagnostic::error("compose: output dim '" + name(out_[k].id) +
                                 "' is not an input dim of the outer layout");
      return result;
    }
    if (out_[k].log2 > outer.in_[p].log2) {
      result = Diagnostic::error(
          "compose: output dim '" + name(out_[k].id) + "' (size " +
          std::to_string(int64_t(1) << out_[k].log2) +
          ") is larger than the outer input dim (size " +
          std::to_string(int64_t(1) << outer.in_[p].log2) + ")");
      return result;
    }
    rp.add(out_[k].shift, out_[k].log2, outer.in_[p].shift);
    if (out_[k].shift != outer.in_[p].shift)
      rp.identity = false;
  }
  LinearLayout &r = *result;
  r.nIn_ = nIn_;
  r.nOut_ = outer.nOut_;
  r.inBits_ = inBits_;
  r.outBits_ = outer.outBits_;
  std::copy(in_, in_ + nIn_, r.in_);
  std::copy(outer.out_, outer.out_ + outer.nOut_, r.out_);
  for (int j = 0; j < inBits_; ++j)
    r.cols_[j] = outer.applyFlat(rp(cols_[j]));
  return result;
}

Expected<LinearLayout> product(const LinearLayout &inner,
                               const LinearLayout &outer) {
  using Dim = LinearLayout::Dim;
  // Common dims must appear in the same relative order.
  auto checkOrder = [](const Dim *a, int na, const Dim *b, int nb,
                       const char *what) -> Status {
    int last = -1;
    for (int i = 0; i < na; ++i) {
      int pos = -1;
      for (int j = 0; j < nb; ++j)
        if (b[j].id == a[i].id)
          pos = j;
      if (pos < 0)
        continue;
      if (pos < last)
        return Diagnostic::error(std::string("product: common ") + what +
                                 " dims appear in different orders ('" +
                                 name(a[i].id) + "')");
      last = pos;
    }
    return Ok{};
  };
  LK_CHECK(checkOrder(inner.in_, inner.nIn_, outer.in_, outer.nIn_, "input"));
  LK_CHECK(
      checkOrder(inner.out_, inner.nOut_, outer.out_, outer.nOut_, "output"));

  LinearLayout r;
  // Dims: inner's, then outer's new ones.
  auto merge = [](Dim *dst, uint8_t &n, const Dim *a, int na, const Dim *b,
                  int nb) -> Status {
    n = 0;
    int total = 0;
    for (int i = 0; i < na; ++i) {
      dst[n] = a[i];
      for (int j = 0; j < nb; ++j)
        if (b[j].id == a[i].id)
          dst[n].log2 = uint8_t(dst[n].log2 + b[j].log2);
      total += dst[n].log2;
      ++n;
    }
    for (int j = 0; j < nb; ++j) {
      bool seen = false;
      for (int i = 0; i < na; ++i)
        seen |= a[i].id == b[j].id;
      if (seen)
        continue;
      if (n >= LinearLayout::kMaxDims)
        return Diagnostic::error("product: too many dims");
      dst[n] = b[j];
      total += dst[n].log2;
      ++n;
    }
    if (total > LinearLayout::kMaxBits)
      return Diagnostic::error("product: more than 64 bits");
    return Ok{};
  };
  LK_CHECK(merge(r.in_, r.nIn_, inner.in_, inner.nIn_, outer.in_, outer.nIn_));
  LK_CHECK(
      merge(r.out_, r.nOut_, inner.out_, inner.nOut_, outer.out_, outer.nOut_));
  r.recomputeShifts();

  Repack innerRp, outerRp;
  for (int k = 0; k < inner.nOut_; ++k) {
    int p = r.outDimIndex(inner.out_[k].id);
    innerRp.add(inner.out_[k].shift, inner.out_[k].log2, r.out_[p].shift);
  }
  for (int k = 0; k < outer.nOut_; ++k) {
    int p = r.outDimIndex(outer.out_[k].id);
    int below = inner.outDimLog2(outer.out_[k].id);
    outerRp.add(outer.out_[k].shift, outer.out_[k].log2,
                r.out_[p].shift + below);
  }
  innerRp.identity = false;
  outerRp.identity = false;
  for (int i = 0; i < r.nIn_; ++i) {
    int j = r.in_[i].shift;
    int a = inner.inDimIndex(r.in_[i].id);
    if (a >= 0)
      for (int b = 0; b < inner.in_[a].log2; ++b)
        r.cols_[j++] = innerRp(inner.cols_[inner.in_[a].shift + b]);
    int o = outer.inDimIndex(r.in_[i].id);
    if (o >= 0)
      for (int b = 0; b < outer.in_[o].log2; ++b)
        r.cols_[j++] = outerRp(outer.cols_[outer.in_[o].shift + b]);
  }
  return r;
}

bool LinearLayout::isSurjective() const {
  uint64_t any = 0, multi = 0;
  for (int j = 0; j < inBits_; ++j) {
    any |= cols_[j];
    multi |= cols_[j] & (cols_[j] - 1);
  }
  if (any != outMask())
    return false;
  if (multi == 0)
    return true; // unit columns covering every output bit
  return rank() == outBits_;
}

int LinearLayout::rank() const {
  return rankF2(std::span<const uint64_t>(cols_, size_t(inBits_)));
}

Expected<LinearLayout> LinearLayout::pseudoinvert() const {
  Expected<LinearLayout> result{std::in_place};
  F2Basis e;
  for (int j = 0; j < inBits_; ++j)
    e.add(cols_[j], uint64_t(1) << j);
  if (e.rank() != outBits_) {
    result =
        Diagnostic::error("pseudoinvert: the layout is not surjective "
                          "(rank " +
                          std::to_string(e.rank()) +
                          " < " + std::to_string(outBits_) + " output bits)");
    return result;
  }
  LinearLayout &r = *result;
  r.nIn_ = nOut_;
  r.nOut_ = nIn_;
  r.inBits_ = outBits_;
  r.outBits_ = inBits_;
  std::copy(out_, out_ + nOut_, r.in_);
  std::copy(in_, in_ + nIn_, r.out_);
  for (int b = 0; b < outBits_; ++b) {
    uint64_t c = 0;
    e.solve(uint64_t(1) << b, c);
    r.cols_[b] = c;
  }
  return result;
}

Expected<LinearLayout> LinearLayout::invert() const {
  if (inBits_ != outBits_)
    return Diagnostic::error("invert: the layout is not square (" +
                             std::to_string(inBits_) + " input bits, " +
                             std::to_string(outBits_) + " output bits)");
  Expected<LinearLayout> r = pseudoinvert();
  if (!r)
    return Diagnostic::error("invert: the layout is not invertible (its "
                             "columns are linearly dependent)");
  return r;
}

Expected<LinearLayout>
LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  if (nOut_ != outer.nOut_)
    return Diagnostic::error("invertAndCompose: the layouts have different "
                             "output dims");
  for (int k = 0; k < nOut_; ++k) {
    int p = outer.outDimIndex(out_[k].id);
    if (p < 0)
      return Diagnostic::error("invertAndCompose: output dim '" +
                               name(out_[k].id) +
                               "' is missing in the outer "
                               "layout");
    if (out_[k].log2 > outer.out_[p].log2)
      return Diagnostic::error("invertAndCompose: output dim '" +
                               name(out_[k].id) +
                               "' is larger than in the outer layout");
  }
  LK_TRY(LinearLayout inv, outer.pseudoinvert());
  return compose(inv);
}

Expected<LinearLayout>
LinearLayout::sublayout(std::span<const DimId> ins,
                        std::span<const DimId> outs) const {
  for (DimId d : ins)
    if (inDimIndex(d) < 0)
      return Diagnostic::error("sublayout: no input dim '" + name(d) + "'");
  for (DimId d : outs)
    if (outDimIndex(d) < 0)
      return Diagnostic::error("sublayout: no output dim '" + name(d) + "'");
  auto contains = [](std::span<const DimId> s, DimId d) {
    return std::find(s.begin(), s.end(), d) != s.end();
  };
  LinearLayout r;
  Repack rp;
  rp.identity = false;
  for (int k = 0; k < nOut_; ++k)
    if (contains(outs, out_[k].id)) {
      LK_CHECK(r.appendOut(out_[k].id, out_[k].log2));
      rp.add(out_[k].shift, out_[k].log2, r.out_[r.nOut_ - 1].shift);
    }
  for (int i = 0; i < nIn_; ++i)
    if (contains(ins, in_[i].id)) {
      uint64_t cols[64];
      for (int b = 0; b < in_[i].log2; ++b)
        cols[b] = rp(cols_[in_[i].shift + b]);
      LK_CHECK(r.appendIn(in_[i].id, in_[i].log2, cols));
    }
  return r;
}

bool LinearLayout::sublayoutIsZero(std::span<const DimId> ins,
                                   std::span<const DimId> outs) const {
  uint64_t om = 0;
  for (DimId d : outs) {
    int k = outDimIndex(d);
    if (k >= 0)
      om |= lowMask(out_[k].log2) << out_[k].shift;
  }
  for (DimId d : ins) {
    int i = inDimIndex(d);
    if (i < 0)
      continue;
    for (int b = 0; b < in_[i].log2; ++b)
      if (cols_[in_[i].shift + b] & om)
        return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Reshaping dims
//===----------------------------------------------------------------------===//

namespace {

Status checkPermutation(std::span<const DimId> order,
                        const LinearLayout::Dim *dims, int n,
                        const char *what) {
  if (order.size() != size_t(n))
    return Diagnostic::error(std::string("transpose: expected ") +
                             std::to_string(n) + " " + what + " dims, got " +
                             std::to_string(order.size()));
  for (size_t i = 0; i < order.size(); ++i) {
    bool found = false;
    for (int k = 0; k < n; ++k)
      found |= dims[k].id == order[i];
    if (!found)
      return Diagnostic::error(std::string("transpose: no ") + what + " dim '" +
                               name(order[i]) + "'");
    for (size_t j = 0; j < i; ++j)
      if (order[j] == order[i])
        return Diagnostic::error(std::string("transpose: ") + what + " dim '" +
                                 name(order[i]) + "' named twice");
  }
  return Ok{};
}

} // namespace

Expected<LinearLayout>
LinearLayout::transposeIns(std::span<const DimId> order) const {
  LK_CHECK(checkPermutation(order, in_, nIn_, "input"));
  LinearLayout r;
  for (int k = 0; k < nOut_; ++k)
    LK_CHECK(r.appendOut(out_[k].id, out_[k].log2));
  for (DimId d : order) {
    int i = inDimIndex(d);
    LK_CHECK(r.appendIn(d, in_[i].log2, cols_ + in_[i].shift));
  }
  return r;
}

Expected<LinearLayout>
LinearLayout::transposeOuts(std::span<const DimId> order) const {
  LK_CHECK(checkPermutation(order, out_, nOut_, "output"));
  LinearLayout r;
  Repack rp;
  for (DimId d : order) {
    int k = outDimIndex(d);
    LK_CHECK(r.appendOut(d, out_[k].log2));
    rp.add(out_[k].shift, out_[k].log2, r.out_[r.nOut_ - 1].shift);
  }
  uint64_t cols[64];
  for (int i = 0; i < nIn_; ++i) {
    for (int b = 0; b < in_[i].log2; ++b)
      cols[b] = rp(cols_[in_[i].shift + b]);
    LK_CHECK(r.appendIn(in_[i].id, in_[i].log2, cols));
  }
  return r;
}

Expected<LinearLayout>
LinearLayout::reshapeIns(std::span<const OutDim> dims) const {
  LinearLayout r;
  for (int k = 0; k < nOut_; ++k)
    LK_CHECK(r.appendOut(out_[k].id, out_[k].log2));
  int j = 0;
  for (const OutDim &d : dims) {
    int k = log2Exact(d.size);
    if (k < 0)
      return Diagnostic::error("reshapeIns: size " + std::to_string(d.size) +
                               " of '" + name(d.dim) +
                               "' is not a power of two");
    if (j + k > inBits_)
      return Diagnostic::error("reshapeIns: the new dims are larger than the "
                               "input (" +
                               std::to_string(totalInSize()) + ")");
    LK_CHECK(r.appendIn(d.dim, k, cols_ + j));
    j += k;
  }
  if (j != inBits_)
    return Diagnostic::error("reshapeIns: the new dims are smaller than the "
                             "input (" +
                             std::to_string(totalInSize()) + ")");
  return r;
}

Expected<LinearLayout>
LinearLayout::reshapeOuts(std::span<const OutDim> dims) const {
  LinearLayout r;
  for (const OutDim &d : dims) {
    int k = log2Exact(d.size);
    if (k < 0)
      return Diagnostic::error("reshapeOuts: size " + std::to_string(d.size) +
                               " of '" + name(d.dim) +
                               "' is not a power of two");
    LK_CHECK(r.appendOut(d.dim, k));
  }
  if (r.outBits_ != outBits_)
    return Diagnostic::error("reshapeOuts: the new dims have size " +
                             std::to_string(r.totalOutSize()) +
                             ", the output has " +
                             std::to_string(totalOutSize()));
  for (int i = 0; i < nIn_; ++i)
    LK_CHECK(r.appendIn(in_[i].id, in_[i].log2, cols_ + in_[i].shift));
  return r;
}

LinearLayout LinearLayout::flattenIns() const {
  if (nIn_ <= 1)
    return *this;
  LinearLayout r = *this;
  r.nIn_ = 1;
  r.in_[0] = Dim{in_[0].id, inBits_, 0};
  return r;
}

LinearLayout LinearLayout::flattenOuts() const {
  if (nOut_ <= 1)
    return *this;
  LinearLayout r = *this;
  r.nOut_ = 1;
  r.out_[0] = Dim{out_[0].id, outBits_, 0};
  return r;
}

LinearLayout LinearLayout::squeeze() const {
  LinearLayout r = *this;
  r.nIn_ = r.nOut_ = 0;
  for (int i = 0; i < nIn_; ++i)
    if (in_[i].log2)
      r.in_[r.nIn_++] = in_[i];
  for (int i = 0; i < nOut_; ++i)
    if (out_[i].log2)
      r.out_[r.nOut_++] = out_[i];
  return r; // shifts unchanged: the dropped dims have no bits
}

Expected<LinearLayout> LinearLayout::concatIns(const LinearLayout &o) const {
  if (nOut_ != o.nOut_ || !std::equal(out_, out_ + nOut_, o.out_))
    return Diagnostic::error(
        "concatIns: the layouts have different output dims");
  LinearLayout r = *this;
  for (int i = 0; i < o.nIn_; ++i)
    LK_CHECK(r.appendIn(o.in_[i].id, o.in_[i].log2, o.cols_ + o.in_[i].shift));
  return r;
}

Expected<LinearLayout> LinearLayout::concatOuts(const LinearLayout &o) const {
  if (nIn_ != o.nIn_ || !std::equal(in_, in_ + nIn_, o.in_))
    return Diagnostic::error(
        "concatOuts: the layouts have different input dims");
  LinearLayout r = *this;
  for (int k = 0; k < o.nOut_; ++k)
    LK_CHECK(r.appendOut(o.out_[k].id, o.out_[k].log2));
  for (int j = 0; j < inBits_; ++j)
    r.cols_[j] = cols_[j] | (o.cols_[j] << outBits_);
  return r;
}

Expected<LinearLayout> LinearLayout::renameIn(DimId from, DimId to) const {
  int i = inDimIndex(from);
  if (i < 0)
    return Diagnostic::error("renameIn: no input dim '" + name(from) + "'");
  if (from != to && inDimIndex(to) >= 0)
    return Diagnostic::error("renameIn: input dim '" + name(to) + "' exists");
  LinearLayout r = *this;
  r.in_[i].id = to;
  return r;
}

Expected<LinearLayout> LinearLayout::renameOut(DimId from, DimId to) const {
  int i = outDimIndex(from);
  if (i < 0)
    return Diagnostic::error("renameOut: no output dim '" + name(from) + "'");
  if (from != to && outDimIndex(to) >= 0)
    return Diagnostic::error("renameOut: output dim '" + name(to) + "' exists");
  LinearLayout r = *this;
  r.out_[i].id = to;
  return r;
}

Expected<LinearLayout> LinearLayout::resize(DimId in, int64_t newSize) const {
  int i = inDimIndex(in);
  int k = log2Exact(newSize);
  if (i < 0)
    return Diagnostic::error("resize: no input dim '" + name(in) + "'");
  if (k < 0 || k < in_[i].log2)
    return Diagnostic::error("resize: new size " + std::to_string(newSize) +
                             " must be a power of two >= " +
                             std::to_string(int64_t(1) << in_[i].log2));
  if (inBits_ + (k - in_[i].log2) > kMaxBits)
    return Diagnostic::error("resize: more than 64 input bits");
  LinearLayout r;
  for (int o = 0; o < nOut_; ++o)
    LK_CHECK(r.appendOut(out_[o].id, out_[o].log2));
  for (int d = 0; d < nIn_; ++d) {
    uint64_t cols[64] = {};
    std::copy(cols_ + in_[d].shift, cols_ + in_[d].shift + in_[d].log2, cols);
    LK_CHECK(r.appendIn(in_[d].id, d == i ? k : in_[d].log2, cols));
  }
  return r;
}

Expected<LinearLayout> LinearLayout::resizeOut(DimId out,
                                               int64_t newSize) const {
  int o = outDimIndex(out);
  int k = log2Exact(newSize);
  if (o < 0)
    return Diagnostic::error("resizeOut: no output dim '" + name(out) + "'");
  if (k < 0)
    return Diagnostic::error("resizeOut: size " + std::to_string(newSize) +
                             " is not a power of two");
  uint64_t field = lowMask(out_[o].log2) << out_[o].shift;
  uint64_t keep = lowMask(k) << out_[o].shift;
  for (int j = 0; j < inBits_; ++j)
    if (cols_[j] & field & ~keep)
      return Diagnostic::error("resizeOut: a basis value on '" + name(out) +
                               "' does not fit size " +
                               std::to_string(newSize));
  LinearLayout r;
  Repack rp;
  rp.identity = false;
  for (int d = 0; d < nOut_; ++d) {
    LK_CHECK(r.appendOut(out_[d].id, d == o ? k : out_[d].log2));
    rp.add(out_[d].shift, std::min<int>(out_[d].log2, d == o ? k : 64),
           r.out_[d].shift);
  }
  uint64_t cols[64];
  for (int d = 0; d < nIn_; ++d) {
    for (int b = 0; b < in_[d].log2; ++b)
      cols[b] = rp(cols_[in_[d].shift + b]);
    LK_CHECK(r.appendIn(in_[d].id, in_[d].log2, cols));
  }
  return r;
}

Expected<LinearLayout>
LinearLayout::permuteBases(DimId in, std::span<const int> perm) const {
  int i = inDimIndex(in);
  if (i < 0)
    return Diagnostic::error("permuteBases: no input dim '" + name(in) + "'");
  if (perm.size() != size_t(in_[i].log2))
    return Diagnostic::error("permuteBases: expected a permutation of " +
                             std::to_string(in_[i].log2) + " bases");
  uint64_t seen = 0;
  for (int p : perm) {
    if (p < 0 || p >= in_[i].log2 || (seen >> p & 1))
      return Diagnostic::error("permuteBases: not a permutation");
    seen |= uint64_t(1) << p;
  }
  LinearLayout r = *this;
  for (size_t b = 0; b < perm.size(); ++b)
    r.cols_[in_[i].shift + b] = cols_[in_[i].shift + perm[b]];
  return r;
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

uint64_t LinearLayout::freeVariableMaskFlat() const {
  F2Basis e;
  uint64_t m = 0;
  for (int j = 0; j < inBits_; ++j)
    if (!e.add(cols_[j], 0))
      m |= uint64_t(1) << j;
  return m;
}

std::array<uint64_t, LinearLayout::kMaxDims>
LinearLayout::freeVariableMasks() const {
  uint64_t m = freeVariableMaskFlat();
  std::array<uint64_t, kMaxDims> r{};
  for (int i = 0; i < nIn_; ++i)
    r[i] = (m >> in_[i].shift) & lowMask(in_[i].log2);
  return r;
}

uint64_t LinearLayout::zeroColumnMaskFlat() const {
  uint64_t m = 0;
  for (int j = 0; j < inBits_; ++j)
    if (cols_[j] == 0)
      m |= uint64_t(1) << j;
  return m;
}

std::array<uint64_t, LinearLayout::kMaxDims>
LinearLayout::zeroColumnMasks() const {
  uint64_t m = zeroColumnMaskFlat();
  std::array<uint64_t, kMaxDims> r{};
  for (int i = 0; i < nIn_; ++i)
    r[i] = (m >> in_[i].shift) & lowMask(in_[i].log2);
  return r;
}

bool LinearLayout::operator==(const LinearLayout &o) const {
  if (nIn_ != o.nIn_ || nOut_ != o.nOut_ || inBits_ != o.inBits_)
    return false;
  for (int i = 0; i < nIn_; ++i)
    if (in_[i].id != o.in_[i].id || in_[i].log2 != o.in_[i].log2)
      return false;
  for (int i = 0; i < nOut_; ++i)
    if (out_[i].id != o.out_[i].id || out_[i].log2 != o.out_[i].log2)
      return false;
  return std::equal(cols_, cols_ + inBits_, o.cols_);
}

size_t LinearLayout::hash() const {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) {
    h ^= v;
    h *= 1099511628211ull;
    h ^= h >> 29;
  };
  for (int i = 0; i < nIn_; ++i)
    mix(uint64_t(in_[i].id) << 8 | in_[i].log2);
  mix(0xabcdef);
  for (int i = 0; i < nOut_; ++i)
    mix(uint64_t(out_[i].id) << 8 | out_[i].log2);
  for (int j = 0; j < inBits_; ++j)
    mix(cols_[j]);
  return size_t(h);
}

std::string LinearLayout::str() const {
  std::string s = "{";
  for (int i = 0; i < nIn_; ++i) {
    if (i)
      s += ", ";
    s += dimName(in_[i].id);
    s += ": [";
    for (int b = 0; b < in_[i].log2; ++b) {
      if (b)
        s += ", ";
      s += "(";
      uint64_t c = cols_[in_[i].shift + b];
      for (int k = 0; k < nOut_; ++k) {
        if (k)
          s += ",";
        s += std::to_string((c >> out_[k].shift) & lowMask(out_[k].log2));
      }
      s += ")";
    }
    s += "]";
  }
  s += "} -> {";
  for (int k = 0; k < nOut_; ++k) {
    if (k)
      s += ", ";
    s += dimName(out_[k].id);
    s += ": ";
    s += std::to_string(int64_t(1) << out_[k].log2);
  }
  s += "}";
  return s;
}

std::string LinearLayout::toString() const {
  std::string outs = "[";
  for (int k = 0; k < nOut_; ++k) {
    if (k)
      outs += ", ";
    outs += std::string(dimName(out_[k].id)) + " (size " +
            std::to_string(int64_t(1) << out_[k].log2) + ")";
  }
  outs += "]";
  if (nIn_ == 0)
    return nOut_ == 0 ? "(empty layout)"
                      : "(empty layout with out-dims " + outs + ")";
  std::string s;
  for (int i = 0; i < nIn_; ++i) {
    std::string n(dimName(in_[i].id));
    if (in_[i].log2 == 0) {
      s += " - " + n + " is a size 1 dimension\n";
      continue;
    }
    for (int b = 0; b < in_[i].log2; ++b) {
      s += b == 0 ? " - " : "   ";
      s += n + "=" + std::to_string(int64_t(1) << b) + " -> (";
      std::vector<int64_t> v = unpackOut(cols_[in_[i].shift + b]);
      for (size_t k = 0; k < v.size(); ++k)
        s += (k ? ", " : "") + std::to_string(v[k]);
      s += ")\n";
    }
  }
  return s + "where out dims are: " + outs;
}

//===----------------------------------------------------------------------===//
// Division
//===----------------------------------------------------------------------===//

namespace {

/// Fails unless every dim of the divisor `D` fits in the dividend's dim of
/// the same name (`op` names the operation in the message).
Status checkDivisorFits(const char *op, const LinearLayout &A,
                        const LinearLayout &D) {
  for (int i = 0; i < D.numInDims(); ++i)
    if (D.inDim(i).log2 > 0 && A.inDimLog2(D.inDim(i).id) < D.inDim(i).log2)
      return Diagnostic::error(std::string(op) + ": input dim '" +
                               name(D.inDim(i).id) +
                               "' of the divisor is larger than the dividend's");
  for (int k = 0; k < D.numOutDims(); ++k)
    if (D.outDim(k).log2 > 0 && A.outDimLog2(D.outDim(k).id) < D.outDim(k).log2)
      return Diagnostic::error(std::string(op) + ": output dim '" +
                               name(D.outDim(k).id) +
                               "' of the divisor is larger than the dividend's");
  return Ok{};
}

/// The quotient's output dims: A's, each divided by the divisor's size.
std::vector<OutDim> quotientOutDims(const LinearLayout &A,
                                    const LinearLayout &D) {
  std::vector<OutDim> outs;
  for (int k = 0; k < A.numOutDims(); ++k) {
    DimSize d = A.outDim(k);
    outs.push_back({d.id, int64_t(1) << (d.log2 - D.outDimLog2(d.id))});
  }
  return outs;
}

} // namespace

Expected<LinearLayout> divideLeft(const LinearLayout &A,
                                  const LinearLayout &B) {
  LK_CHECK(checkDivisorFits("divideLeft", A, B));
  std::vector<OutDim> outs = quotientOutDims(A, B);
  std::vector<InDimBases> ins;
  for (int i = 0; i < A.numInDims(); ++i) {
    DimSize d = A.inDim(i);
    int nb = B.inDimLog2(d.id);
    InDimBases q{d.id, {}};
    for (int b = 0; b < d.log2; ++b) {
      std::vector<int64_t> v(A.numOutDims());
      for (int k = 0; k < A.numOutDims(); ++k) {
        DimId o = A.outDim(k).id;
        int64_t a = A.basis(d.id, b, o);
        if (b < nb) {
          if (a != B.basis(d.id, b, o))
            return Diagnostic::error(
                "divideLeft: basis " + std::to_string(b) + " of '" +
                name(d.id) + "' differs from the divisor's on '" + name(o) +
                "' (" + std::to_string(a) + " vs " +
                std::to_string(B.basis(d.id, b, o)) + ")");
        } else {
          int low = B.outDimLog2(o);
          if (a & ((int64_t(1) << low) - 1))
            return Diagnostic::error(
                "divideLeft: basis " + std::to_string(b) + " of '" +
                name(d.id) + "' has a value " + std::to_string(a) + " on '" +
                name(o) + "' that is not a multiple of the divisor's size " +
                std::to_string(int64_t(1) << low));
          v[k] = a >> low;
        }
      }
      if (b >= nb)
        q.bases.push_back(std::move(v));
    }
    ins.push_back(std::move(q));
  }
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

Expected<LinearLayout> divideRight(const LinearLayout &A,
                                   const LinearLayout &C) {
  LK_CHECK(checkDivisorFits("divideRight", A, C));
  std::vector<OutDim> outs = quotientOutDims(A, C);
  std::vector<InDimBases> ins;
  for (int i = 0; i < A.numInDims(); ++i) {
    DimSize d = A.inDim(i);
    int nc = C.inDimLog2(d.id);
    int nb = d.log2 - nc;
    InDimBases q{d.id, {}};
    for (int b = 0; b < d.log2; ++b) {
      std::vector<int64_t> v(A.numOutDims());
      for (int k = 0; k < A.numOutDims(); ++k) {
        DimId o = A.outDim(k).id;
        int64_t a = A.basis(d.id, b, o);
        if (b >= nb) {
          int64_t want = C.basis(d.id, b - nb, o)
                         << int(__builtin_ctzll(uint64_t(outs[k].size)));
          if (a != want)
            return Diagnostic::error("divideRight: basis " + std::to_string(b) +
                                     " of '" + name(d.id) +
                                     "' differs from the divisor's on '" +
                                     name(o) + "' (" + std::to_string(a) +
                                     " vs " + std::to_string(want) + ")");
        } else {
          if (a >= outs[k].size)
            return Diagnostic::error(
                "divideRight: basis " + std::to_string(b) + " of '" +
                name(d.id) + "' reaches the divisor's part of '" + name(o) +
                "' (value " + std::to_string(a) + ")");
          v[k] = a;
        }
      }
      if (b < nb)
        q.bases.push_back(std::move(v));
    }
    ins.push_back(std::move(q));
  }
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

Expected<PermutedQuotient> divideLeftWithPermutation(const LinearLayout &A,
                                                     const LinearLayout &B,
                                                     DimId dim) {
  int ia = A.inDimIndex(dim);
  int na = ia < 0 ? 0 : A.inDim(ia).log2;
  std::vector<int> perm;
  std::vector<bool> used(size_t(na), false);
  for (int b = 0; b < B.inDimLog2(dim); ++b) {
    bool found = false;
    for (int j = 0; j < na && !found; ++j) {
      if (used[size_t(j)])
        continue;
      bool same = true;
      for (int k = 0; k < A.numOutDims() && same; ++k)
        same =
            A.basis(dim, j, A.outDim(k).id) == B.basis(dim, b, A.outDim(k).id);
      for (int k = 0; k < B.numOutDims() && same; ++k)
        same =
            A.hasOutDim(B.outDim(k).id) || B.basis(dim, b, B.outDim(k).id) == 0;
      if (same) {
        used[size_t(j)] = true;
        perm.push_back(j);
        found = true;
      }
    }
    if (!found)
      return Diagnostic::error(
          "divideLeft: basis " + std::to_string(b) + " of '" + name(dim) +
          "' of the divisor is not a basis of the dividend");
  }
  for (int j = 0; j < na; ++j)
    if (!used[size_t(j)])
      perm.push_back(j);
  LinearLayout permuted = A;
  if (ia >= 0) {
    LK_TRY(permuted, A.permuteBases(dim, perm));
  }
  LK_TRY(LinearLayout q, divideLeft(permuted, B));
  return PermutedQuotient{std::move(perm), std::move(q)};
}

} // namespace lk::linear
