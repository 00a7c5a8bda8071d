#pragma once
// Real tensor data in and out of atenia: NumPy .npy files and safetensors files (the format of
// PyTorch and Hugging Face checkpoints), read by our own strict parsers. A file is kept as its
// header bytes (verbatim) plus each tensor's raw bytes, so writing it back from the header and
// the same bytes gives the original file bit for bit.
//
// .npy (format 1.0 / 2.0 / 3.0): "\x93NUMPY", major, minor, a little-endian header length
// (2 bytes in 1.0, 4 in 2.0/3.0), a Python dict literal {'descr': '<f4', 'fortran_order':
// False, 'shape': (3, 4), } padded with spaces and ended by '\n', then the raw data.
// safetensors: an 8-byte little-endian header length N, N bytes of JSON
// {"__metadata__": {str: str}, "name": {"dtype": "F32", "shape": [3, 4],
//  "data_offsets": [begin, end]}, ...}, then the data buffer; offsets are relative to the
// buffer, and the tensors must cover it exactly, without holes or overlaps.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace hybrid {

enum class TensorFileFormat : std::uint8_t { npy, safetensors };
[[nodiscard]] const char* to_string(TensorFileFormat f);  // "npy", "safetensors"

struct FileTensor {
  std::string name;  // the safetensors key; the file's stem for .npy
  std::string dtype;  // safetensors spelling: F32, F16, BF16, I64, U8, BOOL, ...; numpy descr for .npy
  std::vector<std::uint64_t> shape;
  std::uint64_t offset = 0;  // in the file
  std::uint64_t length = 0;
};

struct TensorFile {
  TensorFileFormat format = TensorFileFormat::npy;
  std::string header;  // every byte before the data, verbatim
  std::vector<FileTensor> tensors;  // in data order
};

// The largest header accepted (safetensors' own limit is 100 MB; .npy headers are small).
inline constexpr std::size_t kMaxTensorHeaderBytes = 100'000'000;

// Parses `bytes` (the whole file). `name` is what a .npy tensor is called. Errors are
// malformed, with "<file>: " and what is wrong (offsets, dtype, shape...).
[[nodiscard]] common::Result<TensorFile> parse_npy(std::span<const std::uint8_t> bytes, const std::string& name,
                                                   const std::string& file);
[[nodiscard]] common::Result<TensorFile> parse_safetensors(std::span<const std::uint8_t> bytes,
                                                           const std::string& file);
// The layout from the header bytes alone (as stored beside a checkpoint); the data is not
// needed. `header` must be exactly the bytes before the data.
[[nodiscard]] common::Result<TensorFile> parse_tensor_header(TensorFileFormat format, std::string_view header,
                                                             const std::string& name, const std::string& file);
// By the first bytes: "\x93NUMPY" is .npy, anything else is tried as safetensors.
[[nodiscard]] common::Result<TensorFile> parse_tensor_file(std::span<const std::uint8_t> bytes, const std::string& name,
                                                           const std::string& file);

// "[3, 4]" ("[]" for a scalar): how error messages show a shape.
[[nodiscard]] std::string shape_text(const std::vector<std::uint64_t>& shape);

// Header + each tensor's bytes at its offset: the original file when `data[i]` are the bytes
// read from it. invalid_argument when a length differs from the header's.
[[nodiscard]] common::Result<std::vector<std::uint8_t>> assemble_tensor_file(
    const TensorFile& layout, const std::vector<std::span<const std::uint8_t>>& data);

}  // namespace hybrid
