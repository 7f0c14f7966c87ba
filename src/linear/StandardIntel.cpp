//===- StandardIntel.cpp - Intel's DPAS layouts as linear layouts ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Xe matrix-engine (DPAS) operand and accumulator layouts, built as
/// Intel's Triton backend builds them (DPAStoLinearLayout): one
/// instruction's tile from its register and lane bases, then the repCluster
/// repetitions, the warps, the repetitions over the tensor, and the
/// tensor-shape handling of combineCtaCgaWithShape (Standard.h).
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Standard.h"

#include "layoutkit/core/Bits.h"

#include <algorithm>
#include <string>

namespace lk::linear {
namespace {

using namespace dims;
using Bases = std::vector<std::vector<int64_t>>;

/// The parameters as 64-bit sizes: R repeatCount, D systolicDepth, E
/// executionSize, O opsPerChannel, S sub-group size.
struct Dpas {
  int64_t R, D, E, O, S;
  std::vector<int64_t> warps, cluster;
  size_t rank;
};

struct Tile {
  Bases reg, lane; ///< (row, col) of the tile's two dims
};

Diagnostic fail(const std::string &what) {
  return Diagnostic::error("intel_dpas: " + what);
}

std::string str(int64_t v) { return std::to_string(v); }

/// Elements of A a lane holds side by side in one register: two 8-bit
/// values packed into 16 bits when O = 4, else one.
int64_t packedA(const Dpas &p) { return p.O == 4 ? 2 : 1; }
/// Lanes across one row of A's tile.
int64_t laneColsA(const Dpas &p) { return p.D * p.O / packedA(p); }

/// A, R x D*O. Lane l covers columns packed*(l mod cols) .. +packed-1 of
/// row l / cols; registers: the packed pair, then rows in steps of S/cols.
Tile tileA(const Dpas &p) {
  int64_t packed = packedA(p), cols = laneColsA(p), rows = p.S / cols;
  Tile t;
  for (int64_t x = 1; x < packed; x *= 2)
    t.reg.push_back({0, x});
  for (int64_t r = rows; r < p.R; r *= 2)
    t.reg.push_back({r, 0});
  for (int64_t x = 1; x < cols; x *= 2)
    t.lane.push_back({0, packed * x});
  for (int64_t r = 1; r < rows; r *= 2)
    t.lane.push_back({r, 0});
  return t;
}

/// B, D*O x E. Lane l holds column l mod E; a register holds O consecutive
/// rows (one 32-bit channel), the lanes beyond E and then the registers
/// step over the D channel rows.
Tile tileB(const Dpas &p) {
  int64_t rows = p.S / p.E;
  Tile t;
  for (int64_t x = 1; x < p.O; x *= 2)
    t.reg.push_back({x, 0});
  for (int64_t r = rows; r < p.D; r *= 2)
    t.reg.push_back({r * p.O, 0});
  for (int64_t x = 1; x < p.E; x *= 2)
    t.lane.push_back({0, x});
  for (int64_t r = 1; r < rows; r *= 2)
    t.lane.push_back({r * p.O, 0});
  return t;
}

/// C, R x E. Lane l holds column l mod E of row l / E; registers step over
/// the rows in steps of S/E.
Tile tileC(const Dpas &p) {
  int64_t rows = p.S / p.E;
  Tile t;
  for (int64_t r = rows; r < p.R; r *= 2)
    t.reg.push_back({r, 0});
  for (int64_t x = 1; x < p.E; x *= 2)
    t.lane.push_back({0, x});
  for (int64_t r = 1; r < rows; r *= 2)
    t.lane.push_back({r, 0});
  return t;
}

Status checkPow2In(int64_t v, int64_t lo, int64_t hi, const char *what) {
  if (v < lo || v > hi || !isPow2(v))
    return fail(std::string(what) + " must be a power of two in " + str(lo) +
                ".." + str(hi) + " (got " + str(v) + ")");
  return Ok{};
}

Expected<std::vector<int64_t>> pow2List(const std::vector<unsigned> &v,
                                        size_t rank, const char *what) {
  if (v.size() != rank)
    return fail(std::string(what) + " has " + str(int64_t(v.size())) +
                " entries; expected the tensor's rank " + str(int64_t(rank)));
  std::vector<int64_t> r;
  for (unsigned x : v) {
    if (x == 0 || !isPow2(x) || x > (1u << 16))
      return fail(std::string("every entry of ") + what +
                  " must be a power of two up to 65536 (got " + str(x) + ")");
    r.push_back(x);
  }
  return r;
}

/// The parameters Intel's verifier and accessors accept, with the powers
/// of two the linear model needs.
Expected<Dpas> readParams(const Encoding &e, size_t rank) {
  if (rank != 2 && rank != 3)
    return fail("the tensor must be 2-D or 3-D (got rank " +
                str(int64_t(rank)) + ")");
  LK_CHECK(checkPow2In(e.repeatCount, 1, 8, "repeatCount"));
  if (e.systolicDepth != 8)
    return fail("systolicDepth must be 8 (got " + str(e.systolicDepth) + ")");
  if (e.opsPerChannel != 1 && e.opsPerChannel != 2 && e.opsPerChannel != 4)
    return fail("opsPerChannel must be 1, 2 or 4 (got " + str(e.opsPerChannel) +
                ")");
  if (e.threadsPerWarp.size() != 1)
    return fail("threadsPerWarp is the sub-group size, one number (got " +
                str(int64_t(e.threadsPerWarp.size())) + " entries)");
  int64_t s = e.threadsPerWarp[0];
  if (s != 8 && s != 16 && s != 32)
    return fail("the sub-group size (threadsPerWarp) must be 8, 16 or 32 "
                "(got " +
                str(s) + ")");
  LK_CHECK(checkPow2In(e.executionSize, 1, 32, "executionSize"));
  Dpas p{e.repeatCount,
         e.systolicDepth,
         e.executionSize,
         e.opsPerChannel,
         s,
         {},
         {},
         rank};
  LK_TRY(p.warps, pow2List(e.warpsPerCTA, rank, "warpsPerCTA"));
  LK_TRY(p.cluster, pow2List(e.repCluster, rank, "repCluster"));
  for (unsigned c : e.cta.ctasPerCGA)
    if (c != 1)
      return fail("a DPAS layout lives in one CTA (CTAsPerCGA must be all "
                  "ones)");
  return p;
}

/// The sub-group must fit the operand's tile: at least one lane per
/// column (of packed pairs), and no more rows of lanes than the tile has.
Status checkFits(const Dpas &p, int opIdx) {
  int64_t cols = opIdx == 0 ? laneColsA(p) : p.E;
  int64_t tileRows = opIdx == 1 ? p.D : p.R;
  const char *rowsName = opIdx == 1 ? "systolicDepth" : "repeatCount";
  if (p.S < cols)
    return fail("operand " + std::string("ABC").substr(size_t(opIdx), 1) +
                " needs a sub-group of at least " + str(cols) +
                " lanes, one per column" + (opIdx == 0 ? " group" : "") +
                " (got " + str(p.S) + ")");
  if (p.S / cols > tileRows)
    return fail("a sub-group of " + str(p.S) + " covers " + str(p.S / cols) +
                " rows of operand " +
                std::string("ABC").substr(size_t(opIdx), 1) + ", more than " +
                rowsName + " " + str(tileRows));
  return Ok{};
}

Expected<LinearLayout> mul(const LinearLayout &a, Expected<LinearLayout> b) {
  if (!b)
    return std::move(b).error();
  return product(a, *b);
}

/// How an operand's tile grows, dims numbered rank-2 (rows) and rank-1
/// (cols): the dims repCluster repeats in registers, the dims the warps
/// split (broadcast along K for A and B), and the order of the
/// repetitions over the tensor (K first, then the other dim).
struct Growth {
  unsigned kDim, nonKDim;         ///< repetitions go K first, then non-K
  std::vector<unsigned> clusters; ///< repCluster dims, in product order
  std::vector<unsigned> warpDims; ///< warp dims, low bits first
  bool warpsBroadcastK;           ///< A, B: warps along K hold copies
};

Growth growthOf(int opIdx, unsigned rows, unsigned cols) {
  switch (opIdx) {
  case 0:
    return {cols, rows, {rows}, {cols, rows}, true};
  case 1:
    return {rows, cols, {cols}, {cols, rows}, true};
  default:
    return {cols, rows, {cols, rows}, {cols, rows}, false};
  }
}

/// One CTA's layout before the repetitions: the instruction tile, its
/// repCluster copies in registers, then the warps (the batch dim's last).
Expected<LinearLayout> ctaTile(const Dpas &p, int opIdx, const Growth &g) {
  const unsigned rows = unsigned(p.rank - 2), cols = unsigned(p.rank - 1);
  Tile t = opIdx == 0 ? tileA(p) : opIdx == 1 ? tileB(p) : tileC(p);
  std::vector<InDimBases> ins = {{kRegister, t.reg}, {kLane, t.lane}};
  DimId names[] = {dim(int(rows)), dim(int(cols))};
  LK_TRY(LinearLayout l, LinearLayout::make(std::span<const InDimBases>(ins),
                                            std::span<const DimId>(names)));
  for (unsigned d : g.clusters) {
    LK_TRY(l, mul(l, LinearLayout::identity1D(p.cluster[d], kRegister,
                                              dim(int(d)))));
  }
  for (unsigned d : g.warpDims) {
    bool copies = g.warpsBroadcastK && d == g.kDim;
    DimId out = dim(int(d));
    LK_TRY(l,
           mul(l, copies ? LinearLayout::zeros1D(p.warps[d], kWarp, out)
                         : LinearLayout::identity1D(p.warps[d], kWarp, out)));
  }
  if (p.rank == 3) {
    LK_TRY(l, mul(l, LinearLayout::identity1D(p.warps[0], kWarp, dim(0))));
  }
  return l;
}

/// The extent of ctaTile along dim d: the instruction tile, times
/// repCluster where it repeats, times the warps unless they broadcast.
int64_t ctaExtent(const Dpas &p, int opIdx, const Growth &g, unsigned d) {
  if (d + 2 < p.rank) // the batch dim
    return p.warps[d];
  bool isRows = d == p.rank - 2;
  int64_t e =
      isRows ? (opIdx == 1 ? p.D * p.O : p.R) : (opIdx == 0 ? p.D * p.O : p.E);
  if (std::find(g.clusters.begin(), g.clusters.end(), d) != g.clusters.end())
    e *= p.cluster[d];
  if (!(g.warpsBroadcastK && d == g.kDim))
    e *= p.warps[d];
  return e;
}

} // namespace

Expected<LinearLayout> intelDpasLayout(const Encoding &dpas, int opIdx,
                                       std::span<const int64_t> shape) {
  if (opIdx < 0 || opIdx > 2)
    return fail("opIdx must be 0 (A), 1 (B) or 2 (C), got " + str(opIdx));
  const size_t rank = shape.size();
  for (int64_t s : shape)
    if (s < 1 || !isPow2(s))
      return fail("every tensor dim must be a power of two (got " + str(s) +
                  ")");
  LK_TRY(Dpas p, readParams(dpas, rank));
  LK_CHECK(checkFits(p, opIdx));
  Growth g = growthOf(opIdx, unsigned(rank - 2), unsigned(rank - 1));
  LK_TRY(LinearLayout l, ctaTile(p, opIdx, g));
  // Registers repeat the CTA tile over the tensor: K, the other dim, the
  // batch.
  std::vector<unsigned> repeatDims = {g.kDim, g.nonKDim};
  if (rank == 3)
    repeatDims.push_back(0);
  for (unsigned d : repeatDims) {
    int64_t reps = std::max<int64_t>(1, shape[d] / ctaExtent(p, opIdx, g, d));
    LK_TRY(l, mul(l, LinearLayout::identity1D(reps, kRegister, dim(int(d)))));
  }
  return combineCtaCgaWithShape(l, CTALayout::single(rank), shape);
}

} // namespace lk::linear
