// A program outside LayoutKit that uses two of its layers through the
// installed package (find_package) or through add_subdirectory. Its output
// is compared with consumer.expected by RunConsumer.cmake.
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Text.h"

#include <cstdio>

using namespace lk;

static Status run() {
  // cute: the 8x8 blocks of a 16x16 row-major tile; element (1,2) of
  // block (1,0) is row 8+1, column 2: 9*16+2 = 146.
  LK_TRY(cute::Layout tile, cute::parseLayout("(16,16):(16,1)"));
  LK_TRY(cute::Tiler blocks, cute::parseTiler("(8:1,8:1)"));
  LK_TRY(cute::Layout tiled, cute::zipped_divide(tile, blocks));
  LK_TRY(IntTuple coord, cute::parseIntTuple("((1,2),(1,0))"));
  LK_TRY(int64_t offset, cute::crd2idx(coord, tiled));
  std::printf("cute   %s (1,2) of block (1,0) -> %lld\n", tiled.str().c_str(),
              (long long)offset);

  // linear: register 1 of lane 5 = bits r0, l0, l2: (0,1)^(0,2)^(1,0) = (1,3).
  LK_TRY(
      linear::LinearLayout acc,
      linear::parseLinearLayout("{register: [(0,1)], lane: [(0,2), (0,4), "
                                "(1,0), (2,0), (4,0)]} -> {dim0: 8, dim1: 8}"));
  LK_TRY(std::vector<int64_t> rc, acc.apply({1, 5}));
  std::printf("linear register 1, lane 5 -> (%lld,%lld)\n", (long long)rc[0],
              (long long)rc[1]);
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
