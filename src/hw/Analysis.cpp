//===- Analysis.cpp - Costs of a warp's memory access ---------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/Analysis.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/hw/LaneWarp.h"

#include <algorithm>
#include <map>

namespace lk::hw {

namespace {

constexpr int64_t kLanes = kWarpLanes;
/// Most register slots per lane the analyses walk.
constexpr int64_t kMaxRegisters = 4096;
/// The points (elements x replicas) of a distributed layout the analysis
/// evaluates (all of them, to find warp 0's): checked before any work.
constexpr int64_t kMaxPoints = int64_t(1) << 20;

/// slots[lane][register] = the smallest flat index held there, or -1.
struct Slots {
  int64_t registers = 0;
  std::vector<std::vector<int64_t>> byLane;
  /// Every (lane, register) of each flat index, for replication.
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> holders;
};

/// The axes that say which thread of the analysed warp holds an element.
/// laneid is a lane of one warp (values over 31 are refused); tid and
/// tid_in_wg count the threads of a block / warpgroup, 32 per warp, so
/// warp 0 is the values 0..31 and lane = value.
struct LaneAxis {
  tile::Axis axis;
  bool warpLocal;
};
constexpr LaneAxis kLaneAxes[] = {{tile::Axis::laneid(), true},
                                  {tile::Axis::tid(), false},
                                  {tile::Axis::tid_in_wg(), false}};

/// The one lane axis `d` names, or a diagnostic naming what is missing or
/// doubled.
Expected<LaneAxis> laneAxisOf(const tile::TileLayout &d) {
  std::vector<LaneAxis> named;
  for (const LaneAxis &a : kLaneAxes)
    if (d.names(a.axis))
      named.push_back(a);
  if (named.empty())
    return Diagnostic::error(
        "the distributed layout " + d.str() +
        " has no lane axis: a warp's threads are laneid (a lane of the "
        "warp) or tid / tid_in_wg (a thread of the block / warpgroup, "
        "warp 0 being threads 0..31)");
  // A block-wide index already counts warps: tid = 32 warpid + laneid.
  if (named.size() == 1 && !named[0].warpLocal && d.names(tile::Axis::warpid()))
    named.push_back({tile::Axis::warpid(), true});
  if (named.size() > 1)
    return Diagnostic::error(
        "the distributed layout " + d.str() + " names both " +
        std::string(named[0].axis.name()) + " and " +
        std::string(named[1].axis.name()) +
        ": a thread is given once, as a lane and a warp (laneid, warpid) or "
        "as one block- or warpgroup-wide index (tid or tid_in_wg; tid = 32 "
        "warpid + laneid)");
  return named[0];
}

Expected<Slots> slotsOf(const tile::TileLayout &d) {
  using tile::Axis;
  Expected<int64_t> points =
      checkedMul(d.size(), d.replicaCount(), "the points of the layout");
  if (!points || *points > kMaxPoints)
    return Diagnostic::error(
        "the distributed layout " + d.str() + " has " +
        std::to_string(d.size()) + " elements x " +
        std::to_string(d.replicaCount()) + " replicas" +
        (points ? " = " + std::to_string(*points) + " points" : "") +
        "; at most " + std::to_string(kMaxPoints) +
        " points are analysed (every one is evaluated to find warp 0's)");
  LK_TRY(LaneAxis lane, laneAxisOf(d));
  int laneSlot = d.axisSlot(lane.axis);
  int regSlot = d.axisSlot(Axis::m());
  for (Axis a : d.axes())
    if (a != Axis::m() && a.kind() != tile::AxisKind::Thread)
      return Diagnostic::error("the distributed layout " + d.str() +
                               " names axis '" + std::string(a.name()) +
                               "'; a warp's registers are over a lane axis "
                               "(laneid or tid), m (the register) and other "
                               "thread axes");
  tile::Footprint lanes = d.footprint(lane.axis);
  if (lane.warpLocal && (lanes.max >= kLanes || lanes.min < 0))
    return Diagnostic::error(
        "the distributed layout " + d.str() + " reaches laneid " +
        std::to_string(lanes.max >= kLanes ? lanes.max : lanes.min) +
        "; a warp has lanes 0..31");
  Slots s;
  s.registers = regSlot < 0 ? 1 : d.footprint(Axis::m()).max + 1;
  if (s.registers > kMaxRegisters)
    return Diagnostic::error("the distributed layout " + d.str() + " uses " +
                             std::to_string(s.registers) +
                             " registers per lane; at most " +
                             std::to_string(kMaxRegisters) + " are analysed");
  s.byLane.assign(kLanes, std::vector<int64_t>(size_t(s.registers), -1));
  tile::CoordSet set;
  for (int64_t f = 0; f < d.size(); ++f) {
    d.evalInto(f, set);
    for (size_t i = 0; i < set.size(); ++i) {
      auto c = set[i];
      // Warp 0: other thread axes at 0 and, for tid, threads 0..31.
      int64_t l = c[size_t(laneSlot)];
      bool warp0 = l >= 0 && l < kLanes;
      for (size_t k = 0; k < c.size(); ++k)
        if (int(k) != laneSlot && int(k) != regSlot && c[k] != 0)
          warp0 = false;
      if (!warp0)
        continue;
      int64_t reg = regSlot < 0 ? 0 : c[size_t(regSlot)];
      int64_t &slot = s.byLane[size_t(l)][size_t(reg)];
      if (slot < 0 || f < slot)
        slot = f;
      s.holders[f].push_back({l, reg});
    }
  }
  if (s.holders.empty())
    return Diagnostic::error("warp 0 of " + d.str() +
                             " holds no element (it is the threads with " +
                             std::string(lane.axis.name()) +
                             " 0..31 and every other thread axis at 0)");
  return s;
}

std::string laneList(const std::vector<int64_t> &lanes) {
  return joinIntegers(lanes, ",");
}

} // namespace

namespace {

Status checkElementBits(int64_t bits) {
  if (bits < 1 || bits > 1024)
    return Diagnostic::error("element width " + std::to_string(bits) +
                             " bits is outside [1, 1024]");
  return Ok{};
}

} // namespace

Expected<WarpInstructions> warpInstructions(const WarpAccess &a) {
  LK_CHECK(checkElementBits(a.elementBits));
  if (a.accessBytes * 8 % a.elementBits != 0)
    return Diagnostic::error(std::to_string(a.accessBytes) +
                             "-byte accesses do not hold whole " +
                             std::to_string(a.elementBits) + "-bit elements");
  if (a.distributed.size() != a.memory.size())
    return Diagnostic::error(
        "the distributed layout holds " + std::to_string(a.distributed.size()) +
        " elements, the memory layout " + std::to_string(a.memory.size()));
  LK_TRY(Slots s, slotsOf(a.distributed));
  WarpInstructions w;
  w.registersPerAccess = a.accessBytes * 8 / a.elementBits;
  int64_t v = w.registersPerAccess;
  if (v < 1 || s.registers % v != 0)
    return Diagnostic::error("each lane has " + std::to_string(s.registers) +
                             " registers, not a multiple of the " +
                             std::to_string(v) + " elements one " +
                             std::to_string(a.accessBytes) +
                             "-byte access moves");
  for (int64_t k = 0; k < s.registers / v; ++k) {
    std::vector<int64_t> lanes(kLanes, -1);
    for (int64_t l = 0; l < kLanes; ++l) {
      const std::vector<int64_t> &regs = s.byLane[size_t(l)];
      int64_t first = regs[size_t(k * v)];
      int64_t held = 0;
      for (int64_t j = 0; j < v; ++j)
        held += regs[size_t(k * v + j)] >= 0;
      if (held == 0)
        continue;
      std::string where = "lane " + std::to_string(l) + " registers " +
                          std::to_string(k * v) + ".." +
                          std::to_string(k * v + v - 1);
      if (held != v)
        return Diagnostic::error(where + " are only partly filled; a " +
                                 std::to_string(a.accessBytes) +
                                 "-byte access needs all " + std::to_string(v));
      int64_t base = a.memory.address(first);
      for (int64_t j = 1; j < v; ++j)
        if (a.memory.address(regs[size_t(k * v + j)]) != base + j)
          return Diagnostic::error(
              where + " hold elements at addresses " + std::to_string(base) +
              ", " + std::to_string(a.memory.address(regs[size_t(k * v + j)])) +
              ", ...: not consecutive, so not one " +
              std::to_string(a.accessBytes) + "-byte access");
      int64_t bits;
      if (mulOverflows(base, a.elementBits, bits))
        return Diagnostic::error("address of " + where + " overflows");
      if (bits % 8 != 0 || (bits / 8) % a.accessBytes != 0)
        return Diagnostic::error(where + " start at element " +
                                 std::to_string(base) + ", not aligned to " +
                                 std::to_string(a.accessBytes) + " bytes");
      lanes[size_t(l)] = bits / 8;
    }
    w.laneAddresses.push_back(std::move(lanes));
  }
  return w;
}

Expected<SharedAccessReport> sharedAccess(const WarpAccess &a, Arch arch) {
  const SharedMemoryModel &smem = machine(arch).smem;
  LK_TRY(LaneGrouping g, smem.grouping(a.accessBytes));
  LK_TRY(WarpInstructions w, warpInstructions(a));
  SharedAccessReport r;
  for (size_t k = 0; k < w.laneAddresses.size(); ++k) {
    const std::vector<int64_t> &lanes = w.laneAddresses[k];
    LK_TRY(int64_t n, smem.wavefronts(lanes, a.accessBytes));
    r.wavefronts.push_back(n);
    r.total += n;
    // Conflict-free, each lane group with an active lane takes one pass.
    int64_t least = 0;
    for (int64_t group = 0; group < g.groups; ++group) {
      bool active = false;
      for (int64_t l = group * g.lanesPerGroup;
           l < (group + 1) * g.lanesPerGroup; ++l)
        active = active || lanes[size_t(l)] >= 0;
      least += active;
    }
    r.minimum += least;
    if (n <= least)
      continue;
    r.explanation += "instruction " + std::to_string(k) + ": " +
                     counted(n, "wavefront") + " (minimum " +
                     std::to_string(least) + ")\n";
    int64_t words = std::max<int64_t>(1, a.accessBytes / smem.bankWidthBytes);
    for (int64_t group = 0; group < g.groups; ++group) {
      // bank -> word -> lanes
      std::map<int64_t, std::map<int64_t, std::vector<int64_t>>> banks;
      for (int64_t l = group * g.lanesPerGroup;
           l < (group + 1) * g.lanesPerGroup; ++l) {
        if (lanes[size_t(l)] < 0)
          continue;
        int64_t word0 = lanes[size_t(l)] / smem.bankWidthBytes;
        for (int64_t w2 = 0; w2 < words; ++w2)
          banks[(word0 + w2) % smem.banks][word0 + w2].push_back(l);
      }
      for (const auto &[bank, byWord] : banks) {
        if (byWord.size() < 2)
          continue;
        r.explanation += "  lanes " + std::to_string(group * g.lanesPerGroup) +
                         "-" +
                         std::to_string((group + 1) * g.lanesPerGroup - 1) +
                         ": bank " + std::to_string(bank) + " serves " +
                         std::to_string(byWord.size()) + " words:";
        for (const auto &[word, ls] : byWord)
          r.explanation += " word " + std::to_string(word) + " <- lane" +
                           (ls.size() > 1 ? "s " : " ") + laneList(ls) + ";";
        r.explanation.back() = '\n';
      }
    }
  }
  std::string head = counted(int64_t(w.laneAddresses.size()), "instruction") +
                     " of " + std::to_string(a.accessBytes) +
                     " bytes per lane: " + counted(r.total, "wavefront") +
                     " (conflict-free: " + std::to_string(r.minimum) + ")\n";
  r.explanation = head + r.explanation;
  return r;
}

/// The bytes of [addr, addr + width) over the active lanes (addr >= 0),
/// each byte counted once: lanes that read the same bytes (a broadcast)
/// share them. Example: lanes at 0, 0, 4 with width 4 -> 8.
int64_t distinctBytes(std::vector<int64_t> addrs, int64_t width) {
  std::sort(addrs.begin(), addrs.end());
  int64_t total = 0, end = 0;
  for (int64_t addr : addrs) {
    if (addr < 0)
      continue;
    int64_t from = std::max(addr, end);
    if (addr + width > from)
      total += addr + width - from;
    end = std::max(end, addr + width);
  }
  return total;
}

Expected<GlobalAccessReport> globalAccess(const WarpAccess &a, Arch arch) {
  const GlobalMemoryModel &gmem = machine(arch).gmem;
  LK_TRY(WarpInstructions w, warpInstructions(a));
  GlobalAccessReport r;
  for (size_t k = 0; k < w.laneAddresses.size(); ++k) {
    LK_TRY(GlobalMemoryModel::Transactions t,
           gmem.transactions(w.laneAddresses[k], a.accessBytes));
    r.perInstruction.push_back(t);
    r.sectors += t.sectors;
    r.lines += t.lines;
    int64_t active = 0;
    for (int64_t addr : w.laneAddresses[k])
      active += addr >= 0;
    const int64_t bytes = distinctBytes(w.laneAddresses[k], a.accessBytes);
    // An instruction no lane is active in touches nothing, at best too.
    int64_t ideal =
        active == 0 ? 0
                    : std::max<int64_t>(1, ceilDiv(bytes, gmem.sectorBytes));
    r.minimumSectors += ideal;
    r.requestedBytes += bytes;
    r.explanation +=
        "instruction " + std::to_string(k) + ": " + std::to_string(active) +
        " lanes x " + std::to_string(a.accessBytes) + " B" +
        (bytes < active * a.accessBytes
             ? " (" + std::to_string(bytes) + " distinct B)"
             : std::string()) +
        " touch " + std::to_string(t.sectors) + " sectors (at best " +
        std::to_string(ideal) + ") in " + std::to_string(t.lines) + " lines\n";
  }
  if (r.sectors > 0)
    r.efficiency = double(r.requestedBytes) /
                   (double(r.sectors) * double(gmem.sectorBytes));
  return r;
}

Expected<int64_t> vectorBytes(const tile::TileLayout &distributed,
                              const tile::MemoryLayout &memory,
                              int64_t elementBits) {
  LK_CHECK(checkElementBits(elementBits));
  int64_t smallest = std::max<int64_t>(1, elementBits / 8);
  for (int64_t bytes = 16; bytes > smallest; bytes /= 2) {
    if (bytes * 8 % elementBits != 0)
      continue;
    WarpAccess a{distributed, memory, elementBits, bytes};
    if (warpInstructions(a))
      return bytes;
  }
  // One element per access must at least be possible.
  WarpAccess a{distributed, memory, elementBits, smallest};
  LK_CHECK(warpInstructions(a));
  return smallest;
}

Expected<MatrixAccessReport> matrixAccess(const tile::MemoryLayout &memory,
                                          int64_t elementBits,
                                          std::span<const int64_t> rowStarts,
                                          Arch arch) {
  if (elementBits < 1 || 128 % elementBits != 0)
    return Diagnostic::error("ldmatrix rows are 16 bytes: the element width " +
                             std::to_string(elementBits) +
                             " bits must divide 128");
  size_t matrices = rowStarts.size() / 8;
  if (rowStarts.size() % 8 != 0 ||
      (matrices != 1 && matrices != 2 && matrices != 4))
    return Diagnostic::error("ldmatrix takes 8, 16 or 32 row addresses (x1, "
                             "x2, x4); got " +
                             std::to_string(rowStarts.size()));
  int64_t perRow = 128 / elementBits;
  std::vector<int64_t> bytes;
  for (size_t i = 0; i < rowStarts.size(); ++i) {
    int64_t first = rowStarts[i];
    if (first < 0 || first + perRow > memory.size())
      return Diagnostic::error("row " + std::to_string(i) + " (elements " +
                               std::to_string(first) + "..) leaves the " +
                               std::to_string(memory.size()) + " elements of " +
                               memory.str());
    int64_t base = memory.address(first);
    for (int64_t e = 1; e < perRow; ++e)
      if (memory.address(first + e) != base + e)
        return Diagnostic::error("row " + std::to_string(i) +
                                 " is not 16 contiguous bytes: element " +
                                 std::to_string(first + e) + " is at address " +
                                 std::to_string(memory.address(first + e)) +
                                 ", not " + std::to_string(base + e));
    int64_t bits;
    if (mulOverflows(base, elementBits, bits) || bits % 128 != 0)
      return Diagnostic::error("row " + std::to_string(i) +
                               " does not start on a 16-byte boundary");
    bytes.push_back(bits / 8);
  }
  const SharedMemoryModel &smem = machine(arch).smem;
  LK_TRY(int64_t n, smem.ldmatrixWavefronts(bytes, int64_t(matrices)));
  MatrixAccessReport r;
  r.wavefronts = n;
  r.minimum = int64_t(matrices);
  r.explanation = std::to_string(matrices) +
                  " matrices: " + counted(n, "wavefront") +
                  " (conflict-free: " + std::to_string(matrices) + ")\n";
  for (size_t j = 0; j < matrices; ++j) {
    // The eight rows of a matrix form one group; slot = (byte >> 4) & 7.
    std::map<int64_t, std::vector<int64_t>> bySlot;
    for (size_t k = 0; k < 8; ++k)
      bySlot[(bytes[8 * j + k] >> 4) & 7].push_back(int64_t(8 * j + k));
    for (const auto &[slot, lanes] : bySlot)
      if (lanes.size() > 1)
        r.explanation += "  matrix " + std::to_string(j) + ": lanes " +
                         laneList(lanes) + " share 16-byte bank slot " +
                         std::to_string(slot) + "\n";
  }
  return r;
}

Expected<ReplicationReport> replication(const tile::TileLayout &distributed) {
  LK_TRY(Slots s, slotsOf(distributed));
  ReplicationReport r;
  for (const auto &[flat, who] : s.holders) {
    if (who.size() < 2)
      continue;
    r.replicated.push_back({flat, who});
    r.explanation += "element " + std::to_string(flat) + " is held by";
    for (const auto &[lane, reg] : who)
      r.explanation +=
          " lane " + std::to_string(lane) + " r" + std::to_string(reg) + ",";
    r.explanation.back() = '\n';
  }
  if (r.replicated.empty())
    r.explanation = "no element is held twice in the warp\n";
  return r;
}

} // namespace lk::hw
