//===- quickstart.cpp - The LayoutKit library API in one page -------------===//
//
// Parses CuTe layouts, runs the algebra, evaluates offsets and shows how an
// error comes back as a value. Built with LK_BUILD_EXAMPLES (default ON);
// the ctest `example.quickstart` checks its output (quickstart.expected).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/cute/Text.h"

#include <cstdio>

using namespace lk;
using namespace lk::cute;

// Every fallible call returns lk::Expected<T>; LK_TRY unwraps the value or
// returns the Diagnostic from the enclosing function.
Status run() {
  // A 128x64 row-major tile: (row, col) -> 64*row + col.
  LK_TRY(Layout tile, parseLayout("(128,64):(64,1)"));
  std::printf("tile        %s  size %lld\n", tile.str().c_str(),
              (long long)tile.size());

  // Split it into 8x8 blocks: ((row, col in block), (block row, block col)).
  LK_TRY(Tiler blocks, parseTiler("(8:1,8:1)"));
  LK_TRY(Layout tiled, zipped_divide(tile, blocks));
  std::printf("8x8 blocks  %s\n", tiled.str().c_str());

  // Element (1,2) of block (3,0) is row 3*8+1, column 2: 25*64+2.
  LK_TRY(IntTuple coord, parseIntTuple("((1,2),(3,0))"));
  LK_TRY(int64_t offset, crd2idx(coord, tiled));
  std::printf("offset      %lld\n", (long long)offset);

  // composition(A, B)(c) = A(B(c)): B picks elements of A by their 1-D
  // (colexicographic) index r + 128*c. Here: the top-left 8x8 block.
  LK_TRY(Layout pick, parseLayout("(8,8):(1,128)"));
  LK_TRY(Layout block, composition(tile, pick));
  std::printf("block 0     %s\n", block.str().c_str());

  // The 128-byte swizzle of an 8x64 f16 tile, on element offsets: the
  // 16-byte chunk c (8 f16) of row r is stored at chunk c XOR r.
  LK_TRY(ComposedLayout sw, parseComposedLayout("Sw<3,3,3> o (8,64):(64,1)"));
  LK_TRY(IntTuple row1, parseIntTuple("(1,0)"));
  LK_TRY(int64_t swizzled, crd2idx(row1, sw)); // 64 -> 72
  std::printf("swizzled    %s  (1,0) -> %lld\n", sw.str().c_str(),
              (long long)swizzled);

  // Errors are values: no exception crosses the API.
  LK_TRY(Layout a, parseLayout("(6,4,8):(32,8,1)"));
  LK_TRY(Layout b, parseLayout("6:8"));
  Expected<Layout> bad = composition(a, b);
  std::printf("error       %s\n", bad ? "none" : bad.error().message.c_str());
  return Ok{};
}

int main() {
  Status s = run();
  if (!s) {
    std::fputs(s.error().render().c_str(), stderr);
    return 1;
  }
  return 0;
}
