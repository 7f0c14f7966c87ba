//===- Grid.h - Labelled tables as text and SVG -------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A `Grid` is a rows x cols table of short texts with row and column labels
/// and a colour key per cell. The CLI draws its SVG pictures with it: the
/// offset table of `show`, the logical tile coloured by owner (`tile
/// show`), the line x bank view of a memory layout (`tile banks`).
///
/// Example (text):
///         0    1
///   0  |  a  | b
///   1  |  c  |
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_GRID_H
#define LAYOUTKIT_TOOLS_GRID_H

#include <cstdint>
#include <string>
#include <vector>

namespace lk::cli {

struct Grid {
  /// Printed above the table (text) or as the SVG title.
  std::string title;
  /// Says what a cell holds; printed under the title.
  std::string legend;
  /// The SVG's <desc> (none when empty; not in the text).
  std::string desc;
  int64_t rows = 0;
  int64_t cols = 0;
  /// The row and column numbers ("0", "1", ...) unless set otherwise.
  std::vector<std::string> rowLabels;
  std::vector<std::string> colLabels;
  /// rows * cols texts, row-major.
  std::vector<std::string> cells;
  /// rows * cols colour keys (any integer; equal keys, equal colours; -1 is
  /// an empty cell drawn white).
  std::vector<int64_t> colors;

  Grid(int64_t rows, int64_t cols);
  std::string &cell(int64_t r, int64_t c) {
    return cells[size_t(r * cols + c)];
  }
  int64_t &color(int64_t r, int64_t c) { return colors[size_t(r * cols + c)]; }
};

/// Escapes the five XML special characters (& < > " ').
std::string xmlEscape(const std::string &s);

/// `s` right-aligned in `width` columns (as is when longer).
std::string padLeft(const std::string &s, size_t width);

/// Columns padded to their widest entry, separated by two spaces.
std::string renderGridText(const Grid &g);
/// A standalone SVG document: one rectangle per cell filled by its colour
/// key, its text centred, the labels along the top and left.
std::string renderGridSvg(const Grid &g);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_GRID_H
