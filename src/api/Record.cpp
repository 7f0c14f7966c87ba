//===- Record.cpp - One description of every result -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Record.h"

#include <cmath>
#include <cstdio>

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

void writeDouble(std::string &out, double d) {
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  // The shortest of %.15g .. %.17g that reads back as d.
  for (int digits = 15; digits < 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, d);
    if (std::strtod(shorter, nullptr) == d) {
      out += shorter;
      return;
    }
  }
  out += buf;
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
