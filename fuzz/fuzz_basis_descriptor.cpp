//===- fuzz_basis_descriptor.cpp - Fuzz the basis descriptor grammar ------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Both stages on arbitrary text; a descriptor that normalizes must print,
/// and the printed text must parse back to an equal tuple and print the same.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/cute/BasisDescriptor.h"

#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::cute;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<BasisDescriptorSyntax> syntax = parseBasisDescriptorSyntax(text);
  if (!syntax) {
    fuzz::checkDiagnostic(syntax.error(), text);
    return 0;
  }
  Expected<IntTuple> value = normalizeBasisDescriptor(*syntax, text);
  if (!value) {
    fuzz::checkDiagnostic(value.error(), text);
    return 0;
  }
  LK_FUZZ_CHECK(value->isTuple(), "descriptor normalized to a leaf");
  Expected<std::string> printed = printBasisDescriptor(*value);
  LK_FUZZ_CHECK(printed.hasValue(), "%s does not print: %s",
                value->str().c_str(), printed.error().message.c_str());
  Expected<IntTuple> again = parseBasisDescriptor(*printed);
  LK_FUZZ_CHECK(again.hasValue(), "'%s' does not parse back: %s",
                printed->c_str(), again.error().message.c_str());
  LK_FUZZ_CHECK(*again == *value, "'%s' parses back to %s", printed->c_str(),
                again->str().c_str());
  Expected<std::string> reprinted = printBasisDescriptor(*again);
  LK_FUZZ_CHECK(reprinted.hasValue() && *reprinted == *printed,
                "'%s' prints differently the second time", printed->c_str());
  return 0;
}
