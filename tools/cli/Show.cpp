//===- Show.cpp - Offset tables of layouts: text and SVG ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/Show.h"

#include "cli/Grid.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/cute/Algebra.h"

#include <algorithm>

namespace lk::cli {

std::string renderTable(const OffsetTable &table) {
  std::vector<std::string> texts;
  texts.reserve(table.cells.size());
  size_t width = std::to_string(std::max<int64_t>(table.cols - 1, 0)).size();
  for (const IntTuple &cell : table.cells) {
    texts.push_back(cell.str());
    width = std::max(width, texts.back().size());
  }
  size_t rowWidth = std::to_string(std::max<int64_t>(table.rows - 1, 0)).size();
  std::string indent(rowWidth + 1, ' ');

  std::string separator = indent;
  for (int64_t c = 0; c < table.cols; ++c)
    separator += "+" + std::string(width + 2, '-');
  separator += "+\n";

  std::string out = table.title + "\n" + indent;
  for (int64_t c = 0; c < table.cols; ++c)
    out += "  " + padLeft(std::to_string(c), width) +
           (c + 1 < table.cols ? " " : "");
  out += "\n" + separator;
  for (int64_t r = 0; r < table.rows; ++r) {
    out += padLeft(std::to_string(r), rowWidth) + " ";
    for (int64_t c = 0; c < table.cols; ++c)
      out += "| " + padLeft(texts[size_t(r * table.cols + c)], width) + " ";
    out += "|\n" + separator;
  }
  return out;
}

int paletteSlot(const IntTuple &offset) {
  int64_t key = 0;
  if (offset.isLeaf()) {
    key = offset.value();
  } else {
    for (const IntTuple::Node &leaf : offset.leaves())
      key += leaf.value;
  }
  return int(((key % 8) + 8) % 8);
}

std::string renderSvg(const OffsetTable &table) {
  Grid g(table.rows, table.cols);
  g.title = table.title;
  g.desc = "layoutkit show: cell (row, col) holds the layout's offset at "
           "that coordinate; the fill is chosen by offset mod 8.";
  for (size_t k = 0; k < table.cells.size(); ++k) {
    g.cells[k] = table.cells[k].str();
    g.colors[k] = paletteSlot(table.cells[k]);
  }
  return renderGridSvg(g);
}

} // namespace lk::cli
