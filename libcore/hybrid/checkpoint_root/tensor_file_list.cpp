#include "hybrid/checkpoint_root/tensor_file_list.hpp"

#include <cstddef>
#include <span>

#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"

namespace hybrid {

std::string files_path(const CacheRoot& root) { return root.checkpoint() + "/tensor_files.json"; }
std::string header_key(const std::string& file) { return "tensorfile:" + file; }

common::Result<std::vector<SavedFile>> read_file_list(const CacheRoot& root) {
  std::vector<SavedFile> out;
  auto& fs = common::real_file_system();
  const std::string path = files_path(root);
  if (!fs.exists(path)) return out;
  auto text = common::read_text(fs, path, common::kMaxJsonInputBytes);
  if (!text) return text.error().at_file(path);
  auto doc = common::parse_json_text(*text, {.file = path, .bom = common::BomPolicy::strip});
  if (!doc) return doc.error();
  common::JsonFields top(*doc, path, 0, "");
  if (auto s = top.only({"version", "files"}); !s) return s.error();
  auto files = top.array("files");
  if (!files) return files.error();
  for (std::size_t i = 0; i < (*files)->size(); ++i) {
    common::JsonFields f((**files)[i], path, 0, "/files/" + std::to_string(i));
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

common::Status write_file_list(common::FileSystem& fs, const CacheRoot& root, const std::vector<SavedFile>& files,
                               const std::vector<std::vector<std::string>>& tensors) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < files.size(); ++i) {
    list.push_back({{"file", files[i].file}, {"format", files[i].format}, {"tensors", tensors.at(i)}});
  }
  const std::string text = nlohmann::ordered_json{{"version", 1}, {"files", list}}.dump() + "\n";
  if (auto s = fs.create_dirs(root.checkpoint()); !s) return s;
  if (auto s = common::write_file_atomic(fs, files_path(root), text); !s) return s.error().at_file(files_path(root));
  return {};
}

namespace {

// A blob the checkpoint names that the cache cannot give back is a damaged checkpoint: gone (its
// .bin or .meta missing) or unreadable is io, exit 2, as a missing manifest is; one that does not
// match its .meta is malformed. The cache's own not_found (invalid_argument) fits a lookup under
// a caller's key, not a reference the checkpoint promised. The message names the file.
common::Error checkpoint_blob_error(const CacheError& e) {
  switch (e.kind()) {
    case CacheFailure::not_found:
    case CacheFailure::io: return common::Error::io(e.message());
    case CacheFailure::corrupt:
    case CacheFailure::already_exists:
    case CacheFailure::invalid_key: break;
  }
  return common::Error::malformed(e.message());
}

}  // namespace

common::Result<TensorFile> saved_file_layout(const PersistentHybridCache& cache, const SavedFile& file) {
  auto header = cache.get_blob(CacheKind::kernel_meta, header_key(file.file));
  if (!header) return checkpoint_blob_error(header.error());
  std::string stem = file.file;
  if (stem.size() > 4 && stem.ends_with(".npy")) stem.resize(stem.size() - 4);
  return parse_tensor_header(file.format == "npy" ? TensorFileFormat::npy : TensorFileFormat::safetensors,
                             {reinterpret_cast<const char*>(header->data()), header->size()}, stem, file.file);
}

common::Result<AssembledFile> assemble_saved_file(const PersistentHybridCache& cache, const SavedFile& file) {
  auto layout = saved_file_layout(cache, file);
  if (!layout) return layout.error();
  std::vector<std::vector<std::uint8_t>> blobs;
  for (const auto& t : layout->tensors) {
    auto b = cache.get_blob(CacheKind::tensor, tensor_cache_key(t.name, t.length));
    if (!b) return checkpoint_blob_error(b.error());
    blobs.push_back(std::move(b.value()));
  }
  std::vector<std::span<const std::uint8_t>> spans(blobs.begin(), blobs.end());
  auto bytes = assemble_tensor_file(*layout, spans);
  if (!bytes) return bytes.error();
  return AssembledFile{std::move(layout.value()), std::move(bytes.value())};
}

common::Result<std::vector<std::string>> write_tensor_files(const CacheRoot& root, const std::string& dir) {
  auto& fs = common::real_file_system();
  std::vector<std::string> written;
  auto files = read_file_list(root);
  if (!files) return files.error();
  if (files->empty()) return written;
  if (auto s = fs.create_dirs(dir); !s) return s.error();
  const PersistentHybridCache cache(root.blobs());
  for (const SavedFile& sf : *files) {
    auto whole = assemble_saved_file(cache, sf);
    if (!whole) return whole.error();
    const std::string path = dir + "/" + sf.file;
    const auto& bytes = whole->bytes;
    if (auto s = common::write_file_atomic(fs, path, {reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});
        !s) {
      return s.error();
    }
    written.push_back(path);
  }
  return written;
}

}  // namespace hybrid
