//===- HwCommands.cpp - `layoutkit hw ...` --------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The hw family: decode and encode shared-memory descriptors, analyse a
/// warp's access (wavefronts, conflicts, sectors, vector width,
/// replication), and check that a buffer layout, its TMA and its MMA
/// descriptor agree. The command rows are at the end.
///
//===----------------------------------------------------------------------===//

#include "cli/Handlers.h"

#include "cli/Json.h"

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Describe.h"
#include "layoutkit/api/Descriptor.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Query.h"

#include "cli/Grid.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/hw/Agreement.h"
#include "layoutkit/hw/Analysis.h"
#include "layoutkit/hw/Atom.h"
#include "layoutkit/hw/CanonicalLayout.h"
#include "layoutkit/hw/InstrDescriptor.h"
#include "layoutkit/hw/SmemDescriptor.h"
#include "layoutkit/tile/TileText.h"

namespace lk::cli {

using namespace lk::hw;

namespace {

Expected<int64_t> dtypeBitsOpt(const Invocation &inv) {
  LK_TRY(cute::ElementType t, inv.dtypeOption("f16"));
  return t.bits;
}

Expected<Arch> archOpt(const Invocation &inv) {
  return parseArch(inv.option("arch").value_or("sm_90"));
}

Expected<Major> majorOpt(const Invocation &inv) {
  return api::parseMajor(inv.option("major").value_or("K"));
}

/// --mn and --k, required together.
Expected<std::pair<int64_t, int64_t>> tileOpts(const Invocation &inv) {
  LK_TRY(int64_t mn, inv.integerOption("mn", 0));
  LK_TRY(int64_t k, inv.integerOption("k", 0));
  if (mn < 1 || k < 1)
    return Diagnostic::error("give the tile with --mn N --k K (positive)");
  return std::pair{mn, k};
}

/// `o` needing option `needs` ("" none: OptionSpec::needs), required or
/// not (OptionSpec::required).
OptionSpec withRule(OptionSpec o, const char *needs, bool required = false) {
  o.needs = needs;
  o.required = required;
  return o;
}

Expected<Reply> runHwDecode(const Invocation &inv) {
  LK_TRY(SmemDescriptorKind kind, api::parseDescriptorKind(inv.text(0)));
  LK_TRY(uint64_t word, inv.argument(api::parseWord(inv.text(1)), 1));
  LK_TRY(SmemDescriptor d, decodeSmemDescriptor(kind, word));
  Reply r{str(d), jsonOf(api::describe(d))};
  // Any tile option asks for the layout: --dtype alone is not ignored.
  if (inv.option("mn") || inv.option("k") || inv.option("dtype") ||
      inv.option("major")) {
    LK_TRY(auto tile, tileOpts(inv));
    LK_TRY(Major major, majorOpt(inv));
    LK_TRY(int64_t bits, dtypeBitsOpt(inv));
    LK_TRY(cute::ComposedLayout l,
           smemLayoutOf(d, major, bits, tile.first, tile.second));
    r.text += "\nlayout: " + l.str();
    r.json["layout"] = l.str();
  }
  return r;
}

Expected<Reply> runHwEncode(const Invocation &inv) {
  LK_TRY(SmemDescriptorKind kind, api::parseDescriptorKind(inv.text(0)));
  SmemDescriptor d;
  LK_TRY(d.startAddress, inv.integerOption("start", 0));
  LK_TRY(d.leadingByteOffset, inv.integerOption("lbo", 16));
  LK_TRY(d.strideByteOffset, inv.integerOption("sbo", 16));
  LK_TRY(d.baseOffset, inv.integerOption("base", 0));
  LK_TRY(d.swizzle,
         api::parseHwSwizzle(inv.option("swizzle").value_or("none")));
  LK_TRY(uint64_t word, encodeSmemDescriptor(kind, d));
  return Reply{
      api::hexWord(word),
      {{"word", api::hexWord(word)}, {"fields", jsonOf(api::describe(d))}}};
}

Expected<Reply> runHwAnalyse(const Invocation &inv) {
  // Any grammar (a TTGIR tensor type included), as a tile layout.
  api::ParseOptions any;
  any.shapeName.clear(); // no --shape here: a TTGIR attribute needs its type
  LK_TRY(api::AnyLayout d, inv.argument(api::parseLayout(inv.text(0), any), 0));
  LK_TRY(auto distributed, inv.argument(api::unshapedTile(d, ""), 0));
  LK_TRY(api::AnyLayout m, inv.argument(api::parseLayout(inv.text(1), any), 1));
  LK_TRY(auto composed, inv.argument(api::unshapedTile(m, ""), 1));
  LK_TRY(cute::ElementType type, inv.elementType({0, 1}, "f16"));
  int64_t bits = type.bits;
  std::optional<std::string> mode = inv.option("swizzle");
  LK_TRY(tile::MemoryLayout memory,
         api::memoryLayout(composed, bits,
                           mode ? std::optional<std::string_view>(*mode)
                                : std::nullopt));
  LK_TRY(Arch arch, archOpt(inv));
  std::optional<int64_t> width;
  if (inv.option("access-bytes")) {
    LK_TRY(int64_t w, inv.integerOption("access-bytes", 0));
    width = w;
  }
  LK_TRY(api::AccessAnalysis a,
         api::analyseAccess(distributed, memory, bits, width, arch));
  Reply r;
  r.text = "widest access: " + std::to_string(a.vectorBytes) + " B per lane\n";
  if (inv.option("global"))
    r.text += "global memory: " + std::to_string(a.global.sectors) +
              " sectors, " + std::to_string(a.global.lines) + " lines\n" +
              a.global.explanation;
  else
    r.text += "shared memory: " + a.shared.explanation;
  r.text += "replication: " + a.replication.explanation;
  r.json = jsonOf(api::describe(a));
  return r;
}

Expected<Reply> runHwAgree(const Invocation &inv) {
  OperandDescriptions d;
  LK_TRY(d.buffer, inv.argument(cute::parseComposedLayout(inv.text(0)), 0));
  LK_TRY(d.arch, archOpt(inv));
  LK_TRY(d.major, majorOpt(inv));
  LK_TRY(d.elementBits, dtypeBitsOpt(inv));
  LK_TRY(auto tile, tileOpts(inv));
  d.mn = tile.first;
  d.k = tile.second;
  if (std::optional<std::string> mode = inv.option("tma-swizzle")) {
    LK_TRY(SwizzleMode swizzle, api::parseHwSwizzle(*mode));
    LK_TRY(d.tma, api::tileTma(inv.option("dtype").value_or("f16"),
                               d.elementBits, d.major, d.mn, d.k, swizzle));
  }
  if (std::optional<std::string> word = inv.option("descriptor")) {
    LK_TRY(SmemDescriptorKind kind,
           api::parseDescriptorKind(inv.option("kind").value_or("wgmma")));
    auto w = api::parseWord(*word);
    if (!w)
      return inv.inOption(std::move(w).error(), "descriptor");
    LK_TRY(d.mma, decodeSmemDescriptor(kind, *w));
    d.mmaKind = kind;
    if (!inv.option("arch")) // the kind's architecture
      d.arch = kind == SmemDescriptorKind::Umma ? Arch::Sm100 : Arch::Sm90;
  }
  if (!d.tma && !d.mma)
    return Diagnostic::error("give --tma-swizzle MODE, --descriptor WORD or "
                             "both to compare with the buffer layout");
  LK_TRY(Agreement a, checkAgreement(d));
  Reply r{a.explain(), {{"agree", a.agree()}, {"explanation", a.explain()}}};
  if (a.difference) {
    r.json["mn"] = a.difference->mn;
    r.json["k"] = a.difference->k;
    r.exitCode = kExitBadInput;
  }
  return r;
}

Expected<Reply> runHwAtoms(const Invocation &inv) {
  AtomFilter f;
  if (std::optional<std::string> a = inv.option("arch")) {
    LK_TRY(f.arch, parseArch(*a));
  }
  f.instruction = inv.option("instruction").value_or("");
  f.operand = inv.option("operand").value_or("");
  Reply r;
  r.json = JsonValue::array();
  LK_TRY(std::vector<const Atom *> atoms, listAtoms(f));
  for (const Atom *a : atoms) {
    std::string shape;
    for (int64_t e : a->logicalShape())
      shape += (shape.empty() ? "" : "x") + std::to_string(e);
    r.text += a->name + "  " + a->firstArchName() + "  " + a->operand + "  " +
              shape + "  " + std::to_string(a->threads) + " threads x " +
              std::to_string(a->values) + " values  (docs/hardware.md §" +
              a->facts + (a->unverified ? ", UNVERIFIED" : "") + ")\n";
    r.json.push_back(jsonOf(api::describe(*a)));
  }
  if (r.text.empty())
    r.text = "no atom matches\n";
  return r;
}

Expected<Reply> runHwAtom(const Invocation &inv) {
  LK_TRY(const Atom *a, findAtom(inv.text(0)));
  LK_TRY(api::TvGrid tv, api::atomGrid(*a));
  Grid g(tv.rows, tv.cols);
  g.title = a->name;
  std::string names;
  for (const std::string &n : a->coordNames)
    names += (names.empty() ? "" : ",") + n;
  g.legend = "rows: (" + names.substr(0, names.rfind(',')) +
             "), columns: " + names.substr(names.rfind(',') + 1) +
             "; cell: T<thread>V<value> (all holders, '/' separated)";
  for (int64_t k = 0; k < tv.rows * tv.cols; ++k)
    for (const api::TvPair &p : tv.holders[size_t(k)]) {
      std::string &cell = g.cell(k / tv.cols, k % tv.cols);
      cell += (cell.empty() ? "T" : "/T") + std::to_string(p.thread) + "V" +
              std::to_string(p.value);
      if (g.color(k / tv.cols, k % tv.cols) < 0)
        g.color(k / tv.cols, k % tv.cols) = p.thread;
    }
  JsonValue holders = JsonValue::array();
  for (int64_t t = 0; t < a->threads; ++t)
    for (int64_t v = 0; v < a->values; ++v) {
      LK_TRY(std::vector<int64_t> c, a->eval(t, v));
      holders.push_back({{"thread", t}, {"value", v}, {"coord", c}});
    }
  Reply reply;
  reply.text = renderGridText(g);
  reply.json = {{"name", a->name}, {"cute", a->tv.str()}, {"holders", holders}};
  if (auto tl = a->tileLayout())
    reply.json["tile"] = tl->str();
  LK_CHECK(attachSvg(inv, renderGridSvg(g), reply));
  return reply;
}

Expected<Reply> runHwIdesc(const Invocation &inv) {
  LK_TRY(uint64_t word, inv.argument(api::parseWord(inv.text(0)), 0));
  if (word > UINT32_MAX)
    return inv.inArgument(
        Diagnostic::error("an instruction descriptor is 32 bits; " +
                          api::hexWord(word) + " is wider"),
        0);
  LK_TRY(UmmaKind kind, parseUmmaKind(inv.option("kind").value_or("f16")));
  LK_TRY(int64_t ctaGroup, inv.integerOption("cta-group", 1));
  LK_TRY(UmmaInstrDescriptor d,
         decodeUmmaInstrDescriptor(uint32_t(word), kind, ctaGroup,
                                   inv.option("ws").has_value()));
  Reply r;
  r.text = "kind=" + std::string(info(d.kind).name) +
           " a=" + std::string(name(d.a)) + " b=" + std::string(name(d.b)) +
           " d=" + std::string(name(d.d)) + " m=" + std::to_string(d.m) +
           " n=" + std::to_string(d.n) +
           " majorA=" + std::string(name(d.majorA)) +
           " majorB=" + std::string(name(d.majorB)) +
           (d.negateA ? " negateA" : "") + (d.negateB ? " negateB" : "") +
           (d.sparse ? " sparse" : "") + (d.saturate ? " saturate" : "");
  if (info(d.kind).blockScaled)
    r.text += " scale=" + std::string(name(d.scaleType)) +
              " sfaId=" + std::to_string(d.sfaId) +
              " sfbId=" + std::to_string(d.sfbId);
  r.json = jsonOf(api::describe(d));
  return r;
}

} // namespace

std::vector<CommandSpec> hwCommands() {
  const std::string group = "Hardware";
  const OptionSpec dtype{"dtype", "TYPE",
                         "element type, e.g. f16 (default), bf16, f32, f8e4m3"};
  const OptionSpec arch{"arch", "ARCH", "sm_80, sm_90 (default) or sm_100"};
  const OptionSpec major{"major",
                         "K|MN",
                         "the operand's major-ness (default K)",
                         false,
                         {"K", "MN"}};
  const OptionSpec mn{"mn", "N", "tile extent along M or N, in elements"};
  const OptionSpec k{"k", "N", "tile extent along K, in elements"};
  const ParamSpec kind{"KIND", "wgmma (Hopper) or umma (Blackwell)",
                       Arity::One};
  return {
      {"hw atoms",
       group,
       "List the hardware atoms (mma.sync, ldmatrix, stmatrix, wgmma, tcgen05)",
       "One line per atom: name, first architecture, operand, logical shape, "
       "threads x values, the section of docs/hardware.md.",
       {"layoutkit hw atoms --instruction mma.m16n8k16",
        "layoutkit hw atoms --arch sm_100 --instruction tcgen05.ld"},
       {},
       {{"arch", "ARCH", "only the atoms that run on sm_80, sm_90 or sm_100"},
        {"instruction", "NAME",
         "an atom name or a prefix of it at a dot, e.g. mma, wgmma, "
         "tcgen05.ld, mma.m16n8k16.f16"},
        {"operand", "OP", "A, B, C or frag"}},
       runHwAtoms},
      {"hw atom",
       group,
       "Show who holds what in one atom (table and SVG)",
       "Each logical element lists the (thread, value) pairs that hold it; "
       "--svg colours the cells by thread. --json adds the cute TV layout and "
       "the tile view.",
       {"layoutkit hw atom mma.m16n8k16.f16.C",
        "layoutkit hw atom ldmatrix.x4.b16 --svg ldm.svg"},
       {{"NAME", "an atom name, e.g. mma.m16n8k16.f16.A (see 'hw atoms')",
         Arity::One}},
       {{"svg", "FILE", "also write an SVG picture ('-': print it instead)"}},
       runHwAtom},
      {"hw decode",
       group,
       "Decode a wgmma / UMMA shared-memory matrix descriptor",
       "Prints the fields (byte offsets, hex start address). With --mn and "
       "--k (and --major, --dtype) also the shared-memory layout the "
       "descriptor denotes, as a composed cute layout in element units.",
       {"layoutkit hw decode wgmma 0x4000004000010000",
        "layoutkit hw decode wgmma 0x4000004000010000 --mn 64 --k 64 --dtype "
        "bf16"},
       {kind, {"WORD", "the 64-bit descriptor, decimal or 0x hex", Arity::One}},
       {withRule(major, "mn"), withRule(dtype, "mn"), withRule(mn, "k"),
        withRule(k, "mn")},
       runHwDecode},
      {"hw encode",
       group,
       "Encode a wgmma / UMMA shared-memory matrix descriptor",
       "Fields in bytes; every invalid field is named with its bits and "
       "what is allowed.",
       {"layoutkit hw encode wgmma --sbo 1024 --swizzle 128B   # "
        "0x4000004000010000"},
       {kind},
       {{"start", "BYTES", "start address (default 0)"},
        {"lbo", "BYTES", "leading byte offset (default 16)"},
        {"sbo", "BYTES", "stride byte offset (default 16)"},
        {"base", "N", "base offset field 0..7 (default 0)"},
        {"swizzle", "MODE", "none (default), 32B, 64B, 128B, 128B_atom32B"}},
       runHwEncode},
      {"hw idesc",
       group,
       "Decode a tcgen05.mma instruction descriptor (32 bit)",
       "The fields (A/B formats, D type, M, N, majorness, negation, sparsity, "
       "and for block-scaled kinds the scale type and SF IDs) are validated "
       "with the rules of the kind, cta_group and .ws variant.",
       {"layoutkit hw idesc 0x08400490 --kind f16   # bf16 x bf16 -> f32, "
        "M=128, N=256"},
       {{"WORD", "the 32-bit descriptor, decimal or 0x hex", Arity::One}},
       {{"kind", "KIND",
         "f16 (default), tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4"},
        {"cta-group", "N", "1 (default) or 2"},
        {"ws", "", "the .ws (weight-stationary) variant", true}},
       runHwIdesc},
      {"hw analyse",
       group,
       "Wavefronts (or sectors), vector width and replication of a warp's "
       "access",
       "DISTRIBUTED is a tile layout over laneid and m (the register slot) "
       "saying which lane holds which element, or over a block-wide tid "
       "(warp 0 = tid 0..31, lane = tid; not together with laneid); other "
       "thread axes are taken at 0; a linear layout or Triton's TTGIR "
       "(a tensor type) is read as its tile form (register -> m, lane -> "
       "laneid, warp -> warpid). MEMORY a tile layout on m "
       "(optionally 'Swizzle(...) o ...') giving each element its address. "
       "Each lane moves --access-bytes bytes per instruction (default: the "
       "widest "
       "its registers allow).",
       {"layoutkit hw analyse 'S[(8,64):(1@laneid,1@m)]' 'S[(8,64):(64,1)]'   "
        "# 8-way",
        "layoutkit hw analyse 'S[(8,64):(1@laneid,1@m)]' 'S[(8,64):(64,1)]' "
        "--swizzle 128B"},
       {{"DISTRIBUTED",
         "a tile layout over laneid (or tid) and m, e.g. "
         "S[(8,64):(1@laneid,1@m)], or a linear / TTGIR layout",
         Arity::One},
        {"MEMORY",
         "a memory tile layout, e.g. S[(8,64):(64,1)], or any other layout "
         "as its tile form (a Triton shared layout, !ttg.memdesc<...>, as "
         "its address form)",
         Arity::One}},
       {dtype,
        arch,
        {"access-bytes", "BYTES",
         "bytes per lane per instruction: 1, 2, 4, 8 or 16"},
        {"swizzle",
         "MODE",
         "compose MEMORY with this swizzle for --dtype",
         false,
         {"none", "32B", "64B", "128B"}},
        {"global", "",
         "print the global-memory cost (sectors, lines) instead of the "
         "shared-memory one (--json has both)",
         true}},
       runHwAnalyse},
      {"hw agree",
       group,
       "Check that a buffer layout, its TMA and its MMA descriptor agree",
       "Evaluates the buffer layout, the TMA box layout and the descriptor's "
       "layout on every element of the (MN, K) tile and names the first "
       "element where they differ, and why. Exit status 1 when they differ.",
       {"layoutkit hw agree 'Sw<3,3,3> o (64,64):(64,1)' --mn 64 --k 64 "
        "--dtype bf16 --tma-swizzle 128B --descriptor 0x4000004000010000"},
       {{"BUFFER",
         "the buffer's layout (mn, k) -> element offset, e.g. 'Sw<3,3,3> o "
         "(64,64):(64,1)'",
         Arity::One}},
       {dtype,
        {"arch", "ARCH", "sm_80, sm_90 or sm_100 (default: --kind's)"},
        major,
        withRule(mn, "", true),
        withRule(k, "", true),
        {"tma-swizzle", "MODE",
         "the TMA writes the tile in one box with this swizzle"},
        {"descriptor", "WORD", "the MMA's shared-memory descriptor"},
        {"kind",
         "KIND",
         "the descriptor's kind: wgmma (default) or umma",
         false,
         {"wgmma", "umma"}}},
       runHwAgree},
  };
}

} // namespace lk::cli
