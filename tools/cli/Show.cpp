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
#include <array>

namespace lk::cli {

namespace {

std::string leftPad(const std::string &s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

/// Eight light fills, distinct enough to tell neighbouring offsets apart.
constexpr std::array<const char *, 8> kPalette = {
    "#f4cccc", "#fce5cd", "#fff2cc", "#d9ead3",
    "#d0e0e3", "#cfe2f3", "#d9d2e9", "#ead1dc"};

} // namespace

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
    out += "  " + leftPad(std::to_string(c), width) +
           (c + 1 < table.cols ? " " : "");
  out += "\n" + separator;
  for (int64_t r = 0; r < table.rows; ++r) {
    out += leftPad(std::to_string(r), rowWidth) + " ";
    for (int64_t c = 0; c < table.cols; ++c)
      out += "| " + leftPad(texts[size_t(r * table.cols + c)], width) + " ";
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
  size_t digits = 1;
  for (const IntTuple &cell : table.cells)
    digits = std::max(digits, cell.str().size());
  const int64_t cellW = std::max<int64_t>(36, 14 + 8 * int64_t(digits));
  const int64_t cellH = 28;
  const int64_t left = std::max<int64_t>(
      cellH, 14 + 8 * int64_t(std::to_string(table.rows).size()));
  const int64_t top = cellH;
  const int64_t width = left + table.cols * cellW + 2;
  const int64_t height = top + table.rows * cellH + 2;
  std::string w = std::to_string(width), h = std::to_string(height);

  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
         "\" font-family=\"monospace\" font-size=\"13\">\n";
  out += "<title>" + xmlEscape(table.title) + "</title>\n";
  out += "<desc>layoutkit show: cell (row, col) holds the layout's offset at "
         "that coordinate; the fill is chosen by offset mod 8.</desc>\n";

  out += "<g stroke=\"#333333\" stroke-width=\"1\">\n";
  for (int64_t r = 0; r < table.rows; ++r) {
    for (int64_t c = 0; c < table.cols; ++c) {
      out += "<rect x=\"" + std::to_string(left + c * cellW) + "\" y=\"" +
             std::to_string(top + r * cellH) + "\" width=\"" +
             std::to_string(cellW) + "\" height=\"" + std::to_string(cellH) +
             "\" fill=\"" + kPalette[size_t(paletteSlot(table.at(r, c)))] +
             "\"/>\n";
    }
  }
  out += "</g>\n";

  out += "<g text-anchor=\"middle\" dominant-baseline=\"central\" "
         "fill=\"#000000\">\n";
  for (int64_t r = 0; r < table.rows; ++r) {
    for (int64_t c = 0; c < table.cols; ++c) {
      out += "<text x=\"" + std::to_string(left + c * cellW + cellW / 2) +
             "\" y=\"" + std::to_string(top + r * cellH + cellH / 2) + "\">" +
             xmlEscape(table.at(r, c).str()) + "</text>\n";
    }
  }
  out += "</g>\n";

  out += "<g text-anchor=\"middle\" dominant-baseline=\"central\" "
         "fill=\"#666666\">\n";
  for (int64_t c = 0; c < table.cols; ++c)
    out += "<text x=\"" + std::to_string(left + c * cellW + cellW / 2) +
           "\" y=\"" + std::to_string(top / 2) + "\">" + std::to_string(c) +
           "</text>\n";
  for (int64_t r = 0; r < table.rows; ++r)
    out += "<text x=\"" + std::to_string(left / 2) + "\" y=\"" +
           std::to_string(top + r * cellH + cellH / 2) + "\">" +
           std::to_string(r) + "</text>\n";
  out += "</g>\n</svg>\n";
  return out;
}

} // namespace lk::cli
