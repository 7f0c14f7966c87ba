//===- LayoutCost.cpp - Candidates and costs of a load/store layout -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/LayoutCost.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/hw/Atom.h"

#include <algorithm>

namespace lk::tileas {

double score(const CostTerms &t, const CostWeights &w) {
  return w.smem * static_cast<double>(t.smemWavefronts) +
         w.tmem * static_cast<double>(t.tmemInstructions) +
         w.registers * static_cast<double>(t.registers);
}

bool Candidate::fits(LayoutFamily f) const {
  return family == f ||
         std::find(alsoFits.begin(), alsoFits.end(), f) != alsoFits.end();
}

std::optional<size_t> pickByCost(std::span<const Candidate> cands,
                                 const CostWeights &w) {
  std::optional<size_t> best;
  for (size_t i = 0; i < cands.size(); ++i) {
    if (!best) {
      best = i;
      continue;
    }
    const CostTerms &a = cands[i].terms, &b = cands[*best].terms;
    double sa = score(a, w), sb = score(b, w);
    if (sa != sb) {
      if (sa < sb)
        best = i;
      continue;
    }
    if (a.registers != b.registers) {
      if (a.registers < b.registers)
        best = i;
      continue;
    }
    if (a.smemWavefronts < b.smemWavefronts)
      best = i;
  }
  return best;
}

namespace {

/// Sizes of the tile, overflow-checked once so the candidates can use
/// plain arithmetic: bits of a row, and the live 32-bit registers per
/// thread of the whole tile in registers, bytes / (4 * 32 * warps) rounded
/// up.
struct TileSize {
  int64_t rowBits = 0;
  int64_t registers = 0;
};

Expected<TileSize> tileSize(const AccessShape &a) {
  LK_TRY(int64_t rowBits, checkedMul(a.cols, a.elementBits, "tile row bits"));
  LK_TRY(int64_t bits, checkedMul(rowBits, a.rows, "tile bits"));
  LK_TRY(int64_t perThread, checkedMul(a.numWarps, 4 * 32, "warp bytes"));
  int64_t bytes = bits / 8;
  return TileSize{rowBits, bytes / perThread + (bytes % perThread != 0)};
}

/// The buffer's layout: the attribute's, or row-major compact.
Expected<cute::LayoutAttribute> bufferLayout(const AccessShape &a) {
  if (a.bufferLayout)
    return *a.bufferLayout;
  LK_TRY(cute::Layout l, cute::Layout::make(IntTuple::tuple({a.rows, a.cols}),
                                            IntTuple::tuple({a.cols, 1})));
  return cute::LayoutAttribute::make(std::move(l));
}

/// Byte address of element (row, col): the layout maps (row, col) to an
/// element offset (colex flat index row + rows * col, col < 16); the
/// swizzle acts on byte addresses.
Expected<int64_t> byteAddress(const cute::LayoutAttribute &l,
                              const AccessShape &a, int64_t row, int64_t col) {
  int64_t offset = cute::evaluate(l.layout, row + a.rows * col);
  LK_TRY(int64_t bits, checkedMul(offset, a.elementBits, "element address"));
  return l.swizzle ? (*l.swizzle)(bits / 8) : bits / 8;
}

/// Wavefronts of the first ldmatrix/stmatrix .x4 of the tile: matrix j
/// covers rows 8 (j & 1) .. +8 and columns 8 (j >> 1) .. +8 of the top-left
/// 16x16 block (the order an mma A fragment takes).
Expected<int64_t> matrixWavefronts(const AccessShape &a) {
  LK_TRY(cute::LayoutAttribute l, bufferLayout(a));
  std::vector<int64_t> rows;
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t r = 0; r < 8; ++r) {
      LK_TRY(int64_t addr, byteAddress(l, a, r + 8 * (j & 1), 8 * (j >> 1)));
      rows.push_back(addr);
    }
  return hw::machine(a.arch).smem.ldmatrixWavefronts(rows, 4);
}

void addBulkTensorCopy(const AccessShape &a, const TileSize &t,
                       std::vector<Candidate> &out) {
  bool source = a.isLoad ? (a.bufferKind == MemKind::Global ||
                            a.bufferKind == MemKind::Smem)
                         : a.bufferKind == MemKind::Global;
  if (!source || a.arch == hw::Arch::Sm80 || t.rowBits % 128 != 0 ||
      a.bufferAlignment < 16)
    return;
  out.push_back({"cp.async.bulk.tensor", MemKind::Smem, LayoutFamily::Shared,
                 SubLayoutAxis::A, 16, CostTerms{1, 0, 0}});
}

Status addMatrixAccess(const AccessShape &a, const TileSize &t,
                       std::vector<Candidate> &out) {
  if (a.bufferKind != MemKind::Smem || a.elementBits != 16 || a.rows % 16 ||
      a.cols % 16 || a.bufferAlignment < 16 ||
      (a.bufferLayout && a.bufferLayout->layout.size() != a.rows * a.cols))
    return Ok{};
  LK_TRY(int64_t wavefronts, matrixWavefronts(a));
  out.push_back({a.isLoad ? "ldmatrix.x4.b16" : "stmatrix.x4.b16",
                 MemKind::Register, LayoutFamily::DotOperand, SubLayoutAxis::A,
                 16, CostTerms{wavefronts, 0, t.registers}});
  return Ok{};
}

/// tcgen05.ld/st shapes that cover a warp's 32 TMEM lanes: 32x32b in one
/// instruction per column chunk, 16x256b in two (16 lanes each). Each uses
/// its widest .num that the catalog has and the row needs.
void addTmemAccess(const AccessShape &a, const TileSize &t,
                   std::vector<Candidate> &out) {
  if (a.bufferKind != MemKind::Tmem || !a.tmemArch || a.rows % 32 ||
      a.rows > 128 || t.rowBits % 32)
    return;
  int64_t cells = t.rowBits / 32; // 32-bit columns per row
  struct Shape {
    const char *name;
    int64_t lanes;       // lanes per instruction
    int64_t cellsPerNum; // columns per .num unit
  };
  const Shape shapes[] = {{"32x32b", 32, 1}, {"16x256b", 16, 8}};
  std::string op = a.isLoad ? "tcgen05.ld." : "tcgen05.st.";
  for (const Shape &s : shapes) {
    int64_t num = 0;
    for (int64_t n = 1; n * s.cellsPerNum <= cells; n *= 2)
      if (hw::findAtom(op + s.name + ".x" + std::to_string(n)))
        num = n;
    if (num == 0)
      continue;
    int64_t perRowChunk =
        (cells + num * s.cellsPerNum - 1) / (num * s.cellsPerNum);
    int64_t instructions = perRowChunk * (32 / s.lanes);
    out.push_back({op + s.name + ".x" + std::to_string(num), MemKind::Register,
                   LayoutFamily::Linear, SubLayoutAxis::C, 4,
                   CostTerms{0, instructions, t.registers}});
  }
}

Status addVectorAccess(const AccessShape &a, const TileSize &t,
                       std::vector<Candidate> &out) {
  if (a.bufferKind != MemKind::Smem && a.bufferKind != MemKind::Global)
    return Ok{};
  int64_t elementBytes = std::max<int64_t>(1, a.elementBits / 8);
  // Gathered columns: each element comes from its own column; an atomic
  // combines one element at a time.
  int64_t width = a.indexedAxis == 1 || a.atomic ? elementBytes : 16;
  while (width > elementBytes &&
         (t.rowBits % (8 * width) != 0 || a.bufferAlignment < width))
    width /= 2;
  int64_t wavefronts = 0;
  if (a.bufferKind == MemKind::Smem) {
    LK_TRY(hw::LaneGrouping g, hw::machine(a.arch).smem.grouping(width));
    wavefronts = g.minWavefronts;
  }
  out.push_back({"universal",
                 MemKind::Register,
                 LayoutFamily::Blocked,
                 SubLayoutAxis::A,
                 width,
                 CostTerms{wavefronts, 0, t.registers},
                 {LayoutFamily::Linear}});
  return Ok{};
}

} // namespace

Expected<std::vector<Candidate>> candidatesFor(const AccessShape &a) {
  std::vector<Candidate> out;
  if (a.rows <= 0 || a.cols <= 0 || a.elementBits <= 0 || a.numWarps <= 0)
    return out;
  LK_TRY(TileSize t, tileSize(a));
  addBulkTensorCopy(a, t, out);
  LK_CHECK(addMatrixAccess(a, t, out));
  addTmemAccess(a, t, out);
  LK_CHECK(addVectorAccess(a, t, out));
  return out;
}

Expected<std::vector<Candidate>> atomicCandidatesFor(const AccessShape &a) {
  std::vector<Candidate> out;
  if (a.rows <= 0 || a.cols <= 0 || a.elementBits <= 0 || a.numWarps <= 0)
    return out;
  LK_TRY(TileSize t, tileSize(a));
  if (a.bufferKind == MemKind::Global && a.arch != hw::Arch::Sm80 &&
      t.rowBits % 128 == 0 && a.bufferAlignment >= 16)
    out.push_back({"cp.reduce.async.bulk.tensor", MemKind::Smem,
                   LayoutFamily::Shared, SubLayoutAxis::A, 16,
                   CostTerms{1, 0, 0}});
  LK_CHECK(addVectorAccess(a, t, out));
  return out;
}

Expected<std::vector<Candidate>> indexedCandidatesFor(const AccessShape &a) {
  std::vector<Candidate> out;
  if (a.rows <= 0 || a.cols <= 0 || a.elementBits <= 0 || a.numWarps <= 0)
    return out;
  LK_TRY(TileSize t, tileSize(a));
  LK_CHECK(addVectorAccess(a, t, out));
  return out;
}

} // namespace lk::tileas
