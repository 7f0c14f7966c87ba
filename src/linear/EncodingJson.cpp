//===- EncodingJson.cpp - Triton's layout parameters as JSON text ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A recursive-descent reader of the JSON subset in EncodingJson.h over one
/// Lexer on the whole text; the members become EncodingFields with their
/// offsets, so makeEncoding() places its diagnostics in the text.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/EncodingJson.h"

#include "layoutkit/core/Lexer.h"
#include "layoutkit/linear/EncodingFields.h"

#include <cctype>
#include <charconv>
#include <memory>

namespace lk::linear {
namespace {

constexpr int kMaxParents = 8, kMaxListDepth = 4;
constexpr size_t kMaxListValues = 64;

class Reader {
public:
  explicit Reader(std::string_view text) : text_(text), lx_(text) {}

  Expected<Encoding> read() {
    if (lx_.peek() != '{')
      return lx_.expected("a JSON object of layout parameters, e.g. "
                          "{\"kind\": \"blocked\", ...}");
    LK_TRY(Encoding e, object(0));
    LK_CHECK(lx_.expectEnd("the end of the layout parameters"));
    return e;
  }

private:
  size_t here() {
    lx_.atEnd(); // skips blanks
    return lx_.pos();
  }

  /// `{"kind": "<kind>", "<field>": value, ...}`.
  Expected<Encoding> object(int parents) {
    size_t open = here();
    if (parents > kMaxParents)
      return lx_.error("objects nest deeper than 8 (a layout's parents nest "
                       "at most 8 deep)",
                       open);
    LK_CHECK(lx_.expect('{'));
    std::optional<std::string> kindName;
    size_t kindAt = open, kindEnd = open + 1;
    std::vector<EncodingField> fields;
    if (!lx_.consumeIf('}')) {
      while (true) {
        size_t at = here();
        LK_TRY(std::string key, string("a member name (a string)"));
        LK_CHECK(lx_.expect(':', "after the member name"));
        if (key == "kind") {
          if (kindName)
            return lx_.error("member 'kind' given twice", at, 6);
          kindAt = here();
          LK_TRY(kindName, string("the kind's name (a string)"));
          kindEnd = lx_.pos();
        } else {
          LK_TRY(FieldValue v, value(parents, 0));
          fields.push_back({std::move(key), std::move(v), at, lx_.pos() - at});
        }
        if (lx_.consumeIf('}'))
          break;
        LK_CHECK(lx_.expect(',', "between members (or '}' to close them)"));
      }
    }
    if (!kindName)
      return lx_.error("expected a layout object with a 'kind'", open);
    std::optional<EncodingKind> kind = encodingKindFromName(*kindName);
    if (!kind)
      return lx_
          .error("unknown layout kind '" + *kindName + "'", kindAt,
                 kindEnd - kindAt)
          .note("the kinds: blocked, nvidia_mma, amd_mfma, amd_wmma, "
                "intel_dpas, dot_operand, slice, swizzled_shared, "
                "nvmma_shared, shmem_for_reg_to_reg, linear");
    return makeEncoding(*kind, fields, text_, kindAt);
  }

  /// Any JSON value; those no field holds become OtherValue.
  Expected<FieldValue> value(int parents, int lists) {
    char c = lx_.peek();
    if (c == '{') {
      LK_TRY(Encoding p, object(parents + 1));
      return FieldValue(std::make_shared<const Encoding>(std::move(p)));
    }
    if (c == '[')
      return list(parents, lists + 1);
    if (c == '"') {
      LK_CHECK(string("a string"));
      return FieldValue(OtherValue{"a string"});
    }
    if (lx_.consumeIf("true"))
      return FieldValue(true);
    if (lx_.consumeIf("false"))
      return FieldValue(false);
    if (lx_.consumeIf("null"))
      return FieldValue(OtherValue{"null"});
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c)))
      return number();
    return lx_.expected("a value (an integer, true, false, a list '[..]' or "
                        "a parent layout '{..}')");
  }

  /// What a list's value `v` (its `count`-th) is, where it breaks the list:
  /// "a number that is not an integer (value 2)" for [1, 0.5], "a list among
  /// integers (value 2)" for [1, [0]], "an integer among lists (value 2)"
  /// for [[1], 0].
  static std::string otherText(const FieldValue &v, size_t count) {
    std::string what = "another value";
    if (const auto *o = std::get_if<OtherValue>(&v))
      what = o->description;
    else if (std::holds_alternative<int64_t>(v))
      what = "an integer among lists";
    else if (std::holds_alternative<std::vector<int64_t>>(v))
      what = "a list among integers";
    else if (std::holds_alternative<bool>(v))
      what = "a boolean";
    else if (std::holds_alternative<std::vector<std::vector<int64_t>>>(v))
      what = "a list of lists";
    else if (std::holds_alternative<std::shared_ptr<const Encoding>>(v))
      what = "a layout object";
    return what + " (value " + std::to_string(count) + ")";
  }

  /// `[1, 2]` (a list), `[[0, 1], [1, 0]]` (bases); `[]` is a list.
  Expected<FieldValue> list(int parents, int depth) {
    size_t open = here();
    if (depth > kMaxListDepth)
      return lx_.error("lists nest deeper than 4", open);
    LK_CHECK(lx_.expect('['));
    std::vector<int64_t> ints;
    std::vector<std::vector<int64_t>> bases;
    std::optional<std::string> other;
    size_t count = 0;
    if (lx_.consumeIf(']'))
      return FieldValue(std::move(ints));
    while (true) {
      if (++count > kMaxListValues)
        return lx_.error("a list of more than 64 values");
      LK_TRY(FieldValue v, value(parents, depth));
      auto *i = std::get_if<int64_t>(&v);
      auto *l = std::get_if<std::vector<int64_t>>(&v);
      if (i && bases.empty())
        ints.push_back(*i);
      else if (l && ints.empty())
        bases.push_back(std::move(*l));
      else if (!other) // the first value that does not fit, named
        other = "a list holding " + otherText(v, count);
      if (lx_.consumeIf(']'))
        break;
      LK_CHECK(lx_.expect(',', "between list values (or ']')"));
    }
    if (other)
      return FieldValue(OtherValue{*other});
    return bases.empty() ? FieldValue(std::move(ints))
                         : FieldValue(std::move(bases));
  }

  /// `-?digits`, an int64; a fraction or exponent makes it OtherValue.
  Expected<FieldValue> number() {
    size_t b = here(), p = b;
    if (p < text_.size() && text_[p] == '-')
      ++p;
    size_t digits = p;
    while (p < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[p])))
      ++p;
    if (p == digits)
      return lx_.error("expected a digit after '-'", p);
    size_t intEnd = p;
    if (p < text_.size() && text_[p] == '.') {
      for (++p; p < text_.size() &&
                std::isdigit(static_cast<unsigned char>(text_[p]));)
        ++p;
    }
    if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
      ++p;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-'))
        ++p;
      while (p < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[p])))
        ++p;
    }
    lx_.reset(p);
    if (p != intEnd)
      return FieldValue(OtherValue{"a number that is not an integer"});
    int64_t v = 0;
    auto [end, ec] = std::from_chars(text_.data() + b, text_.data() + p, v);
    if (ec != std::errc() || end != text_.data() + p)
      return lx_.error("integer does not fit in 64 bits", b, p - b);
    return FieldValue(v);
  }

  /// A JSON string with its escapes decoded (`\uXXXX` as UTF-8).
  Expected<std::string> string(std::string_view what) {
    if (lx_.peek() != '"')
      return lx_.expected(what);
    size_t p = lx_.pos() + 1;
    std::string s;
    while (p < text_.size() && text_[p] != '"') {
      unsigned char c = static_cast<unsigned char>(text_[p]);
      if (c < 0x20)
        return lx_.error("a control character in a string", p);
      if (c != '\\') {
        s += char(c);
        ++p;
        continue;
      }
      LK_TRY(p, escape(p, s));
    }
    if (p >= text_.size())
      return lx_.error("unclosed string", lx_.pos());
    lx_.reset(p + 1);
    return s;
  }

  /// The escape at `p` (a backslash) appended to `s`; the offset after it.
  Expected<size_t> escape(size_t p, std::string &s) {
    char e = p + 1 < text_.size() ? text_[p + 1] : '\0';
    constexpr std::string_view from = "\"\\/bfnrt", to = "\"\\/\b\f\n\r\t";
    if (size_t k = from.find(e); e && k != std::string_view::npos) {
      s += to[k];
      return p + 2;
    }
    if (e != 'u')
      return lx_.error("unknown escape in a string", p, 2);
    unsigned cp = 0;
    if (p + 6 > text_.size() ||
        std::from_chars(text_.data() + p + 2, text_.data() + p + 6, cp, 16)
                .ptr != text_.data() + p + 6)
      return lx_.error("expected four hex digits after '\\u'", p, 2);
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xC0 | cp >> 6);
      s += char(0x80 | (cp & 0x3F));
    } else {
      s += char(0xE0 | cp >> 12);
      s += char(0x80 | (cp >> 6 & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    }
    return p + 6;
  }

  std::string_view text_;
  Lexer lx_;
};

} // namespace

Expected<Encoding> parseEncodingJson(std::string_view text) {
  return Reader(text).read();
}

} // namespace lk::linear
