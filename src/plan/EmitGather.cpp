//===- EmitGather.cpp - CUDA C++ for a gather plan ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// cudaGatherTables: the constants of a GatherPlan in the form the emitted
// code uses them; emitGatherCuda: the device function printed from them.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitGather.h"

#include "CudaText.h"

#include <string>

namespace lk::plan {

namespace {

using namespace cudatext;
using linear::LinearLayout;
namespace dims = linear::dims;

/// Row-major position of an output word of `l` (dim0 slowest). Every dim is
/// a power of two, so this is a permutation of the word's bits (linear).
uint64_t rowMajor(const LinearLayout &l, uint64_t word) {
  uint64_t p = 0;
  for (int k = 0; k < l.numOutDims(); ++k) {
    const int w = l.outDim(k).log2;
    p = (p << w) | ((word >> l.outShift(k)) & ((uint64_t(1) << w) - 1));
  }
  return p;
}

/// An index-layout word with its axis bits dropped, in the source's dims.
uint64_t offAxis(const GatherPlan &p, uint64_t word) {
  uint64_t r = 0;
  for (int k = 0; k < p.src.numOutDims(); ++k) {
    if (k == p.axis)
      continue;
    const int w = p.src.outDim(k).log2;
    r |= ((word >> p.index.outShift(k)) & ((uint64_t(1) << w) - 1))
         << p.src.outShift(k);
  }
  return r;
}

/// The shared-memory tables: byte offsets of the source registers in the
/// row-major buffer and of the wanted elements without the index term.
void sharedTables(const GatherPlan &p, CudaGatherTables &t) {
  const LinearLayout &s = p.src, &ix = p.index;
  const int srcReg = s.inDimLog2(dims::kRegister);
  const int idxReg = ix.inDimLog2(dims::kRegister);
  const int lanes = s.inDimLog2(dims::kLane);
  const int warps = s.inDimLog2(dims::kWarp);
  const uint64_t eb = uint64_t(t.elementBytes);
  auto srcBytes = [&](uint64_t hw) { return rowMajor(s, s.applyFlat(hw)) * eb; };
  auto idxBytes = [&](uint64_t hw) {
    return rowMajor(s, offAxis(p, ix.applyFlat(hw))) * eb;
  };
  for (int64_t r = 0; r < t.srcRegisters; ++r)
    t.storeBytes.push_back(srcBytes(uint64_t(r)));
  for (int64_t r = 0; r < t.outRegisters; ++r)
    t.loadBytes.push_back(idxBytes(uint64_t(r)));
  for (int j = 0; j < lanes; ++j) {
    t.storeThread.lane.push_back(srcBytes(uint64_t(1) << (srcReg + j)));
    t.loadThread.lane.push_back(idxBytes(uint64_t(1) << (idxReg + j)));
  }
  for (int k = 0; k < warps; ++k) {
    t.storeThread.warp.push_back(srcBytes(uint64_t(1) << (srcReg + lanes + k)));
    t.loadThread.warp.push_back(idxBytes(uint64_t(1) << (idxReg + lanes + k)));
  }
  auto free = s.freeVariableMasks();
  t.storeIdleRegisters = free[0];
  t.storeIdleLanes = free[1];
  t.storeIdleWarps = free[2];
  t.axisStrideBytes = rowMajor(s, uint64_t(1) << s.outShift(p.axis)) * eb;
  t.smemBytes = p.cost.smemBytes;
}

/// `VAR ^= (v & bit) ? c : 0u;` for the non-zero terms of the index.
void emitIndexTerms(std::string &o, const std::string &in,
                    const std::string &var,
                    const std::vector<SourceLocation> &terms, bool lane) {
  for (size_t i = 0; i < terms.size(); ++i) {
    const uint64_t c = uint64_t(lane ? terms[i].lane : terms[i].reg);
    if (c)
      o += in + var + " ^= (v & " + hex(uint64_t(1) << i, false) + ") ? " +
           hex(c, false) + " : 0u;\n";
  }
}

/// The thread term (lane, warp, block) of the register or lane part.
CudaThreadTerm threadPart(const CudaGatherTables &t, bool lane) {
  CudaThreadTerm term;
  auto put = [&](std::vector<uint64_t> &out,
                 const std::vector<SourceLocation> &in) {
    for (const SourceLocation &l : in)
      out.push_back(uint64_t(lane ? l.lane : l.reg));
  };
  put(term.lane, t.fromLane);
  put(term.warp, t.fromWarp);
  put(term.block, t.fromBlock);
  return term;
}

/// ThreadLocal / WarpShuffle: the rounds of every output register.
void emitRounds(std::string &o, const CudaGatherTables &t) {
  const char *T = elementType(t.elementBytes);
  const bool shuffle = t.strategy == GatherStrategy::WarpShuffle;
  const char *wire = t.elementBytes == 8 ? "(unsigned long long)" : "uint32_t";
  // Only what is read is declared (nvcc warns on a variable set but unused).
  bool selects = false;
  for (const GatherRegisterSteps &st : t.steps)
    selects = selects || st.sendRegisters.size() > 1;
  if (selects)
    emitThreadTerm(o, "  ", "treg", threadPart(t, false), false);
  if (shuffle)
    emitThreadTerm(o, "  ", "tlane", threadPart(t, true), false);
  for (const GatherRegisterSteps &st : t.steps) {
    const std::string r = std::to_string(st.outRegister);
    o += "  {\n    const uint32_t v = uint32_t(index[" + r + "]);\n";
    o += "    (void)v;\n";
    if (st.sendRegisters.size() > 1) {
      o += "    uint32_t reg = treg ^ " + hex(uint64_t(st.base.reg), false) +
           ";\n";
      emitIndexTerms(o, "    ", "reg", t.fromIndex, false);
    }
    if (shuffle) {
      o += "    uint32_t sl = tlane ^ " + hex(uint64_t(st.base.lane), false) +
           ";\n";
      emitIndexTerms(o, "    ", "sl", t.fromIndex, true);
    }
    for (int64_t s : st.sendRegisters) {
      const std::string src = "src[" + std::to_string(s) + "]";
      const std::string x =
          shuffle ? std::string(T) + "(__shfl_sync(0xffffffffu, " + wire +
                        "(" + src + "), int(sl)))"
                  : src;
      if (st.sendRegisters.size() == 1)
        o += "    out[" + r + "] = " + x + ";\n";
      else
        o += "    {\n      const " + std::string(T) + " x = " + x +
             ";\n      if (reg == " + hex(uint64_t(s), false) + ")\n        out[" +
             r + "] = x;\n    }\n";
    }
    o += "  }\n";
  }
}

/// SharedMemory: the stores, one barrier, the loads.
void emitShared(std::string &o, const CudaGatherTables &t) {
  const std::string T = elementType(t.elementBytes);
  o += "  unsigned char *buf = static_cast<unsigned char *>(smem);\n";
  CudaThreadTerm store = t.storeThread, load = t.loadThread;
  emitThreadTerm(o, "  ", "st", store, false);
  o += "  if (!(lane & " + hex(t.storeIdleLanes, false) + ") && !(warp & " +
       hex(t.storeIdleWarps, false) + ")) {\n";
  for (size_t r = 0; r < t.storeBytes.size(); ++r)
    if (!(uint64_t(r) & t.storeIdleRegisters))
      o += "    *reinterpret_cast<" + T + " *>(buf + (st ^ " +
           hex(t.storeBytes[r], false) + ")) = src[" + std::to_string(r) +
           "];\n";
  o += "  }\n  __syncthreads();\n";
  emitThreadTerm(o, "  ", "ld", load, false);
  for (size_t r = 0; r < t.loadBytes.size(); ++r)
    o += "  out[" + std::to_string(r) + "] = *reinterpret_cast<const " + T +
         " *>(buf + (ld ^ " + hex(t.loadBytes[r], false) +
         " ^ uint32_t(index[" + std::to_string(r) + "]) * " +
         hex(t.axisStrideBytes, false) + "));\n";
}

} // namespace

Expected<CudaGatherTables> cudaGatherTables(const GatherPlan &plan) {
  const LinearLayout &s = plan.src, &ix = plan.index;
  if (s.inDimSize(dims::kLane) != 32 || ix.inDimSize(dims::kLane) != 32)
    return Diagnostic::error("the CUDA emitter needs 32 lanes per warp; the "
                             "gather's layouts have " +
                             std::to_string(s.inDimSize(dims::kLane)));
  CudaGatherTables t;
  t.strategy = plan.strategy;
  t.warps = s.inDimSize(dims::kWarp);
  t.blocks = s.inDimSize(dims::kBlock);
  t.srcRegisters = s.inDimSize(dims::kRegister);
  t.outRegisters = ix.inDimSize(dims::kRegister);
  t.elementBytes = plan.elementBits / 8;
  if (plan.strategy == GatherStrategy::SharedMemory) {
    if (plan.cost.smemBytes > (int64_t(1) << 31))
      return Diagnostic::error("a gather buffer of " +
                               std::to_string(plan.cost.smemBytes) +
                               " B does not fit 32-bit offsets");
    sharedTables(plan, t);
    return t;
  }
  const size_t warpBits = size_t(s.inDimLog2(dims::kWarp));
  if (int64_t(plan.steps.size()) != t.outRegisters ||
      int64_t(plan.fromLane.size()) != 5 ||
      plan.fromWarp.size() != warpBits + size_t(s.inDimLog2(dims::kBlock)) ||
      int64_t(plan.fromIndex.size()) != s.outDim(plan.axis).log2)
    return Diagnostic::error("malformed gather plan: the addressing does not "
                             "match the layouts");
  t.fromIndex = plan.fromIndex;
  t.fromLane = plan.fromLane;
  t.fromWarp.assign(plan.fromWarp.begin(),
                    plan.fromWarp.begin() + std::ptrdiff_t(warpBits));
  t.fromBlock.assign(plan.fromWarp.begin() + std::ptrdiff_t(warpBits),
                     plan.fromWarp.end());
  t.steps = plan.steps;
  return t;
}

Expected<std::string> emitGatherCuda(const GatherPlan &plan,
                                     const CudaGatherEmitOptions &options) {
  const std::string &name = options.functionName;
  if (!isIdentifier(name))
    return Diagnostic::error("function name '" + name.substr(0, 200) +
                             "' is not a C identifier");
  LK_TRY(CudaGatherTables t, cudaGatherTables(plan));
  const std::string T = elementType(t.elementBytes);
  std::string o = "// Generated by LayoutKit: " + plan.describe() + "\n";
  o += "#include <cstdint>\n#include <cuda_runtime.h>\n\n";
  auto constant = [&](const char *what, int64_t v) {
    o += "inline constexpr int " + name + "_" + what + " = " +
         std::to_string(v) + ";\n";
  };
  constant("src_regs", t.srcRegisters);
  constant("out_regs", t.outRegisters);
  constant("warps", t.warps);
  constant("blocks", t.blocks);
  constant("smem_bytes", t.smemBytes);
  o += "\n__device__ void " + name + "(const " + T + " (&src)[" + name +
       "_src_regs], const int32_t (&index)[" + name + "_out_regs], " + T +
       " (&out)[" + name + "_out_regs], void *smem) {\n";
  o += "  const uint32_t lane = threadIdx.x % 32u;\n";
  o += "  const uint32_t warp = threadIdx.x / 32u;\n";
  o += "  const uint32_t block = blockIdx.x;\n";
  o += "  (void)lane;\n  (void)warp;\n  (void)block;\n  (void)smem;\n";
  if (t.strategy == GatherStrategy::SharedMemory)
    emitShared(o, t);
  else
    emitRounds(o, t);
  o += "}\n";
  return o;
}

} // namespace lk::plan
