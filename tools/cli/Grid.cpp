//===- Grid.cpp - Labelled tables as text and SVG -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/Grid.h"

#include <algorithm>
#include <array>

namespace lk::cli {

namespace {

/// Twelve light fills that stay readable under black text.
constexpr std::array<const char *, 12> kFills = {
    "#f4cccc", "#fce5cd", "#fff2cc", "#d9ead3", "#d0e0e3", "#cfe2f3",
    "#d9d2e9", "#ead1dc", "#e6b8af", "#b6d7a8", "#a4c2f4", "#ffe599"};

const char *fill(int64_t key) {
  if (key < 0)
    return "#ffffff";
  return kFills[size_t(key % int64_t(kFills.size()))];
}

} // namespace

std::string padLeft(const std::string &s, size_t width) {
  return std::string(width - std::min(width, s.size()), ' ') + s;
}

std::string xmlEscape(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      out += ch;
    }
  }
  return out;
}

Grid::Grid(int64_t r, int64_t c)
    : rows(r), cols(c), rowLabels(size_t(r)), colLabels(size_t(c)),
      cells(size_t(r * c)), colors(size_t(r * c), -1) {
  for (int64_t k = 0; k < r; ++k)
    rowLabels[size_t(k)] = std::to_string(k);
  for (int64_t k = 0; k < c; ++k)
    colLabels[size_t(k)] = std::to_string(k);
}

std::string renderGridText(const Grid &g) {
  size_t labelW = 0;
  for (const std::string &l : g.rowLabels)
    labelW = std::max(labelW, l.size());
  std::vector<size_t> colW(size_t(g.cols), 1);
  for (int64_t c = 0; c < g.cols; ++c) {
    colW[size_t(c)] = std::max<size_t>(1, g.colLabels[size_t(c)].size());
    for (int64_t r = 0; r < g.rows; ++r)
      colW[size_t(c)] =
          std::max(colW[size_t(c)], g.cells[size_t(r * g.cols + c)].size());
  }
  std::string out;
  if (!g.title.empty())
    out += g.title + "\n";
  if (!g.legend.empty())
    out += g.legend + "\n";
  out += std::string(labelW, ' ');
  for (int64_t c = 0; c < g.cols; ++c)
    out += "  " + padLeft(g.colLabels[size_t(c)], colW[size_t(c)]);
  out += "\n";
  for (int64_t r = 0; r < g.rows; ++r) {
    out += padLeft(g.rowLabels[size_t(r)], labelW);
    for (int64_t c = 0; c < g.cols; ++c)
      out += "  " + padLeft(g.cells[size_t(r * g.cols + c)], colW[size_t(c)]);
    // No trailing blanks.
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    out += "\n";
  }
  return out;
}

std::string renderGridSvg(const Grid &g) {
  size_t longest = 1;
  for (const std::string &s : g.cells)
    longest = std::max(longest, s.size());
  for (const std::string &s : g.colLabels)
    longest = std::max(longest, s.size());
  size_t labelLen = 1;
  for (const std::string &s : g.rowLabels)
    labelLen = std::max(labelLen, s.size());
  const int64_t cellW = std::max<int64_t>(32, 12 + 8 * int64_t(longest));
  const int64_t cellH = 26;
  const int64_t left = 12 + 8 * int64_t(labelLen);
  const int64_t top = cellH + (g.legend.empty() ? 0 : cellH);
  const int64_t width = left + g.cols * cellW + 2;
  const int64_t height = top + g.rows * cellH + 2;
  std::string w = std::to_string(width), h = std::to_string(height);
  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
         "\" font-family=\"monospace\" font-size=\"12\">\n";
  out += "<title>" + xmlEscape(g.title) + "</title>\n";
  if (!g.desc.empty())
    out += "<desc>" + xmlEscape(g.desc) + "</desc>\n";
  if (!g.legend.empty())
    out += "<text x=\"4\" y=\"" + std::to_string(cellH / 2) +
           "\" dominant-baseline=\"central\">" + xmlEscape(g.legend) +
           "</text>\n";
  out += "<g stroke=\"#333333\" stroke-width=\"1\">\n";
  for (int64_t r = 0; r < g.rows; ++r)
    for (int64_t c = 0; c < g.cols; ++c)
      out += "<rect x=\"" + std::to_string(left + c * cellW) + "\" y=\"" +
             std::to_string(top + r * cellH) + "\" width=\"" +
             std::to_string(cellW) + "\" height=\"" + std::to_string(cellH) +
             "\" fill=\"" + fill(g.colors[size_t(r * g.cols + c)]) + "\"/>\n";
  out += "</g>\n";
  out += "<g text-anchor=\"middle\" dominant-baseline=\"central\" "
         "fill=\"#000000\">\n";
  for (int64_t c = 0; c < g.cols; ++c)
    out += "<text x=\"" + std::to_string(left + c * cellW + cellW / 2) +
           "\" y=\"" + std::to_string(top - cellH / 2) + "\">" +
           xmlEscape(g.colLabels[size_t(c)]) + "</text>\n";
  for (int64_t r = 0; r < g.rows; ++r) {
    out += "<text x=\"" + std::to_string(left / 2) + "\" y=\"" +
           std::to_string(top + r * cellH + cellH / 2) + "\">" +
           xmlEscape(g.rowLabels[size_t(r)]) + "</text>\n";
    for (int64_t c = 0; c < g.cols; ++c) {
      const std::string &s = g.cells[size_t(r * g.cols + c)];
      if (!s.empty())
        out += "<text x=\"" + std::to_string(left + c * cellW + cellW / 2) +
               "\" y=\"" + std::to_string(top + r * cellH + cellH / 2) + "\">" +
               xmlEscape(s) + "</text>\n";
    }
  }
  out += "</g>\n</svg>\n";
  return out;
}

} // namespace lk::cli
