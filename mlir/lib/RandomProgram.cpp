//===- RandomProgram.cpp - Random well-formed tileas functions ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/RandomProgram.h"

#include "XorShift.h"

#include <sstream>
#include <vector>

namespace {

/// The register types a generated tile may have.
const char *const kRegTypes[] = {
    "tensor<64x64xf32>",
    "tensor<64x64xf32, #tileas.encoding<register, blocked>>",
    "tensor<64x64xf32, #tileas.encoding<register, linear>>",
};
const char *const kSmem = "tensor<64x64xf32, #tileas.encoding<smem, shared>>";
const char *const kGmem = "tensor<64x64xf32, #tileas.encoding<global, linear>>";

class Gen {
public:
  explicit Gen(uint64_t seed) : rng(seed * 0x9E3779B97F4A7C15ull + 1) {}

  std::string run(int ops) {
    body << "func.func @f(%flag: i1, %n: index, %g0: " << kGmem
         << ", %g1: " << kGmem << ", %x: " << kRegTypes[0] << ") -> (";
    header = body.str();
    body.str("");
    body << "  %c0 = arith.constant 0 : index\n"
            "  %c1 = arith.constant 1 : index\n"
            "  %c2 = arith.constant 2 : index\n";
    tiles.push_back({"%x", 0});
    for (int i = 0; i < ops; ++i)
      statement("  ");
    // Return the last few tiles.
    std::ostringstream ret, types;
    ret << sink;
    types << kRegTypes[0];
    size_t first = tiles.size() > 3 ? tiles.size() - 3 : 0;
    for (size_t i = first; i < tiles.size(); ++i) {
      ret << ", " << tiles[i].name;
      types << ", " << kRegTypes[tiles[i].type];
    }
    std::string out = header + types.str() + ") {\n" + body.str() +
                      "  return " + ret.str() + " : " + types.str() + "\n}\n";
    return out;
  }

private:
  struct Tile {
    std::string name;
    int type;
  };
  lk::tileas::XorShift rng;
  std::ostringstream body;
  std::string header;
  std::vector<Tile> tiles;
  std::vector<std::string> buffers; // smem buffers, all of type kSmem
  int counter = 0;
  std::string sink = "%x";      // the sum of every load, returned
  std::vector<std::string> ivs; // induction variables of the enclosing loops
  bool sliced = false;          // inside a loop carrying sliceCount
  int inWhile = 0; // scf.while bodies around: slicing refuses their block
                   // arguments as inits ("fail to get an initial forOperand")

  int pick(int n) { return rng.pick(n); }
  std::string fresh() { return "%v" + std::to_string(counter++); }
  const Tile &anyTile() { return tiles[pick(static_cast<int>(tiles.size()))]; }
  /// A tile of type `t`: an existing one, or a conversion of one.
  std::string tileOf(int t, const std::string &ind) {
    const Tile &s = anyTile();
    if (s.type == t)
      return s.name;
    std::string r = fresh();
    body << ind << r << " = tileas.convert_layout " << s.name << " : "
         << kRegTypes[s.type] << " -> " << kRegTypes[t] << "\n";
    return r;
  }
  std::string buffer(const std::string &ind) {
    if (buffers.empty() || pick(4) == 0)
      emitAlloc(ind);
    return buffers[pick(static_cast<int>(buffers.size()))];
  }

  void statement(const std::string &ind) {
    switch (pick(14)) {
    case 0:
      return emitLoad(ind);
    case 1:
      return emitConvert(ind);
    case 2:
    case 3:
      return emitElementwise(ind);
    case 4:
      return emitMma(ind);
    case 5:
      return ind.size() < 8 ? emitIf(ind) : emitElementwise(ind);
    case 6:
      return ind.size() < 8 ? emitFor(ind) : emitElementwise(ind);
    case 7:
      return emitView(ind);
    case 8:
      return emitSelect(ind);
    case 9:
      return ind.size() < 8 ? emitWhile(ind) : emitElementwise(ind);
    case 10:
      return ind.size() == 2 ? emitAgents(ind) : emitElementwise(ind);
    case 11:
      return emitStore(ind);
    case 13:
      return emitGather(ind);
    default:
      return ind.size() < 8 && !sliced && inWhile == 0 ? emitSlicedFor(ind)
                                                       : emitStore(ind);
    }
  }

  void emitLoad(const std::string &ind) {
    if (ind.size() > 2)
      return emitElementwise(ind);
    std::string r = fresh();
    if (pick(2) == 0) {
      body << ind << r << " = tileas.tiled_load %g" << pick(2) << " : " << kGmem
           << " -> " << kRegTypes[0] << "\n";
    } else {
      std::string b = buffer(ind);
      body << ind << r << " = tileas.tiled_load " << b << " : " << kSmem
           << " -> " << kRegTypes[0] << "\n";
    }
    // The load's only user is an add into the returned sink: the load's
    // group is the load alone and its value stays live (docs/mlir.md, "The
    // randomized test", on what the generator avoids).
    std::string d = fresh(), k = fresh();
    body << ind << d << " = arith.addf " << r << ", " << r << " : "
         << kRegTypes[0] << "\n"
         << ind << k << " = arith.addf " << sink << ", " << d << " : "
         << kRegTypes[0] << "\n";
    sink = k;
    tiles.push_back({d, 0});
  }
  void emitConvert(const std::string &ind) {
    int t = pick(3);
    tiles.push_back({tileOf(t, ind), t});
  }
  void emitElementwise(const std::string &ind) {
    static const char *const kBin[] = {"addf", "subf", "mulf", "maximumf"};
    int t = pick(3);
    std::string a = tileOf(t, ind), r = fresh();
    if (pick(5) == 0) {
      body << ind << r << " = arith.negf " << a << " : " << kRegTypes[t]
           << "\n";
    } else {
      std::string b = tileOf(t, ind);
      body << ind << r << " = arith." << kBin[pick(4)] << " " << a << ", " << b
           << " : " << kRegTypes[t] << "\n";
    }
    tiles.push_back({r, t});
  }
  void emitMma(const std::string &ind) {
    std::string a = tileOf(0, ind), acc = tileOf(1, ind), b = buffer(ind);
    std::string r = fresh();
    body << ind << r << " = tileas.wgmma " << a << ", " << b << ", " << acc
         << " : " << kRegTypes[0] << ", " << kSmem << ", " << kRegTypes[1]
         << " -> " << kRegTypes[1] << "\n";
    tiles.push_back({r, 1});
  }
  void emitAlloc(const std::string &ind) {
    std::string a = fresh(), c = fresh();
    body << ind << a << " = tileas.alloc_tensor : " << kSmem << "\n"
         << ind << c << " = tileas.copy %g" << pick(2) << ", " << a
         << " {atom = \"cp.async.bulk.tensor\"} : " << kGmem << ", " << kSmem
         << " -> " << kSmem << "\n";
    buffers.push_back(a);
  }
  void emitView(const std::string &ind) {
    std::string b = buffer(ind), v = fresh();
    // A view one or two tiles further: the elements after the buffer.
    body << ind << v << " = tileas.view " << b
         << " {offset = " << 4096 * (1 + pick(2)) << "} : " << kSmem << " -> "
         << kSmem << "\n";
    buffers.push_back(v);
    emitStoreInto(v, ind);
  }
  /// A select of a buffer and its view one tile further, or of two views
  /// of it (one and three tiles further).
  void emitSelect(const std::string &ind) {
    std::string a = buffer(ind), v = fresh(), s = fresh(), first = a;
    body << ind << v << " = tileas.view " << a << " {offset = 4096} : " << kSmem
         << " -> " << kSmem << "\n";
    if (pick(2) == 0) {
      first = fresh();
      body << ind << first << " = tileas.view " << a
           << " {offset = 12288} : " << kSmem << " -> " << kSmem << "\n";
    }
    body << ind << s << " = tileas.select %flag, " << first << ", " << v
         << " : " << kSmem << "\n";
    buffers.push_back(s);
    emitStoreInto(s, ind);
  }
  void emitStore(const std::string &ind) {
    if (pick(4) != 0)
      return emitStoreInto(buffer(ind), ind);
    // A tiled_atomic: add, min or max into the buffer.
    static const char *const kKinds[] = {"add", "min", "max"};
    // Operands first: tileOf and buffer() write to the body.
    std::string v = tileOf(0, ind), b = buffer(ind);
    body << ind << "tileas.tiled_atomic \"" << kKinds[pick(3)] << "\" " << v
         << ", " << b << " : " << kRegTypes[0] << " -> " << kSmem << "\n";
  }
  /// A gather of a buffer at one row or column (a splat index tile), and
  /// sometimes a scatter of a tile into the buffer at one row or column,
  /// whose result (a copy of the buffer with the tile written) becomes a
  /// buffer too.
  void emitGather(const std::string &ind) {
    std::string b = buffer(ind), idx = fresh(), r = fresh();
    int axis = pick(2);
    body << ind << idx << " = arith.constant dense<" << pick(64)
         << "> : tensor<64x64xi32>\n"
         << ind << r << " = tileas.gather " << b << "[" << idx
         << "] {axis = " << axis << "} : " << kSmem << ", tensor<64x64xi32> -> "
         << kRegTypes[0] << "\n";
    tiles.push_back({r, 0});
    if (pick(2) != 0)
      return;
    std::string v = tileOf(0, ind), s = fresh();
    body << ind << s << " = tileas.scatter " << v << " into " << b << "[" << idx
         << "] {axis = " << 1 - axis << "} : " << kRegTypes[0]
         << ", tensor<64x64xi32> -> " << kSmem << ", " << kSmem << "\n";
    buffers.push_back(s);
  }
  void emitStoreInto(const std::string &b, const std::string &ind) {
    std::string v = tileOf(0, ind);
    body << ind << "tileas.tiled_store " << v << ", " << b << " : "
         << kRegTypes[0] << " -> " << kSmem << "\n";
  }

  /// Runs `n` statements in a nested scope and returns the type-`t` value
  /// to yield; the scope's tiles and buffers are dropped after it.
  std::string scope(int n, int t, const std::string &ind) {
    for (int i = 0; i < n; ++i)
      statement(ind);
    return tileOf(t, ind);
  }
  void emitIf(const std::string &ind) {
    int t = pick(3);
    std::string r = fresh(), in = ind + "  ";
    size_t nt = tiles.size(), nb = buffers.size();
    // Sometimes a second result that nothing uses (a dead result of the
    // if: remove-dead-args drops it with both yields' operands).
    bool dead = pick(2) == 0;
    std::string types = kRegTypes[t];
    if (dead)
      types += std::string(", ") + kRegTypes[0];
    auto arm = [&] {
      std::string y = scope(1 + pick(3), t, in);
      std::string extra = dead ? ", " + tileOf(0, in) : "";
      body << in << "scf.yield " << y << extra << " : " << types << "\n";
      tiles.resize(nt), buffers.resize(nb);
    };
    body << ind << r << (dead ? ":2" : "") << " = scf.if %flag -> (" << types
         << ") {\n";
    arm();
    body << ind << "} else {\n";
    arm();
    body << ind << "}\n";
    tiles.push_back({dead ? r + "#0" : r, t});
  }
  /// An scf.while counting %i from 0 to 2 that carries a tile, with a
  /// before argument nothing uses, a tile passed through the condition
  /// and yielded back unchanged (its result is the init), and a condition
  /// operand whose after argument and result nothing uses: the three dead
  /// shapes of remove-dead-args.
  void emitWhile(const std::string &ind) {
    int t = pick(3);
    const char *T = kRegTypes[t];
    std::string init = tileOf(t, ind), passed = tileOf(t, ind),
                unused = tileOf(t, ind);
    std::string r = fresh(), i = fresh(), a = fresh(), u = fresh(), d = fresh(),
                c = fresh(), i2 = fresh(), a2 = fresh(), u2 = fresh(),
                e2 = fresh(), inext = fresh(), in = ind + "  ";
    body << ind << r << ":4 = scf.while (" << i << " = %c0, " << a << " = "
         << init << ", " << u << " = " << passed << ", " << d << " = " << unused
         << ") : (index, " << T << ", " << T << ", " << T << ") -> (index, "
         << T << ", " << T << ", " << T << ") {\n"
         << in << c << " = arith.cmpi slt, " << i << ", %c2 : index\n"
         << in << "scf.condition(" << c << ") " << i << ", " << a << ", " << u
         << ", " << a << " : index, " << T << ", " << T << ", " << T << "\n"
         << ind << "} do {\n"
         << ind << "^bb0(" << i2 << ": index, " << a2 << ": " << T << ", " << u2
         << ": " << T << ", " << e2 << ": " << T << "):\n"
         << in << inext << " = arith.addi " << i2 << ", %c1 : index\n";
    size_t nt = tiles.size(), nb = buffers.size();
    tiles.push_back({a2, t});
    ++inWhile;
    std::string y = scope(1 + pick(3), t, in);
    --inWhile;
    body << in << "scf.yield " << inext << ", " << y << ", " << u2 << ", " << y
         << " : index, " << T << ", " << T << ", " << T << "\n"
         << ind << "}\n";
    tiles.resize(nt), buffers.resize(nb);
    tiles.push_back({r + "#1", t});
    tiles.push_back({r + "#2", t});
  }
  /// An agent_switch of two agents. Each runs a few statements on the
  /// tiles of the enclosing scope (register tiles crossing into the agent,
  /// handed over through shared memory by resolve-agent-boundary) and
  /// stores a tile into a global buffer, its observable effect.
  void emitAgents(const std::string &ind) {
    std::string in = ind + "  ";
    size_t nt = tiles.size(), nb = buffers.size();
    body << ind << "tileas.async.pipeline.agent_switch {\n";
    for (int agent = 0; agent < 2; ++agent) {
      if (agent == 1)
        body << ind << "}, {\n";
      for (int k = 0, n = 1 + pick(2); k < n; ++k)
        statement(in);
      std::string v = tileOf(0, in);
      body << in << "tileas.tiled_store " << v << ", %g" << pick(2) << " : "
           << kRegTypes[0] << " -> " << kGmem << "\n"
           << in << "tileas.async.pipeline.yield\n";
      tiles.resize(nt), buffers.resize(nb);
    }
    body << ind << "}\n";
  }
  void emitFor(const std::string &ind) {
    int t = pick(3);
    std::string init = tileOf(t, ind), passed = tileOf(t, ind);
    std::string r = fresh(), arg = fresh(), same = fresh(), in = ind + "  ";
    bool carryBuffer = pick(2) == 0;
    std::string buf = carryBuffer ? buffer(ind) : "", barg = fresh();
    ivs.push_back("%i" + std::to_string(counter));
    body << ind << r << ":" << (carryBuffer ? 3 : 2) << " = scf.for %i"
         << counter++ << " = %c0 to %c2 step %c1 iter_args(" << arg << " = "
         << init << ", " << same << " = " << passed;
    if (carryBuffer)
      body << ", " << barg << " = " << buf;
    body << ") -> (" << kRegTypes[t] << ", " << kRegTypes[t]
         << (carryBuffer ? std::string(", ") + kSmem : "") << ") {\n";
    size_t nt = tiles.size(), nb = buffers.size();
    tiles.push_back({arg, t});
    if (carryBuffer)
      buffers.push_back(barg);
    std::string y = scope(1 + pick(3), t, in);
    // The carried buffer goes back as itself, as a view of itself at
    // offset 0, or as a select of it and that view: an alias through the
    // body that is still the init's buffer in every iteration.
    std::string yb = barg;
    if (int how = carryBuffer ? pick(3) : 0; how != 0) {
      yb = fresh();
      body << in << yb << " = tileas.view " << barg
           << " {offset = 0} : " << kSmem << " -> " << kSmem << "\n";
      if (how == 2) {
        std::string sel = fresh();
        body << in << sel << " = tileas.select %flag, " << barg << ", " << yb
             << " : " << kSmem << "\n";
        yb = sel;
      }
    }
    body << in << "scf.yield " << y << ", " << same
         << (carryBuffer ? ", " + yb : "") << " : " << kRegTypes[t] << ", "
         << kRegTypes[t] << (carryBuffer ? std::string(", ") + kSmem : "")
         << "\n"
         << ind << "}\n";
    tiles.resize(nt), buffers.resize(nb);
    ivs.pop_back();
    tiles.push_back({r + "#0", t});
    tiles.push_back({r + "#1", t});
    if (carryBuffer)
      buffers.push_back(r + "#2");
  }

  /// An index constant.
  std::string index(int64_t v, const std::string &ind) {
    std::string c = fresh();
    body << ind << c << " = arith.constant " << v << " : index\n";
    return c;
  }
  /// A loop of `count` x `per` iterations carrying sliceCount = count (docs/
  /// mlir.md, "The pass tileas-slicing"): lower bound a constant or, in a
  /// loop, 16 x its induction variable (arith.muli) or 16 x it + the step
  /// (affine.apply); upper bound lb + trips x step - r
  /// (r < step, the same trip count); the body keeps the carried tile from
  /// the iterations before a split-dependent point, so slices that ran the
  /// wrong iterations would give other results.
  void emitSlicedFor(const std::string &ind) {
    static const int64_t kCounts[] = {1, 2, 4}, kPer[] = {1, 2},
                         kLbs[] = {0, 1, 5};
    int64_t count = kCounts[pick(3)], per = kPer[pick(2)], step = 1 + pick(3);
    int64_t trips = count * per, mid = pick(static_cast<int>(trips)) * step + 1;
    // Constants first: index() writes to the body.
    std::string c16 = index(16, ind), st = index(step, ind);
    std::string extent =
        index(trips * step - pick(static_cast<int>(step)), ind);
    std::string cmid = index(mid, ind), lb = fresh(), ub = fresh(), m = fresh();
    int form = ivs.empty() ? 2 : pick(3);
    if (form == 0)
      body << ind << lb << " = arith.muli " << ivs.back() << ", " << c16
           << " : index\n";
    else if (form == 1)
      body << ind << lb
           << " = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>("
           << ivs.back() << ")[" << st << "]\n";
    else
      body << ind << lb << " = arith.constant " << kLbs[pick(3)]
           << " : index\n";
    body << ind << ub << " = arith.addi " << lb << ", " << extent
         << " : index\n"
         << ind << m << " = arith.addi " << lb << ", " << cmid << " : index\n";
    int t = pick(3);
    std::string init = tileOf(t, ind), passed = tileOf(t, ind);
    std::string r = fresh(), arg = fresh(), same = fresh(), in = ind + "  ";
    std::string iv = "%i" + std::to_string(counter++), p = fresh(), k = fresh();
    const char *type = kRegTypes[t];
    body << ind << r << ":2 = scf.for " << iv << " = " << lb << " to " << ub
         << " step " << st << " iter_args(" << arg << " = " << init << ", "
         << same << " = " << passed << ") -> (" << type << ", " << type
         << ") {\n"
         << in << p << " = arith.cmpi slt, " << iv << ", " << m << " : index\n";
    size_t nt = tiles.size(), nb = buffers.size();
    tiles.push_back({arg, t});
    ivs.push_back(iv), sliced = true;
    std::string y = scope(1 + pick(3), t, in);
    body << in << k << " = arith.select " << p << ", " << y << ", " << arg
         << " : " << type << "\n"
         << in << "scf.yield " << k << ", " << same << " : " << type << ", "
         << type << "\n"
         << ind << "} {sliceCount = " << count << " : i32}\n";
    ivs.pop_back(), sliced = false;
    tiles.resize(nt), buffers.resize(nb);
    tiles.push_back({r + "#0", t});
    tiles.push_back({r + "#1", t});
  }
};

} // namespace

std::string lk::tileas::randomProgram(uint64_t seed, int ops) {
  return Gen(seed).run(ops);
}
