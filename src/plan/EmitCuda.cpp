//===- EmitCuda.cpp - CUDA C++ for a conversion plan ----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// emitCuda: the device function, test kernel and host main printed from a
// plan's tables (cudaEmitTables, EmitTables.cpp).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitCuda.h"

#include "CudaText.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace lk::plan {

namespace {

using namespace cudatext;

/// The shared-memory vector type of an access width.
const char *accessType(int64_t accessBytes) {
  switch (accessBytes) {
  case 1:
    return "uint8_t";
  case 2:
    return "uint16_t";
  case 4:
    return "uint32_t";
  case 8:
    return "uint2";
  default:
    return "uint4";
  }
}

/// The value of an access-wide vector built from registers `regs` of
/// `array` (element j at byte j * eb, little-endian).
std::string packVector(const std::string &array,
                       const std::vector<int64_t> &regs, int64_t eb,
                       int64_t accessBytes) {
  auto reg = [&](size_t j) {
    return array + "[" + std::to_string(regs[j]) + "]";
  };
  if (regs.size() == 1)
    return reg(0);
  auto word = [&](size_t first, size_t count) {
    std::string w;
    for (size_t j = 0; j < count; ++j) {
      if (j)
        w += " | ";
      w += "uint32_t(" + reg(first + j) + ")";
      if (j)
        w += " << " + std::to_string(8 * eb * int64_t(j));
    }
    return w;
  };
  if (accessBytes <= 4)
    return std::string(accessType(accessBytes)) + "(" + word(0, regs.size()) +
           ")";
  std::vector<std::string> words;
  if (eb == 8) {
    for (size_t j = 0; j < regs.size(); ++j) {
      words.push_back("uint32_t(" + reg(j) + ")");
      words.push_back("uint32_t(" + reg(j) + " >> 32)");
    }
  } else {
    size_t per = size_t(4 / eb);
    for (size_t k = 0; k < regs.size(); k += per)
      words.push_back(word(k, per));
  }
  std::string r = words.size() == 2 ? "make_uint2(" : "make_uint4(";
  for (size_t k = 0; k < words.size(); ++k)
    r += (k ? ", " : "") + words[k];
  return r + ")";
}

/// Statements `array[regs[j]] = element j of vector VAR`.
std::string unpackVector(const std::string &indent, const std::string &array,
                         const std::string &var,
                         const std::vector<int64_t> &regs, int64_t eb,
                         int64_t accessBytes) {
  const char *t = elementType(eb);
  std::string o;
  auto assign = [&](size_t j, const std::string &value) {
    o +=
        indent + array + "[" + std::to_string(regs[j]) + "] = " + value + ";\n";
  };
  if (regs.size() == 1) {
    assign(0, var);
    return o;
  }
  static const char *kField[] = {".x", ".y", ".z", ".w"};
  for (size_t j = 0; j < regs.size(); ++j) {
    if (accessBytes <= 4) {
      assign(j, std::string(t) + "(" + var + " >> " +
                    std::to_string(8 * eb * int64_t(j)) + ")");
    } else if (eb == 8) {
      assign(j, "uint64_t(" + var + kField[2 * j] + ") | uint64_t(" + var +
                    kField[2 * j + 1] + ") << 32");
    } else {
      size_t per = size_t(4 / eb);
      std::string w = var + kField[j / per];
      size_t shift = 8 * size_t(eb) * (j % per);
      assign(j, eb == 4 ? w
                        : std::string(t) + "(" + w + " >> " +
                              std::to_string(shift) + ")");
    }
  }
  return o;
}

/// `if (lanes in mask) ...` as a condition on the lane id.
std::string laneCondition(uint32_t mask) {
  return "(" + hex(mask, false) + " >> lane & 1u)";
}

/// One st.shared (store) or ld.shared of access `a` at byte `addr` of the
/// buffer, as vector type V.
void emitVector(std::string &o, const std::string &ind,
                const CudaSharedAccess &a, const CudaEmitTables &t, bool store,
                const char *V, const std::string &addr, int64_t bytes) {
  const int64_t eb = t.elementBytes;
  if (store) {
    o += ind + "*reinterpret_cast<" + V +
         " *>(static_cast<unsigned char *>(smem) + " + addr +
         ") = " + packVector("src", a.registers, eb, bytes) + ";\n";
    return;
  }
  o += ind + "{\n";
  o += ind + "  const " + V + " v = *reinterpret_cast<const " + V +
       " *>(static_cast<const unsigned char *>(smem) + " + addr + ");\n";
  o += unpackVector(ind + "  ", "dst", "v", a.registers, eb, bytes);
  o += ind + "}\n";
}

/// The masked form of emitVector: the whole vector when every register of
/// the access holds a valid element (sv / dv), else one element access per
/// valid register at its own byte.
void emitMaskedVector(std::string &o, const std::string &ind,
                      const CudaSharedAccess &a, const CudaEmitTables &t,
                      bool store, const char *V, const std::string &addr,
                      int64_t bytes) {
  const char *T = elementType(t.elementBytes);
  const std::string flag = store ? "sv[" : "dv[";
  auto on = [&](size_t j) {
    return flag + std::to_string(a.registers[j]) + "]";
  };
  auto element = [&](size_t j) {
    const std::string at =
        addr + " + " + std::to_string(int64_t(j) * t.elementBytes) + "u";
    const std::string reg = std::to_string(a.registers[j]);
    if (store)
      return "*reinterpret_cast<" + std::string(T) +
             " *>(static_cast<unsigned char *>(smem) + " + at + ") = src[" +
             reg + "];\n";
    return "dst[" + reg + "] = *reinterpret_cast<const " + std::string(T) +
           " *>(static_cast<const unsigned char *>(smem) + " + at + ");\n";
  };
  if (a.registers.size() == 1) {
    o += ind + "if (" + on(0) + ")\n" + ind + "  " + element(0);
    return;
  }
  std::string all;
  for (size_t j = 0; j < a.registers.size(); ++j)
    all += (j ? " && " : "") + on(j);
  o += ind + "if (" + all + ") {\n";
  emitVector(o, ind + "  ", a, t, store, V, addr, bytes);
  o +=
      ind + "} else { // some elements are padding: one access per valid one\n";
  for (size_t j = 0; j < a.registers.size(); ++j)
    o += ind + "  if (" + on(j) + ")\n" + ind + "    " + element(j);
  o += ind + "}\n";
}

/// The statements of one shared-memory side for the accesses of iteration
/// `iteration` (guarded per warp when the iteration depends on the warp).
void emitSide(std::string &o, const std::string &in, const CudaSharedSide &side,
              const CudaEmitTables &t, bool store, int64_t iteration,
              const std::string &var) {
  const bool warpDependent =
      std::any_of(side.warpIteration.begin(), side.warpIteration.end(),
                  [](uint64_t v) { return v != 0; });
  const char *T = elementType(t.elementBytes);
  // One element per access: the element type itself (uint64_t for f64).
  const char *V = side.accessBytes == t.elementBytes
                      ? elementType(t.elementBytes)
                      : accessType(side.accessBytes);
  // Accesses grouped by their warp-0 iteration value.
  std::vector<int64_t> values;
  for (const CudaSharedAccess &a : side.accesses)
    if (std::find(values.begin(), values.end(), a.iteration) == values.end())
      values.push_back(a.iteration);
  for (int64_t v : values) {
    std::string ind = in;
    if (warpDependent) {
      o += in + "if ((wit_" + var + " ^ " + hex(uint64_t(v), false) +
           ") == " + hex(uint64_t(iteration), false) + ") {\n";
      ind += "  ";
    } else if (v != iteration) {
      continue;
    }
    for (const CudaSharedAccess &a : side.accesses) {
      if (a.iteration != v)
        continue;
      const std::string addr =
          "(" + var + " ^ " + hex(a.registerBytes, false) + ")";
      if (side.matrixCount) {
        const int64_t n = side.matrixCount;
        std::string op = std::string(store ? "stmatrix" : "ldmatrix") +
                         ".sync.aligned.m8n8.x" + std::to_string(n) +
                         (side.trans ? ".trans" : "") + ".shared.b16";
        std::string regs;
        for (int64_t j = 0; j < n; ++j)
          regs += (j ? ", %" : "%") + std::to_string(store ? j + 1 : j);
        if (store) {
          o += ind + "asm volatile(\"" + op + " [%0], {" + regs +
               "};\" :: \"r\"(sbase + " + addr + ")";
          for (int64_t j = 0; j < n; ++j)
            o += ", \"r\"(uint32_t(src[" +
                 std::to_string(a.registers[size_t(2 * j)]) +
                 "]) | uint32_t(src[" +
                 std::to_string(a.registers[size_t(2 * j + 1)]) + "]) << 16)";
          o += " : \"memory\");\n";
        } else {
          o += ind + "{\n";
          o += ind + "  uint32_t m[" + std::to_string(n) + "];\n";
          o += ind + "  asm volatile(\"" + op + " {" + regs + "}, [%" +
               std::to_string(n) + "];\" : ";
          for (int64_t j = 0; j < n; ++j)
            o += std::string(j ? ", " : "") + "\"=r\"(m[" + std::to_string(j) +
                 "])";
          o += " : \"r\"(sbase + " + addr + ") : \"memory\");\n";
          for (int64_t j = 0; j < n; ++j) {
            o += ind + "  dst[" + std::to_string(a.registers[size_t(2 * j)]) +
                 "] = " + T + "(m[" + std::to_string(j) + "]);\n";
            o += ind + "  dst[" +
                 std::to_string(a.registers[size_t(2 * j + 1)]) + "] = " + T +
                 "(m[" + std::to_string(j) + "] >> 16);\n";
          }
          o += ind + "}\n";
        }
      } else if (t.masked()) {
        emitMaskedVector(o, ind, a, t, store, V, addr, side.accessBytes);
      } else {
        emitVector(o, ind, a, t, store, V, addr, side.accessBytes);
      }
    }
    if (warpDependent)
      o += in + "}\n";
  }
}

/// The thread term and iteration term of a side.
void emitSideSetup(std::string &o, const std::string &in,
                   const CudaSharedSide &side, const std::string &var) {
  emitThreadTerm(o, in, var, side.thread, false);
  bool warpDependent = false;
  for (uint64_t v : side.warpIteration)
    warpDependent |= v != 0;
  if (!warpDependent)
    return;
  o += in + "uint32_t wit_" + var + " = 0u;\n";
  for (size_t k = 0; k < side.warpIteration.size(); ++k)
    if (side.warpIteration[k])
      o += in + "wit_" + var + " ^= (warp & " + hex(uint64_t(1) << k, false) +
           ") ? " + hex(side.warpIteration[k], false) + " : 0u;\n";
}

std::string describeSide(const CudaSharedSide &side, bool store) {
  if (side.matrixCount)
    return std::string(store ? "stmatrix" : "ldmatrix") + ".x" +
           std::to_string(side.matrixCount) + (side.trans ? ".trans" : "") +
           " (row address = register constant ^ thread offset)";
  return std::to_string(side.accessBytes) +
         "-byte vectors at (register constant ^ thread offset)";
}

/// The per-lane source-lane tables of the rounds whose source lane is not
/// affine in the lane id (read from global memory, one 32-byte request per
/// warp); nothing when every round is affine.
void emitLaneTables(std::string &o, const std::string &in,
                    const CudaEmitTables &t) {
  bool anyTable = false;
  for (const CudaShuffle &s : t.shuffles)
    anyTable |= !s.srcLaneAffine;
  if (!anyTable)
    return;
  o += in + "static __device__ const unsigned char lanes[][32] = {\n";
  for (const CudaShuffle &s : t.shuffles) {
    if (s.srcLaneAffine)
      continue;
    o += in + "    {";
    for (size_t l = 0; l < s.srcLane.size(); ++l)
      o += (l ? ", " : "") + std::to_string(s.srcLane[l]);
    o += "},\n";
  }
  o += in + "};\n";
}

/// `from`, the lane a round reads: affine in the lane id, or from the
/// round's entry `table` of the lane tables (advanced); nothing for a
/// lane-local round.
void emitSourceLane(std::string &o, const std::string &in, const CudaShuffle &s,
                    size_t &table) {
  if (s.laneLocal)
    return; // every lane reads itself
  if (s.srcLaneAffine) {
    o += in + "  uint32_t from = " + hex(uint64_t(s.srcLane[0]), false) + ";\n";
    for (size_t j = 0; j < s.srcLaneXor.size(); ++j)
      if (s.srcLaneXor[j])
        o += in + "  from ^= (lane & " + hex(uint64_t(1) << j, false) + ") ? " +
             hex(s.srcLaneXor[j], false) + " : 0u;\n";
    return;
  }
  o += in + "  const uint32_t from = lanes[" + std::to_string(table++) +
       "][lane];\n";
}

/// The register lane `l` takes in `cs` (the choice whose mask holds it).
int64_t registerOf(const std::vector<CudaLaneChoice> &cs, int64_t l) {
  for (const CudaLaneChoice &c : cs)
    if (c.lanes >> l & 1u)
      return c.reg;
  return -1;
}

/// A side's registers as a lane-dependent XOR: in every round and for every
/// element, the register of lane l is the register of lane 0 XOR
/// `bits[j]` for each set bit j of l. Then the side is one permutation of
/// its register row, applied once (a conditional swap of register pairs
/// per non-zero bits[j]: one select per register and lane bit), and every
/// round reads or writes a fixed register. Empty when a side is not of
/// this form (each round then selects per lane).
struct LaneXor {
  bool linear = false;
  std::vector<uint64_t> bits; ///< per lane bit j
};

LaneXor laneXorOf(const CudaEmitTables &t, bool send) {
  LaneXor x;
  for (int j = 0; (int64_t(1) << j) < t.lanes; ++j) {
    const CudaShuffle &s0 = t.shuffles.front();
    const auto &cs = send ? s0.send.front() : s0.receive.front();
    x.bits.push_back(
        uint64_t(registerOf(cs, int64_t(1) << j) ^ registerOf(cs, 0)));
  }
  for (const CudaShuffle &s : t.shuffles)
    for (const auto &cs : send ? s.send : s.receive)
      for (int64_t l = 0; l < t.lanes; ++l) {
        uint64_t want = uint64_t(registerOf(cs, 0));
        for (size_t j = 0; j < x.bits.size(); ++j)
          if (uint64_t(l) >> j & 1)
            want ^= x.bits[j];
        if (registerOf(cs, l) < 0 || uint64_t(registerOf(cs, l)) != want)
          return {};
      }
  x.linear = true;
  return x;
}

/// Permutes the row `row` (n registers of type E) by the lane: afterwards
/// row[r] holds the old row[r ^ XOR_{j : lane_j = 1} x.bits[j]]. Only the
/// registers of `keep` (closed under every x.bits[j]) move.
void emitLanePermutation(std::string &o, const std::string &in,
                         const std::string &E, const std::string &row,
                         const LaneXor &x, const std::vector<bool> &keep) {
  for (size_t j = 0; j < x.bits.size(); ++j) {
    if (x.bits[j] == 0)
      continue;
    o += in + "{ // lane bit " + std::to_string(j) + ": swap r and r ^ " +
         std::to_string(x.bits[j]) + "\n";
    o += in + "  const bool c = lane & " + hex(uint64_t(1) << j, false) + ";\n";
    for (size_t r = 0; r < keep.size(); ++r) {
      const size_t q = r ^ size_t(x.bits[j]);
      if (q <= r || !keep[r])
        continue;
      const std::string a = row + "[" + std::to_string(r) + "]",
                        b = row + "[" + std::to_string(q) + "]";
      o += in + "  { const " + E + " u = " + a + ", v = " + b + "; " + a +
           " = c ? v : u; " + b + " = c ? u : v; }\n";
    }
    o += in + "}\n";
  }
}

/// One round: send (element e from the register of this lane's choice),
/// pack, shuffle, unpack (a lane-local round keeps its elements), receive.
void emitRound(std::string &o, const std::string &in, const CudaShuffle &s,
               const CudaEmitTables &t, const LaneXor &sx, const LaneXor &rx) {
  const char *T = elementType(t.elementBytes);
  const int64_t eb = t.elementBytes, vecN = t.vectorElements;
  const std::string E = eb == 8 ? "uint64_t" : "uint32_t";
  // Masked: a register of padding is not read; the lane sends 0 for it.
  auto sent = [&](int64_t reg) {
    const std::string r = std::to_string(reg);
    if (!t.masked())
      return E + "(src[" + r + "])";
    return "(sv[" + r + "] ? " + E + "(src[" + r + "]) : " + E + "(0))";
  };
  for (int64_t e = 0; e < vecN; ++e) {
    const auto &cs = s.send[size_t(e)];
    if (sx.linear) { // the row is permuted: lane 0's register for every lane
      o += in + "  " + E + " s" + std::to_string(e) + " = p[" +
           std::to_string(registerOf(cs, 0)) + "];\n";
      continue;
    }
    o += in + "  " + E + " s" + std::to_string(e) + " = " + sent(cs[0].reg) +
         ";\n";
    for (size_t c = 1; c < cs.size(); ++c)
      o += in + "  s" + std::to_string(e) + " = " + laneCondition(cs[c].lanes) +
           " ? " + sent(cs[c].reg) + " : s" + std::to_string(e) + ";\n";
  }
  if (s.laneLocal) {
    for (int64_t e = 0; e < vecN; ++e)
      o += in + "  const " + T + " r" + std::to_string(e) + " = " + T + "(s" +
           std::to_string(e) + ");\n";
  } else if (eb == 8) {
    o += in + "  const uint32_t lo = __shfl_sync(0xffffffffu, "
              "uint32_t(s0), int(from));\n";
    o += in + "  const uint32_t hi = __shfl_sync(0xffffffffu, "
              "uint32_t(s0 >> 32), int(from));\n";
    o += in + "  const uint64_t r0 = uint64_t(lo) | uint64_t(hi) << 32;\n";
  } else {
    std::string word = "s0";
    for (int64_t e = 1; e < vecN; ++e)
      word += " | s" + std::to_string(e) + " << " + std::to_string(8 * eb * e);
    o += in + "  const uint32_t w = __shfl_sync(0xffffffffu, " + word +
         ", int(from));\n";
    for (int64_t e = 0; e < vecN; ++e)
      o += in + "  const " + T + " r" + std::to_string(e) + " = " + T + "(w" +
           (e ? " >> " + std::to_string(8 * eb * e) : std::string()) + ");\n";
  }
  for (int64_t e = 0; e < vecN; ++e)
    if (rx.linear) // into lane 0's register; the row is permuted after
      o += in + "  q[" + std::to_string(registerOf(s.receive[size_t(e)], 0)) +
           "] = " + T + "(r" + std::to_string(e) + ");\n";
  for (int64_t e = 0; e < vecN && !rx.linear; ++e)
    for (const CudaLaneChoice &c : s.receive[size_t(e)]) {
      std::string d = "dst[" + std::to_string(c.reg) + "]";
      std::string r = "r" + std::to_string(e);
      if (t.masked()) // a register of padding is never written
        o += in + "  if (dv[" + std::to_string(c.reg) + "]" +
             (c.lanes == 0xffffffffu ? "" : " && " + laneCondition(c.lanes)) +
             ")\n" + in + "    " + d + " = " + T + "(" + r + ");\n";
      else if (c.lanes == 0xffffffffu)
        o += in + "  " + d + " = " + T + "(" + r + ");\n";
      else
        o += in + "  " + d + " = " + laneCondition(c.lanes) + " ? " + T + "(" +
             r + ") : " + d + ";\n";
    }
}

void emitRegisterCopies(std::string &o, const std::string &in,
                        const CudaEmitTables &t) {
  for (const auto &[to, from] : t.registerCopies)
    o += in + (t.masked() ? "if (dv[" + std::to_string(to) + "]) " : "") +
         "dst[" + std::to_string(to) + "] = dst[" + std::to_string(from) +
         "];\n";
}

void emitShuffleBody(std::string &o, const std::string &in,
                     const CudaEmitTables &t) {
  o += in + "(void)smem;\n";
  if (!t.masked()) { // else the mask's prologue declared it
    o += in + "const uint32_t lane = threadIdx.x % 32u;\n";
    // (Unused when every round is lane-local and selects nothing.)
    o += in + "(void)lane;\n";
  }
  emitLaneTables(o, in, t);
  // Unmasked: a side whose registers are a lane XOR permutes its row once
  // (LaneXor) instead of selecting in every round.
  const LaneXor none, sx = t.masked() ? none : laneXorOf(t, true);
  LaneXor rx = t.masked() ? none : laneXorOf(t, false);
  const char *T = elementType(t.elementBytes);
  if (sx.linear) {
    o += in + T + " p[" + std::to_string(t.srcRegisters) + "];\n";
    for (int64_t r = 0; r < t.srcRegisters; ++r)
      o += in + "p[" + std::to_string(r) + "] = src[" + std::to_string(r) +
           "];\n";
    emitLanePermutation(o, in, T, "p", sx,
                        std::vector<bool>(size_t(t.srcRegisters), true));
  }
  // The registers lane 0 receives; every lane receives the same set (the
  // others are copies), so the permutation must keep it in place.
  std::vector<bool> received(size_t(t.dstRegisters), false);
  for (const CudaShuffle &s : t.shuffles)
    for (const auto &cs : s.receive)
      if (int64_t r = registerOf(cs, 0); rx.linear && r >= 0)
        received[size_t(r)] = true;
  for (size_t r = 0; r < received.size() && rx.linear; ++r)
    for (uint64_t b : rx.bits)
      if (received[r] && (size_t(r ^ b) >= received.size() || !received[r ^ b]))
        rx = none;
  if (rx.linear)
    o += in + T + " q[" + std::to_string(t.dstRegisters) + "];\n";
  size_t table = 0;
  for (size_t i = 0; i < t.shuffles.size(); ++i) {
    const CudaShuffle &s = t.shuffles[i];
    o += in + "{ // round " + std::to_string(i) +
         (s.laneLocal ? " (lane-local: no shuffle)" : "") + "\n";
    emitSourceLane(o, in, s, table);
    emitRound(o, in, s, t, sx, rx);
    o += in + "}\n";
  }
  if (rx.linear) {
    emitLanePermutation(o, in, T, "q", rx, received);
    for (size_t r = 0; r < received.size(); ++r)
      if (received[r])
        o += in + "dst[" + std::to_string(r) + "] = q[" + std::to_string(r) +
             "];\n";
  }
  emitRegisterCopies(o, in, t);
}

/// lane, warp and block of the calling thread (each may go unused).
void emitThreadIds(std::string &o, const std::string &in) {
  o += in + "const uint32_t lane = threadIdx.x % 32u;\n";
  o += in + "const uint32_t warp = threadIdx.x / 32u;\n";
  o += in + "const uint32_t block = blockIdx.x;\n";
  o += in + "(void)lane;\n" + in + "(void)warp;\n" + in + "(void)block;\n";
}

/// The thread's ids and the address setup of both sides (and of the
/// pre-sm_90 store fallback).
void emitSharedSetup(std::string &o, const std::string &in,
                     const CudaEmitTables &t) {
  const bool matrices = t.store.matrixCount || t.load.matrixCount;
  if (matrices)
    o += in + "const uint32_t sbase = static_cast<uint32_t>("
              "__cvta_generic_to_shared(smem));\n";
  if (!t.masked()) // else the mask's prologue declared them
    emitThreadIds(o, in);
  o += in + "// Store: " + describeSide(t.store, true) + ".\n";
  emitSideSetup(o, in, t.store, "st");
  if (t.storeFallback) {
    o += in + "// Below sm_90 (no stmatrix): the same elements as " +
         std::to_string(t.elementBytes) + "-byte stores.\n";
    emitSideSetup(o, in, *t.storeFallback, "sf");
  }
  o += in + "// Load: " + describeSide(t.load, false) + ".\n";
  emitSideSetup(o, in, t.load, "ld");
}

/// Iteration `it`: the store (lanes and warps holding only duplicates skip
/// it), a barrier, the load.
void emitSharedIteration(std::string &o, const std::string &in,
                         const CudaEmitTables &t, int64_t it) {
  const bool idle = t.storeIdleLanes || t.storeIdleWarps;
  if (t.iterations > 1)
    o += in + "// Iteration " + std::to_string(it) + " of " +
         std::to_string(t.iterations) + ".\n";
  if (it > 0)
    o += in + "__syncthreads();\n";
  std::string sin = in;
  if (idle) {
    o += in + "if ((lane & " + hex(t.storeIdleLanes, false) +
         ") == 0u && (warp & " + hex(t.storeIdleWarps, false) +
         ") == 0u) { // lanes / warps holding only duplicates skip\n";
    sin += "  ";
  }
  if (t.storeFallback) {
    o += "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n";
    emitSide(o, sin, *t.storeFallback, t, true, it, "sf");
    o += "#else\n";
    emitSide(o, sin, t.store, t, true, it, "st");
    o += "#endif\n";
  } else {
    emitSide(o, sin, t.store, t, true, it, "st");
  }
  if (idle)
    o += in + "}\n";
  o += in + "__syncthreads();\n";
  emitSide(o, in, t.load, t, false, it, "ld");
}

/// NAME_valid(y): whether flat logical index y is an element of the
/// logical shape (CudaEmitTables::valid); nothing when unmasked.
void emitValidFunction(std::string &o, const CudaEmitTables &t,
                       const std::string &name) {
  if (!t.masked())
    return;
  o += "// Whether flat index y of the padded shape is an element of the\n"
       "// logical shape (every padded dim's coordinate below its extent).\n";
  o += "__device__ __forceinline__ bool " + name + "_valid(uint64_t y) {\n";
  o += "  return ";
  for (size_t k = 0; k < t.bounds.size(); ++k) {
    const CudaDimBound &b = t.bounds[k];
    o += std::string(k ? " &&\n         " : "") + "((y >> " +
         std::to_string(b.shift) + ") & " +
         hex((uint64_t(1) << b.log2) - 1, true) + ") < " +
         hex(uint64_t(b.extent), true);
  }
  o += ";\n}\n\n";
}

/// The masked body's prologue: the thread's ids, then sv[r] (dv[r]): does
/// src (dst) register r of this thread hold a valid element. A copy or
/// permutation (`srcFlags` false) reads only dv: the register it copies
/// holds the same element.
void emitMaskPrologue(std::string &o, const std::string &in,
                      const CudaEmitTables &t, const std::string &name,
                      bool srcFlags) {
  emitThreadIds(o, in);
  o += in + "// Registers holding padding are never read (src) or written "
            "(dst).\n";
  emitThreadTerm(o, in, "di", t.dstIndexThread, true);
  o += in + "bool dv[" + std::to_string(t.dstRegisters) + "];\n";
  for (size_t r = 0; r < t.dstIndex.size(); ++r)
    o += in + "dv[" + std::to_string(r) + "] = " + name + "_valid(di ^ " +
         hex(t.dstIndex[r], true) + ");\n";
  if (!srcFlags)
    return;
  emitThreadTerm(o, in, "si", t.srcIndexThread, true);
  o += in + "bool sv[" + std::to_string(t.srcRegisters) + "];\n";
  for (size_t r = 0; r < t.srcIndex.size(); ++r)
    o += in + "sv[" + std::to_string(r) + "] = " + name + "_valid(si ^ " +
         hex(t.srcIndex[r], true) + ");\n";
}

void emitBody(std::string &o, const Plan &plan, const CudaEmitTables &t,
              const std::string &name) {
  const std::string in = "  ";
  if (t.masked())
    emitMaskPrologue(o, in, t, name,
                     plan.strategy == Strategy::SharedMemory ||
                         plan.strategy == Strategy::WarpShuffle);
  switch (plan.strategy) {
  case Strategy::NoOp:
  case Strategy::RegisterPermutation:
    o += in + "(void)smem;\n";
    for (size_t r = 0; r < t.registerSource.size(); ++r)
      o += in + (t.masked() ? "if (dv[" + std::to_string(r) + "]) " : "") +
           "dst[" + std::to_string(r) + "] = src[" +
           std::to_string(t.registerSource[r]) + "];\n";
    return;
  case Strategy::WarpShuffle:
    emitShuffleBody(o, in, t);
    return;
  case Strategy::SharedMemory:
    emitSharedSetup(o, in, t);
    for (int64_t it = 0; it < t.iterations; ++it)
      emitSharedIteration(o, in, t, it);
    emitRegisterCopies(o, in, t);
    return;
  }
}

void emitTestKernel(std::string &o, const CudaEmitTables &t,
                    const std::string &name) {
  const char *T = elementType(t.elementBytes);
  const int bits = int(t.elementBytes * 8);
  const int passes = selfCheckPasses(t.logicalBits, t.elementBytes);
  o += "\n// Self-check: src register r of (lane, warp, block) holds bits\n"
       "// [pass * " +
       std::to_string(bits) +
       ", ...) of (logical index + 1) under the source layout; every dst\n"
       "// register must hold the same bits of its index under the "
       "destination\n// layout" +
       std::string(t.masked()
                       ? " (masked: src registers of padding hold all ones,\n"
                         "// dst registers of padding must keep the marker "
                         "0x5a.. ^ pass)"
                       : "") +
       ". Launch " + name + "_blocks CTAs of 32 * " + name +
       "_warps threads with " + name +
       "_smem_bytes of\n// dynamic shared memory; *mismatches must stay 0.\n";
  emitTestKernelHead(o, name);
  emitThreadTerm(o, "  ", "si", t.srcIndexThread, true);
  emitThreadTerm(o, "  ", "di", t.dstIndexThread, true);
  o += "  unsigned long long bad = 0;\n";
  o +=
      "  for (int pass = 0; pass < " + std::to_string(passes) + "; ++pass) {\n";
  o += "    const int shift = pass * " + std::to_string(bits) + ";\n";
  emitSmemPoison(o, name, t.smemBytes);
  o += "    " + std::string(T) + " src[" + name + "_src_regs];\n";
  o += "    " + std::string(T) + " dst[" + name + "_dst_regs];\n";
  const std::string marker =
      std::string(T) + "(0x5a5a5a5a5a5a5a5aull ^ unsigned(pass))";
  for (size_t r = 0; r < t.srcIndex.size(); ++r) {
    const std::string idx = "(si ^ " + hex(t.srcIndex[r], true) + ")";
    const std::string value =
        std::string(T) + "((" + idx + " + 1ull) >> shift)";
    o += "    src[" + std::to_string(r) + "] = " +
         (t.masked()
              ? name + "_valid" + idx + " ? " + value + " : " + T + "(~0ull)"
              : value) +
         ";\n";
  }
  if (t.masked())
    for (size_t r = 0; r < t.dstIndex.size(); ++r)
      o += "    dst[" + std::to_string(r) + "] = " + marker + ";\n";
  o += "    " + name + "(src, dst, " + name + "_smem);\n";
  for (size_t r = 0; r < t.dstIndex.size(); ++r) {
    const std::string idx = "(di ^ " + hex(t.dstIndex[r], true) + ")";
    const std::string want = std::string(T) + "((" + idx + " + 1ull) >> shift)";
    const std::string reg = "dst[" + std::to_string(r) + "]";
    o += "    bad += " +
         (t.masked() ? "(" + name + "_valid" + idx + " ? " + want + " : " +
                           marker + ") != " + reg
                     : reg + " != " + want) +
         ";\n";
  }
  o += "    __syncthreads();\n";
  o += "  }\n";
  emitTestKernelTail(o);

  // The timing kernel: the conversion in a loop, each result folded back
  // into the source so that no iteration can be dropped.
  o += "\n__global__ void " + name +
       "_bench_kernel(int iterations, unsigned long long *sink) {\n";
  o += "  extern __shared__ __align__(16) unsigned char " + name + "_smem[];\n";
  o += "  " + std::string(T) + " src[" + name + "_src_regs];\n";
  // Masked: registers of padding stay unwritten, so all start at 0.
  o += "  " + std::string(T) + " dst[" + name + "_dst_regs]" +
       (t.masked() ? " = {}" : "") + ";\n";
  o += "  for (int r = 0; r < " + name + "_src_regs; ++r)\n";
  o += "    src[r] = " + std::string(T) + "(threadIdx.x * 131u + r);\n";
  emitBenchLoop(o, name, name + "(src, dst, " + name + "_smem)", "dst",
                name + "_dst_regs");
}

void emitHostMain(std::string &o, const CudaEmitTables &t,
                  const std::string &name) {
  o += "\n// Checks the conversion, then times it (tensor bytes converted per\n"
       "// second over many CTAs).\n";
  cudatext::emitHostMain(o, name, t.elementBytes << t.logicalBits,
                         "conversions");
}

Status checkOptions(const CudaEmitOptions &options) {
  const std::string &name = options.functionName;
  if (!isIdentifier(name))
    return Diagnostic::error("CUDA function name '" + excerpt(name) +
                             "' is not a C identifier");
  return Ok{};
}

/// The translation unit of `plan` from its tables; `logical` names the
/// logical shape of a masked plan.
std::string emitUnit(const Plan &plan, const CudaEmitTables &t,
                     const CudaEmitOptions &options,
                     const std::string &logical) {
  const std::string &name = options.functionName;
  const char *T = elementType(t.elementBytes);
  std::string o;
  o += "// Generated by LayoutKit (plan::emitCuda): " + plan.describe() + ".\n";
  o += "// From " + plan.layouts.src.str() + "\n//   to " +
       plan.layouts.dst.str() + "\n";
  if (t.masked())
    o += "// Masked to the logical shape " + logical +
         ": padding is never read, written or stored.\n";
  o += "//\n// Contract:\n"
       "//   __device__ void " +
       name + "(const " + T + " (&src)[" + name + "_src_regs],\n//     " + T +
       " (&dst)[" + name +
       "_dst_regs], void *smem);\n"
       "// called by all 32 * " +
       name +
       "_warps threads of a one-dimensional CTA (lane = threadIdx.x % 32,\n"
       "// warp = threadIdx.x / 32), " +
       name +
       "_blocks CTAs; elements are moved as raw bits.\n"
       "// smem: " +
       name +
       "_smem_bytes bytes of 16-byte aligned shared memory (unused when 0);\n"
       "// put a __syncthreads() between two calls sharing the buffer.\n";
  o += "#include <cstdint>\n#include <cstdio>\n#include <cuda_runtime.h>\n\n";
  o += "inline constexpr int " + name +
       "_src_regs = " + std::to_string(t.srcRegisters) + ";\n";
  o += "inline constexpr int " + name +
       "_dst_regs = " + std::to_string(t.dstRegisters) + ";\n";
  o += "inline constexpr int " + name + "_warps = " + std::to_string(t.warps) +
       ";\n";
  o += "inline constexpr int " + name +
       "_blocks = " + std::to_string(t.blocks) + ";\n";
  o += "inline constexpr int " + name +
       "_smem_bytes = " + std::to_string(t.smemBytes) + ";\n\n";
  emitValidFunction(o, t, name);
  o += "__device__ __forceinline__ void " + name + "(const " + T + " (&src)[" +
       std::to_string(t.srcRegisters) + "], " + T + " (&dst)[" +
       std::to_string(t.dstRegisters) + "], void *smem) {\n";
  emitBody(o, plan, t, name);
  o += "}\n";
  if (options.testKernel || options.hostMain) // main() launches it
    emitTestKernel(o, t, name);
  if (options.hostMain)
    emitHostMain(o, t, name);
  return o;
}

} // namespace

Expected<std::string> emitCuda(const Plan &plan,
                               const CudaEmitOptions &options) {
  LK_CHECK(checkOptions(options));
  LK_TRY(CudaEmitTables t, cudaEmitTables(plan));
  return emitUnit(plan, t, options, "");
}

Expected<std::string> emitCuda(const PaddedPlan &plan,
                               const CudaEmitOptions &options) {
  LK_CHECK(checkOptions(options));
  LK_TRY(CudaEmitTables t, cudaEmitTables(plan.plan, plan.logicalShape));
  std::string logical = "(";
  for (size_t d = 0; d < plan.logicalShape.size(); ++d)
    logical += (d ? "," : "") + std::to_string(plan.logicalShape[d]);
  return emitUnit(plan.plan, t, options, logical + ")");
}

} // namespace lk::plan
