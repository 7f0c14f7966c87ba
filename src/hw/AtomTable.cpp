//===- AtomTable.cpp - The atom catalog as data ---------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Each atom is a row: its TV layout as CuTe text (thread mode first, value
// mode second, onto a column-major codomain) plus the codomain extents.
// Families (every legal wgmma N, every tcgen05 .num) fill the same row from
// a formula in N. The layouts are the ones docs/hardware.md gives in CuTe form
// (§2.1-2.5, §4.1-4.2); the ldmatrix and tcgen05 ones are the sheet's lane /
// register formulas (§3.1, §6.3) written as strides. AtomTest.cpp checks
// every row against the sheet's formulas and tables, element by element.
//
//===----------------------------------------------------------------------===//

#include "AtomTable.h"

namespace lk::hw::detail {

namespace {

std::string s(int64_t v) { return std::to_string(v); }

const std::vector<std::string> kRowK = {"row", "k"};
const std::vector<std::string> kKN = {"k", "n"};
const std::vector<std::string> kRowCol = {"row", "col"};

/// One mma.sync shape with the A/B types that share its fragments.
struct MmaShape {
  const char *shape;
  std::vector<const char *> types;
  const char *a; ///< A: (T,V) -> m + M*k
  int64_t m, k;
  const char *b; ///< B: (T,V) -> n + N*k
  int64_t n;
  const char *facts;
};

/// The m16n8 accumulator (CUTLASS SM80_16x8_Row), §2.1.
constexpr const char *kC16x8 = "((4,8),(2,2)):((32,1),(16,8))";

void addMma(std::vector<AtomRow> &rows) {
  const std::vector<MmaShape> shapes = {
      {"m16n8k16",
       {"f16", "bf16"},
       "((4,8),(2,2,2)):((32,1),(16,8,128))",
       16,
       16,
       "((4,8),(2,2)):((16,1),(8,64))",
       8,
       "2.1"},
      {"m16n8k8",
       {"f16", "bf16"},
       "((4,8),(2,2)):((32,1),(16,8))",
       16,
       8,
       "((4,8),2):((16,1),8)",
       8,
       "2.2"},
      {"m16n8k8",
       {"tf32"},
       "((4,8),(2,2)):((16,1),(8,64))",
       16,
       8,
       "((4,8),2):((8,1),32)",
       8,
       "2.3"},
      {"m16n8k32",
       {"s8", "u8", "e4m3", "e5m2"},
       "((4,8),(4,2,2)):((64,1),(16,8,256))",
       16,
       32,
       "((4,8),(4,2)):((32,1),(8,128))",
       8,
       "2.4"},
      {"m16n8k16",
       {"s8", "u8"},
       "((4,8),(4,2)):((64,1),(16,8))",
       16,
       16,
       "((4,8),4):((32,1),8)",
       8,
       "2.4"},
  };
  for (const MmaShape &sh : shapes) {
    for (const char *ty : sh.types) {
      std::string base = std::string("mma.") + sh.shape + "." + ty;
      std::string instr = std::string("mma.") + sh.shape;
      std::string t = ty;
      std::string note = (t == "e4m3" || t == "e5m2") ? "sm_89+" : "";
      rows.push_back({base + ".A",
                      Arch::Sm80,
                      instr,
                      "A",
                      sh.facts,
                      false,
                      note,
                      32,
                      sh.a,
                      {sh.m, sh.k},
                      {0, 1},
                      kRowK});
      rows.push_back({base + ".B",
                      Arch::Sm80,
                      instr,
                      "B",
                      sh.facts,
                      false,
                      note,
                      32,
                      sh.b,
                      {sh.n, sh.k},
                      {1, 0},
                      kKN});
      rows.push_back({base + ".C",
                      Arch::Sm80,
                      instr,
                      "C",
                      "2.1",
                      false,
                      note,
                      32,
                      kC16x8,
                      {16, 8},
                      {0, 1},
                      kRowCol});
      if (!note.empty()) // sm_89+: fp8 A, B and C
        for (size_t k = rows.size() - 3; k < rows.size(); ++k)
          rows[k].minCapability = 89;
    }
  }
  // m8n8k4 (§2.5): each quad pair p = (l>>2)&3 computes its own 8x8x4
  // product; the lane bits of p have stride 0, so the four quad pairs hold
  // the same logical positions (of four independent products).
  const char *qp =
      "quad pairs compute independent products (stride-0 lane bits)";
  rows.push_back({"mma.m8n8k4.f16.A",
                  Arch::Sm80,
                  "mma.m8n8k4",
                  "A",
                  "2.5",
                  false,
                  qp,
                  32,
                  "((4,4,2),4):((1,0,4),8)",
                  {8, 4},
                  {0, 1},
                  kRowK});
  rows.push_back({"mma.m8n8k4.f16.B",
                  Arch::Sm80,
                  "mma.m8n8k4",
                  "B",
                  "2.5",
                  false,
                  qp,
                  32,
                  "((4,4,2),4):((1,0,4),8)",
                  {8, 4},
                  {1, 0},
                  kKN});
  rows.push_back({"mma.m8n8k4.f16.C",
                  Arch::Sm80,
                  "mma.m8n8k4",
                  "C",
                  "2.5",
                  false,
                  std::string(qp) + "; f16 accumulators",
                  32,
                  "((4,4,2),8):((1,0,4),8)",
                  {8, 8},
                  {0, 1},
                  kRowCol});
  rows.push_back({"mma.m8n8k4.f32.C",
                  Arch::Sm80,
                  "mma.m8n8k4",
                  "C",
                  "2.5",
                  false,
                  std::string(qp) + "; f32 accumulators",
                  32,
                  "((2,2,4,2),(2,2,2)):((1,16,0,4),(8,2,32))",
                  {8, 8},
                  {0, 1},
                  kRowCol});
}

/// ldmatrix / stmatrix .b16 (§3.1-3.2). Codomain (matrix, row, col) with
/// extents (num, 8, 8), index matrix + num*row + 8*num*col; value =
/// 2*register + half.
///   plain: matrix = reg, row = g, col = 2q + half
///   trans: matrix = reg, row = 2q + half, col = g
void addMatrix(std::vector<AtomRow> &rows, const char *op, Arch arch,
               const char *facts) {
  for (int64_t num : {1, 2, 4}) {
    for (bool trans : {false, true}) {
      int64_t n = num;
      std::string tv = trans ? "((4,8),(2," + s(n) + ")):((" + s(2 * n) + "," +
                                   s(8 * n) + "),(" + s(n) + ",1))"
                             : "((4,8),(2," + s(n) + ")):((" + s(16 * n) + "," +
                                   s(n) + "),(" + s(8 * n) + ",1))";
      std::string name =
          std::string(op) + ".x" + s(num) + (trans ? ".trans" : "") + ".b16";
      rows.push_back({name,
                      arch,
                      op,
                      "frag",
                      facts,
                      false,
                      arch == Arch::Sm80 ? "sm_75+" : "",
                      32,
                      tv,
                      {num, 8, 8},
                      {0, 1, 2},
                      {"matrix", "row", "col"}});
    }
  }
}

/// Blackwell 8-bit forms (§3.3, sm_100+); value = 4*register + byte.
///   ldmatrix.m16n16.trans.b8: matrix = 16 rows x 16 bytes, extents (num, 16,
///     16); register 2j+h, byte b = stored (row 4q + b, byte g + 8h) of j.
///   ldmatrix.m8n16.b8x16.{b6x16_p32,b4x16_p64}: extents (num, 8, 16);
///     register j, byte b = matrix j row g, element 4q + b.
///   stmatrix.m16n8.trans.b8: matrix = 8 rows x 16 bytes, extents (num, 8,
///     16); register j, byte b -> stored (row 2q + (b&1), byte g + 8*(b>>1)).
void addMatrixB8(std::vector<AtomRow> &rows) {
  const std::vector<std::string> mrc = {"matrix", "row", "col"};
  for (int64_t n : {1, 2}) {
    rows.push_back({"ldmatrix.m16n16.x" + s(n) + ".trans.b8",
                    Arch::Sm100,
                    "ldmatrix",
                    "frag",
                    "3.3",
                    true,
                    "value = 4*register + byte; CUTLASS-derived",
                    32,
                    "((4,8),(4,2," + s(n) + ")):((" + s(4 * n) + "," +
                        s(16 * n) + "),(" + s(n) + "," + s(128 * n) + ",1))",
                    {n, 16, 16},
                    {0, 1, 2},
                    mrc});
  }
  for (int64_t n : {1, 2, 4}) {
    for (const char *ty : {"b6x16_p32", "b4x16_p64"})
      rows.push_back({"ldmatrix.m8n16.x" + s(n) + ".b8x16." + ty,
                      Arch::Sm100,
                      "ldmatrix",
                      "frag",
                      "3.3",
                      false,
                      "value = 4*register + byte (8-bit container)",
                      32,
                      "((4,8),(4," + s(n) + ")):((" + s(32 * n) + "," + s(n) +
                          "),(" + s(8 * n) + ",1))",
                      {n, 8, 16},
                      {0, 1, 2},
                      mrc});
    rows.push_back({"stmatrix.m16n8.x" + s(n) + ".trans.b8",
                    Arch::Sm100,
                    "stmatrix",
                    "frag",
                    "3.3",
                    true,
                    "value = 4*register + byte; CUTLASS-derived",
                    32,
                    "((4,8),(2,2," + s(n) + ")):((" + s(2 * n) + "," +
                        s(8 * n) + "),(" + s(n) + "," + s(64 * n) + ",1))",
                    {n, 8, 16},
                    {0, 1, 2},
                    mrc});
  }
}

/// wgmma (§4.1-4.2) for every legal N.
void addWgmma(std::vector<AtomRow> &rows) {
  struct Ty {
    const char *type;
    int64_t k;
    const char *a;
    bool int8;
  };
  const std::vector<Ty> types = {
      {"f16", 16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))", false},
      {"bf16", 16, "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))", false},
      {"tf32", 8, "((4,8,4),(2,2)):((64,1,16),(8,256))", false},
      {"e4m3", 32, "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))", false},
      {"e5m2", 32, "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))", false},
      {"s8", 32, "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))", true},
      {"u8", 32, "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))", true},
  };
  for (const Ty &ty : types) {
    for (int64_t n = 8; n <= 256; n += 8) {
      // s32 accumulators: N = 8, 16, 24, 32, then 48..256 step 16.
      if (ty.int8 && n > 32 && n % 16 != 0)
        continue;
      std::string instr = "wgmma.m64n" + s(n) + "k" + s(ty.k);
      std::string base = instr + "." + ty.type;
      rows.push_back({base + ".A",
                      Arch::Sm90,
                      instr,
                      "A",
                      "4.2",
                      false,
                      "A from registers (RS)",
                      128,
                      ty.a,
                      {64, ty.k},
                      {0, 1},
                      kRowK});
      // CLayout_64xN: ((4,8,4),(2,2,N/8)) : ((128,1,16),(64,8,512)).
      rows.push_back(
          {base + ".C",
           Arch::Sm90,
           instr,
           "C",
           "4.1",
           false,
           "",
           128,
           "((4,8,4),(2,2," + s(n / 8) + ")):((128,1,16),(64,8,512))",
           {64, n},
           {0, 1},
           kRowCol});
      rows.end()[-1].lastArch = rows.end()[-2].lastArch = Arch::Sm90;
    }
  }
}

/// tcgen05.ld / tcgen05.st (§6.3): (lane l, register r) -> (TMEM lane
/// offset, column offset); codomain (lanes, columns), index lane +
/// lanes*column.
void addTmem(std::vector<AtomRow> &rows) {
  const char *lanesNames[] = {"lane", "col"};
  std::vector<std::string> names(lanesNames, lanesNames + 2);
  for (const char *op : {"tcgen05.ld", "tcgen05.st"}) {
    for (int64_t n = 1; n <= 128; n *= 2) {
      std::string x = ".x" + s(n);
      // .32x32b: lane = l, col = r.
      rows.push_back({std::string(op) + ".32x32b" + x,
                      Arch::Sm100,
                      op,
                      "frag",
                      "6.3",
                      false,
                      "",
                      32,
                      "(32," + s(n) + "):(1,32)",
                      {32, n},
                      {0, 1},
                      names});
      // .16x64b: lane = (l>>2) + 8*(l&1), col = 2r + ((l>>1)&1).
      rows.push_back({std::string(op) + ".16x64b" + x,
                      Arch::Sm100,
                      op,
                      "frag",
                      "6.3",
                      true,
                      "CUTLASS-only mapping",
                      32,
                      "((2,2,8)," + s(n) + "):((8,16,1),32)",
                      {16, 2 * n},
                      {0, 1},
                      names});
      // .16x128b: lane = (l>>2) + 8*(r&1), col = 4*(r>>1) + (l&3).
      if (n <= 64)
        rows.push_back({std::string(op) + ".16x128b" + x,
                        Arch::Sm100,
                        op,
                        "frag",
                        "6.3",
                        false,
                        "",
                        32,
                        "((4,8),(2," + s(n) + ")):((16,1),(8,64))",
                        {16, 4 * n},
                        {0, 1},
                        names});
      // .16x256b: lane = (l>>2) + 8*((r>>1)&1), col = 8*(r>>2) + 2*(l&3) +
      // (r&1).
      if (n <= 32)
        rows.push_back({std::string(op) + ".16x256b" + x,
                        Arch::Sm100,
                        op,
                        "frag",
                        "6.3",
                        false,
                        "",
                        32,
                        "((4,8),(2,2," + s(n) + ")):((32,1),(16,8,128))",
                        {16, 8 * n},
                        {0, 1},
                        names});
      // .16x32bx2 with immediate I = N (as CUTLASS emits):
      // lane = l & 15, col = r + N*(l>>4).
      rows.push_back({std::string(op) + ".16x32bx2" + x,
                      Arch::Sm100,
                      op,
                      "frag",
                      "6.3",
                      false,
                      "immediate column offset I = " + s(n),
                      32,
                      "((16,2)," + s(n) + "):((1," + s(16 * n) + "),16)",
                      {16, 2 * n},
                      {0, 1},
                      names});
    }
  }
}

} // namespace

std::vector<AtomRow> atomRows() {
  std::vector<AtomRow> rows;
  addMma(rows);
  addMatrix(rows, "ldmatrix", Arch::Sm80, "3.1");
  addMatrix(rows, "stmatrix", Arch::Sm90, "3.2");
  addMatrixB8(rows);
  addWgmma(rows);
  addTmem(rows);
  return rows;
}

} // namespace lk::hw::detail
