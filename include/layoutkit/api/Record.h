//===- Record.h - One description of every result ----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A result of the api layer described as a tree of named fields, the one
/// form every front end serializes: the CLI's `--json` and the wasm module
/// write it as JSON text (toJson below), the Python module turns it into
/// attributes and dicts. The api layer builds the description once per
/// result type (api/Describe.h), so the three front ends show the same keys
/// with one spelling (snake_case) and the same values.
///
/// A Value is null, a bool, an int64, a double, a string, a list of Values
/// or a Record, or JSON text already encoded (Value::json: a front end's
/// large list, written as it is); a Record is an ordered list of (key, Value)
/// fields with distinct keys.
///
/// Example:
///   Record r;
///   r.add("layout", "(8,4):(1,8)").add("size", 32)
///    .add("shape", Value::List{8, 4}).add("cosize", Value());
///   toJson(r) == R"({"layout":"(8,4):(1,8)","size":32,"shape":[8,4],)"
///                R"("cosize":null})"
///
/// Edge cases: toJson escapes quotes, backslashes and control characters
/// (\u00XX) and writes a double with up to 17 significant digits (a
/// non-finite double as null, which JSON cannot spell otherwise); adding a
/// key twice replaces the first value in place.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_RECORD_H
#define LAYOUTKIT_API_RECORD_H

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace lk::api {

class Record;

/// One field's value: null, bool, integer, double, string, list or record.
class Value {
public:
  using List = std::vector<Value>;
  enum class Kind { Null, Bool, Int, Double, String, List, Record, Json };

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : v_(b) {}
  Value(int i) : v_(int64_t(i)) {}
  Value(int64_t i) : v_(i) {}
  Value(double d) : v_(d) {}
  Value(const char *s) : v_(std::string(s)) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(std::string_view s) : v_(std::string(s)) {}
  Value(List l) : v_(std::move(l)) {}
  Value(Record r);
  /// A list of integers, e.g. a shape.
  static Value ints(const std::vector<int64_t> &v);
  /// A list of strings, e.g. axis names.
  static Value strings(const std::vector<std::string> &v);
  /// Pre-encoded JSON text, written by toJson as it is. @pre `text` is one
  /// valid JSON value (the caller encoded it).
  static Value json(std::string text);
  /// A list of integers encoded at once (Kind::Json, "[1,2,3]"): a long
  /// list without a Value per item.
  static Value encodedInts(std::span<const int64_t> v);

  Kind kind() const { return Kind(v_.index()); }
  bool isNull() const { return kind() == Kind::Null; }
  bool asBool() const { return std::get<bool>(v_); }
  int64_t asInt() const { return std::get<int64_t>(v_); }
  double asDouble() const { return std::get<double>(v_); }
  const std::string &asString() const { return std::get<std::string>(v_); }
  const List &asList() const { return std::get<List>(v_); }
  const Record &asRecord() const {
    return *std::get<std::shared_ptr<Record>>(v_);
  }
  /// The text of a Kind::Json value.
  const std::string &asJson() const { return std::get<Encoded>(v_).text; }

private:
  struct Encoded {
    std::string text;
  };
  std::variant<std::monostate, bool, int64_t, double, std::string, List,
               std::shared_ptr<Record>, Encoded>
      v_;
};

/// An ordered set of named fields.
class Record {
public:
  /// Sets field `key` to `v` (replacing an earlier value of the key).
  Record &add(std::string key, Value v);
  /// The value of `key`, or nullptr.
  const Value *find(std::string_view key) const;
  size_t size() const { return keys_.size(); }
  const std::string &key(size_t i) const { return keys_[i]; }
  const Value &value(size_t i) const { return values_[i]; }

private:
  std::vector<std::string> keys_;
  std::vector<Value> values_;
};

inline Value::Value(Record r) : v_(std::make_shared<Record>(std::move(r))) {}

/// `v` as compact JSON text (see the file comment for the edge cases).
std::string toJson(const Value &v);

} // namespace lk::api

#endif // LAYOUTKIT_API_RECORD_H
