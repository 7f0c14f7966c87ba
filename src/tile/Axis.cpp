//===- Axis.cpp - The axis registry ---------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// A fixed array of entries, filled once per axis and never moved, plus an
// atomic count: readers see every entry below the count without a lock;
// writers (registerAxis) serialize on a mutex.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/Axis.h"

#include <array>
#include <atomic>
#include <mutex>

namespace lk::tile {
namespace {

struct Entry {
  std::string name;
  AxisKind kind = AxisKind::Memory;
  std::string meaning;
};

/// The built-in axes, in id order (Axis::m() .. Axis::F()).
struct Builtin {
  const char *name;
  AxisKind kind;
  const char *meaning;
};
constexpr Builtin kBuiltinAxes[] = {
    {"m", AxisKind::Memory, "memory / register slot (default axis)"},
    {"laneid", AxisKind::Thread, "lane within a warp"},
    {"warpid", AxisKind::Thread, "warp within a CTA"},
    {"tid", AxisKind::Thread, "thread within a CTA (block-wide)"},
    {"tid_in_wg", AxisKind::Thread, "thread within a warpgroup"},
    {"wgid", AxisKind::Thread, "warpgroup within a CTA"},
    {"cta", AxisKind::Thread, "CTA within a cluster or grid"},
    {"pid", AxisKind::Device, "device in a mesh"},
    {"TLane", AxisKind::TensorMemory, "tensor-memory lane"},
    {"TCol", AxisKind::TensorMemory, "tensor-memory column (32-bit cell)"},
    {"P", AxisKind::Scratchpad, "scratchpad partition"},
    {"F", AxisKind::Scratchpad, "scratchpad free dimension"},
};
static_assert(std::size(kBuiltinAxes) == Axis::kBuiltins);

struct Registry {
  std::array<Entry, Axis::kMaxAxes> entries;
  std::atomic<size_t> count{0};
  std::mutex mutex;

  Registry() {
    for (size_t i = 0; i < Axis::kBuiltins; ++i)
      entries[i] = Entry{kBuiltinAxes[i].name, kBuiltinAxes[i].kind,
                         kBuiltinAxes[i].meaning};
    count.store(Axis::kBuiltins, std::memory_order_release);
  }

  size_t size() const { return count.load(std::memory_order_acquire); }

  int find(std::string_view name) const {
    size_t n = size();
    for (size_t i = 0; i < n; ++i)
      if (entries[i].name == name)
        return int(i);
    return -1;
  }
};

Registry &registry() {
  static Registry r;
  return r;
}

bool isIdentifier(std::string_view s) {
  auto alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (s.empty() || !alpha(s[0]))
    return false;
  for (char c : s)
    if (!alpha(c) && !digit(c))
      return false;
  return true;
}

} // namespace

std::string_view kindName(AxisKind k) {
  switch (k) {
  case AxisKind::Memory:
    return "memory";
  case AxisKind::Thread:
    return "thread";
  case AxisKind::Device:
    return "device";
  case AxisKind::TensorMemory:
    return "tensor memory";
  case AxisKind::Scratchpad:
    return "scratchpad";
  }
  return "?";
}

Expected<Axis> Axis::byName(std::string_view name) {
  int i = registry().find(name);
  if (i >= 0)
    return Axis(uint16_t(i));
  std::string known;
  for (Axis a : all())
    known += (known.empty() ? "" : ", ") + std::string(a.name());
  return Diagnostic::error("unknown axis '" + std::string(name) + "'")
      .note("known axes: " + known);
}

Expected<Axis> Axis::registerAxis(std::string_view name, AxisKind kind,
                                  std::string_view meaning) {
  if (!isIdentifier(name))
    return Diagnostic::error("axis name '" + std::string(name) +
                             "' is not an identifier [A-Za-z_][A-Za-z0-9_]*");
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  int i = r.find(name);
  if (i >= 0) {
    if (r.entries[size_t(i)].kind != kind)
      return Diagnostic::error(
          "axis '" + std::string(name) + "' is already registered as a " +
          std::string(kindName(r.entries[size_t(i)].kind)) + " axis, not " +
          std::string(kindName(kind)));
    return Axis(uint16_t(i));
  }
  size_t n = r.size();
  if (n >= kMaxAxes)
    return Diagnostic::error("cannot register axis '" + std::string(name) +
                             "': the registry holds at most " +
                             std::to_string(kMaxAxes) + " axes");
  r.entries[n] = Entry{std::string(name), kind, std::string(meaning)};
  r.count.store(n + 1, std::memory_order_release);
  return Axis(uint16_t(n));
}

std::vector<Axis> Axis::all() {
  std::vector<Axis> out;
  size_t n = registry().size();
  for (size_t i = 0; i < n; ++i)
    out.push_back(Axis(uint16_t(i)));
  return out;
}

std::string_view Axis::name() const { return registry().entries[id_].name; }
AxisKind Axis::kind() const { return registry().entries[id_].kind; }
std::string_view Axis::meaning() const {
  return registry().entries[id_].meaning;
}

} // namespace lk::tile
