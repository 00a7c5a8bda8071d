#include "hybrid/tensor_io/safetensors_writer.hpp"

#include <nlohmann/json.hpp>

namespace hybrid {

std::string encode_safetensors(const TensorFileMetadata& metadata, const std::vector<TensorToWrite>& tensors) {
  nlohmann::ordered_json h = nlohmann::ordered_json::object();
  if (!metadata.empty()) {
    nlohmann::ordered_json& meta = h["__metadata__"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : metadata) meta[k] = v;
  }
  std::uint64_t at = 0;
  for (const TensorToWrite& t : tensors) {
    const std::uint64_t n = t.data.size();
    h[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {at, at + n}}};
    at += n;
  }
  std::string json = h.dump();
  json.append((8 - json.size() % 8) % 8, ' ');  // the data buffer starts 8-aligned
  std::string out(8, '\0');
  for (std::size_t k = 0; k < 8; ++k) out[k] = static_cast<char>(static_cast<std::uint64_t>(json.size()) >> (8 * k) & 0xFF);
  out.reserve(out.size() + json.size() + at);
  out += json;
  for (const TensorToWrite& t : tensors) out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size());
  return out;
}

}  // namespace hybrid
