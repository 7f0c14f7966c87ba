//===- Bank.cpp - Shared-memory banks of a tile memory layout -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/Bank.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/tile/TileText.h"

#include <algorithm>
#include <tuple>

namespace lk::tile {

namespace {

constexpr int64_t kWordBits = kBankWordBytes * 8;

Status checkDtype(int64_t dtypeBits) {
  if (dtypeBits < 1 || dtypeBits > 1024)
    return Diagnostic::error("element width " + std::to_string(dtypeBits) +
                             " bits is outside [1, 1024]");
  return Ok{};
}

/// Fails unless every element's last bit fits int64 (so bankSlot is safe).
Status checkAddresses(const MemoryLayout &layout, int64_t dtypeBits) {
  Footprint f = layout.tile().footprint(Axis::m());
  // A swizzle only rewrites bits [M, M+B) of an address, so swizzled
  // addresses stay at or below max | (2^(M+B) - 1).
  int64_t top = f.max;
  if (!layout.swizzle().isIdentity())
    top |= (int64_t(1) << (layout.swizzle().perElement() +
                           layout.swizzle().swizzleLen())) -
           1;
  int64_t bits;
  if (mulOverflows(top + 1, dtypeBits, bits))
    return Diagnostic::error("element addresses of " + layout.str() + " at " +
                             std::to_string(dtypeBits) +
                             " bits per element overflow 64-bit bit offsets");
  return Ok{};
}

} // namespace

BankSlot bankSlot(int64_t address, int64_t dtypeBits) {
  BankSlot s;
  s.address = address;
  int64_t firstBit = address * dtypeBits;
  int64_t lastBit = firstBit + dtypeBits - 1;
  s.bankWord = firstBit / kWordBits;
  s.bank = s.bankWord % kBanks;
  s.line = s.bankWord / kBanks;
  s.words = lastBit / kWordBits - s.bankWord + 1;
  return s;
}

Expected<MemoryLayout> MemoryLayout::of(const TileLayout &tile) {
  for (size_t k = 0; k < tile.shard().size(); ++k) {
    const Iter &it = tile.shard()[k];
    if (it.axis != Axis::m())
      return Diagnostic::error(
          "bank analysis needs a memory layout, but shard iter " +
          std::to_string(k) + " of " + tile.str() + " is on axis '" +
          std::string(it.axis.name()) + "'; every iter must be on m");
  }
  if (!tile.replica().empty())
    return Diagnostic::error("bank analysis needs a memory layout, but " +
                             tile.str() +
                             " has a replica, which stores elements twice");
  for (const AxisValue &o : tile.offset())
    if (o.axis != Axis::m())
      return Diagnostic::error("bank analysis needs a memory layout, but " +
                               tile.str() + " has an offset on axis '" +
                               std::string(o.axis.name()) + "'");
  return MemoryLayout(SwizzleLayout(), tile);
}

Expected<MemoryLayout> MemoryLayout::of(const SwizzledTileLayout &layout) {
  LK_TRY(MemoryLayout m, of(layout.tile()));
  m.swizzle_ = layout.swizzle();
  return m;
}

std::string MemoryLayout::str() const {
  return swizzle_.isIdentity() ? tile_.str()
                               : swizzle_.str() + " o " + tile_.str();
}

Expected<std::vector<int64_t>> elementBanks(const MemoryLayout &layout,
                                            int64_t dtypeBits,
                                            int64_t maxElements) {
  if (layout.size() > maxElements)
    return Diagnostic::error("the banks of " + layout.str() + " are " +
                             std::to_string(layout.size()) +
                             " elements; at most " +
                             std::to_string(maxElements) + " are listed");
  LK_CHECK(checkDtype(dtypeBits));
  LK_CHECK(checkAddresses(layout, dtypeBits));
  std::vector<int64_t> banks(size_t(layout.size()));
  for (int64_t f = 0; f < layout.size(); ++f)
    banks[size_t(f)] = bankSlot(layout.address(f), dtypeBits).bank;
  return banks;
}

Expected<BankView> bankView(const MemoryLayout &layout, int64_t dtypeBits,
                            int64_t maxLines) {
  LK_CHECK(checkDtype(dtypeBits));
  LK_CHECK(checkAddresses(layout, dtypeBits));
  int64_t lo = INT64_MAX, hi = -1;
  for (int64_t i = 0; i < layout.size(); ++i) {
    BankSlot s = bankSlot(layout.address(i), dtypeBits);
    lo = std::min(lo, s.line);
    hi = std::max(hi, (s.bankWord + s.words - 1) / kBanks);
  }
  BankView v;
  v.dtypeBits = dtypeBits;
  v.firstLine = lo;
  v.lineCount = hi - lo + 1;
  if (v.lineCount > maxLines)
    return Diagnostic::error("the bank view of " + layout.str() + " spans " +
                             std::to_string(v.lineCount) + " lines; at most " +
                             std::to_string(maxLines) + " can be drawn");
  v.cells.resize(size_t(v.lineCount * kBanks));
  // Elements by address, so each cell lists its elements in address order.
  std::vector<std::pair<int64_t, int64_t>> order;
  order.reserve(size_t(layout.size()));
  for (int64_t i = 0; i < layout.size(); ++i)
    order.push_back({layout.address(i), i});
  std::sort(order.begin(), order.end());
  for (const auto &[address, flat] : order) {
    BankSlot s = bankSlot(address, dtypeBits);
    for (int64_t w = 0; w < s.words; ++w)
      v.cells[size_t(s.bankWord + w - lo * kBanks)].push_back(flat);
  }
  return v;
}

Expected<BankConflicts> bankConflicts(const MemoryLayout &layout,
                                      int64_t dtypeBits,
                                      const BankAccess &access) {
  LK_CHECK(checkDtype(dtypeBits));
  LK_CHECK(checkAddresses(layout, dtypeBits));
  BankConflicts r;
  for (size_t lane = 0; lane < access.size(); ++lane) {
    for (int64_t flat : access[lane]) {
      if (flat < 0 || flat >= layout.size())
        return Diagnostic::error(
            "lane " + std::to_string(lane) + " reads element " +
            std::to_string(flat) + ", outside the " +
            std::to_string(layout.size()) + " elements of " + layout.str());
      BankSlot s = bankSlot(layout.address(flat), dtypeBits);
      for (int64_t w = 0; w < s.words; ++w) {
        int64_t word = s.bankWord + w;
        auto &words = r.banks[size_t(word % kBanks)];
        auto it = std::find_if(
            words.begin(), words.end(),
            [&](const BankConflicts::Word &x) { return x.bankWord == word; });
        if (it == words.end()) {
          words.push_back({word, {int64_t(lane)}});
        } else if (it->lanes.back() != int64_t(lane)) {
          it->lanes.push_back(int64_t(lane));
        }
      }
    }
  }
  for (auto &words : r.banks) {
    std::sort(words.begin(), words.end(),
              [](const BankConflicts::Word &a, const BankConflicts::Word &b) {
                return a.bankWord < b.bankWord;
              });
    r.ways = std::max(r.ways, int64_t(words.size()));
  }
  return r;
}

std::string BankConflicts::explain() const {
  std::string out;
  if (ways == 0)
    return "no element is read\n";
  out = ways == 1
            ? "conflict-free: every bank serves at most one word\n"
            : std::to_string(ways) + "-way bank conflict: a bank serves " +
                  std::to_string(ways) + " distinct words\n";
  for (int64_t b = 0; b < kBanks; ++b) {
    const auto &words = banks[size_t(b)];
    if (words.size() < 2)
      continue;
    out += "  bank " + std::to_string(b) + ": " + std::to_string(words.size()) +
           " words (lines " + std::to_string(words.front().bankWord / kBanks) +
           ".." + std::to_string(words.back().bankWord / kBanks) + "):";
    for (const Word &w : words) {
      out += " word " + std::to_string(w.bankWord) + " <- lane";
      out += w.lanes.size() > 1 ? "s " : " ";
      for (size_t i = 0; i < w.lanes.size(); ++i)
        out += (i ? "," : "") + std::to_string(w.lanes[i]);
      out += ";";
    }
    out.back() = '\n';
  }
  return out;
}

Expected<BankAccess> columnAccess(int64_t rows, int64_t cols, int64_t firstRow,
                                  int64_t lanes, int64_t column,
                                  int64_t vector) {
  // Each bound named with the value that breaks it.
  const std::tuple<const char *, int64_t, int64_t> bounds[] = {
      {"rows", rows, 1},   {"cols", cols, 1},          {"vector", vector, 1},
      {"lanes", lanes, 0}, {"first row", firstRow, 0}, {"column", column, 0}};
  for (auto [name, value, least] : bounds)
    if (value < least)
      return Diagnostic::error(
          std::string("column access: ") + name + " is " +
          std::to_string(value) + "; expected " +
          (least ? "a positive value" : "a non-negative value"));
  int64_t cells, lastRow, firstCol, endCol;
  if (mulOverflows(rows, cols, cells))
    return Diagnostic::error("column access: a " + std::to_string(rows) +
                             " x " + std::to_string(cols) +
                             " tile has more than 2^63 elements");
  if (addOverflows(firstRow, lanes, lastRow) || lastRow > rows)
    // Not firstRow + lanes - 1: that sum is what overflowed.
    return Diagnostic::error("column access: " + std::to_string(lanes) +
                             " lanes reading from row " +
                             std::to_string(firstRow) + " leave the " +
                             std::to_string(rows) + " rows of the tile");
  if (mulOverflows(column, vector, firstCol) ||
      addOverflows(firstCol, vector, endCol) || endCol > cols)
    return Diagnostic::error("column access: column " + std::to_string(column) +
                             " of " + std::to_string(vector) +
                             "-element vectors leaves the " +
                             std::to_string(cols) + " columns of the tile");
  BankAccess a(static_cast<size_t>(lanes));
  for (int64_t l = 0; l < lanes; ++l)
    for (int64_t e = 0; e < vector; ++e)
      a[size_t(l)].push_back((firstRow + l) * cols + firstCol + e);
  return a;
}

} // namespace lk::tile
