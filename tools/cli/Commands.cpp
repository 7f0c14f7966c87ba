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

#include "cli/Handlers.h"

#include "layoutkit/api/CuteOps.h"

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
ParamSpec integerParam(std::string name, std::string help) {
  return {std::move(name), std::move(help), Arity::One};
}

OptionSpec profileOption(const std::string &op) {
  return {"profile", "P",
          "an integer tuple whose nesting selects the modes to " + op +
              " separately (only its nesting matters; modes past its rank "
              "are kept), e.g. (1,1)"};
}

/// The help of a parameter of kind `k`.
std::string kindHelp(api::CuteKind k) {
  switch (k) {
  case api::CuteKind::Layout:
    return kLayoutHelp;
  case api::CuteKind::Tiler:
    return kTilerHelp;
  case api::CuteKind::IntTuple:
    return kShapeHelp;
  case api::CuteKind::Integer:
    return "an integer, e.g. 5";
  }
  return "";
}

/// The row of the registry's operation `name` (api/CuteOps.h): its summary
/// and parameters come from the registry (a PROFILE parameter becomes the
/// --profile option), the group, details and examples from the CLI.
CommandSpec cuteRow(std::string_view name, std::string group,
                    std::string details, std::vector<std::string> examples) {
  const api::CuteOp *op = api::findCuteOp(name);
  CommandSpec c{std::string(name),
                std::move(group),
                "",
                std::move(details),
                std::move(examples),
                {},
                {},
                runCuteOp};
  if (!op) // a row naming no operation shows up in CliHelpTest
    return c;
  c.summary = std::string(op->doc);
  for (const api::CuteParam &p : op->params) {
    if (p.name == "PROFILE") {
      c.options.push_back(profileOption(std::string(name)));
      continue;
    }
    c.params.push_back({std::string(p.name), kindHelp(p.kind),
                        p.optional ? Arity::Optional : Arity::One});
  }
  return c;
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
      {"show",
       inspect,
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
         "SVG instead of the text table)"}},
       runShow},
      {"eval",
       inspect,
       "Evaluate a layout at a coordinate: L(COORD)",
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
      cuteRow(
          "idx2crd", inspect,
          "c0 = i mod s0, c1 = (i div s0) mod s1, ... recursively; the result "
          "is congruent to SHAPE. Requires 0 <= INDEX < size(SHAPE).",
          {"layoutkit idx2crd 5 '((2,4),8)'    # ((1,2),0)",
           "layoutkit idx2crd 7 '(3,4)'        # (1,2)"}),
      cuteRow("crd2idx", inspect,
              "COORD is congruent to the layout's shape, or uses one integer "
              "for a tuple mode. `eval` also takes swizzled and basis-stride "
              "layouts.",
              {"layoutkit crd2idx '(1,1)' '(4,2):(1,4)'   # 1*1 + 1*4 = 5"}),
      {"parse",
       inspect,
       "Read a basis descriptor or a layout attribute and print its "
       "canonical form",
       "GRAMMAR is basis (a basis descriptor, e.g. '(1@0, (2@1, 4/2@0@1))', "
       "counts reduced, blanks normalised) or attribute (a layout attribute, "
       "e.g. '<(128,64),(64,1),swizzle<3,4,3>,elem=f16>'); docs/grammars.md. "
       "A text that does not parse is a diagnostic with a caret.",
       {"layoutkit parse basis '(1@0,2@1)'",
        "layoutkit parse attribute '<(8,64),(64,1),swizzle<3,4,3>>'"},
       {{"GRAMMAR", "basis or attribute", Arity::One},
        {"TEXT", "the text to read", Arity::One}},
       {},
       runParse},
      cuteRow("size", inspect, "",
              {"layoutkit size '((2,4),8):((1,16),2)'    # 2*4*8 = 64"}),
      cuteRow("cosize", inspect, "",
              {"layoutkit cosize '((2,4),8):((1,16),2)'  # 1 + 1*1 + 3*16 + "
               "7*2 = 64",
               "layoutkit cosize '(4,3):(1,0)'           # 1 + 3*1 + 2*0 = 4"}),
      cuteRow("rank", inspect, "",
              {"layoutkit rank '((2,4),8):((1,16),2)'    # 2"}),
      cuteRow("depth", inspect, "",
              {"layoutkit depth '((2,4),8):((1,16),2)'   # 2",
               "layoutkit depth '8:1'                    # 0"}),
      {"equivalent",
       inspect,
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
      cuteRow(
          "coalesce", structure,
          "Flattens, drops size-1 modes and merges s1:d1 into s0:d0 when "
          "d1 == s0*d0. With --profile, coalesces each mode selected by the "
          "profile separately.",
          {"layoutkit coalesce '(2,4):(1,2)'                  # 8:1",
           "layoutkit coalesce '(2,4):(8,1)'                  # (2,4):(8,1)",
           "layoutkit coalesce '(2,(1,4)):(1,(6,2))' --profile '(1,1)'"
           "   # (2,4):(1,2)"}),
      cuteRow("filter", structure, "",
              {"layoutkit filter '(4,3):(1,0)'     # 4:1"}),
      cuteRow("filter_zeros", structure, "",
              {"layoutkit filter_zeros '(4,3):(1,0)'     # (4,1):(1,0)"}),
      {"flatten",
       structure,
       "The depth <= 1 layout of the same leaves",
       "",
       {"layoutkit flatten '((2,4),8):((1,16),2)'   # (2,4,8):(1,16,2)"},
       {layoutParam()},
       {},
       runFlatten},
      {"group_modes",
       structure,
       "Group modes [BEGIN, END) into one mode",
       "Requires 0 <= BEGIN < END <= rank(LAYOUT).",
       {"layoutkit group_modes '(2,4,8):(1,2,8)' 0 2   # ((2,4),8):((1,2),8)"},
       {layoutParam(), integerParam("BEGIN", "first mode to group, e.g. 0"),
        integerParam("END", "one past the last mode to group, e.g. 2")},
       {},
       runGroupModes},

      // Composition, complement, inverses -----------------------------------
      cuteRow(
          "composition", compose,
          "The result has TILER's shape. A tuple TILER composes mode by mode "
          "(`_` keeps A's mode).",
          {"layoutkit composition '(4,2):(1,4)' '(2,2):(1,2)'   # (2,2):(1,2)",
           "layoutkit composition '8:2' '4:1'                   # 4:2"}),
      cuteRow(
          "complement", compose,
          "COTARGET defaults to cosize(filter(LAYOUT)); it may be an integer "
          "or a shape.",
          {"layoutkit complement '4:32' 256   # (32,2):(1,128)",
           "layoutkit complement '4:32' 128   # 32:1",
           "layoutkit complement '4:2'        # 2:1"}),
      cuteRow("right_inverse", compose, "",
              {"layoutkit right_inverse '(4,2):(2,1)'   # (2,4):(4,1)"}),
      cuteRow("left_inverse", compose, "",
              {"layoutkit left_inverse '(4,2):(2,1)'    # (2,4):(4,1)"}),
      cuteRow("max_common_layout", compose, "",
              {"layoutkit max_common_layout '(4,2):(1,4)' '8:1'   # 8:1"}),
      cuteRow("max_common_vector", compose, "",
              {"layoutkit max_common_vector '(4,2):(1,8)' '8:1'   # 4"}),

      // Divides and products ------------------------------------------------
      cuteRow("logical_divide", divide, "",
              {"layoutkit logical_divide '128:1' '32:1'   # (32,4):(1,32)"}),
      cuteRow("zipped_divide", divide, "",
              {"layoutkit zipped_divide '(8,8):(1,8)' '(2:1,4:1)'"
               "   # ((2,4),(4,2)):((1,8),(2,32))"}),
      cuteRow("tiled_divide", divide, "",
              {"layoutkit tiled_divide '(8,8):(1,8)' '(2:1,4:1)'"
               "   # ((2,4),4,2):((1,8),2,32)"}),
      cuteRow("flat_divide", divide, "",
              {"layoutkit flat_divide '(8,8):(1,8)' '(2:1,4:1)'"
               "   # (2,4,4,2):(1,8,2,32)"}),
      cuteRow("logical_product", divide, "",
              {"layoutkit logical_product '(2,2):(1,2)' '3:1'   # "
               "((2,2),3):((1,2),4)",
               "layoutkit logical_product '128:1' '4:32'        # "
               "(128,4):(1,4096)"}),
      cuteRow("zipped_product", divide, "",
              {"layoutkit zipped_product '(2,2):(1,2)' '(3:1,4:1)'"
               "   # ((2,2),(3,(2,2))):((1,2),(2,(1,4)))"}),
      cuteRow("tiled_product", divide, "",
              {"layoutkit tiled_product '(2,2):(1,2)' '(3:1,4:1)'"
               "   # ((2,2),3,(2,2)):((1,2),2,(1,4))"}),
      cuteRow("flat_product", divide, "",
              {"layoutkit flat_product '(2,2):(1,2)' '(3:1,4:1)'"
               "   # (2,2,3,(2,2)):(1,2,2,(1,4))"}),
      cuteRow("blocked_product", divide, "",
              {"layoutkit blocked_product '(2,2):(1,2)' '(2,3):(1,2)'"
               "   # ((2,2),(2,3)):((1,4),(2,8))"}),
      cuteRow("raked_product", divide, "",
              {"layoutkit raked_product '(2,2):(1,2)' '(2,3):(1,2)'"
               "   # ((2,2),(3,2)):((4,1),(8,2))"}),

      // Shapes and swizzles -------------------------------------------------
      {"shape_div",
       shapes,
       "Divide a shape by a divisor, consuming the divisor mode by mode",
       "exact (default) requires every step to divide evenly one way or the "
       "other; floor and ceil round the quotient.",
       {"layoutkit shape_div '(4,6)' 8                     # (1,3)",
        "layoutkit shape_div '(6,4)' 4 --rounding ceil     # (2,4)"},
       {{"SHAPE", kShapeHelp, Arity::One},
        {"DIVISOR", "an integer or an integer tuple, e.g. 8", Arity::One}},
       {{"rounding",
         "MODE",
         "exact (default), floor or ceil",
         false,
         {"exact", "floor", "ceil"}}},
       runShapeDiv},
      {"ceil_div",
       shapes,
       "shape_div with ceil rounding",
       "",
       {"layoutkit ceil_div '(6,4)' 4    # (2,4)",
        "layoutkit ceil_div 10 4         # 3"},
       {{"A", kShapeHelp, Arity::One},
        {"B", "an integer or an integer tuple, e.g. 4", Arity::One}},
       {},
       runCeilDiv},
      {"swizzle",
       shapes,
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
      {"conformance",
       testing,
       "Run oracle cases (JSON lines) against the library",
       "Prints a count per op and a final line 'N passed, M failed'; exits 0 "
       "only when every case passed.",
       {"layoutkit conformance tests/data/cute-public.jsonl --verbose"},
       {{"FILE", "oracle files, one JSON case per line", Arity::OneOrMore}},
       {{"verbose", "", "print every failing case (default: the first 20)",
         true}},
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
