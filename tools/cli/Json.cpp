//===- Json.cpp - JSON encoding of layoutkit values -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/Json.h"

#include "layoutkit/api/Describe.h"

namespace lk::cli {

JsonValue jsonOf(const api::Value &v) {
  switch (v.kind()) {
  case api::Value::Kind::Null:
    return nullptr;
  case api::Value::Kind::Bool:
    return v.asBool();
  case api::Value::Kind::Int:
    return v.asInt();
  case api::Value::Kind::Double:
    return v.asDouble();
  case api::Value::Kind::String:
    return v.asString();
  case api::Value::Kind::List: {
    JsonValue a = JsonValue::array();
    for (const api::Value &x : v.asList())
      a.push_back(jsonOf(x));
    return a;
  }
  case api::Value::Kind::Record: {
    const api::Record &r = v.asRecord();
    JsonValue o = JsonValue::object();
    for (size_t i = 0; i < r.size(); ++i)
      o[r.key(i)] = jsonOf(r.value(i));
    return o;
  }
  case api::Value::Kind::Json:
    return JsonValue::parse(v.asJson());
  }
  return nullptr;
}

JsonValue toJson(const IntTuple &t) { return jsonOf(api::describe(t)); }

JsonValue toJson(const cute::Layout &l) { return jsonOf(api::describe(l)); }

JsonValue toJson(const cute::ComposedLayout &c) {
  return jsonOf(api::describe(c));
}

JsonValue errorToJson(const Diagnostic &d) {
  return {{"error", jsonOf(api::describe(d))}};
}

} // namespace lk::cli
