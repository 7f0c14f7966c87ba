//===- Record.cpp - One description of every result -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Record.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace lk::api {

Value Value::ints(const std::vector<int64_t> &v) {
  List l;
  l.reserve(v.size());
  for (int64_t x : v)
    l.emplace_back(x);
  return l;
}

Value Value::strings(const std::vector<std::string> &v) {
  List l;
  l.reserve(v.size());
  for (const std::string &s : v)
    l.emplace_back(s);
  return l;
}

Value Value::json(std::string text) {
  Value v;
  v.v_ = Encoded{std::move(text)};
  return v;
}

Value Value::encodedInts(std::span<const int64_t> v) {
  std::string s = "[";
  s.reserve(v.size() * 4 + 2);
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return json(s + "]");
}

Record &Record::add(std::string key, Value v) {
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) {
      values_[i] = std::move(v);
      return *this;
    }
  keys_.push_back(std::move(key));
  values_.push_back(std::move(v));
  return *this;
}

const Value *Record::find(std::string_view key) const {
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key)
      return &values_[i];
  return nullptr;
}

namespace {

void writeString(std::string &out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

/// The shortest of %.15g .. %.17g that reads back as d, with ".0" added
/// to a whole number (36.0, not 36: a double stays a double in the JSON,
/// as every front end writes it); null for inf and nan.
void writeDouble(std::string &out, double d) {
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  char buf[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, d);
    if (digits == 17 || std::strtod(buf, nullptr) == d)
      break;
  }
  out += buf;
  if (std::strpbrk(buf, ".e") == nullptr)
    out += ".0";
}

void write(std::string &out, const Value &v) {
  switch (v.kind()) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += v.asBool() ? "true" : "false";
    return;
  case Value::Kind::Int:
    out += std::to_string(v.asInt());
    return;
  case Value::Kind::Double:
    writeDouble(out, v.asDouble());
    return;
  case Value::Kind::String:
    writeString(out, v.asString());
    return;
  case Value::Kind::List: {
    out += '[';
    const Value::List &l = v.asList();
    for (size_t i = 0; i < l.size(); ++i) {
      if (i)
        out += ',';
      write(out, l[i]);
    }
    out += ']';
    return;
  }
  case Value::Kind::Record: {
    out += '{';
    const Record &r = v.asRecord();
    for (size_t i = 0; i < r.size(); ++i) {
      if (i)
        out += ',';
      writeString(out, r.key(i));
      out += ':';
      write(out, r.value(i));
    }
    out += '}';
    return;
  }
  case Value::Kind::Json:
    out += v.asJson();
    return;
  }
}

} // namespace

std::string toJson(const Value &v) {
  std::string out;
  write(out, v);
  return out;
}

} // namespace lk::api
