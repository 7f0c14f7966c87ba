//===- Commands.cpp - The table of layoutkit subcommands ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One row per subcommand: name, help, examples, parameters, options and
/// handler. Adding a command is adding a row here and a handler in
/// Handlers.h; App.cpp needs no change.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/Handlers.h"

namespace lk::cli {

namespace {

// Parameter descriptions shared by several commands.
const char *const kLayoutHelp =
    "a layout in CuTe's print form shape:stride, e.g. ((2,4),8):((1,16),2)";
const char *const kTilerHelp =
    "a tiler: a layout, an integer n (the layout n:1), `_` (keep the mode), "
    "or a by-mode tuple of those, e.g. (4:1,_) or 32:1";
const char *const kShapeHelp = "an integer tuple, e.g. (4,6) or ((2,4),8)";

ParamSpec layoutParam(std::string name = "LAYOUT") {
  return {std::move(name), kLayoutHelp, Arity::One};
}
ParamSpec tilerParam() { return {"TILER", kTilerHelp, Arity::One}; }
ParamSpec integerParam(std::string name, std::string help) {
  return {std::move(name), std::move(help), Arity::One};
}

OptionSpec profileOption(const std::string &op) {
  return {"profile", "P",
          "an integer tuple whose nesting selects the modes to " + op +
              " separately (only its nesting matters; modes past its rank "
              "are kept), e.g. (1,1)",
          false,
          {}};
}

std::vector<CommandSpec> buildRegistry() {
  const std::string inspect = "Inspect";
  const std::string structure = "Structure";
  const std::string compose = "Composition, complement and inverses";
  const std::string divide = "Divides and products";
  const std::string shapes = "Shape arithmetic and swizzles";
  const std::string testing = "Testing";

  return {
      // Inspection ----------------------------------------------------------
      {"show", inspect,
       "Print a layout's offsets as a 2-D table (rows: mode 0, columns: "
       "mode 1)",
       "Rank-2 layouts show mode 0 as rows and mode 1 as columns; each mode "
       "may be hierarchical and is indexed by one 1-D coordinate "
       "(cell (r,c) = L((r,c))). Rank-1 layouts are shown as a single row "
       "(cell (0,i) = L(i)). Rank > 2 is refused: group the modes first "
       "(group_modes). A swizzled layout `Sw<B,M,S> o L` shows Sw(L(r,c)); "
       "a basis-stride layout shows codomain tuples. --svg writes a picture "
       "whose cells are colored by offset mod 8.",
       {"layoutkit show '(2,3):(3,1)'        # rows [0,1,2] and [3,4,5]",
        "layoutkit show 'Sw<3,4,3> o (8,64):(64,1)' --svg sw.svg",
        "layoutkit show '(4,8):(1@0,1@1)' --json"},
       {{"LAYOUT",
         "a layout, e.g. ((2,2),4):((1,8),2), or a swizzled layout, e.g. "
         "'Sw<3,4,3> o (8,64):(64,1)'",
         Arity::One}},
       {{"svg", "FILE",
         "also write an SVG picture of the table to FILE ('-': print the "
         "SVG instead of the text table)",
         false,
         {}}},
       runShow},
      {"eval", inspect, "Evaluate a layout at a coordinate: L(COORD)",
       "COORD may be congruent to the shape, use one integer for a tuple "
       "mode, or be a single integer (split colexicographically, leftmost "
       "mode fastest). Basis-stride layouts print their codomain tuple; "
       "swizzled layouts print Sw(k + L(COORD)).",
       {"layoutkit eval '((2,4),8):((1,16),2)' '((1,2),3)'   # 1+32+6 = 39",
        "layoutkit eval '((2,4),8):((1,16),2)' 5   # 5 -> ((1,2),0) -> 33",
        "layoutkit eval '(4,8):(1@0,1@1)' '(3,5)'            # (3,5)",
        "layoutkit eval 'Sw<3,4,3> o (8,64):(64,1)' '(2,0)'  # Sw(128) = 144"},
       {{"LAYOUT", "a layout or a swizzled layout, e.g. (8,4):(1,8)",
         Arity::One},
        {"COORD", "an integer or an integer tuple, e.g. 5, (1,2), ((1,1),3)",
         Arity::One}},
       {},
       runEval},
      {"idx2crd", inspect,
       "The coordinate of a 1-D index in a shape (colexicographic)",
       "c0 = i mod s0, c1 = (i div s0) mod s1, ... recursively; the result "
       "is congruent to SHAPE. Requires 0 <= INDEX < size(SHAPE).",
       {"layoutkit idx2crd '((2,4),8)' 5    # ((1,2),0)",
        "layoutkit idx2crd '(3,4)' 7        # (1,2)"},
       {{"SHAPE", kShapeHelp, Arity::One},
        integerParam("INDEX", "a 1-D index, e.g. 5")},
       {},
       runIdx2crd},
      {"parse", inspect,
       "Read a basis descriptor or a layout attribute and print its "
       "canonical form",
       "GRAMMAR is basis (a basis descriptor, e.g. '(1@0, (2@1, 1/2@0@1))', "
       "counts reduced, blanks normalised) or attribute (a layout attribute, "
       "e.g. '<(128,64),(64,1),swizzle<3,4,3>,elem=f16>'); docs/grammars.md. "
       "A text that does not parse is a diagnostic with a caret.",
       {"layoutkit parse basis '(1@0,2@1)'",
        "layoutkit parse attribute '<(8,64),(64,1),swizzle<3,4,3>>'"},
       {{"GRAMMAR", "basis or attribute", Arity::One},
        {"TEXT", "the text to read", Arity::One}},
       {},
       runParse},
      {"size", inspect, "Number of coordinates of a layout (product of shape)",
       "",
       {"layoutkit size '((2,4),8):((1,16),2)'    # 2*4*8 = 64"},
       {layoutParam()},
       {},
       runSize},
      {"cosize", inspect,
       "One past the largest offset: 1 + sum of (s-1)*|d| over the leaves",
       "",
       {"layoutkit cosize '((2,4),8):((1,16),2)'  # 1 + 1*1 + 3*16 + 7*2 = 64",
        "layoutkit cosize '(4,3):(1,0)'           # 1 + 3*1 + 2*0 = 4"},
       {layoutParam()},
       {},
       runCosize},
      {"rank", inspect, "Number of top-level modes (1 for an integer shape)",
       "",
       {"layoutkit rank '((2,4),8):((1,16),2)'    # 2"},
       {layoutParam()},
       {},
       runRank},
      {"depth", inspect, "Nesting depth of the shape (0 for an integer shape)",
       "",
       {"layoutkit depth '((2,4),8):((1,16),2)'   # 2",
        "layoutkit depth '8:1'                    # 0"},
       {layoutParam()},
       {},
       runDepth},
      {"equivalent", inspect,
       "Whether two layouts compute the same function on the same domain",
       "Prints true or false; like cmp, the exit status is 0 when they are "
       "equivalent and 1 when not (2 for a usage error; 1 with a message on "
       "stderr for unreadable input): same size and A(i) == B(i) for every "
       "i < size.",
       {"layoutkit equivalent '(2,4):(1,2)' '8:1'   # true",
        "layoutkit equivalent '(2,4):(4,1)' '8:1'   # false"},
       {layoutParam("A"), layoutParam("B")},
       {},
       runEquivalent},

      // Structure -----------------------------------------------------------
      {"coalesce", structure,
       "Merge contiguous modes: same function, fewest modes",
       "Flattens, drops size-1 modes and merges s1:d1 into s0:d0 when "
       "d1 == s0*d0. With --profile, coalesces each mode selected by the "
       "profile separately.",
       {"layoutkit coalesce '(2,4):(1,2)'                  # 8:1",
        "layoutkit coalesce '(2,4):(8,1)'                  # (2,4):(8,1)",
        "layoutkit coalesce '(2,(1,4)):(1,(6,2))' --profile '(1,1)'"
        "   # (2,4):(1,2)"},
       {layoutParam()},
       {profileOption("coalesce")},
       runCoalesce},
      {"filter", structure,
       "Drop stride-0 modes and coalesce: coalesce(filter_zeros(L))", "",
       {"layoutkit filter '(4,3):(1,0)'     # 4:1"},
       {layoutParam()},
       {profileOption("filter")},
       runFilter},
      {"filter_zeros", structure,
       "Replace the shape of every stride-0 leaf by 1", "",
       {"layoutkit filter_zeros '(4,3):(1,0)'     # (4,1):(1,0)"},
       {layoutParam()},
       {},
       runFilterZeros},
      {"flatten", structure, "The depth <= 1 layout of the same leaves", "",
       {"layoutkit flatten '((2,4),8):((1,16),2)'   # (2,4,8):(1,16,2)"},
       {layoutParam()},
       {},
       runFlatten},
      {"group_modes", structure, "Group modes [BEGIN, END) into one mode",
       "Requires 0 <= BEGIN < END <= rank(LAYOUT).",
       {"layoutkit group_modes '(2,4,8):(1,2,8)' 0 2   # ((2,4),8):((1,2),8)"},
       {layoutParam(), integerParam("BEGIN", "first mode to group, e.g. 0"),
        integerParam("END", "one past the last mode to group, e.g. 2")},
       {},
       runGroupModes},

      // Composition, complement, inverses -----------------------------------
      {"composition", compose,
       "R(c) = A(TILER(c)): apply TILER first, then A",
       "The result has TILER's shape. A tuple TILER composes mode by mode "
       "(`_` keeps A's mode).",
       {"layoutkit composition '(4,2):(1,4)' '(2,2):(1,2)'   # (2,2):(1,2)",
        "layoutkit composition '8:2' '4:1'                   # 4:2"},
       {layoutParam("A"), tilerParam()},
       {},
       runComposition},
      {"complement", compose,
       "The sorted layout that fills the gaps of LAYOUT up to COTARGET",
       "COTARGET defaults to cosize(filter(LAYOUT)); it may be an integer "
       "or a shape.",
       {"layoutkit complement '4:32' 256   # (32,2):(1,128)",
        "layoutkit complement '4:32' 128   # 32:1",
        "layoutkit complement '4:2'        # 2:1"},
       {layoutParam(),
        {"COTARGET", "the size to reach, an integer or a shape, e.g. 256",
         Arity::Optional}},
       {},
       runComplement},
      {"right_inverse", compose,
       "R with L(R(i)) = i on the largest contiguous prefix", "",
       {"layoutkit right_inverse '(4,2):(2,1)'   # (2,4):(4,1)"},
       {layoutParam()},
       {},
       runRightInverse},
      {"left_inverse", compose, "R with R(L(i)) = i for an injective L", "",
       {"layoutkit left_inverse '(4,2):(2,1)'    # (2,4):(4,1)"},
       {layoutParam()},
       {},
       runLeftInverse},
      {"max_common_layout", compose,
       "The largest R with A(R(i)) = i and B(R(i)) = i", "",
       {"layoutkit max_common_layout '(4,2):(1,4)' '8:1'   # 8:1"},
       {layoutParam("A"), layoutParam("B")},
       {},
       runMaxCommonLayout},
      {"max_common_vector", compose,
       "How many contiguous elements A and B share: size(max_common_layout)",
       "",
       {"layoutkit max_common_vector '(4,2):(1,8)' '8:1'   # 4"},
       {layoutParam("A"), layoutParam("B")},
       {},
       runMaxCommonVector},

      // Divides and products ------------------------------------------------
      {"logical_divide", divide,
       "Split A into (tile, rest): composition(A, (T, complement(T)))", "",
       {"layoutkit logical_divide '128:1' '32:1'   # (32,4):(1,32)"},
       {layoutParam("A"), tilerParam()},
       {},
       runLogicalDivide},
      {"zipped_divide", divide,
       "logical_divide gathered as ((tile modes...), (rest modes...))", "",
       {"layoutkit zipped_divide '(8,8):(1,8)' '(2:1,4:1)'"
        "   # ((2,4),(4,2)):((1,8),(2,32))"},
       {layoutParam("A"), tilerParam()},
       {},
       runZippedDivide},
      {"tiled_divide", divide,
       "logical_divide gathered as ((tile modes...), rest0, rest1, ...)", "",
       {"layoutkit tiled_divide '(8,8):(1,8)' '(2:1,4:1)'"
        "   # ((2,4),4,2):((1,8),2,32)"},
       {layoutParam("A"), tilerParam()},
       {},
       runTiledDivide},
      {"flat_divide", divide,
       "logical_divide gathered as (tile0, tile1, ..., rest0, rest1, ...)", "",
       {"layoutkit flat_divide '(8,8):(1,8)' '(2:1,4:1)'"
        "   # (2,4,4,2):(1,8,2,32)"},
       {layoutParam("A"), tilerParam()},
       {},
       runFlatDivide},
      {"logical_product", divide,
       "(A, composition(complement(A, size(A)*cosize(T)), T)): T copies of A",
       "",
       {"layoutkit logical_product '(2,2):(1,2)' '3:1'   # ((2,2),3):((1,2),4)",
        "layoutkit logical_product '128:1' '4:32'        # (128,4):(1,4096)"},
       {layoutParam("A"), tilerParam()},
       {},
       runLogicalProduct},
      {"zipped_product", divide,
       "logical_product gathered as ((A modes...), (product modes...))", "",
       {"layoutkit zipped_product '(2,2):(1,2)' '(3:1,4:1)'"
        "   # ((2,2),(3,(2,2))):((1,2),(2,(1,4)))"},
       {layoutParam("A"), tilerParam()},
       {},
       runZippedProduct},
      {"tiled_product", divide,
       "logical_product gathered as ((A modes...), rest0, rest1, ...)", "",
       {"layoutkit tiled_product '(2,2):(1,2)' '(3:1,4:1)'"
        "   # ((2,2),3,(2,2)):((1,2),2,(1,4))"},
       {layoutParam("A"), tilerParam()},
       {},
       runTiledProduct},
      {"flat_product", divide,
       "logical_product gathered as (A0, A1, ..., rest0, rest1, ...)", "",
       {"layoutkit flat_product '(2,2):(1,2)' '(3:1,4:1)'"
        "   # (2,2,3,(2,2)):(1,2,2,(1,4))"},
       {layoutParam("A"), tilerParam()},
       {},
       runFlatProduct},
      {"blocked_product", divide,
       "Tile B copies of A, A innermost in each mode: mode i = (A_i, X_i)",
       "",
       {"layoutkit blocked_product '(2,2):(1,2)' '(2,3):(1,2)'"
        "   # ((2,2),(2,3)):((1,4),(2,8))"},
       {layoutParam("A"), layoutParam("B")},
       {},
       runBlockedProduct},
      {"raked_product", divide,
       "Interleave B copies of A, B innermost in each mode: mode i = (X_i, "
       "A_i)",
       "",
       {"layoutkit raked_product '(2,2):(1,2)' '(2,3):(1,2)'"
        "   # ((2,2),(3,2)):((4,1),(8,2))"},
       {layoutParam("A"), layoutParam("B")},
       {},
       runRakedProduct},

      // Shapes and swizzles -------------------------------------------------
      {"shape_div", shapes,
       "Divide a shape by a divisor, consuming the divisor mode by mode",
       "exact (default) requires every step to divide evenly one way or the "
       "other; floor and ceil round the quotient.",
       {"layoutkit shape_div '(4,6)' 8                     # (1,3)",
        "layoutkit shape_div '(6,4)' 4 --rounding ceil     # (2,4)"},
       {{"SHAPE", kShapeHelp, Arity::One},
        {"DIVISOR", "an integer or an integer tuple, e.g. 8", Arity::One}},
       {{"rounding", "MODE", "exact (default), floor or ceil", false,
         {"exact", "floor", "ceil"}}},
       runShapeDiv},
      {"ceil_div", shapes, "shape_div with ceil rounding", "",
       {"layoutkit ceil_div '(6,4)' 4    # (2,4)",
        "layoutkit ceil_div 10 4         # 3"},
       {{"A", kShapeHelp, Arity::One},
        {"B", "an integer or an integer tuple, e.g. 4", Arity::One}},
       {},
       runCeilDiv},
      {"swizzle", shapes,
       "Sw<B,M,S>(X) = X ^ shiftr(X & (((1<<B)-1) << (M+max(S,0))), S)",
       "shiftr(V, S) is V >> S for S >= 0 and V << -S for S < 0. For S >= 0 "
       "bits [M+S, M+S+B) of X are XORed into bits [M, M+B); for S < 0 bits "
       "[M, M+B) are XORed into bits [M-S, M-S+B). Requires 0 <= B, 0 <= M "
       "and B + M + |S| <= 62; with S >= B the swizzle is self-inverse.",
       {"layoutkit swizzle 3 4 3 128    # bit 7 -> bit 4: 144",
        "layoutkit swizzle 3 4 3 24     # 24 (no bit in [7,10)): 24"},
       {integerParam("B", "number of bits in the mask, e.g. 3"),
        integerParam("M", "number of least-significant bits kept, e.g. 4"),
        integerParam("S", "shift distance, e.g. 3 (may be negative)"),
        integerParam("X", "the offset to swizzle, e.g. 128")},
       {},
       runSwizzle},

      // Testing -------------------------------------------------------------
      {"conformance", testing,
       "Run oracle cases (JSON lines) against the library",
       "Prints a count per op and a final line 'N passed, M failed'; exits 0 "
       "only when every case passed.",
       {"layoutkit conformance tests/data/cute-public.jsonl --verbose"},
       {{"FILE", "oracle files, one JSON case per line", Arity::OneOrMore}},
       {{"verbose", "", "print every failing case (default: the first 20)",
         true,
         {}}},
       runConformanceCommand},
  };
}

} // namespace

const std::vector<CommandSpec> &commandRegistry() {
  static const std::vector<CommandSpec> registry = [] {
    std::vector<CommandSpec> all = buildRegistry();
    for (CommandSpec &c : tileCommands())
      all.push_back(std::move(c));
    for (CommandSpec &c : linearCommands())
      all.push_back(std::move(c));
    for (CommandSpec &c : hwCommands())
      all.push_back(std::move(c));
    for (CommandSpec &c : planCommands())
      all.push_back(std::move(c));
    for (CommandSpec &c : paperCommands())
      all.push_back(std::move(c));
    for (CommandSpec &c : demoCommands())
      all.push_back(std::move(c));
    return all;
  }();
  return registry;
}

namespace {

/// The families of commands run as `layoutkit FAMILY NAME`.
struct FamilySpec {
  std::string_view name;
  std::string_view group;
  std::string_view summary;
};

constexpr FamilySpec kFamilies[] = {
    {"tile", "Models",
     "Tile layouts over named hardware axes: shard + replica + offset, "
     "swizzles, banks (run 'layoutkit tile --help')"},
    {"linear", "Models",
     "Linear layouts over F2 (run 'layoutkit linear --help')"},
    {"hw", "Hardware",
     "Descriptors, warp access analyses and agreement checks of Ampere, "
     "Hopper and Blackwell (run 'layoutkit hw --help')"},
    {"paper", "Paper evaluation",
     "The linear-layouts paper's Tables 2-4 at the layout level and "
     "reduction plans (run 'layoutkit paper --help')"},
};

} // namespace

std::string familyOf(std::string_view commandName) {
  size_t space = commandName.find(' ');
  return space == std::string_view::npos
             ? std::string()
             : std::string(commandName.substr(0, space));
}

std::string leafNameOf(std::string_view commandName) {
  size_t space = commandName.find(' ');
  return std::string(space == std::string_view::npos
                         ? commandName
                         : commandName.substr(space + 1));
}

bool isFamily(std::string_view name) {
  if (name.empty())
    return false;
  for (const CommandSpec &spec : commandRegistry())
    if (familyOf(spec.name) == name)
      return true;
  return false;
}

std::string familySummary(std::string_view family) {
  for (const FamilySpec &f : kFamilies)
    if (f.name == family)
      return std::string(f.summary);
  return "";
}

std::string familyGroup(std::string_view family) {
  for (const FamilySpec &f : kFamilies)
    if (f.name == family)
      return std::string(f.group);
  return "Models";
}

} // namespace lk::cli
