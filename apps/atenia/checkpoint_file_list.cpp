#include "checkpoint_file_list.hpp"

#include <cstddef>
#include <span>

#include "cli_support.hpp"
#include "common/atomic_file.hpp"
#include "common/file_system.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"

namespace atenia::cli {

std::string files_path(const CacheRoot& root) { return root.checkpoint() + "/tensor_files.json"; }
std::string header_key(const std::string& file) { return "tensorfile:" + file; }

common::Result<std::vector<SavedFile>> read_file_list(const CacheRoot& root) {
  std::vector<SavedFile> out;
  if (!common::real_file_system().exists(files_path(root))) return out;
  auto doc = read_json_input(files_path(root));
  if (!doc) return doc.error();
  Fields top(*doc, files_path(root), 0, "");
  if (auto s = top.only({"version", "files"}); !s) return s.error();
  auto files = top.array("files");
  if (!files) return files.error();
  for (std::size_t i = 0; i < (*files)->size(); ++i) {
    Fields f((**files)[i], files_path(root), 0, "/files/" + std::to_string(i));
    if (auto s = f.only({"file", "format", "tensors"}); !s) return s.error();
    auto file = f.string("file");
    if (!file) return file.error();
    if (file->empty() || file->find('/') != std::string::npos || *file == "." || *file == "..") {
      return f.error("file", "expected a plain file name");
    }
    auto format = f.string("format");
    if (!format) return format.error();
    if (*format != "npy" && *format != "safetensors") return f.error("format", "expected npy or safetensors");
    out.push_back({*file, *format});
  }
  return out;
}

common::Result<hybrid::TensorFile> saved_file_layout(const hybrid::PersistentHybridCache& cache, const SavedFile& file) {
  auto header = cache.get_blob(hybrid::CacheKind::kernel_meta, header_key(file.file));
  if (!header) return header.error();
  std::string stem = file.file;
  if (stem.size() > 4 && stem.ends_with(".npy")) stem.resize(stem.size() - 4);
  return hybrid::parse_tensor_header(
      file.format == "npy" ? hybrid::TensorFileFormat::npy : hybrid::TensorFileFormat::safetensors,
      {reinterpret_cast<const char*>(header->data()), header->size()}, stem, file.file);
}

common::Result<std::vector<std::string>> write_tensor_files(const CacheRoot& root, const std::string& dir) {
  auto& fs = common::real_file_system();
  std::vector<std::string> written;
  auto files = read_file_list(root);
  if (!files) return files.error();
  if (files->empty()) return written;
  if (auto s = fs.create_dirs(dir); !s) return s.error();
  const hybrid::PersistentHybridCache cache(root.blobs());
  for (const SavedFile& sf : *files) {
    auto layout = saved_file_layout(cache, sf);
    if (!layout) return layout.error();
    std::vector<std::vector<std::uint8_t>> blobs;
    for (const auto& t : layout->tensors) {
      auto b = cache.get_blob(hybrid::CacheKind::tensor, hybrid::tensor_cache_key(t.name, t.length));
      if (!b) return b.error();
      blobs.push_back(std::move(b.value()));
    }
    std::vector<std::span<const std::uint8_t>> spans(blobs.begin(), blobs.end());
    auto bytes = hybrid::assemble_tensor_file(*layout, spans);
    if (!bytes) return bytes.error();
    const std::string path = dir + "/" + sf.file;
    if (auto s = common::write_file_atomic(fs, path, {reinterpret_cast<const std::byte*>(bytes->data()), bytes->size()});
        !s) {
      return s.error();
    }
    written.push_back(path);
  }
  return written;
}

}  // namespace atenia::cli
