//===- SwizzleLayout.cpp - XOR swizzles of tile memory addresses ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/SwizzleLayout.h"

#include "layoutkit/core/Bits.h"

#include "layoutkit/core/Lexer.h"
#include "layoutkit/tile/TileText.h"

#include <array>
#include <cctype>

namespace lk::tile {

namespace {

struct ModeInfo {
  SwizzleMode mode;
  std::string_view name;
  int swizzleLen; // B
  int64_t bytes;  // width of one swizzle-atom row
};

constexpr std::array<ModeInfo, 4> kModes = {{
    {SwizzleMode::None, "none", 0, 16},
    {SwizzleMode::B32, "32B", 1, 32},
    {SwizzleMode::B64, "64B", 2, 64},
    {SwizzleMode::B128, "128B", 3, 128},
}};

const ModeInfo &info(SwizzleMode mode) { return kModes[size_t(mode)]; }

} // namespace

std::string_view swizzleModeName(SwizzleMode mode) { return info(mode).name; }

int64_t swizzleModeBytes(SwizzleMode mode) { return info(mode).bytes; }

Expected<SwizzleMode> swizzleModeByName(std::string_view name) {
  for (const ModeInfo &m : kModes)
    if (m.name == name)
      return m.mode;
  return Diagnostic::error("unknown swizzle mode '" + std::string(name) +
                           "'; expected none, 32B, 64B or 128B");
}

Expected<SwizzleLayout>
SwizzleLayout::make(int64_t perElement, int64_t swizzleLen, int64_t atomLen) {
  if (perElement < 0)
    return Diagnostic::error("swizzle per_element M = " +
                             std::to_string(perElement) + " must be >= 0");
  if (swizzleLen < 0)
    return Diagnostic::error("swizzle swizzle_len B = " +
                             std::to_string(swizzleLen) + " must be >= 0");
  if (atomLen < swizzleLen)
    return Diagnostic::error(
        "swizzle atom_len S = " + std::to_string(atomLen) +
        " must be >= swizzle_len B = " + std::to_string(swizzleLen) +
        " (otherwise the XOR-ed bit groups overlap and the swizzle is not "
        "its own inverse)");
  if (perElement > kMaxBits || atomLen > kMaxBits ||
      perElement + swizzleLen + atomLen > kMaxBits)
    return Diagnostic::error(
        "swizzle M + B + S = " + std::to_string(perElement) + " + " +
        std::to_string(swizzleLen) + " + " + std::to_string(atomLen) +
        " exceeds " + std::to_string(kMaxBits) + " address bits");
  SwizzleLayout s;
  s.m_ = int(perElement);
  s.b_ = int(swizzleLen);
  s.s_ = int(atomLen);
  return s;
}

Expected<SwizzleLayout> SwizzleLayout::forDtype(int64_t dtypeBits,
                                                SwizzleMode mode) {
  if (dtypeBits > 128 || !isPow2(dtypeBits))
    return Diagnostic::error("element width " + std::to_string(dtypeBits) +
                             " bits: a swizzle needs a power of two from 1 "
                             "to 128 bits");
  return make(bitWidth(uint64_t(128 / dtypeBits)) - 1, info(mode).swizzleLen,
              3);
}

std::string SwizzleLayout::str() const {
  return "Swizzle(M=" + std::to_string(m_) + ",B=" + std::to_string(b_) +
         ",S=" + std::to_string(s_) + ")";
}

CoordSet SwizzledTileLayout::eval(int64_t flat) const {
  return eval(flat, tile_.replicaCount());
}

CoordSet SwizzledTileLayout::eval(int64_t flat, int64_t limit) const {
  CoordSet in;
  tile_.evalInto(flat, in, limit);
  int slot = tile_.axisSlot(Axis::m());
  CoordSet out(in.rank());
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t *c = out.appendUninitialized();
    for (size_t k = 0; k < in.rank(); ++k)
      c[k] = in[i][k];
    if (slot >= 0)
      c[slot] = swizzle_(c[slot]);
  }
  return out;
}

std::string SwizzledTileLayout::str() const {
  return swizzle_.str() + " o " + tile_.str();
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

namespace {

/// Parses `Swizzle(M=3,B=3,S=3)` or `Swizzle(3,3,3)` at the lexer.
Expected<SwizzleLayout> parseSwizzleAt(Lexer &lx) {
  lx.peek();
  size_t start = lx.pos();
  if (!lx.consumeIf(std::string_view("Swizzle")))
    return lx.expected("'Swizzle'");
  LK_CHECK(lx.expect('(', "after 'Swizzle'"));
  // values[0..2] = M, B, S; set[] marks those given.
  int64_t values[3] = {0, 0, 0};
  size_t where[3] = {0, 0, 0};
  bool set[3] = {false, false, false};
  char c = lx.peek();
  bool keywords = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  for (int k = 0; k < 3; ++k) {
    if (k > 0)
      LK_CHECK(lx.expect(',', keywords ? "between swizzle parameters"
                                       : "between per_element, swizzle_len "
                                         "and atom_len"));
    int slot = k;
    if (keywords) {
      lx.peek();
      size_t keyAt = lx.pos();
      if (!isalpha(static_cast<unsigned char>(lx.peek())))
        return lx.expected("a swizzle parameter M, B or S");
      std::string_view text = lx.text();
      size_t keyEnd = keyAt;
      while (keyEnd < text.size() &&
             (isalnum(static_cast<unsigned char>(text[keyEnd])) ||
              text[keyEnd] == '_'))
        ++keyEnd;
      std::string key(text.substr(keyAt, keyEnd - keyAt));
      lx.reset(keyEnd);
      if (key == "M")
        slot = 0;
      else if (key == "B")
        slot = 1;
      else if (key == "S")
        slot = 2;
      else
        return lx.error("unknown swizzle parameter '" + key +
                            "'; expected M (per_element), B (swizzle_len) "
                            "or S (atom_len)",
                        keyAt, key.size());
      if (set[slot])
        return lx.error("swizzle parameter " + key + " is given twice", keyAt,
                        key.size());
      LK_CHECK(lx.expect('=', "after swizzle parameter " + key));
    }
    lx.peek();
    where[slot] = lx.pos();
    static constexpr std::string_view kNames[3] = {
        "per_element M", "swizzle_len B", "atom_len S"};
    LK_TRY(int64_t v, lx.readUint(kNames[slot]));
    values[slot] = v;
    set[slot] = true;
  }
  LK_CHECK(lx.expect(')', "after the three swizzle parameters"));
  Expected<SwizzleLayout> s =
      SwizzleLayout::make(values[0], values[1], values[2]);
  if (!s) {
    // Point at the parameter the message is about (S when it is S >= B).
    const std::string &msg = s.error().message;
    int slot = msg.find("per_element") != std::string::npos   ? 0
               : msg.find("atom_len") != std::string::npos    ? 2
               : msg.find("swizzle_len") != std::string::npos ? 1
                                                              : -1;
    if (slot < 0)
      return lx.error(msg, start, lx.pos() - start);
    return lx.error(msg, where[slot]);
  }
  return s;
}

} // namespace

Expected<SwizzleLayout> parseSwizzleLayout(std::string_view text) {
  Lexer lx(text);
  LK_TRY(SwizzleLayout s, parseSwizzleAt(lx));
  LK_CHECK(lx.expectEnd("end of swizzle layout"));
  return s;
}

Expected<SwizzledTileLayout> parseSwizzledTileLayout(std::string_view text) {
  Lexer lx(text);
  LK_TRY(SwizzleLayout s, parseSwizzleAt(lx));
  lx.peek();
  size_t opAt = lx.pos();
  // 'o' must stand alone: "o S[...]" (not the start of an identifier).
  if (lx.peek() != 'o' || isalnum(static_cast<unsigned char>(lx.peekAt(1))) ||
      lx.peekAt(1) == '_')
    return lx.expected("'o' (composition) after the swizzle");
  lx.reset(opAt + 1);
  lx.peek();
  size_t tileAt = lx.pos();
  Expected<TileLayout> tile = parseTileLayout(text.substr(tileAt));
  if (!tile) {
    Diagnostic d = std::move(tile).error();
    size_t offset = tileAt, length = 1;
    if (d.range) {
      offset += d.range->begin.offset;
      length = d.range->end.offset > d.range->begin.offset
                   ? d.range->end.offset - d.range->begin.offset
                   : 1;
    }
    Diagnostic shifted = Diagnostic::at(d.message, text, offset, length);
    shifted.notes = std::move(d.notes);
    return shifted;
  }
  return SwizzledTileLayout(s, std::move(*tile));
}

} // namespace lk::tile
