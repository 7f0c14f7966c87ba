//===- XorShift.h - The generators' random numbers --------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Marsaglia's xorshift64 (13, 7, 17) as the program generators
/// (RandomProgram.cpp, BenchProgram.cpp) draw from it: deterministic per
/// seed and the same on every machine, so a seed names one program.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_LIB_XORSHIFT_H
#define LAYOUTKIT_MLIR_LIB_XORSHIFT_H

#include <cstdint>

namespace lk::tileas {

class XorShift {
public:
  /// @pre state != 0 (the generator's fixed point)
  explicit XorShift(uint64_t state) : state_(state) {}
  uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  /// A number in [0, n). @pre n > 0
  int pick(int n) {
    return static_cast<int>(next() % static_cast<uint64_t>(n));
  }

private:
  uint64_t state_;
};

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_LIB_XORSHIFT_H
