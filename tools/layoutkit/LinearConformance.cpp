//===- LinearConformance.cpp - Conformance ops of the linear model --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The op of linear-public.jsonl: `linear_standard` reads a Triton layout
// attribute (a JSON object named by `kind`, parameters named as Triton names
// them) and a tensor shape, and answers with the layout's bases per input
// dim and its output dims.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/ConformanceOps.h"
#include "layoutkit/LinearJson.h"

#include "layoutkit/linear/Standard.h"

#include <memory>

namespace lk::cli {

using nlohmann::json;
using namespace lk::linear;

namespace {

Expected<std::vector<unsigned>> unsignedList(const json &j, const char *key) {
  if (!j.contains(key))
    return Diagnostic::error(std::string("missing field '") + key + "'");
  const json &v = j[key];
  if (!v.is_array())
    return Diagnostic::error(std::string("field '") + key +
                             "' must be an array");
  std::vector<unsigned> r;
  for (const json &e : v) {
    if (!e.is_number_integer() || e.get<int64_t>() < 0 ||
        e.get<int64_t>() > (int64_t(1) << 30))
      return Diagnostic::error(std::string("field '") + key +
                               "' must hold non-negative integers");
    r.push_back(unsigned(e.get<int64_t>()));
  }
  return r;
}

Expected<int64_t> intField(const json &j, const char *key) {
  if (!j.contains(key))
    return Diagnostic::error(std::string("missing field '") + key + "'");
  return intFromJson(j[key]);
}

/// An integer field in 0..2^30 (the sizes of a layout attribute).
Expected<int> sizeField(const json &j, const char *key) {
  LK_TRY(int64_t v, intField(j, key));
  if (v < 0 || v > (int64_t(1) << 30))
    return Diagnostic::error(std::string("field '") + key +
                             "' must be in 0..2^30, got " + std::to_string(v));
  return int(v);
}

/// Intel's DpasEncodingAttr parameters; the sub-group size `threadsPerWarp`
/// is one number, and opsPerChannel is spelled `opsPerChan` as in the
/// attribute's text form (`opsPerChannel` is accepted too).
Status dpasFromJson(const json &j, Encoding &e) {
  e.kind = EncodingKind::IntelDpas;
  LK_TRY(e.repeatCount, sizeField(j, "repeatCount"));
  LK_TRY(e.systolicDepth, sizeField(j, "systolicDepth"));
  LK_TRY(e.executionSize, sizeField(j, "executionSize"));
  const char *ops =
      j.contains("opsPerChannel") ? "opsPerChannel" : "opsPerChan";
  LK_TRY(e.opsPerChannel, sizeField(j, ops));
  LK_TRY(int subGroup, sizeField(j, "threadsPerWarp"));
  e.threadsPerWarp = {unsigned(subGroup)};
  LK_TRY(e.warpsPerCTA, unsignedList(j, "warpsPerCTA"));
  LK_TRY(e.repCluster, unsignedList(j, "repCluster"));
  return Ok{};
}

/// The CTA fields, or one CTA when they are absent (or "default (1 CTA)").
Expected<CTALayout> ctaFromJson(const json &j) {
  CTALayout c;
  if (!j.contains("CTAOrder"))
    return c; // empty: one CTA of the tensor's rank
  LK_TRY(c.ctasPerCGA, unsignedList(j, "CTAsPerCGA"));
  LK_TRY(c.ctaSplitNum, unsignedList(j, "CTASplitNum"));
  LK_TRY(c.ctaOrder, unsignedList(j, "CTAOrder"));
  return c;
}

Expected<Encoding> encodingFromJsonAt(const json &j, int depth = 0) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
    return Diagnostic::error("expected a layout object with a 'kind'");
  if (depth > 8)
    return Diagnostic::error("layout parents nest too deeply");
  std::string kind = j["kind"].get<std::string>();
  Encoding e;
  LK_TRY(e.cta, ctaFromJson(j));
  auto parent = [&]() -> Status {
    if (!j.contains("parent"))
      return Diagnostic::error("missing field 'parent'");
    LK_TRY(Encoding p, encodingFromJsonAt(j["parent"], depth + 1));
    e.parent = std::make_shared<const Encoding>(std::move(p));
    return Ok{};
  };
  if (kind == "blocked") {
    e.kind = EncodingKind::Blocked;
    LK_TRY(e.sizePerThread, unsignedList(j, "sizePerThread"));
    LK_TRY(e.threadsPerWarp, unsignedList(j, "threadsPerWarp"));
    LK_TRY(e.warpsPerCTA, unsignedList(j, "warpsPerCTA"));
    LK_TRY(e.order, unsignedList(j, "order"));
  } else if (kind == "nvidia_mma") {
    e.kind = EncodingKind::NvidiaMma;
    LK_TRY(int64_t major, intField(j, "versionMajor"));
    e.versionMajor = int(major);
    LK_TRY(e.instrShape, unsignedList(j, "instrShape"));
    LK_TRY(e.warpsPerCTA, unsignedList(j, "warpsPerCTA"));
  } else if (kind == "amd_mfma") {
    e.kind = EncodingKind::AmdMfma;
    LK_TRY(e.warpsPerCTA, unsignedList(j, "warpsPerCTA"));
    LK_TRY(int64_t m, intField(j, "mDim"));
    LK_TRY(int64_t n, intField(j, "nDim"));
    e.mDim = int(m);
    e.nDim = int(n);
    LK_TRY(e.isTransposed, boolField(j, "isTransposed", false));
  } else if (kind == "amd_wmma") {
    e.kind = EncodingKind::AmdWmma;
    LK_TRY(e.warpsPerCTA, unsignedList(j, "warpsPerCTA"));
    LK_TRY(int64_t v, intField(j, "version"));
    e.version = int(v);
    LK_TRY(e.isTransposed, boolField(j, "isTransposed", false));
  } else if (kind == "intel_dpas") {
    LK_CHECK(dpasFromJson(j, e));
  } else if (kind == "dot_operand") {
    e.kind = EncodingKind::DotOperand;
    LK_TRY(int64_t op, intField(j, "opIdx"));
    LK_TRY(int64_t kw, intField(j, "kWidth"));
    e.opIdx = int(op);
    e.kWidth = int(kw);
    LK_CHECK(parent());
  } else if (kind == "slice") {
    e.kind = EncodingKind::Slice;
    LK_TRY(int64_t d, intField(j, "dim"));
    e.dim = int(d);
    LK_CHECK(parent());
  } else if (kind == "swizzled_shared") {
    e.kind = EncodingKind::SwizzledShared;
    LK_TRY(int64_t vec, intField(j, "vec"));
    LK_TRY(int64_t pp, intField(j, "perPhase"));
    LK_TRY(int64_t mp, intField(j, "maxPhase"));
    e.vec = int(vec);
    e.perPhase = int(pp);
    e.maxPhase = int(mp);
    LK_TRY(e.order, unsignedList(j, "order"));
  } else if (kind == "nvmma_shared") {
    e.kind = EncodingKind::NvmmaShared;
    LK_TRY(int64_t sw, intField(j, "swizzleSizeInBytes"));
    LK_TRY(int64_t bits, intField(j, "elementBitWidth"));
    e.swizzleSizeInBytes = int(sw);
    e.elementBitWidth = int(bits);
    LK_TRY(e.transposed, boolField(j, "transposed", false));
    LK_TRY(e.fp4Padded, boolField(j, "fp4Padded", false));
  } else if (kind == "shmem_for_reg_to_reg") {
    e.kind = EncodingKind::ShmemForRegToReg;
    LK_TRY(e.tensorShape, unsignedList(j, "tensorShape"));
    LK_TRY(e.repShape, unsignedList(j, "repShape"));
    LK_TRY(e.order, unsignedList(j, "order"));
  } else {
    return Diagnostic::error("unknown layout kind '" + kind + "'");
  }
  return e;
}

json layoutToJson(const LinearLayout &l) {
  json bases = json::object();
  for (int i = 0; i < l.numInDims(); ++i)
    bases[std::string(dimName(l.inDim(i).id))] = l.bases(i);
  json outs = json::array();
  for (int k = 0; k < l.numOutDims(); ++k)
    outs.push_back({std::string(dimName(l.outDim(k).id)), l.outDim(k).size()});
  return {{"bases", bases}, {"out_dims", outs}};
}

Expected<json> linearStandard(const json &args) {
  LK_CHECK(arity(args, 2, 2));
  LK_TRY(Encoding e, encodingFromJsonAt(args[0]));
  if (!args[1].is_array())
    return Diagnostic::error("expected a shape array, got " + args[1].dump());
  std::vector<int64_t> shape;
  for (const json &s : args[1]) {
    LK_TRY(int64_t v, intFromJson(s));
    shape.push_back(v);
  }
  LK_TRY(LinearLayout l, toLinearLayout(e, shape));
  return layoutToJson(l);
}

} // namespace

Expected<Encoding> encodingFromJson(const json &j) {
  return encodingFromJsonAt(j, 0);
}

void addLinearOps(ConformanceOps &ops) {
  ops["linear_standard"] = {linearStandard, nullptr};
}

} // namespace lk::cli
