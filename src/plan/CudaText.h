//===- CudaText.h - Text helpers of the CUDA emitters ------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The pieces of CUDA C++ text that the conversion emitter (EmitCuda.cpp)
// and the gather emitter (EmitGather.cpp) both print: identifiers, hex
// constants, raw-bit element types and thread terms.
//
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_CUDATEXT_H
#define LAYOUTKIT_SRC_PLAN_CUDATEXT_H

#include "layoutkit/plan/EmitCuda.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace lk::plan::cudatext {

/// A C identifier of at most 200 characters: [A-Za-z_][A-Za-z0-9_]*.
inline bool isIdentifier(const std::string &s) {
  if (s.empty() || s.size() > 200)
    return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!alpha && !(digit && i > 0))
      return false;
  }
  return true;
}

/// `0x1fu` (wide: `0x1full`).
inline std::string hex(uint64_t v, bool wide) {
  char buf[32];
  std::snprintf(buf, sizeof buf, wide ? "0x%llxull" : "0x%llxu",
                static_cast<unsigned long long>(v));
  return buf;
}

/// The raw-bit type of an element of `bytes` bytes: uint8_t .. uint64_t.
inline const char *elementType(int64_t bytes) {
  switch (bytes) {
  case 1:
    return "uint8_t";
  case 2:
    return "uint16_t";
  case 4:
    return "uint32_t";
  default:
    return "uint64_t";
  }
}

/// Emits `VAR ^= ...` for every non-zero column of a thread term.
inline void emitThreadTerm(std::string &o, const std::string &indent,
                    const std::string &var, const CudaThreadTerm &t,
                    bool wide) {
  o += indent + (wide ? "uint64_t " : "uint32_t ") + var + " = 0" +
       (wide ? "ull" : "u") + ";\n";
  auto part = [&](const char *id, const std::vector<uint64_t> &cols) {
    for (size_t j = 0; j < cols.size(); ++j)
      if (cols[j])
        o += indent + var + " ^= (" + id + " & " +
             hex(uint64_t(1) << j, false) + ") ? " + hex(cols[j], wide) +
             " : 0" + (wide ? "ull" : "u") + ";\n";
  };
  part("lane", t.lane);
  part("warp", t.warp);
  part("block", t.block);
}

} // namespace lk::plan::cudatext

#endif // LAYOUTKIT_SRC_PLAN_CUDATEXT_H
