//===- Padded.cpp - Linear layouts of non-power-of-two shapes -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Padded.h"

#include "layoutkit/core/Checked.h"

#include <cstdio>

namespace lk::linear {

Expected<int64_t> nextPow2(int64_t n) {
  return checkedNextPow2(n, "the padded extent");
}

Expected<std::vector<int64_t>> paddedShape(std::span<const int64_t> logical) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < logical.size(); ++d) {
    if (logical[d] < 1 || logical[d] > (int64_t(1) << 62))
      return Diagnostic::error("extent " + std::to_string(logical[d]) +
                               " of dim " + std::to_string(d) +
                               " is not in [1, 2^62]");
    LK_TRY(int64_t p, nextPow2(logical[d]));
    out.push_back(p);
  }
  return out;
}

std::string rangesText(std::span<const int64_t> values) {
  std::string s;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1)
      ++j;
    if (!s.empty())
      s += ", ";
    s += std::to_string(values[i]);
    if (j > i)
      s += ".." + std::to_string(values[j]);
    i = j + 1;
  }
  return s;
}

namespace {

std::string percent(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g%%", f * 100);
  return buf;
}

} // namespace

std::string Waste::str() const {
  std::string s = std::to_string(paddedElements) + " of " +
                  std::to_string(elements) + " elements padded (" +
                  percent(fraction) + "); " + std::to_string(maskedSlots) +
                  " of " + std::to_string(slots) + " slots masked";
  for (const MaskedInputs &m : masked)
    if (!m.values.empty())
      s += "; " + std::string(dimName(m.dim)) + ": " +
           std::to_string(m.values.size()) + " of " + std::to_string(m.size) +
           " masked (" + rangesText(m.values) + ")";
  return s;
}

Expected<PaddedLayout> PaddedLayout::make(LinearLayout layout,
                                          std::span<const int64_t> logical) {
  if (int(logical.size()) != layout.numOutDims())
    return Diagnostic::error("the logical shape has " +
                             std::to_string(logical.size()) +
                             " extents, the layout " +
                             std::to_string(layout.numOutDims()) + " out-dims")
        .about("logical");
  if (layout.totalOutBits() > 62)
    return Diagnostic::error("the layout has " +
                             std::to_string(layout.totalOutBits()) +
                             " output bits; a padded layout has at most 62");
  Expected<std::vector<int64_t>> padded = paddedShape(logical);
  if (!padded)
    return std::move(padded).error().about("logical");
  for (int d = 0; d < layout.numOutDims(); ++d) {
    const int64_t size = layout.outDim(d).size(); // 2^k, k <= 62
    if (size == (*padded)[size_t(d)])
      continue;
    const std::string dim(dimName(layout.outDim(d).id));
    return Diagnostic::error(
               "the logical extent " + std::to_string(logical[size_t(d)]) +
               " of " + dim + " pads to " +
               std::to_string((*padded)[size_t(d)]) + ", but the layout's " +
               dim + " has size " + std::to_string(size) +
               " (an extent pads to the next power of two, so " + dim +
               "'s must be " +
               (size <= 2 ? std::to_string(size) // 1 or 2 pads to itself
                          : "in " + std::to_string(size / 2 + 1) + ".." +
                                std::to_string(size)) +
               ")")
        .about("logical");
  }
  PaddedLayout p;
  p.layout_ = std::move(layout);
  p.logical_.assign(logical.begin(), logical.end());
  return p;
}

bool PaddedLayout::isPadded() const {
  for (int d = 0; d < layout_.numOutDims(); ++d)
    if (layout_.outDim(d).size() != logical_[size_t(d)])
      return true;
  return false;
}

bool PaddedLayout::validOut(uint64_t y) const {
  for (int d = 0; d < layout_.numOutDims(); ++d) {
    uint64_t v = (y >> layout_.outShift(d)) &
                 ((uint64_t(1) << layout_.outDim(d).log2) - 1);
    if (int64_t(v) >= logical_[size_t(d)])
      return false;
  }
  return true;
}

int64_t PaddedLayout::validElements() const {
  int64_t n = 1;
  for (int64_t e : logical_)
    n *= e; // <= elements(), which fits in 64 output bits
  return n;
}

Expected<std::vector<MaskedInputs>> PaddedLayout::maskedInputs() const {
  LK_TRY(Waste w, waste());
  return std::move(w.masked);
}

Expected<Waste> PaddedLayout::waste() const {
  if (layout_.totalInBits() > kMaxEnumerationBits)
    return Diagnostic::error("the layout has " +
                             std::to_string(layout_.totalInBits()) +
                             " input bits; the mask is computed for at most " +
                             std::to_string(kMaxEnumerationBits));
  Waste w;
  w.elements = elements();
  w.validElements = validElements();
  w.paddedElements = w.elements - w.validElements;
  w.fraction = double(w.paddedElements) / double(w.elements);
  w.slots = layout_.totalInSize();
  // anyValid[k][v]: some input with in-dim k equal to v holds a valid
  // element.
  const int nIn = layout_.numInDims();
  std::vector<std::vector<char>> anyValid(static_cast<size_t>(nIn));
  for (int k = 0; k < nIn; ++k)
    anyValid[size_t(k)].assign(size_t(layout_.inDim(k).size()), 0);
  for (uint64_t x = 0; x < uint64_t(w.slots); ++x) {
    if (!validIn(x)) {
      ++w.maskedSlots;
      continue;
    }
    for (int k = 0; k < nIn; ++k)
      anyValid[size_t(k)]
              [size_t((x >> layout_.inShift(k)) &
                      ((uint64_t(1) << layout_.inDim(k).log2) - 1))] = 1;
  }
  for (int k = 0; k < nIn; ++k) {
    MaskedInputs m{layout_.inDim(k).id, layout_.inDim(k).size(), {}};
    for (int64_t v = 0; v < m.size; ++v)
      if (!anyValid[size_t(k)][size_t(v)])
        m.values.push_back(v);
    w.masked.push_back(std::move(m));
  }
  return w;
}

Expected<PaddedLayout>
pad(std::span<const int64_t> logical,
    const std::function<Expected<LinearLayout>(std::span<const int64_t>)>
        &build) {
  LK_TRY(std::vector<int64_t> padded, paddedShape(logical));
  LK_TRY(LinearLayout layout, build(padded));
  return PaddedLayout::make(std::move(layout), logical);
}

std::string PaddedLayout::str() const {
  std::string s = layout_.str() + " over (";
  for (size_t d = 0; d < logical_.size(); ++d)
    s += (d ? "," : "") + std::to_string(logical_[d]);
  return s + ")";
}

} // namespace lk::linear
