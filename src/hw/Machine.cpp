//===- Machine.cpp - The hardware model table -----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Machine.h"

#include "layoutkit/core/Bits.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace lk::hw {

namespace {

// docs/hardware.md §1.1-1.3: identical from CC 5.x to Blackwell.
constexpr SharedMemoryModel kSmem = {
    /*banks=*/32,
    /*bankWidthBytes=*/4,
    /*wavefrontBytes=*/128,
    /*groupings=*/
    {{{1, 32, 1, 1, true},
      {2, 32, 1, 1, true},
      {4, 32, 1, 1, true},
      {8, 16, 2, 2, false},
      {16, 8, 4, 4, false}}},
    /*loadBroadcast=*/true,
    /*storeOneWriterWins=*/true,
};

// docs/hardware.md §7 (CC 6.0+).
constexpr GlobalMemoryModel kGmem = {
    /*sectorBytes=*/32,
    /*lineBytes=*/128,
    /*mallocAlignment=*/256,
    /*accessWidths=*/{{1, 2, 4, 8, 16}},
};

// docs/hardware.md §6.1-6.2.
constexpr TensorMemoryModel kTmem100 = {
    /*present=*/true,
    /*lanes=*/128,
    /*columns=*/512,
    /*cellBits=*/32,
    /*allocMinColumns=*/32,
    /*allocMaxColumns=*/512,
    /*lanesPerWarp=*/32,
    /*warpsPerCycle=*/4,
    /*laneShift=*/16,
    /*validAddressMask=*/0x007F01FFu,
};
constexpr TensorMemoryModel kNoTmem = {};

// The table. Columns: arch, name, cc, warp size, warps per warpgroup,
// ldmatrix, stmatrix, wgmma, tma, tma atom swizzles, tcgen05, shared
// memory per CTA (docs/hardware.md §1.2a), models.
const std::array<Machine, 3> kMachines = {{
    {Arch::Sm80, "sm_80", 80, 32, 0, true, false, false, false, false, false,
     163 * 1024, kSmem, kGmem, kNoTmem},
    {Arch::Sm90, "sm_90", 90, 32, 4, true, true, true, true, false, false,
     227 * 1024, kSmem, kGmem, kNoTmem},
    {Arch::Sm100, "sm_100", 100, 32, 4, true, true, false, true, true, true,
     227 * 1024, kSmem, kGmem, kTmem100},
}};

std::string str(int64_t v) { return std::to_string(v); }

Diagnostic noTmem(const Machine &m) {
  return Diagnostic::error(std::string(m.name) + " has no tensor memory");
}

} // namespace

Expected<LaneGrouping> SharedMemoryModel::grouping(int64_t accessBytes) const {
  for (const LaneGrouping &g : groupings)
    if (g.accessBytes == accessBytes)
      return g;
  return Diagnostic::error("shared-memory access width " + str(accessBytes) +
                           " B is not supported (allowed: 1, 2, 4, 8, 16)");
}

Expected<int64_t>
SharedMemoryModel::wavefronts(std::span<const int64_t> laneAddresses,
                              int64_t accessBytes) const {
  LK_TRY(LaneGrouping g, grouping(accessBytes));
  if (laneAddresses.size() > size_t(g.lanesPerGroup * g.groups))
    return Diagnostic::error("a warp has 32 lanes, got " +
                             str(int64_t(laneAddresses.size())) + " addresses");
  int64_t words = std::max<int64_t>(1, accessBytes / bankWidthBytes);
  int64_t total = 0;
  for (int64_t group = 0; group < g.groups; ++group) {
    // bank -> distinct words asked of it.
    std::map<int64_t, std::set<int64_t>> perBank;
    for (int64_t l = group * g.lanesPerGroup;
         l < (group + 1) * g.lanesPerGroup && l < int64_t(laneAddresses.size());
         ++l) {
      int64_t a = laneAddresses[size_t(l)];
      if (a < 0)
        continue;
      if (a % accessBytes != 0)
        return Diagnostic::error("lane " + str(l) + ": address " + str(a) +
                                 " is not aligned to the access width " +
                                 str(accessBytes) + " B");
      for (int64_t w = 0; w < words; ++w) {
        int64_t word = wordOf(a) + w;
        perBank[word % banks].insert(word);
      }
    }
    int64_t worst = 0;
    for (const auto &[bank, ws] : perBank)
      worst = std::max<int64_t>(worst, int64_t(ws.size()));
    total += worst;
  }
  return total;
}

Expected<int64_t>
SharedMemoryModel::ldmatrixWavefronts(std::span<const int64_t> rowAddresses,
                                      int64_t matrices) const {
  if (matrices != 1 && matrices != 2 && matrices != 4)
    return Diagnostic::error("ldmatrix/stmatrix: " + str(matrices) +
                             " matrices is not supported (allowed: 1, 2, 4)");
  if (int64_t(rowAddresses.size()) != 8 * matrices)
    return Diagnostic::error(
        "ldmatrix/stmatrix .x" + str(matrices) + " needs " + str(8 * matrices) +
        " row addresses, got " + str(int64_t(rowAddresses.size())));
  for (size_t i = 0; i < rowAddresses.size(); ++i)
    if (rowAddresses[i] < 0)
      return Diagnostic::error("ldmatrix/stmatrix: row address of lane " +
                               str(int64_t(i)) + " is negative");
  // Each matrix is one 8-lane group of a 16-byte access.
  return wavefronts(rowAddresses, 16);
}

Expected<GlobalMemoryModel::Transactions>
GlobalMemoryModel::transactions(std::span<const int64_t> laneAddresses,
                                int64_t accessBytes) const {
  if (std::find(accessWidths.begin(), accessWidths.end(), accessBytes) ==
      accessWidths.end())
    return Diagnostic::error("global-memory access width " + str(accessBytes) +
                             " B is not supported (allowed: 1, 2, 4, 8, 16)");
  if (laneAddresses.size() > 32)
    return Diagnostic::error("a warp has 32 lanes, got " +
                             str(int64_t(laneAddresses.size())) + " addresses");
  std::set<int64_t> sectors, lines;
  for (size_t l = 0; l < laneAddresses.size(); ++l) {
    int64_t a = laneAddresses[l];
    if (a < 0)
      continue;
    if (a % accessBytes != 0)
      return Diagnostic::error("lane " + str(int64_t(l)) + ": address " +
                               str(a) + " is not naturally aligned to " +
                               str(accessBytes) + " B");
    // A naturally aligned access of <= 16 B never straddles a sector.
    sectors.insert(sectorOf(a));
    lines.insert(lineOf(a));
  }
  return Transactions{int64_t(sectors.size()), int64_t(lines.size())};
}

Status Machine::checkTmemAllocation(int64_t nColumns) const {
  if (!tmem.present)
    return noTmem(*this);
  if (!isPow2(nColumns) || nColumns < tmem.allocMinColumns ||
      nColumns > tmem.allocMaxColumns)
    return Diagnostic::error("tcgen05.alloc: " + str(nColumns) +
                             " columns is not a power of two in [" +
                             str(tmem.allocMinColumns) + ", " +
                             str(tmem.allocMaxColumns) + "]");
  return Ok{};
}

Expected<LaneWindow> Machine::tmemLaneWindow(int64_t warpIdInCta) const {
  if (!tmem.present)
    return noTmem(*this);
  if (warpIdInCta < 0)
    return Diagnostic::error("warp id " + str(warpIdInCta) + " is negative");
  return LaneWindow{tmem.lanesPerWarp * (warpIdInCta % tmem.warpsPerCycle),
                    tmem.lanesPerWarp};
}

Status Machine::checkTmemAccess(int64_t warpIdInCta, int64_t lane) const {
  LK_TRY(LaneWindow w, tmemLaneWindow(warpIdInCta));
  if (lane < 0 || lane >= tmem.lanes)
    return Diagnostic::error("TMEM lane " + str(lane) +
                             " is out of range [0, " + str(tmem.lanes) + ")");
  if (lane < w.first || lane >= w.first + w.count)
    return Diagnostic::error("warp " + str(warpIdInCta) + " (warp " +
                             str(warpIdInCta % tmem.warpsPerCycle) +
                             " of its warpgroup) may access TMEM lanes " +
                             str(w.first) + ".." + str(w.first + w.count - 1) +
                             ", not lane " + str(lane));
  return Ok{};
}

Expected<uint32_t> Machine::tmemAddress(int64_t lane, int64_t column) const {
  if (!tmem.present)
    return noTmem(*this);
  if (lane < 0 || lane >= tmem.lanes)
    return Diagnostic::error("TMEM lane " + str(lane) +
                             " is out of range [0, " + str(tmem.lanes) + ")");
  if (column < 0 || column >= tmem.columns)
    return Diagnostic::error("TMEM column " + str(column) +
                             " is out of range [0, " + str(tmem.columns) + ")");
  return uint32_t((uint64_t(lane) << tmem.laneShift) | uint64_t(column));
}

Expected<TmemCoord> Machine::decodeTmemAddress(uint32_t taddr) const {
  if (!tmem.present)
    return noTmem(*this);
  if ((taddr & ~tmem.validAddressMask) != 0) {
    char buf[64];
    snprintf(buf, sizeof buf, "TMEM address 0x%08X has bits outside 0x%08X",
             taddr, tmem.validAddressMask);
    return Diagnostic::error(buf).note(
        "lane = bits 31..16 (< 128), column = bits 15..0 (< 512)");
  }
  return TmemCoord{int64_t(taddr >> tmem.laneShift),
                   int64_t(taddr & ((1u << tmem.laneShift) - 1))};
}

const Machine &machine(Arch arch) {
  for (const Machine &m : kMachines)
    if (m.arch == arch)
      return m;
  return kMachines[0]; // unreachable for a valid enumerator
}

std::span<const Machine> machines() { return kMachines; }

Expected<Arch> parseArch(std::string_view name) {
  struct Alias {
    std::string_view text;
    Arch arch;
  };
  static constexpr Alias kAliases[] = {
      {"sm_80", Arch::Sm80},   {"sm80", Arch::Sm80},   {"sm_90", Arch::Sm90},
      {"sm90", Arch::Sm90},    {"sm_90a", Arch::Sm90}, {"sm90a", Arch::Sm90},
      {"sm_100", Arch::Sm100}, {"sm100", Arch::Sm100}, {"sm_100a", Arch::Sm100},
      {"sm100a", Arch::Sm100},
  };
  for (const Alias &a : kAliases)
    if (a.text == name)
      return a.arch;
  return Diagnostic::error("unknown architecture '" + std::string(name) +
                           "' (known: sm_80, sm_90, sm_100)");
}

} // namespace lk::hw
