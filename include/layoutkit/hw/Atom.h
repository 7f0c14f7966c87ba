//===- Atom.h - Register-fragment atoms of Ampere/Hopper/Blackwell -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A hardware *atom* is the fixed placement of a small logical tile on the
/// threads and registers of one instruction: which element of the A, B or
/// C/D operand of `mma.sync` a lane holds in its i-th fragment element, which
/// element of which 8x8 matrix `ldmatrix` delivers, which TMEM cell
/// `tcgen05.ld` reads into a register. Ground truth: docs/hardware.md
/// (§2 mma.sync, §3 ldmatrix/stmatrix, §4.1-4.2 wgmma, §6.3 tcgen05.ld/st).
///
/// ## One map, three views
///
/// Every atom is stored as one piece of data, a CuTe *TV layout*
///
///     tv : (thread, value) -> flat index into a column-major codomain
///
/// (docs/hardware.md §0: A -> m + M*k, B -> n + N*k, C -> m + M*n). `eval`
/// turns that into the logical coordinate the oracle expects, and three views
/// are derived from it, each checked element by element in the tests:
///
///  * cute   — `tv` itself, e.g. mma.m16n8k16.f16.C is
///             ((4,8),(2,2)):((32,1),(16,8)) onto (M16, N8);
///  * tile   — logical (row, col) -> {laneid, m = value index} (warpgroup
///             atoms use laneid + warpid, the warp inside the warpgroup);
///  * linear — F2 bases register/lane/warp -> dim0, dim1 (... dim2), when
///             every extent is a power of two and the map is F2-linear.
///
/// Logical coordinates (the order of `eval`'s result and of the tile and
/// linear views):
///
///   mma / wgmma A   [row, k]          B   [k, n]          C/D  [row, col]
///   ldmatrix/stmatrix [matrix, row, col] of the matrix as stored (row = the
///                     row whose address lane 8*matrix+row gave);
///                     value = 2*register + half (0 = low 16 bits);
///                     the 8-bit forms of §3.3 (ldmatrix.m16n16 .trans.b8,
///                     ldmatrix.m8n16 .b8x16.*, stmatrix.m16n8 .trans.b8)
///                     use value = 4*register + byte and count columns in
///                     bytes (UNVERIFIED in the sheet but for m8n16)
///   tcgen05.ld/st   [TMEM lane offset, column offset] from taddr;
///                   value = register r
///
/// ## Worked examples
///
///   mma.m16n8k16.f16.A, lane 5, element 6: g = 1, q = 1;
///     row = g + 8*((6>>1)&1) = 9, k = 2q + 0 + 8*(6>>2) = 10  -> [9, 10]
///   wgmma.m64n64k16.f16.C, thread 37, element 6: w = 1, g = 1, q = 1;
///     row = 16 + 1 + 8 = 25, col = 8 + 2 + 0 = 10             -> [25, 10]
///   ldmatrix.x4.trans.b16, lane 5, value 3 (register 1, high half):
///     stored matrix 1, row 2q+1 = 3, col g = 1                -> [1, 3, 1]
///   tcgen05.ld.16x64b.x2, lane 1, register 1:
///     lane offset (1>>2) + 8*(1&1) = 8, column 2*1 + 0 = 2    -> [8, 2]
///
/// The tile view of mma.m16n8k16.f16.C (logical 16 x 8, row-major) is
///   S[(2,8,4,2):(2,4@laneid,1@laneid,1)]
/// (row = 8*h + g, col = 2q + b; h and b are register bits on m).
///
/// ## Catalog
///
/// `atoms()` lists every concrete atom (all legal wgmma N, every tcgen05
/// .num); `findAtom(name)` looks one up by the names the `atom_eval` cases
/// use (tests/data/README.md, "Hardware-atom cases"); `listAtoms` filters
/// by architecture, instruction and operand.
///
/// Tensor-memory placements (accumulators, tcgen05.cp, block-scaled scale
/// factors) are not (thread, value) maps; they are in AtomTmem.h.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_ATOM_H
#define LAYOUTKIT_HW_ATOM_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/tile/TileLayout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lk::hw {

/// One register-fragment atom. All fields are data; the views are derived.
struct Atom {
  /// The oracle name, e.g. "mma.m16n8k16.f16.A", "ldmatrix.x4.trans.b16",
  /// "wgmma.m64n64k16.f16.C", "tcgen05.ld.32x32b.x2".
  std::string name;
  /// The first of sm_80 / sm_90 / sm_100 that has the instruction. Notes:
  /// ldmatrix exists from sm_75; fp8 mma.sync (e4m3/e5m2) needs sm_89
  /// (sm_80 here, with minCapability 89: firstArchName says sm_89); wgmma
  /// is sm_90a only; tcgen05 sm_100a.
  Arch arch = Arch::Sm80;
  /// The instruction without type, e.g. "mma.m16n8k16", "ldmatrix",
  /// "stmatrix", "wgmma.m64n64k16", "tcgen05.ld", "tcgen05.st".
  std::string instruction;
  /// "A", "B", "C" (C is also D) for MMAs; "frag" for the register fragment
  /// of a data-movement instruction (ldmatrix, stmatrix, tcgen05.ld/st).
  std::string operand;
  /// The section of docs/hardware.md the map comes from, e.g. "2.1".
  std::string facts;
  /// True where docs/hardware.md marks the map UNVERIFIED (tcgen05 .16x64b, the
  /// 8-bit ldmatrix.m16n16 / stmatrix.m16n8 forms). The map then is the
  /// documented (CUTLASS-derived) model, pinned by tests.
  bool unverified = false;
  /// A line of caveats (e.g. "sm_89+"), possibly empty.
  std::string note;
  /// The least compute capability that runs it where `arch`'s is too low
  /// (89: fp8 mma.sync, listed as sm_80); 0 otherwise.
  int64_t minCapability = 0;
  /// The last architecture that runs it, where a later one does not
  /// (sm_90: wgmma is sm_90a's); none otherwise.
  std::optional<Arch> lastArch = std::nullopt;

  /// Whether `arch` runs it: from its first architecture on, up to
  /// lastArch, at least minCapability. Example: mma.m16n8k16.f16.A runs
  /// on sm_90; wgmma.m64n64k16.f16.C not on sm_100; mma.m16n8k32.e4m3.A
  /// not on sm_80.
  bool runsOn(Arch arch) const;

  /// The first architecture that runs it, as front ends show it:
  /// atomArchName(arch), or sm_<minCapability> where arch's capability is
  /// below minCapability. Example: "sm_80" for mma.m16n8k16.f16.A, "sm_89"
  /// for mma.m16n8k32.e4m3.A.
  std::string firstArchName() const;

  /// Threads taking part: 32 (a warp) or 128 (a warpgroup).
  int64_t threads = 32;
  /// Values (fragment elements) per thread.
  int64_t values = 1;
  /// (thread, value) -> colex index into `cuteExtents`; the thread mode
  /// has size `threads`, the value mode size `values`.
  cute::Layout tv;
  /// The codomain of `tv` in CuTe order (B is N x K here, as in CuTe).
  std::vector<int64_t> cuteExtents;
  /// Logical coordinate d is cute coordinate logicalOrder[d].
  std::vector<int> logicalOrder;
  /// The names of the logical coordinates, e.g. {"row", "k"}.
  std::vector<std::string> coordNames;

  /// The logical extents: cuteExtents permuted by logicalOrder.
  std::vector<int64_t> logicalShape() const;

  /// The logical coordinate of value `value` of thread `thread`:
  ///   idx = tv(thread + threads*value); split colex over cuteExtents;
  ///   result[d] = cute coordinate logicalOrder[d].
  /// Fails when thread or value is out of range.
  /// Example: findAtom("mma.m16n8k16.f16.B")->eval(5, 2) == {10, 1}.
  Expected<std::vector<int64_t>> eval(int64_t thread, int64_t value) const;

  /// The cute view: `tv` (CuTe's TV-layout convention).
  const cute::Layout &cuteLayout() const { return tv; }

  /// The tile view over logical shape logicalShape() (row-major):
  /// each leaf (s : d) of `tv` with d != 0 becomes a shard iter of extent s
  /// on the thread axis (laneid; warpid for thread weights >= 32) or on m
  /// (the value index), with the leaf's thread / value weight as stride;
  /// stride-0 leaves become replica iters. Fails with a diagnostic when the
  /// leaves of a logical coordinate are not a mixed-radix split of it.
  /// Example: mma.m16n8k8.tf32.A -> S[(2,8,2,4):(1,4@laneid,2,1@laneid)].
  Expected<tile::TileLayout> tileLayout() const;

  /// The linear view: in-dims register (log2 values), lane, warp (for
  /// warpgroup atoms) -> out-dims dim0.. (the logical coordinates). The
  /// basis of an input bit is eval() at that single bit. Fails unless every
  /// extent is a power of two and eval is the XOR of the bases everywhere.
  Expected<linear::LinearLayout> linearLayout() const;
};

/// Every atom of the catalog, built once (thread-safe), in a fixed order:
/// mma.sync, ldmatrix, stmatrix, wgmma, tcgen05.
std::span<const Atom> atoms();

/// The atom named `name`. Errors: for an instruction (a prefix of atom
/// names at a '.', as AtomFilter::instruction), "'mma.m16n8k16.f16' is an
/// instruction, not one atom: its atoms are mma.m16n8k16.f16.A, ..." (at
/// most 6 named, else 3 and the count); otherwise "unknown atom 'x'" (the
/// name cut at 40 bytes, lk::excerpt) with a note listing the families.
Expected<const Atom *> findAtom(std::string_view name);

/// Filters for listAtoms; empty / absent fields match everything.
struct AtomFilter {
  /// The atoms that run on it (Atom::runsOn): mma.sync and ldmatrix of
  /// sm_80 run on sm_90 and sm_100, stmatrix of sm_90 on sm_100, wgmma only
  /// on sm_90, fp8 mma.sync not on sm_80.
  std::optional<Arch> arch;
  /// Matches an atom whose name (its instruction, then its type and
  /// operand) is it or starts with it and a '.': "mma" matches
  /// "mma.m16n8k16.f16.A", "tcgen05" the tcgen05.ld atoms,
  /// "mma.m16n8k16.f16" its A, B and C, "mma.m16n8k16.f" none.
  std::string instruction;
  /// A, B, C or frag.
  std::string operand;
};

/// The atoms matching `f`, in catalog order (none may match). Fails on an
/// operand other than A, B, C and frag.
Expected<std::vector<const Atom *>> listAtoms(const AtomFilter &f);

/// "sm_80", "sm_90", "sm_100".
std::string_view atomArchName(Arch a);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_ATOM_H
