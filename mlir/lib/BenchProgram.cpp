//===- BenchProgram.cpp - Kernel-like tileas functions of N ops -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/BenchProgram.h"

#include "XorShift.h"

#include <sstream>
#include <string>
#include <vector>

namespace {

// Types, through the aliases the module declares.
const char *const kT = "tensor<64x64xf32>";
const char *const kRegs[] = {"tensor<64x64xf32, #blk>",
                             "tensor<64x64xf32, #lin>"};
const char *const kS = "tensor<64x64xf32, #smem>";
const char *const kG = "tensor<4096x64xf32, #gmem>";
const char *const kI = "tensor<64x64xi32>";

/// Text of `ops` ops, one block at a time (BenchProgram.h).
class Gen {
public:
  Gen(uint64_t seed, int64_t ops)
      : rng(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull), target(ops) {
  }

  std::string run() {
    // builtin.module, func.func and func.return.
    count = 3;
    std::string acc = "%x";
    line("  ", "%c0 = arith.constant 0 : index");
    line("  ", "%c1 = arith.constant 1 : index");
    line("  ", "%c2 = arith.constant 2 : index");
    line("  ", "%c8 = arith.constant 8 : index");
    line("  ", "%c64 = arith.constant 64 : index");
    while (count < target)
      acc = block(acc, "  ");
    std::ostringstream out;
    out << "#gmem = #tileas.encoding<global, linear>\n"
           "#smem = #tileas.encoding<smem, shared>\n"
           "#blk = #tileas.encoding<register, blocked>\n"
           "#lin = #tileas.encoding<register, linear>\n"
           "func.func @f(%flag: i1, %A: "
        << kG << ", %B: " << kG << ", %C: " << kG << ", %x: " << kT << ") -> "
        << kT << " {\n"
        << body.str() << "  return " << acc << " : " << kT << "\n}\n";
    return out.str();
  }

private:
  lk::tileas::XorShift rng;
  int64_t target;
  int64_t count = 0; // ops emitted so far
  int64_t names = 0;
  std::ostringstream body;
  /// Induction variables of the enclosing loops, innermost last.
  std::vector<std::string> ivs;
  int depth = 0;       // regions around the current block
  bool sliced = false; // inside a loop carrying sliceCount

  int pick(int n) { return rng.pick(n); }
  std::string fresh() { return "%v" + std::to_string(names++); }
  /// One op (or the line opening an op with regions).
  void line(const std::string &ind, const std::string &text) {
    body << ind << text << "\n";
    ++count;
  }
  /// A closing line: no op.
  void close(const std::string &ind, const std::string &text) {
    body << ind << text << "\n";
  }

  /// One block on the running tile `acc`; returns the next running tile.
  /// Of 20 draws: 7 tile stages, 3 staged copies, 2 gathers / scatters,
  /// 3 sliced loops, 2 ifs, 3 loop nests; a draw whose nesting is not
  /// allowed here (3 regions deep, or a sliced loop in a sliced loop) is a
  /// tile stage.
  std::string block(const std::string &acc, const std::string &ind) {
    int k = pick(20);
    if (k < 7)
      return tileStage(acc, ind);
    if (k < 10)
      return stagedCopy(acc, ind);
    if (k < 12)
      return gatherScatter(acc, ind);
    if (k < 15 && !sliced && depth < 3)
      return slicedLoop(acc, ind);
    if (k < 17 && depth < 3)
      return ifBlock(acc, ind);
    if (k < 20 && depth < 3)
      return loopNest(acc, ind);
    return tileStage(acc, ind);
  }

  /// The first row of the 64-row slab to access: 64 x the innermost
  /// induction variable, or 0 or 64. Induction variables stay below 16
  /// (loop nests count 0, 1; sliced loops run from 0 or 8 x one of those
  /// for 8), so slabs stay within the buffers' 4096 rows.
  std::string row(const std::string &ind) {
    if (ivs.empty() || pick(4) == 0)
      return pick(2) == 0 ? "%c0" : "%c64";
    std::string r = fresh();
    line(ind, r + " = arith.muli " + ivs.back() + ", %c64 : index");
    return r;
  }
  /// The condition of a select or if: %flag, or the parity of the innermost
  /// induction variable.
  std::string condition(const std::string &ind) {
    if (ivs.empty() || pick(2) == 0)
      return "%flag";
    std::string p = fresh(), c = fresh();
    line(ind, p + " = arith.remui " + ivs.back() + ", %c2 : index");
    line(ind, c + " = arith.cmpi eq, " + p + ", %c1 : index");
    return c;
  }
  /// `v` of type `from` converted to `to`.
  std::string convert(const std::string &v, const std::string &from,
                      const std::string &to, const std::string &ind) {
    std::string r = fresh();
    line(ind, r + " = tileas.convert_layout " + v + " : " + from + " -> " + to);
    return r;
  }
  std::string binary(const std::string &a, const std::string &b,
                     const std::string &type, const std::string &ind) {
    static const char *const kOps[] = {"addf", "mulf", "subf", "maximumf"};
    std::string r = fresh();
    line(ind,
         r + " = arith." + kOps[pick(4)] + " " + a + ", " + b + " : " + type);
    return r;
  }

  std::string tileStage(const std::string &acc, const std::string &ind);
  std::string stagedCopy(const std::string &acc, const std::string &ind);
  std::string gatherScatter(const std::string &acc, const std::string &ind);
  std::string slicedLoop(const std::string &acc, const std::string &ind);
  std::string ifBlock(const std::string &acc, const std::string &ind);
  std::string loopNest(const std::string &acc, const std::string &ind);
  /// 1 to `most` blocks in a nested region, none once the function has
  /// its size.
  std::string region(std::string acc, int most, const std::string &ind) {
    ++depth;
    for (int i = 0, n = 1 + pick(most); i < n && count < target; ++i)
      acc = block(acc, ind);
    --depth;
    return acc;
  }
};

/// load slab -> convert (maybe through the other register encoding) ->
/// two elementwise ops with the running tile -> convert back -> store or
/// atomic add into %C.
std::string Gen::tileStage(const std::string &acc, const std::string &ind) {
  std::string r = row(ind), src = pick(2) == 0 ? "%A" : "%B";
  int e = pick(2);
  const std::string reg = kRegs[e];
  std::string t = fresh();
  line(ind, t + " = tileas.tiled_load " + src + "[" + r + ", %c0] : " + kG +
                " -> " + kT);
  std::string tr = convert(t, kT, reg, ind);
  std::string ar = pick(3) == 0 ? convert(convert(acc, kT, kRegs[1 - e], ind),
                                          kRegs[1 - e], reg, ind)
                                : convert(acc, kT, reg, ind);
  std::string s = binary(tr, ar, reg, ind);
  std::string m = binary(s, tr, reg, ind);
  std::string back = convert(m, reg, kT, ind);
  if (pick(4) == 0)
    line(ind, "tileas.tiled_atomic \"add\" " + back + ", %C[" + r +
                  ", %c0] : " + kT + " -> " + kG);
  else
    line(ind, "tileas.tiled_store " + back + ", %C[" + r + ", %c0] : " + kT +
                  " -> " + kG);
  return back;
}

/// A two-stage smem ring; the running tile goes through the stage a
/// select picks.
std::string Gen::stagedCopy(const std::string &acc, const std::string &ind) {
  std::string ring = fresh(), second = fresh(), stage = fresh();
  std::string c = condition(ind);
  line(ind, ring + " = tileas.alloc_tensor : " + kS);
  line(ind, second + " = tileas.view " + ring + " {offset = 4096} : " + kS +
                " -> " + kS);
  line(ind, stage + " = tileas.select " + c + ", " + second + ", " + ring +
                " : " + kS);
  line(ind,
       "tileas.tiled_store " + acc + ", " + stage + " : " + kT + " -> " + kS);
  std::string l = fresh();
  line(ind, l + " = tileas.tiled_load " + stage + " : " + kS + " -> " + kT);
  return binary(l, acc, kT, ind);
}

/// gather from %A or from an smem copy of the running tile at a splat
/// index, scatter into that copy, load it back.
std::string Gen::gatherScatter(const std::string &acc, const std::string &ind) {
  std::string buf = fresh(), idx = fresh(), g = fresh(), sc = fresh(),
              l = fresh();
  int axis = pick(2);
  line(ind, buf + " = tileas.alloc_tensor : " + kS);
  line(ind,
       "tileas.tiled_store " + acc + ", " + buf + " : " + kT + " -> " + kS);
  line(ind, idx + " = arith.constant dense<" + std::to_string(pick(64)) +
                "> : " + kI);
  if (pick(2) == 0)
    line(ind, g + " = tileas.gather %A[" + idx + "] {axis = 0} : " + kG + ", " +
                  kI + " -> " + kT);
  else
    line(ind, g + " = tileas.gather " + buf + "[" + idx + "] {axis = " +
                  std::to_string(axis) + "} : " + kS + ", " + kI + " -> " + kT);
  line(ind, sc + " = tileas.scatter " + g + " into " + buf + "[" + idx +
                "] {axis = " + std::to_string(1 - axis) + "} : " + kT + ", " +
                kI + " -> " + kS + ", " + kS);
  line(ind, l + " = tileas.tiled_load " + sc + " : " + kS + " -> " + kT);
  return binary(l, g, kT, ind);
}

/// for %i = lb to lb + 8 step 1 {sliceCount = 2 or 4}, carrying the
/// running tile, an argument the body never reads (its result unused)
/// and one yielded back unchanged (its result used).
std::string Gen::slicedLoop(const std::string &acc, const std::string &ind) {
  std::string lb = "%c0";
  if (!ivs.empty()) {
    lb = fresh();
    if (pick(2) == 0)
      line(ind, lb + " = affine.apply affine_map<(d0) -> (d0 * 8)>(" +
                    ivs.back() + ")");
    else
      line(ind, lb + " = arith.muli " + ivs.back() + ", %c8 : index");
  }
  std::string ub = fresh(), res = fresh(), a = fresh(), unused = fresh(),
              same = fresh(), iv = fresh(), in = ind + "  ";
  line(ind, ub + " = arith.addi " + lb + ", %c8 : index");
  line(ind, res + ":3 = scf.for " + iv + " = " + lb + " to " + ub +
                " step %c1 iter_args(" + a + " = " + acc + ", " + unused +
                " = " + acc + ", " + same + " = %x) -> (" + kT + ", " + kT +
                ", " + kT + ") {");
  ivs.push_back(iv), sliced = true;
  std::string r = row(in), t = fresh();
  line(in, t + " = tileas.tiled_load %A[" + r + ", %c0] : " + kG + " -> " + kT);
  std::string tb = convert(t, kT, kRegs[0], in),
              ab = convert(a, kT, kRegs[0], in);
  std::string y = convert(binary(tb, ab, kRegs[0], in), kRegs[0], kT, in);
  if (pick(2) == 0)
    y = region(y, 2, in);
  line(in, "scf.yield " + y + ", " + t + ", " + same + " : " + kT + ", " + kT +
               ", " + kT);
  ivs.pop_back(), sliced = false;
  close(ind, "} {sliceCount = " + std::to_string(2 << pick(2)) + " : i32}");
  return binary(res + "#0", res + "#2", kT, ind);
}

/// scf.if on a condition, each arm 1 to 2 blocks; sometimes a second
/// result nothing uses.
std::string Gen::ifBlock(const std::string &acc, const std::string &ind) {
  std::string c = condition(ind), r = fresh(), in = ind + "  ";
  bool dead = pick(2) == 0;
  std::string types = dead ? std::string(kT) + ", " + kT : kT;
  line(ind,
       r + (dead ? ":2" : "") + " = scf.if " + c + " -> (" + types + ") {");
  for (int arm = 0; arm < 2; ++arm) {
    if (arm == 1)
      close(ind, "} else {");
    std::string y = region(acc, 2, in);
    line(in, "scf.yield " + y + (dead ? ", " + acc : "") + " : " + types);
  }
  close(ind, "}");
  return dead ? r + "#0" : r;
}

/// for %o = 0 to 2 carrying the running tile and an smem buffer, yielded
/// back as itself, as a view of itself at offset 0, or as a select of it
/// and that view.
std::string Gen::loopNest(const std::string &acc, const std::string &ind) {
  std::string buf = fresh(), res = fresh(), a = fresh(), b = fresh(),
              iv = fresh(), in = ind + "  ";
  line(ind, buf + " = tileas.alloc_tensor : " + kS);
  line(ind, res + ":2 = scf.for " + iv + " = %c0 to %c2 step %c1 iter_args(" +
                a + " = " + acc + ", " + b + " = " + buf + ") -> (" + kT +
                ", " + kS + ") {");
  ivs.push_back(iv);
  line(in, "tileas.tiled_store " + a + ", " + b + " : " + kT + " -> " + kS);
  std::string l = fresh();
  line(in, l + " = tileas.tiled_load " + b + " : " + kS + " -> " + kT);
  std::string y = region(binary(l, a, kT, in), 3, in), yb = b;
  if (int how = pick(3); how != 0) {
    yb = fresh();
    line(in,
         yb + " = tileas.view " + b + " {offset = 0} : " + kS + " -> " + kS);
    if (how == 2) {
      std::string s = fresh();
      line(in, s + " = tileas.select %flag, " + b + ", " + yb + " : " + kS);
      yb = s;
    }
  }
  line(in, "scf.yield " + y + ", " + yb + " : " + kT + ", " + kS);
  ivs.pop_back();
  close(ind, "}");
  return res + "#0";
}

} // namespace

lk::Expected<std::string> lk::tileas::benchProgram(uint64_t seed, int64_t ops) {
  if (ops < 16 || ops > kMaxBenchOps)
    return lk::Diagnostic::error("benchProgram: ops must be in [16, " +
                                 std::to_string(kMaxBenchOps) + "], got " +
                                 std::to_string(ops));
  return Gen(seed, ops).run();
}
