//===- LinearJson.cpp - Layout parameters as JSON -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The JSON-to-fields mapping of a standard layout: every member but `kind`
// becomes a named field value and linear::makeEncoding does the checking
// (names, types, ranges, consistency), as for TTGIR text and Python dicts.
//
//===----------------------------------------------------------------------===//

#include "cli/LinearJson.h"

#include "layoutkit/linear/EncodingFields.h"

#include <memory>

namespace lk::cli {

using nlohmann::json;
using namespace lk::linear;

namespace {

/// An integer in int64 (an unsigned above INT64_MAX is another value).
std::optional<int64_t> integer(const json &j) {
  if (j.is_number_unsigned() && j.get<uint64_t>() > uint64_t(INT64_MAX))
    return std::nullopt;
  if (!j.is_number_integer())
    return std::nullopt;
  return j.get<int64_t>();
}

Expected<FieldValue> fieldValue(const json &j, int depth);

/// A list of integers, or a list of lists of integers (bases).
FieldValue listValue(const json &j) {
  std::vector<int64_t> ints;
  std::vector<std::vector<int64_t>> bases;
  for (const json &e : j) {
    if (std::optional<int64_t> v = integer(e); v && bases.empty()) {
      ints.push_back(*v);
      continue;
    }
    if (!e.is_array() || !ints.empty())
      return OtherValue{"a list that holds " + std::string(e.type_name()) +
                        " values"};
    std::vector<int64_t> basis;
    for (const json &x : e) {
      std::optional<int64_t> v = integer(x);
      if (!v)
        return OtherValue{"a list of lists that holds a non-integer"};
      basis.push_back(*v);
    }
    bases.push_back(std::move(basis));
  }
  if (!bases.empty())
    return bases;
  return ints;
}

Expected<Encoding> encodingAt(const json &j, int depth);

Expected<FieldValue> fieldValue(const json &j, int depth) {
  if (std::optional<int64_t> v = integer(j))
    return FieldValue(*v);
  if (j.is_boolean())
    return FieldValue(j.get<bool>());
  if (j.is_array())
    return listValue(j);
  if (j.is_object()) {
    LK_TRY(Encoding p, encodingAt(j, depth + 1));
    return FieldValue(std::make_shared<const Encoding>(std::move(p)));
  }
  return FieldValue(OtherValue{j.is_number() ? "a number that is not an "
                                               "integer in int64"
                                             : "a " + std::string(j.type_name())});
}

Expected<Encoding> encodingAt(const json &j, int depth) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
    return Diagnostic::error("expected a layout object with a 'kind'");
  if (depth > 8)
    return Diagnostic::error("layout parents nest deeper than 8");
  std::string name = j["kind"].get<std::string>();
  std::optional<EncodingKind> kind = encodingKindFromName(name);
  if (!kind)
    return Diagnostic::error("unknown layout kind '" + name + "'");
  std::vector<EncodingField> fields;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "kind")
      continue;
    LK_TRY(FieldValue v, fieldValue(it.value(), depth));
    fields.push_back({it.key(), std::move(v)});
  }
  return makeEncoding(*kind, fields);
}

} // namespace

Expected<Encoding> encodingFromJson(const json &j) { return encodingAt(j, 0); }

} // namespace lk::cli
