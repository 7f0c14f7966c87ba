//===- fuzz_encoding_json.cpp - Fuzz Triton's parameters as JSON ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The input is a JSON object of standard-layout parameters
/// (linear/EncodingJson.h). A failure must carry a diagnostic inside the
/// text; an encoding read must pass checkEncoding, and one with a TTGIR form
/// must print as TTGIR that reads back and prints the same.
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/linear/EncodingFields.h"
#include "layoutkit/linear/EncodingJson.h"
#include "layoutkit/linear/TtgirText.h"

#include <cstdint>
#include <string>

using namespace lk;
using namespace lk::linear;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<Encoding> e = parseEncodingJson(text);
  if (!e) {
    fuzz::checkDiagnostic(e.error(), text);
    return 0;
  }
  Status st = checkEncoding(*e);
  LK_FUZZ_CHECK(st.hasValue(), "read but inconsistent: %s",
                st.error().message.c_str());
  Expected<std::string> printed = printTtgir(*e);
  if (!printed)
    return 0;
  Expected<TtgirLayout> back = parseTtgir(*printed);
  LK_FUZZ_CHECK(back.hasValue(), "'%s' does not read back: %s",
                printed->c_str(), back.error().message.c_str());
  Expected<std::string> again = printTtgir(back->encoding);
  LK_FUZZ_CHECK(again.hasValue() && *again == *printed,
                "'%s' prints back differently", printed->c_str());
  return 0;
}
