//===- fuzz_bindings.cpp - The api calls the Python bindings make ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The Python module converts its arguments (nested tuples of ints, ints
/// of any size, dim lists, budgets) and makes one library call each
/// (python/src/*.cpp). This target makes those calls with arguments built
/// from the bytes, as a hostile Python caller could pass them: IntTuples of
/// any nesting and rank up to the converters' bounds, and integers drawn
/// from the 64-bit edges (0, +-1, 2^31, 2^32, 2^62, 2^63 - 1, INT64_MIN)
/// or taken raw. Byte 0 chooses the call:
///
///   Layout(shape, stride) and L(coord) / L(i) / idx2crd / cosize,
///   coalesce / filter(profile), composition(a, tiler), complement(l, m),
///   right_inverse / left_inverse, checkWork, from_f2_matrix, tile_tma,
///   plan(src, dst, smem_budget) on layouts of any dim sizes, TileLayout
///   eval / owners bounds (tilePointBound), Swizzle(b, m, s).
///
/// Every refusal must carry a message; where a call succeeds, its answer is
/// checked against a second computation: L(i) through idx2crd equals L(i)
/// directly, a checkWork that passes has elements x perElement <= limit,
/// a plan's layouts have at most the planner's lanes and registers.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/api/Descriptor.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/api/Query.h"
#include "layoutkit/core/Checked.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/linear/Structure.h"
#include "layoutkit/tile/TileText.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace lk;

namespace {

/// Reads the fuzz input front to back; past the end every read is 0.
class Bytes {
public:
  Bytes(const uint8_t *d, size_t n) : d_(d), n_(n) {}
  uint8_t u8() { return i_ < n_ ? d_[i_++] : 0; }
  bool more() const { return i_ < n_; }
  /// An integer: one of the 64-bit edges, a small value, or 8 raw bytes.
  int64_t integer() {
    static const int64_t kEdges[] = {0,
                                     1,
                                     -1,
                                     2,
                                     4,
                                     8,
                                     32,
                                     int64_t(1) << 31,
                                     int64_t(1) << 32,
                                     int64_t(1) << 62,
                                     std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::min(),
                                     -(int64_t(1) << 62),
                                     3,
                                     6,
                                     16};
    uint8_t k = u8();
    if (k < 128)
      return kEdges[k % 16];
    if (k < 224)
      return int64_t(k % 17);
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b)
      v |= uint64_t(u8()) << (8 * b);
    return int64_t(v);
  }
  /// An IntTuple of at most `depth` levels below this one and at most
  /// `budget` nodes in all (the converters' bounds are 64 levels and 65535
  /// nodes; smaller here to keep inputs quick).
  IntTuple tuple(int depth, int &budget) {
    uint8_t k = u8();
    if (depth == 0 || budget <= 1 || k < 160) {
      --budget;
      return IntTuple(integer());
    }
    int rank = k % 5; // 0..4 modes; an empty tuple too
    std::vector<IntTuple> modes;
    --budget;
    for (int r = 0; r < rank && budget > 0; ++r)
      modes.push_back(tuple(depth - 1, budget));
    return IntTuple::tuple(modes);
  }
  IntTuple tuple() {
    int budget = 64;
    return tuple(8, budget);
  }

private:
  const uint8_t *d_;
  size_t n_, i_ = 0;
};

template <class T> void refusal(const Expected<T> &e) {
  if (!e)
    LK_FUZZ_CHECK(!e.error().message.empty(), "a refusal without a message");
}

/// Layout(shape, stride) and its evaluations (BindCute's Layout, __call__,
/// idx2crd, cosize).
void layoutCalls(Bytes &b) {
  IntTuple shape = b.tuple(), stride = b.tuple(), coord = b.tuple();
  Expected<cute::Layout> l = cute::Layout::make(shape, stride);
  refusal(l);
  if (!l)
    return;
  refusal(l->cosize());
  refusal(cute::crd2idx(coord, *l));
  int64_t i = b.integer();
  Expected<int64_t> direct = cute::crd2idx(IntTuple(i), *l);
  refusal(direct);
  Expected<IntTuple> crd = cute::idx2crd(i, l->shape());
  refusal(crd);
  if (direct && crd && i >= 0 && i < l->size()) {
    Expected<int64_t> viaCrd = cute::crd2idx(*crd, *l);
    refusal(viaCrd);
    if (viaCrd)
      LK_FUZZ_CHECK(*viaCrd == *direct,
                    "L(%lld) = %lld, but L(idx2crd(%lld)) = %lld", (long long)i,
                    (long long)*direct, (long long)i, (long long)*viaCrd);
  }
}

/// coalesce / filter with a profile, composition with a tiler, complement
/// and the inverses (BindCute's module functions).
void algebraCalls(Bytes &b) {
  Expected<cute::Layout> l = cute::Layout::make(b.tuple(), b.tuple());
  if (!l)
    return;
  IntTuple profile = b.tuple();
  Expected<cute::Layout> c = cute::coalesce(*l, profile);
  refusal(c);
  if (c)
    LK_FUZZ_CHECK(c->size() == l->size(), "coalesce changed the size");
  refusal(cute::filter(*l, profile));
  Expected<cute::Tiler> t = cute::Tiler::ofSize(b.integer());
  refusal(t);
  if (t)
    refusal(cute::composition(*l, *t));
  Expected<cute::Layout> other = cute::Layout::make(b.tuple(), b.tuple());
  if (other)
    refusal(cute::composition(*l, *other));
  refusal(cute::complement(*l, b.tuple()));
  refusal(cute::right_inverse(*l));
  refusal(cute::left_inverse(*l));
}

/// api::checkWork as offsets() / outputs() / draw_* call it.
void workCalls(Bytes &b) {
  int64_t elements = b.integer(), per = b.integer(), limit = b.integer();
  if (elements < 0 || per < 0)
    return; // the documented precondition
  Status s = api::checkWork("fuzz", elements, per, limit);
  int64_t product = 0;
  bool overflows = mulOverflows(elements, per, product);
  if (s)
    LK_FUZZ_CHECK(!overflows && product <= limit,
                  "checkWork passed %lld x %lld over a limit of %lld",
                  (long long)elements, (long long)per, (long long)limit);
  else
    LK_FUZZ_CHECK(!s.error().message.empty(), "a refusal without a message");
}

/// from_f2_matrix with dims of any size (BindModels' fromF2Matrix).
void f2Calls(Bytes &b) {
  std::vector<linear::DimSize> ins, outs;
  int nIn = b.u8() % 4, nOut = b.u8() % 4;
  int64_t inBits = 0, outBits = 0;
  for (int k = 0; k < nIn; ++k) {
    ins.push_back(
        {linear::DimId(linear::dims::kRegister + k), int(b.u8() % 70)});
    inBits += ins.back().log2;
  }
  for (int k = 0; k < nOut; ++k) {
    outs.push_back({linear::dims::dim(k), int(b.u8() % 70)});
    outBits += outs.back().log2;
  }
  int64_t rows = b.u8() % 72, cols = b.u8() % 72;
  std::vector<int64_t> bits(size_t(rows * cols));
  for (int64_t &v : bits)
    v = b.u8() & 1;
  Expected<linear::LinearLayout> l =
      linear::fromF2Matrix(ins, outs, bits, rows, cols);
  refusal(l);
  if (l) {
    LK_FUZZ_CHECK(l->totalInBits() == inBits && l->totalOutBits() == outBits,
                  "from_f2_matrix changed the dims");
    LK_FUZZ_CHECK(inBits <= 64 && outBits <= 64 && rows == outBits &&
                      cols == inBits,
                  "from_f2_matrix accepted a %lld x %lld matrix for %lld x "
                  "%lld bits",
                  (long long)rows, (long long)cols, (long long)outBits,
                  (long long)inBits);
  }
}

/// tile_tma (BindHwPlan's tileTma).
void tmaCalls(Bytes &b) {
  const char *types[] = {"f16", "bf16", "f32", "f8e4m3", "i8", "x"};
  int64_t bits = b.integer(), mn = b.integer(), k = b.integer();
  hw::Major major = b.u8() & 1 ? hw::Major::K : hw::Major::MN;
  auto swizzle = hw::SwizzleMode(b.u8() % 4);
  refusal(api::tileTma(types[b.u8() % 6], bits, major, mn, k, swizzle));
}

/// plan(src, dst, smem_budget=...) on layouts of any dim sizes: the api
/// and the planner refuse what is too large before any work. A dim is
/// small (what plans quickly: at most 2^10 elements in all) or of up to
/// 47 bits (refused).
void planCalls(Bytes &b) {
  auto layout = [&]() -> Expected<linear::LinearLayout> {
    linear::DimId hw[] = {linear::dims::kRegister, linear::dims::kLane,
                          linear::dims::kWarp, linear::dims::kBlock};
    const int small[] = {3, 6, 2, 2};
    std::vector<linear::DimSize> ins;
    int total = 0;
    for (int k = 0; k < 4; ++k) {
      linear::DimId d = hw[k];
      uint8_t c = b.u8();
      int bits = c & 0x80 ? c % 48 : c % small[k];
      if (total + bits > 64)
        bits = 64 - total;
      ins.push_back({d, bits});
      total += bits;
    }
    // Columns: a permutation of the output bits (a bijection).
    std::vector<uint64_t> cols(static_cast<size_t>(total));
    for (int j = 0; j < total; ++j)
      cols[size_t(j)] = uint64_t(1) << j;
    for (int j = total - 1; j > 0; --j)
      std::swap(cols[size_t(j)], cols[size_t(b.u8() % (j + 1))]);
    linear::DimSize outs[] = {{linear::dims::dim(0), total}};
    return linear::LinearLayout::fromColumns(ins, outs, cols);
  };
  Expected<linear::LinearLayout> src = layout(), dst = layout();
  if (!src || !dst)
    return;
  plan::PlanOptions options;
  options.smemBudgetBytes = b.integer();
  options.matrixInstructions = b.u8() & 1;
  Expected<cute::ElementType> type = cute::lookupElementType("f16");
  if (!type)
    return;
  Expected<api::PlanReport> r = api::planConversion(*src, *dst, *type, options,
                                                    api::ReportOptions{false});
  refusal(r);
  if (r) {
    LK_FUZZ_CHECK(options.smemBudgetBytes >= 0,
                  "a negative budget was planned");
    for (const linear::LinearLayout *l : {&*src, &*dst})
      LK_FUZZ_CHECK(l->inDimLog2(linear::dims::kLane) <= plan::kMaxLaneBits &&
                        l->inDimLog2(linear::dims::kRegister) <=
                            plan::kMaxRegisterBits,
                    "a plan past the planner's bounds");
  }
}

/// TileLayout eval / owners / holds bounds (api::tilePointBound) and
/// Swizzle(b, m, s).
void tileCalls(Bytes &b) {
  std::string text = "S[" + std::to_string(b.integer()) + ":" +
                     std::to_string(b.integer()) + "] + R[" +
                     std::to_string(b.integer()) + ":" +
                     std::to_string(b.integer()) + "@warpid]";
  Expected<tile::TileLayout> t = tile::parseTileLayout(text);
  refusal(t);
  if (t) {
    int64_t elements = b.integer();
    if (elements >= 0) {
      Expected<int64_t> n = api::tilePointBound(*t, elements, "fuzz");
      refusal(n);
      if (n)
        LK_FUZZ_CHECK(*n >= 0 && *n <= api::kMaxTilePoints,
                      "tilePointBound passed %lld points", (long long)*n);
    }
  }
  refusal(cute::Swizzle::make(b.integer(), b.integer(), b.integer()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Bytes b(data, size);
  switch (b.u8() % 8) {
  case 0:
    layoutCalls(b);
    break;
  case 1:
    algebraCalls(b);
    break;
  case 2:
    workCalls(b);
    break;
  case 3:
    f2Calls(b);
    break;
  case 4:
    tmaCalls(b);
    break;
  case 5:
    planCalls(b);
    break;
  default:
    tileCalls(b);
    break;
  }
  return 0;
}
