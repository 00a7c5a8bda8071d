#pragma once
// Writes a safetensors file (the layout tensor_file.hpp reads): the 8-byte header length, the
// JSON header -- "__metadata__" first when there is any, then each tensor in the given order,
// its data_offsets packed one after another -- padded with spaces so the data starts 8-aligned,
// then the data. Same inputs, same bytes.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace hybrid {

struct TensorToWrite {
  std::string name;   // unique in the file, not "__metadata__"
  std::string dtype;  // safetensors spelling: F32, ...
  std::vector<std::uint64_t> shape;
  std::span<const std::uint8_t> data;  // exactly the bytes of that dtype and shape, little-endian
};

using TensorFileMetadata = std::vector<std::pair<std::string, std::string>>;  // in this order

[[nodiscard]] std::string encode_safetensors(const TensorFileMetadata& metadata, const std::vector<TensorToWrite>& tensors);

}  // namespace hybrid
