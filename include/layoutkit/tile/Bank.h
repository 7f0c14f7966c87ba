//===- Bank.h - Shared-memory banks of a tile memory layout -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where the elements of a memory layout fall in shared memory's banks, and
/// how many times a bank must serve one access.
///
/// Shared memory has 32 banks of 4-byte words; consecutive words go to
/// consecutive banks, so one bank line is 32 words = 128 bytes. An element
/// of b bytes at (swizzled) element address a lies in
///
///   bankword = floor(a * b / 4),  bank = bankword mod 32,
///   line     = floor(bankword / 32)
///
/// (computed in bits, so sub-byte types work; an element wider than 4 bytes
/// covers several consecutive words). Lanes of one access that read the
/// same word are served together (broadcast); distinct words in the same
/// bank are served one after another. `BankConflicts::ways` is the largest
/// number of distinct words one bank serves: 1 means conflict-free.
///
/// This is the bank model of the tile layer, taken over one request as a
/// whole; the hardware layer splits wide requests into wavefronts.
///
/// Worked example (docs/design.md §6.3): (8,64) float16 row-major,
/// S[(8,64):(64,1)], address m = 64i + j. Eight lanes read column j = 0
/// (lane i reads (i,0)):
///   no swizzle:            bankword = 32i -> bank 0 for every row: 8 ways
///   Swizzle(M=3,B=3,S=3):  addr = 64i + 8((0/8) xor i) = 72i,
///                          bankword = 36i -> banks 0,4,...,28: 1 way
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TILE_BANK_H
#define LAYOUTKIT_TILE_BANK_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/tile/SwizzleLayout.h"
#include "layoutkit/tile/TileLayout.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lk::tile {

/// Number of shared-memory banks.
inline constexpr int64_t kBanks = 32;
/// Bytes per bank word.
inline constexpr int64_t kBankWordBytes = 4;

/// Where one element lies.
struct BankSlot {
  int64_t address = 0;  ///< element address (after the swizzle)
  int64_t bankWord = 0; ///< floor(address * bytes / 4): the first word
  int64_t bank = 0;     ///< bankWord mod 32
  int64_t line = 0;     ///< floor(bankWord / 32)
  /// Words the element covers (more than one for elements over 4 bytes).
  int64_t words = 1;

  bool operator==(const BankSlot &) const = default;
};

/// The slot of an element of `dtypeBits` bits at element address
/// `address`. @pre address >= 0, 1 <= dtypeBits and address * dtypeBits
/// fits int64 (MemoryLayout checks this for every element)
BankSlot bankSlot(int64_t address, int64_t dtypeBits);

/// A memory layout: logical element -> element address in shared memory.
/// Either a TileLayout whose iters and offset are all on the memory axis m
/// (and which has no replica), or such a layout composed with a swizzle.
class MemoryLayout {
public:
  /// Fails with a diagnostic naming the iter (or offset) that is not on m,
  /// or the replica, which would store an element twice.
  static Expected<MemoryLayout> of(const TileLayout &tile);
  static Expected<MemoryLayout> of(const SwizzledTileLayout &layout);

  int64_t size() const { return tile_.size(); }
  /// The element address of logical element `flat`.
  /// @pre 0 <= flat < size()
  int64_t address(int64_t flat) const {
    return swizzle_(tile_.addressAt(flat, Axis::m()));
  }
  const TileLayout &tile() const { return tile_; }
  const SwizzleLayout &swizzle() const { return swizzle_; }
  /// The tile's text, or "<swizzle> o <tile>" when swizzled.
  std::string str() const;

private:
  MemoryLayout(SwizzleLayout s, TileLayout t)
      : swizzle_(s), tile_(std::move(t)) {}
  SwizzleLayout swizzle_;
  TileLayout tile_;
};

/// The line x bank view: which logical elements sit in each 4-byte word.
struct BankView {
  int64_t dtypeBits = 0;
  /// Lines [firstLine, firstLine + lineCount) hold at least one element.
  int64_t firstLine = 0;
  int64_t lineCount = 0;
  /// cells[(line - firstLine) * 32 + bank]: flat indices of the elements in
  /// that word, by address (an element over 4 bytes appears in each of its
  /// words).
  std::vector<std::vector<int64_t>> cells;

  /// @pre firstLine <= line < firstLine + lineCount, 0 <= bank < 32
  const std::vector<int64_t> &at(int64_t line, int64_t bank) const {
    return cells[size_t((line - firstLine) * kBanks + bank)];
  }
};

/// Builds the view for elements of `dtypeBits` bits. Fails when the
/// layout spans more than `maxLines` lines or an address overflows.
Expected<BankView> bankView(const MemoryLayout &layout, int64_t dtypeBits,
                            int64_t maxLines = int64_t(1) << 16);

/// The bank of every logical element, by flat index:
///
///   banks[f] = bankSlot(layout.address(f), dtypeBits).bank
///
/// (the first bank of an element wider than 4 bytes). A swizzle shows as a
/// permuted bank pattern over the logical tile. Fails on a bad dtype width,
/// an overflowing address, or more than `maxElements` elements (nothing is
/// computed then).
/// Example: S[(8,64):(64,1)] f16: (i, j) is at bank (j / 2) mod 32, so
/// column 0 is bank 0 in every row; Swizzle(M=3,B=3,S=3) o the same:
/// (i, 0) is at bank 4i.
Expected<std::vector<int64_t>>
elementBanks(const MemoryLayout &layout, int64_t dtypeBits,
             int64_t maxElements = int64_t(1) << 20);

/// One request: lanes[l] lists the logical elements (flat indices) lane l
/// reads (several for a vector access).
using BankAccess = std::vector<std::vector<int64_t>>;

/// How the banks serve one request.
struct BankConflicts {
  /// One distinct word of a bank and the lanes reading it.
  struct Word {
    int64_t bankWord = 0;
    std::vector<int64_t> lanes;
  };
  /// Largest number of distinct words a single bank serves (0 for an empty
  /// request, 1 when conflict-free).
  int64_t ways = 0;
  /// Words per bank, by word.
  std::array<std::vector<Word>, kBanks> banks;

  bool conflictFree() const { return ways <= 1; }
  /// A readable account: the ways, then one line per bank that serves more
  /// than one word, e.g. "bank 0: 8 words (lines 0..7): lane 0 word 0,
  /// lane 1 word 32, ...".
  std::string explain() const;
};

/// Counts the bank conflicts of `access` on `layout` for elements of
/// `dtypeBits` bits. Fails on an element index outside the layout.
Expected<BankConflicts> bankConflicts(const MemoryLayout &layout,
                                      int64_t dtypeBits,
                                      const BankAccess &access);

/// The request of `lanes` lanes reading one column of vectors of a
/// row-major logical (rows, cols) tile: lane i reads row firstRow + i,
/// elements [column * vector, (column + 1) * vector). Fails when that
/// leaves the tile.
/// Example: columnAccess(8, 64, 0, 8, 0, 1) -> lane i reads (i, 0) = flat 64i
Expected<BankAccess> columnAccess(int64_t rows, int64_t cols, int64_t firstRow,
                                  int64_t lanes, int64_t column,
                                  int64_t vector);

} // namespace lk::tile

#endif // LAYOUTKIT_TILE_BANK_H
