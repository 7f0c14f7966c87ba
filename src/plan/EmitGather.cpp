//===- EmitGather.cpp - CUDA C++ for a gather plan ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// cudaGatherTables: the constants of a GatherPlan in the form the emitted
// code uses them; emitGatherCuda: the device function printed from them,
// and the test kernel, timing kernel and host main() when asked.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/EmitGather.h"

#include "CudaText.h"
#include "GatherWords.h"

#include <string>

namespace lk::plan {

namespace {

using namespace cudatext;
using linear::LinearLayout;
namespace dims = linear::dims;

using detail::rowMajor;

/// An index-layout word with its axis bits dropped, in the source's dims.
uint64_t offAxis(const GatherPlan &p, uint64_t word) {
  return detail::offAxisToSrc(p.src, p.index, p.axis, word);
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
  auto srcBytes = [&](uint64_t hw) {
    return rowMajor(s, s.applyFlat(hw)) * eb;
  };
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

/// Per-register values and thread term (lane, warp, block columns) of
/// id(l.applyFlat(hw)), `id` linear in the layout word. The input dims are
/// [register, lane, warp, block] (GatherPlan).
template <class Id>
void idTerms(const LinearLayout &l, Id id, std::vector<uint64_t> &perRegister,
             CudaThreadTerm &term) {
  for (int64_t r = 0; r < l.inDimSize(dims::kRegister); ++r)
    perRegister.push_back(id(l.applyFlat(uint64_t(r))));
  std::vector<uint64_t> *parts[3] = {&term.lane, &term.warp, &term.block};
  for (int d = 1; d < 4 && d < l.numInDims(); ++d)
    for (int j = 0; j < l.inDim(d).log2; ++j)
      parts[d - 1]->push_back(id(l.column(l.inShift(d) + j)));
}

/// The element ids of the test kernel (CudaGatherTables::srcId ...).
void testTables(const GatherPlan &p, CudaGatherTables &t) {
  const LinearLayout &s = p.src, &ix = p.index;
  idTerms(
      s, [&](uint64_t w) { return rowMajor(s, w); }, t.srcId, t.srcIdThread);
  idTerms(
      ix, [&](uint64_t w) { return rowMajor(ix, w); }, t.outId, t.outIdThread);
  idTerms(
      ix, [&](uint64_t w) { return rowMajor(s, offAxis(p, w)); }, t.wantId,
      t.wantIdThread);
  t.axisSize = uint64_t(s.outDim(p.axis).size());
  t.axisStride = rowMajor(s, uint64_t(1) << s.outShift(p.axis));
  t.srcIdBits = s.totalOutBits();
  t.outIdBits = ix.totalOutBits();
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
      const std::string x = shuffle ? std::string(T) +
                                          "(__shfl_sync(0xffffffffu, " + wire +
                                          "(" + src + "), int(sl)))"
                                    : src;
      if (st.sendRegisters.size() == 1)
        o += "    out[" + r + "] = " + x + ";\n";
      else
        o += "    {\n      const " + std::string(T) + " x = " + x +
             ";\n      if (reg == " + hex(uint64_t(s), false) +
             ")\n        out[" + r + "] = x;\n    }\n";
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

/// NAME_test_index: gatherTestIndex on the device.
void emitTestIndex(std::string &o, const CudaGatherTables &t,
                   const std::string &name) {
  o += "\n__device__ __forceinline__ uint32_t " + name +
       "_test_index(uint32_t id) {\n";
  o += "  uint32_t h = id * 0x9e3779b1u;\n  h ^= h >> 16;\n";
  o += "  h *= 0x85ebca6bu;\n  h ^= h >> 13;\n";
  o += "  return h & " + hex(t.axisSize - 1, false) + ";\n}\n";
}

/// The test kernel's index values and wanted ids (before the passes).
void emitTestSetup(std::string &o, const CudaGatherTables &t,
                   const std::string &name) {
  emitThreadTerm(o, "  ", "si", t.srcIdThread, true);
  emitThreadTerm(o, "  ", "oi", t.outIdThread, true);
  emitThreadTerm(o, "  ", "wi", t.wantIdThread, true);
  o += "  int32_t index[" + name + "_out_regs];\n";
  o += "  uint64_t want[" + name + "_out_regs];\n";
  for (size_t r = 0; r < t.outId.size(); ++r) {
    const std::string i = "index[" + std::to_string(r) + "]";
    o += "  " + i + " = int32_t(" + name + "_test_index(uint32_t(oi ^ " +
         hex(t.outId[r], true) + ")));\n";
    o += "  want[" + std::to_string(r) + "] = wi ^ " + hex(t.wantId[r], true) +
         " ^ uint64_t(uint32_t(" + i + ")) * " + hex(t.axisStride, true) +
         ";\n";
  }
}

void emitTestKernel(std::string &o, const CudaGatherTables &t,
                    const std::string &name) {
  const std::string T = elementType(t.elementBytes);
  const int bits = int(t.elementBytes * 8);
  const int passes = selfCheckPasses(t.srcIdBits, t.elementBytes);
  emitTestIndex(o, t, name);
  o += "\n// Self-check: src register r holds bits [pass * " +
       std::to_string(bits) +
       ", ...) of (row-major id + 1)\n"
       "// of its element; index[r] = " +
       name +
       "_test_index(row-major id\n"
       "// of output register r); out[r] must hold the same bits of (id + 1)\n"
       "// of the source element at its coordinate with the axis coordinate\n"
       "// replaced by index[r]. Launch " +
       name +
       "_blocks CTAs of\n"
       "// 32 * " +
       name + "_warps threads with " + name +
       "_smem_bytes\n"
       "// of dynamic shared memory; *mismatches must stay 0.\n";
  emitTestKernelHead(o, name);
  emitTestSetup(o, t, name);
  o += "  unsigned long long bad = 0;\n";
  o +=
      "  for (int pass = 0; pass < " + std::to_string(passes) + "; ++pass) {\n";
  o += "    const int shift = pass * " + std::to_string(bits) + ";\n";
  emitSmemPoison(o, name, t.smemBytes);
  o += "    " + T + " src[" + name + "_src_regs];\n";
  o += "    " + T + " out[" + name + "_out_regs];\n";
  for (size_t r = 0; r < t.srcId.size(); ++r)
    o += "    src[" + std::to_string(r) + "] = " + T + "(((si ^ " +
         hex(t.srcId[r], true) + ") + 1ull) >> shift);\n";
  o += "    // Complemented: a register left unwritten mismatches.\n";
  o += "    for (int r = 0; r < " + name + "_out_regs; ++r)\n";
  o += "      out[r] = " + T + "(~((want[r] + 1ull) >> shift));\n";
  o += "    " + name + "(src, index, out, " + name + "_smem);\n";
  o += "    for (int r = 0; r < " + name + "_out_regs; ++r)\n";
  o += "      bad += out[r] != " + T + "((want[r] + 1ull) >> shift);\n";
  o += "    __syncthreads();\n  }\n";
  emitTestKernelTail(o);
}

/// The timing kernel: the gather in a loop, each result folded back into
/// the source so that no iteration can be dropped.
void emitBenchKernel(std::string &o, const CudaGatherTables &t,
                     const std::string &name) {
  const std::string T = elementType(t.elementBytes);
  o += "\n__global__ void " + name +
       "_bench_kernel(int iterations, unsigned long long *sink) {\n";
  o += "  extern __shared__ __align__(16) unsigned char " + name + "_smem[];\n";
  o += "  " + T + " src[" + name + "_src_regs];\n";
  o += "  int32_t index[" + name + "_out_regs];\n";
  o += "  " + T + " out[" + name + "_out_regs];\n";
  o += "  for (int r = 0; r < " + name + "_src_regs; ++r)\n";
  o += "    src[r] = " + T + "(threadIdx.x * 131u + r);\n";
  o += "  for (int r = 0; r < " + name + "_out_regs; ++r) {\n";
  o += "    index[r] = int32_t(" + name +
       "_test_index(threadIdx.x * 64u + uint32_t(r)));\n";
  o += "    out[r] = 0;\n  }\n";
  emitBenchLoop(o, name, name + "(src, index, out, " + name + "_smem)", "out",
                name + "_out_regs");
}

} // namespace

uint32_t gatherTestIndex(uint64_t outId, uint64_t axisSize) {
  uint32_t h = uint32_t(outId) * 0x9e3779b1u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  return h & uint32_t(axisSize - 1);
}

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
  testTables(plan, t);
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
    return Diagnostic::error("function name '" + excerpt(name) +
                             "' is not a C identifier");
  // The host main() launches the test kernel: it brings it along.
  const bool testKernel = options.testKernel || options.hostMain;
  LK_TRY(CudaGatherTables t, cudaGatherTables(plan));
  if (testKernel && t.outIdBits > 32)
    return Diagnostic::error(
        "the test kernel hashes 32-bit element ids; the output tensor has "
        "2^" +
        std::to_string(t.outIdBits) + " elements");
  const std::string T = elementType(t.elementBytes);
  std::string o = "// Generated by LayoutKit: " + plan.describe() + "\n";
  o += "#include <cstdint>\n";
  if (options.hostMain)
    o += "#include <cstdio>\n";
  o += "#include <cuda_runtime.h>\n\n";
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
  if (testKernel)
    emitTestKernel(o, t, name);
  if (options.hostMain) {
    emitBenchKernel(o, t, name);
    o += "\n// Checks the gather, then times it (output bytes gathered per\n"
         "// second over many CTAs).\n";
    emitHostMain(o, name, t.elementBytes << t.outIdBits, "gathers");
  }
  return o;
}

} // namespace lk::plan
