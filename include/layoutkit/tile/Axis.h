//===- Axis.h - Named hardware axes of tile layouts --------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A tile layout (TileLayout.h) places a logical tile on *named* axes. An
/// axis carries its hardware meaning in its name, so `1@tid` (block-wide
/// thread id) and `1@tid_in_wg` (thread id within a warpgroup) are distinct
/// axes, not one generic `t` whose meaning depends on the definition site.
///
/// Every axis has a kind:
///
///   name       kind           meaning
///   m          Memory         memory / register slot (default: `4` == `4@m`)
///   laneid     Thread         lane within a warp
///   warpid     Thread         warp within a CTA
///   tid        Thread         thread within a CTA (block-wide)
///   tid_in_wg  Thread         thread within a warpgroup
///   wgid       Thread         warpgroup within a CTA
///   cta        Thread         CTA within a cluster / grid
///   pid        Device         device (GPU) in a mesh
///   TLane      TensorMemory   Blackwell tensor-memory lane
///   TCol       TensorMemory   Blackwell tensor-memory column (32-bit cell)
///   P          Scratchpad     scratchpad partition
///   F          Scratchpad     scratchpad free dimension
///
/// The built-in axes have fixed ids (Axis::m() has id 0). Users register
/// more with Axis::registerAxis(); registration is thread-safe and an axis,
/// once registered, lives for the whole program. Unknown names are an
/// error, never guessed:
///
/// Examples:
///   Axis::byName("laneid")  -> Axis::laneid()
///   Axis::byName("lane")    -> error "unknown axis 'lane'"
///   Axis::registerAxis("vreg", AxisKind::Memory, "vector register")
///                           -> a new axis; byName("vreg") finds it
///   Axis::registerAxis("tid", AxisKind::Memory, "") -> error: "tid" is
///                              already a Thread axis
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TILE_AXIS_H
#define LAYOUTKIT_TILE_AXIS_H

#include "layoutkit/core/Expected.h"

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lk::tile {

/// What kind of hardware resource an axis indexes.
enum class AxisKind : uint8_t {
  Memory,       ///< addresses in registers / shared / global memory
  Thread,       ///< lanes, warps, threads, warpgroups, CTAs
  Device,       ///< devices of a mesh
  TensorMemory, ///< Blackwell tensor memory (TLane x TCol)
  Scratchpad,   ///< accelerator scratchpad (partition P x free F)
};

/// "memory", "thread", "device", "tensor memory", "scratchpad".
std::string_view kindName(AxisKind k);

/// A named axis: a small handle (trivially copyable) into the process-wide
/// axis registry. The default-constructed Axis is the memory axis `m`.
class Axis {
public:
  /// Most axes the registry holds (built-ins included). Ids fit a cute
  /// basis index (BasisPath::kMaxIndex == 254), which the bridge relies on.
  static constexpr size_t kMaxAxes = 255;

  constexpr Axis() = default;

  /// The built-in axes (ids 0..11 in the order of the table above).
  static constexpr Axis m() { return Axis(0); }
  static constexpr Axis laneid() { return Axis(1); }
  static constexpr Axis warpid() { return Axis(2); }
  static constexpr Axis tid() { return Axis(3); }
  static constexpr Axis tid_in_wg() { return Axis(4); }
  static constexpr Axis wgid() { return Axis(5); }
  static constexpr Axis cta() { return Axis(6); }
  static constexpr Axis pid() { return Axis(7); }
  static constexpr Axis TLane() { return Axis(8); }
  static constexpr Axis TCol() { return Axis(9); }
  static constexpr Axis P() { return Axis(10); }
  static constexpr Axis F() { return Axis(11); }
  /// Number of built-in axes.
  static constexpr size_t kBuiltins = 12;

  /// The axis named `name` (case-sensitive), or "unknown axis 'name'" with a
  /// note listing the known axes.
  static Expected<Axis> byName(std::string_view name);
  /// Registers a new axis. `name` must be an identifier [A-Za-z_][A-Za-z0-9_]*.
  /// Registering an existing name again with the same kind returns that axis;
  /// with another kind it is an error. Fails when kMaxAxes are registered.
  static Expected<Axis> registerAxis(std::string_view name, AxisKind kind,
                                     std::string_view meaning);
  /// Every registered axis, built-ins first, in id order.
  static std::vector<Axis> all();

  /// The axis with id `id`. @pre id < number of registered axes
  static constexpr Axis fromId(uint16_t id) { return Axis(id); }

  uint16_t id() const { return id_; }
  std::string_view name() const;
  AxisKind kind() const;
  /// One line of hardware meaning, e.g. "lane within a warp".
  std::string_view meaning() const;
  bool isMemory() const { return id_ == 0; }

  friend constexpr bool operator==(Axis a, Axis b) { return a.id_ == b.id_; }
  friend constexpr auto operator<=>(Axis a, Axis b) { return a.id_ <=> b.id_; }

private:
  constexpr explicit Axis(uint16_t id) : id_(id) {}
  uint16_t id_ = 0;
};

} // namespace lk::tile

#endif // LAYOUTKIT_TILE_AXIS_H
