//===- fuzz_api.cpp - Fuzz the front-end API's readers --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The whole input is the text, given to every reader of api/: parseLayout
/// (with a shape for basis descriptors and an encoding reader that always
/// refuses), parseTile (with and without a shape), parseDistributed,
/// parseAxisValues, parseDimValues, parseInteger, parseWord. A failure must
/// carry a message (and, when it has a range, one inside the text). A layout
/// that parses must print in its model's own grammar and read back, from that
/// print form, to an equal value; its conversions to the other models must not
/// crash.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Descriptor.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/api/Query.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"

#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::api;

namespace {

void checkFailure(const Diagnostic &d, std::string_view text) {
  LK_FUZZ_CHECK(!d.message.empty(), "empty diagnostic");
  if (d.range && d.source.size() == text.size())
    LK_FUZZ_CHECK(d.range->end.offset <= text.size(),
                  "range ends at %zu in a text of %zu bytes: %s",
                  d.range->end.offset, text.size(), d.message.c_str());
  (void)d.render();
}

template <class T> void check(const Expected<T> &e, std::string_view text) {
  if (!e)
    checkFailure(e.error(), text);
}

/// The model's own grammar, for reading a print form back.
Syntax ownSyntax(Model m) {
  return m == Model::Cute   ? Syntax::CuteText
         : m == Model::Tile ? Syntax::TileText
                            : Syntax::LinearText;
}

bool sameValue(const AnyLayout &a, const AnyLayout &b) {
  if (a.cute() && b.cute())
    return *a.cute() == *b.cute();
  if (a.tile() && b.tile())
    return *a.tile() == *b.tile();
  if (a.linear() && b.linear())
    return *a.linear() == *b.linear();
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  ParseOptions options;
  options.shape = *cute::parseIntTuple("(4,8)");
  Expected<AnyLayout> l = parseLayout(text, options);
  check(l, text);
  if (l) {
    std::string printed = l->str();
    ParseOptions own;
    own.syntax = ownSyntax(l->model());
    Expected<AnyLayout> back = parseLayout(printed, own);
    LK_FUZZ_CHECK(back.hasValue(), "'%s' does not read back: %s",
                  printed.c_str(), back.error().message.c_str());
    LK_FUZZ_CHECK(sameValue(*l, *back), "'%s' reads back as '%s'",
                  printed.c_str(), back->str().c_str());
    for (Model m : {Model::Cute, Model::Tile, Model::Linear}) {
      Expected<AnyLayout> c = convert(*l, m, std::vector<int64_t>{32});
      if (!c)
        LK_FUZZ_CHECK(!c.error().message.empty(), "empty diagnostic");
    }
  }
  check(parseTile(text, options.shape, "SHAPE"), text);
  check(parseTile(text, std::nullopt), text);
  Expected<linear::LinearLayout> d = parseDistributed(text, options);
  check(d, text);

  check(parseAxisValues(text), text);
  Expected<linear::LinearLayout> regLane = linear::parseLinearLayout(
      "{register: [(0,1)], lane: [(1,0), (2,0)]} -> {dim0: 4, dim1: 2}");
  check(parseDimValues(text, *regLane), text);
  check(parseInteger(text), text);
  check(parseWord(text), text);
  return 0;
}
