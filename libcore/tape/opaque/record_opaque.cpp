#include "tape/opaque/record_opaque.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "tape/finite.hpp"
#include "tape/recorder.hpp"
#include "tape/tape.hpp"

namespace tape::opaque {
namespace {

std::string op_name(OpaqueKey key) { return "Opaque(" + std::string(to_string(key)) + ")"; }

void check_value(OpaqueKey key, const char* role, std::size_t i, const OpaqueValue& v) {
  if (v.data.size() != v.shape.numel()) {
    throw TapeError(op_name(key),
                    std::string(role) + " " + std::to_string(i) + " holds " + std::to_string(v.data.size()) +
                        " values, its shape needs " + std::to_string(v.shape.numel()),
                    {v.shape});
  }
  if (!all_finite(v.data)) {
    throw TapeError(op_name(key), std::string(role) + " " + std::to_string(i) + " is not finite (NaN or Inf)",
                    {v.shape});
  }
}

}  // namespace

namespace {

std::vector<Tensor> record(const OpaqueRegistry& registry, OpaqueKey key, std::span<const Tensor> inputs,
                           std::span<const OpaqueValue> outputs, std::span<const OpaqueValue> saved,
                           std::shared_ptr<const void> context, ContextFieldsFn fields) {
  for (std::size_t i = 0; i < outputs.size(); ++i) check_value(key, "output", i, outputs[i]);
  for (std::size_t i = 0; i < saved.size(); ++i) {
    check_value(key, "saved tensor", i, saved[i]);
    if (saved[i].in_context && context == nullptr) {
      throw TapeError(op_name(key), "saved tensor " + std::to_string(i) + " lives in a context, but none was given",
                      {saved[i].shape});
    }
  }

  Recorder rec("Opaque");
  std::vector<Tensor> result;
  result.reserve(outputs.size());
  if (!rec.recording()) {
    for (const OpaqueValue& v : outputs) result.push_back(Tensor::from(v.data, v.shape));
    return result;
  }
  const common::Result<OpaqueBackwardFn> fn = registry.find(key);
  if (!fn.ok()) throw TapeError(op_name(key), fn.error().message(), {});
  OpaqueOp op{key, {}, {}, {}, *fn, {}, nullptr};
  if (context != nullptr) {
    const common::Result<OpaqueContextBackwardFn> in_place = registry.find_in_place(key);
    if (!in_place.ok()) throw TapeError(op_name(key), in_place.error().message(), {});
    op.context_backward = *in_place;
  }

  op.inputs.reserve(inputs.size());
  for (const Tensor& t : inputs) op.inputs.push_back(rec.input(t));
  op.outputs.reserve(outputs.size());
  for (const OpaqueValue& v : outputs) {
    NewBuffer b = rec.output(v.shape);
    std::copy(v.data.begin(), v.data.end(), b.data.begin());
    op.outputs.push_back(b.tensor.id());
    result.push_back(std::move(b.tensor));
  }
  op.saved.reserve(saved.size());
  for (const OpaqueValue& v : saved) {
    // The whole data of an input: its (immutable) buffer already holds it.
    const auto same = std::find_if(inputs.begin(), inputs.end(), [&](const Tensor& t) {
      return t.data().data() == v.data.data() && t.numel() == v.data.size();
    });
    if (same != inputs.end()) {
      op.saved.push_back(op.inputs[static_cast<std::size_t>(same - inputs.begin())]);
    } else if (v.in_context) {
      op.saved.push_back(rec.tape().alias(v.data, v.shape));  // op.context keeps it alive
    } else {
      NewBuffer b = rec.saved(v.shape);
      std::copy(v.data.begin(), v.data.end(), b.data.begin());
      op.saved.push_back(b.tensor.id());
    }
  }
  op.context = std::move(context);
  if (op.context != nullptr) op.context_fields = fields;
  rec.tape().record_opaque(std::move(op));
  return result;
}

}  // namespace

std::vector<Tensor> record_opaque(const OpaqueRegistry& registry, OpaqueKey key, std::span<const Tensor> inputs,
                                  std::span<const OpaqueValue> outputs, std::span<const OpaqueValue> saved) {
  return record(registry, key, inputs, outputs, saved, nullptr, nullptr);
}

std::vector<Tensor> record_opaque(const OpaqueRegistry& registry, OpaqueKey key, std::span<const Tensor> inputs,
                                  std::span<const OpaqueValue> outputs, std::span<const OpaqueValue> saved,
                                  std::shared_ptr<const void> context, ContextFieldsFn fields) {
  return record(registry, key, inputs, outputs, saved, std::move(context), fields);
}

}  // namespace tape::opaque
