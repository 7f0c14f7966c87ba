//===- Text.cpp - The text form of linear layouts: parse ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A recursive-descent parser for the grammar of Text.h. The input dims are
/// read first with the location of every basis value; once the output dims
/// (and so the arity and the sizes) are known, each value is checked and an
/// error points at the offending token. Limits (64 bits, 16 dims per side)
/// are checked while reading, so any input is safe.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Text.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/core/Lexer.h"

#include <vector>

namespace lk::linear {
namespace {

struct Span {
  size_t offset = 0;
  size_t length = 1;
};

struct ParsedBasis {
  std::vector<int64_t> values;
  std::vector<Span> spans;
  Span whole;
};

struct ParsedIn {
  std::string name;
  Span nameSpan;
  std::vector<ParsedBasis> bases;
};

struct ParsedOut {
  std::string name;
  Span nameSpan;
  int64_t size = 0;
  Span sizeSpan;
};

class Parser {
public:
  explicit Parser(std::string_view text) : lx_(text) {}

  Expected<LinearLayout> layout() {
    LK_CHECK(lx_.expect('{', "to open the input dims"));
    std::vector<ParsedIn> ins;
    size_t totalBases = 0;
    if (!lx_.consumeIf('}')) {
      while (true) {
        LK_TRY(ParsedIn in, inDim(totalBases));
        for (const ParsedIn &p : ins)
          if (p.name == in.name)
            return lx_.error("duplicate input dim '" + in.name + "'",
                             in.nameSpan.offset, in.nameSpan.length);
        if (ins.size() >= size_t(LinearLayout::kMaxDims))
          return lx_.error("too many input dims (at most " +
                               std::to_string(LinearLayout::kMaxDims) + ")",
                           in.nameSpan.offset, in.nameSpan.length);
        ins.push_back(std::move(in));
        if (lx_.consumeIf(','))
          continue;
        LK_CHECK(lx_.expect('}', "or ',' after an input dim"));
        break;
      }
    }
    LK_CHECK(lx_.expect("->", "between the input and output dims"));
    LK_CHECK(lx_.expect('{', "to open the output dims"));
    std::vector<ParsedOut> outs;
    int outBits = 0;
    if (!lx_.consumeIf('}')) {
      while (true) {
        ParsedOut o;
        lx_.peek();
        o.nameSpan.offset = lx_.pos();
        LK_TRY(o.name, lx_.readIdent("output dim name"));
        o.nameSpan.length = o.name.size();
        for (const ParsedOut &p : outs)
          if (p.name == o.name)
            return lx_.error("duplicate output dim '" + o.name + "'",
                             o.nameSpan.offset, o.nameSpan.length);
        if (outs.size() >= size_t(LinearLayout::kMaxDims))
          return lx_.error("too many output dims (at most " +
                               std::to_string(LinearLayout::kMaxDims) + ")",
                           o.nameSpan.offset, o.nameSpan.length);
        LK_CHECK(lx_.expect(':', "after the output dim name"));
        lx_.peek();
        o.sizeSpan.offset = lx_.pos();
        LK_TRY(o.size, lx_.readUint("output dim size"));
        o.sizeSpan.length = std::max<size_t>(1, lx_.pos() - o.sizeSpan.offset);
        if (!isPow2(o.size))
          return lx_.error("size " + std::to_string(o.size) +
                               " of output dim '" + o.name +
                               "' is not a power of two",
                           o.sizeSpan.offset, o.sizeSpan.length);
        outBits += log2Exact(o.size);
        if (outBits > LinearLayout::kMaxBits)
          return lx_.error("output dims exceed 64 bits in total",
                           o.sizeSpan.offset, o.sizeSpan.length);
        outs.push_back(std::move(o));
        if (lx_.consumeIf(','))
          continue;
        LK_CHECK(lx_.expect('}', "or ',' after an output dim"));
        break;
      }
    }
    for (const ParsedIn &in : ins)
      for (const ParsedBasis &b : in.bases) {
        if (b.values.size() != outs.size())
          return lx_.error("basis has " + std::to_string(b.values.size()) +
                               " values; expected one per output dim (" +
                               std::to_string(outs.size()) + ")",
                           b.whole.offset, b.whole.length);
        for (size_t k = 0; k < outs.size(); ++k)
          if (b.values[k] >= outs[k].size)
            return lx_.error("value " + std::to_string(b.values[k]) +
                                 " is outside output dim '" + outs[k].name +
                                 "' of size " + std::to_string(outs[k].size),
                             b.spans[k].offset, b.spans[k].length);
      }
    std::vector<InDimBases> inBases;
    for (const ParsedIn &in : ins) {
      InDimBases ib{internDim(in.name), {}};
      if (ib.dim == dims::kNoDim)
        return tooManyNames(in.name, in.nameSpan);
      for (const ParsedBasis &b : in.bases)
        ib.bases.push_back(b.values);
      inBases.push_back(std::move(ib));
    }
    std::vector<OutDim> outDims;
    for (const ParsedOut &o : outs) {
      outDims.push_back({internDim(o.name), o.size});
      if (outDims.back().dim == dims::kNoDim)
        return tooManyNames(o.name, o.nameSpan);
    }
    Expected<LinearLayout> l = LinearLayout::make(
        std::span<const InDimBases>(inBases), std::span<const OutDim>(outDims));
    if (!l)
      return lx_.error(l.error().message, 0, lx_.text().size());
    return l;
  }

  Lexer &lexer() { return lx_; }

private:
  /// internDim's table is full (dims::kNoDim): the name cannot be held.
  Diagnostic tooManyNames(const std::string &name, Span at) {
    return lx_.error("dim '" + name +
                         "' cannot be named: too many distinct "
                         "dim names in this process (at most " +
                         std::to_string(dims::kNoDim) + ")",
                     at.offset, at.length);
  }

  Expected<ParsedIn> inDim(size_t &totalBases) {
    ParsedIn in;
    lx_.peek();
    in.nameSpan.offset = lx_.pos();
    LK_TRY(in.name, lx_.readIdent("input dim name"));
    in.nameSpan.length = in.name.size();
    LK_CHECK(lx_.expect(':', "after the input dim name"));
    LK_CHECK(lx_.expect('[', "to open the bases of '" + in.name + "'"));
    if (lx_.consumeIf(']'))
      return in;
    while (true) {
      lx_.peek();
      ParsedBasis b;
      b.whole.offset = lx_.pos();
      LK_CHECK(lx_.expect('(', "to open a basis"));
      if (!lx_.consumeIf(')')) {
        while (true) {
          lx_.peek();
          Span s{lx_.pos(), 1};
          LK_TRY(int64_t v, lx_.readUint("basis value"));
          s.length = std::max<size_t>(1, lx_.pos() - s.offset);
          if (b.values.size() >= size_t(LinearLayout::kMaxDims))
            return lx_.error("a basis has more values than the 16 output "
                             "dims allowed",
                             s.offset, s.length);
          b.values.push_back(v);
          b.spans.push_back(s);
          if (lx_.consumeIf(','))
            continue;
          LK_CHECK(lx_.expect(')', "or ',' in a basis"));
          break;
        }
      }
      b.whole.length = std::max<size_t>(1, lx_.pos() - b.whole.offset);
      if (++totalBases > size_t(LinearLayout::kMaxBits))
        return lx_.error("more than 64 bases (input bits) in total",
                         b.whole.offset, b.whole.length);
      in.bases.push_back(std::move(b));
      if (lx_.consumeIf(','))
        continue;
      LK_CHECK(lx_.expect(']', "or ',' after a basis"));
      return in;
    }
  }

  Lexer lx_;
};

} // namespace

Expected<LinearLayout> parseLinearLayout(std::string_view text) {
  Parser p(text);
  LK_TRY(LinearLayout l, p.layout());
  LK_CHECK(p.lexer().expectEnd("end of linear layout"));
  return l;
}

} // namespace lk::linear
