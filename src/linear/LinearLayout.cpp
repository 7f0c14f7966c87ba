//===- LinearLayout.cpp - Linear layouts over F2 --------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The packed representation: column j (flattened input bit j) is a uint64_t
/// whose bits are the flattened output. This file holds the dim names,
/// construction, access to dims and bases, equality, hashing and printing;
/// the operations are in the files named after them (LinearCompose.cpp,
/// LinearInverse.cpp, LinearReshape.cpp, LinearDivide.cpp).
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/LinearLayout.h"

#include "LinearSupport.h"

#include "layoutkit/core/Bits.h"

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

} // namespace

using namespace detail;

DimId internDim(std::string_view n) {
  DimTable &t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.ids.find(n);
  if (it != t.ids.end())
    return it->second;
  if (t.names.size() >= dims::kNoDim)
    return dims::kNoDim;
  return t.add(std::string(n));
}

namespace {
/// The diagnostic of a dim that internDim could not name, or success.
Status checkNamed(DimId id) {
  if (id == dims::kNoDim)
    return Diagnostic::error("too many distinct dim names in this process "
                             "(at most " +
                             std::to_string(dims::kNoDim) + ")");
  return Ok{};
}
} // namespace

Expected<DimId> dimNamed(std::string_view name) {
  auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  bool ok = !name.empty() && letter(name[0]);
  for (char c : name)
    ok = ok && (letter(c) || (c >= '0' && c <= '9'));
  if (!ok)
    return Diagnostic::error("dim name '" + std::string(name) +
                             "' is not a name of the text form "
                             "([A-Za-z_][A-Za-z0-9_]*)");
  DimId id = internDim(name);
  LK_CHECK(checkNamed(id));
  return id;
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

namespace {
/// A dim of `log2` bits fits kMaxDimBits: its size is an exact int64_t.
Status checkDimBits(DimId id, int log2, const char *side) {
  if (log2 <= LinearLayout::kMaxDimBits)
    return Ok{};
  return Diagnostic::error(
      std::string(side) + " dim '" + name(id) + "' would have " +
      std::to_string(log2) + " bits; one dim has at most 2^" +
      std::to_string(LinearLayout::kMaxDimBits) + " values");
}
} // namespace

Status LinearLayout::appendIn(DimId id, int log2, const uint64_t *cols) {
  LK_CHECK(checkNamed(id));
  if (nIn_ >= kMaxDims)
    return Diagnostic::error("too many input dims (at most " +
                             std::to_string(kMaxDims) + ")");
  if (log2 < 0 || inBits_ + log2 > kMaxBits)
    return Diagnostic::error("input dims exceed 64 bits in total (adding '" +
                             name(id) + "')");
  LK_CHECK(checkDimBits(id, log2, "input"));
  if (inDimIndex(id) >= 0)
    return Diagnostic::error("duplicate input dim '" + name(id) + "'");
  in_[nIn_++] = Dim{id, uint8_t(log2), inBits_};
  for (int i = 0; i < log2; ++i)
    cols_[inBits_ + i] = cols ? cols[i] : 0;
  inBits_ = uint8_t(inBits_ + log2);
  return Ok{};
}

Status LinearLayout::appendOut(DimId id, int log2) {
  LK_CHECK(checkNamed(id));
  if (nOut_ >= kMaxDims)
    return Diagnostic::error("too many output dims (at most " +
                             std::to_string(kMaxDims) + ")");
  if (log2 < 0 || outBits_ + log2 > kMaxBits)
    return Diagnostic::error("output dims exceed 64 bits in total (adding '" +
                             name(id) + "')");
  LK_CHECK(checkDimBits(id, log2, "output"));
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
    return Diagnostic::error("identity_1d: size " + std::to_string(size) +
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
    return Diagnostic::error("zeros_1d: size " + std::to_string(size) +
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
    if (Status named = checkNamed(o.dim); !named) {
      result = named.error();
      return result;
    }
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
    if (Status named = checkNamed(inDim); !named) {
      result = named.error();
      return result;
    }
    if (size_t(j) + n > size_t(kMaxBits)) {
      result = Diagnostic::error("input dims exceed 64 bits in total (at '" +
                                 name(inDim) + "')");
      return result;
    }
    if (Status fits = checkDimBits(inDim, int(n), "input"); !fits) {
      result = fits.error();
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
    for (size_t i = 0; i < in.bases.size(); ++i) {
      const std::vector<int64_t> &b = in.bases[i];
      std::string basis =
          "basis " + std::to_string(i) + " of input dim '" + name(in.dim) + "'";
      if (b.size() != outs.size())
        return Diagnostic::error(basis + " has " + std::to_string(b.size()) +
                                 " values; expected " +
                                 std::to_string(outs.size()));
      for (size_t k = 0; k < b.size(); ++k) {
        if (b[k] < 0 || b[k] >= (int64_t(1) << kMaxDimBits))
          return Diagnostic::error(
              basis + ": value " + std::to_string(b[k]) + " on output dim '" +
              name(outs[k].dim) + "' is " +
              (b[k] < 0 ? std::string("negative")
                        : "at least 2^62, and one dim has at most 2^62 "
                          "values"));
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
    LK_CHECK(checkNamed(dims[k].id));
    if (dims[k].log2 < 0 || bits + dims[k].log2 > LinearLayout::kMaxBits)
      return Diagnostic::error(std::string("fromColumns: ") + side +
                               " dims exceed 64 bits");
    LK_CHECK(checkDimBits(dims[k].id, dims[k].log2, side));
    for (size_t m = 0; m < k; ++m)
      if (dims[m].id == dims[k].id)
        return Diagnostic::error(std::string("fromColumns: duplicate ") + side +
                                 " dim '" + name(dims[k].id) + "'");
    out[k] =
        LinearLayout::Dim{dims[k].id, uint8_t(dims[k].log2), uint8_t(bits)};
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

namespace {
/// The index of the dim named `name` among `dims` (ids, n of them), or the
/// diagnostic naming `side` ("in-dim", "out-dim") and the dims there are.
template <class Dim>
Expected<int> findDim(const Dim *dims, int n, std::string_view name,
                      const char *side) {
  std::string known;
  for (int i = 0; i < n; ++i) {
    if (dimName(dims[i].id) == name)
      return i;
    known += (i ? ", " : "") + std::string(dimName(dims[i].id));
  }
  return Diagnostic::error("the layout has no " + std::string(side) + " '" +
                           std::string(name) + "' (its " + side +
                           "s: " + (n ? known : "none") + ")");
}
} // namespace

Expected<int> LinearLayout::findInDim(std::string_view name) const {
  return findDim(in_, nIn_, name, "in-dim");
}

Expected<int> LinearLayout::findOutDim(std::string_view name) const {
  return findDim(out_, nOut_, name, "out-dim");
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
  return pow2Saturated(inDimLog2(id));
}
int64_t LinearLayout::outDimSize(DimId id) const {
  return pow2Saturated(outDimLog2(id));
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

Expected<uint64_t> LinearLayout::applyFlatChecked(uint64_t x) const {
  if (inBits_ < 64 && (x >> inBits_) != 0)
    return Diagnostic::error(
        "flat input " + std::to_string(x) + " is outside [0, " +
        std::to_string(uint64_t(1) << inBits_) + "), the layout's " +
        std::to_string(inBits_) + " input bits");
  return applyFlat(x);
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
    if (Status s = checkInValue(i, in[i]); !s) {
      Diagnostic d = std::move(s).error();
      d.message = "apply: " + d.message;
      return d;
    }
  return unpackOut(applyFlat(packIn(in)));
}

Status LinearLayout::checkInValue(int i, int64_t v) const {
  const int64_t size = int64_t(1) << in_[i].log2;
  if (v >= 0 && v < size)
    return Ok{};
  return Diagnostic::error("value " + std::to_string(v) +
                           " is outside in-dim '" + name(in_[i].id) +
                           "' of size " + std::to_string(size));
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

} // namespace lk::linear
