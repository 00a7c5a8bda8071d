#include "hybrid/checkpoint_root/tensor_file_list.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "common/temp_file_cleanup.hpp"

namespace hybrid {

std::string files_path(const CacheRoot& root) { return root.checkpoint() + "/tensor_files.json"; }
std::string header_key(const std::string& file) { return "tensorfile:" + file; }

namespace {

// A root without the list is a checkpoint of --tensors only, unless the cache holds a saved
// file's header blob: a save writes the list with the headers, so the list was lost, and the
// files it named would silently not be restored (or checked) at all.
common::Status refuse_orphaned_headers(common::FileSystem& fs, const CacheRoot& root) {
  const std::string dir = root.blobs() + "/" + std::string(to_string(CacheKind::kernel_meta));
  if (!fs.is_dir(dir)) return {};
  auto names = fs.list_dir(dir);
  if (!names) return names.error();
  const std::string prefix = header_key("");
  for (const std::string& name : *names) {
    if (!name.starts_with(prefix)) continue;
    std::string key = name;  // <key>.bin, .meta or .bin.next
    for (const char* suffix : {".bin.next", ".bin", ".meta"}) {
      if (key.ends_with(suffix)) {
        key.resize(key.size() - std::string_view(suffix).size());
        break;
      }
    }
    return common::Error::io(files_path(root) + " is missing, but " + dir + " holds the header blob of a saved file (" +
                             key + "); the checkpoint is damaged");
  }
  return {};
}

}  // namespace

common::Result<std::vector<SavedFile>> read_file_list(const CacheRoot& root) {
  std::vector<SavedFile> out;
  auto& fs = common::real_file_system();
  const std::string path = files_path(root);
  if (!fs.exists(path)) {
    if (auto s = refuse_orphaned_headers(fs, root); !s) return s.error();
    return out;
  }
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

// One restored file staged beside its name in DIR, not yet renamed over it.
struct StagedFile {
  std::string temp;
  std::string path;
  bool existed = false;  // something (a file, a link) already had the name
  std::unique_ptr<common::PendingTempFile> pending;  // the temporary, removed on SIGINT, SIGTERM, SIGHUP
};

// What a name in DIR holds before the restore, without following a link there.
common::Result<bool> name_in_use(common::FileSystem& fs, const std::string& path) {
  auto resolved = fs.resolve_symlinks(path);
  if (!resolved) return resolved.error();
  if (*resolved != path) return true;  // a link, dangling or not: replaced, never followed
  if (fs.node_kind(path) == common::NodeKind::directory) {
    return common::Error::io("is a directory; the restored file cannot replace it", {path, 0, {}});
  }
  return fs.node_kind(path) != common::NodeKind::missing;
}

// Writes `bytes` into a fresh temporary beside `f.path` and syncs it; the name itself is untouched.
// The temporary is closed (a restore may hold more files than descriptors), so another writer to
// the same name could take it for a dead writer's and remove it: the rename then fails, and the
// restore with it, cleanly.
common::Status stage(common::FileSystem& fs, StagedFile& f, const std::vector<std::uint8_t>& bytes) {
  const std::string& path = f.path;
  std::optional<common::DeferredStopSignals> deferred(std::in_place);
  auto temp = fs.create_temp_beside(path);
  if (!temp) return temp.error().for_file(path);
  f.pending = std::make_unique<common::PendingTempFile>(temp->path);
  deferred.reset();
  auto fail = [&](const common::Error& e) -> common::Error {
    (void)temp->file->close();
    (void)fs.remove(temp->path);
    f.pending.reset();
    return e.for_file(path);
  };
  if (auto s = temp->file->append({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}); !s) {
    return fail(s.error());
  }
  if (auto s = temp->file->sync(); !s) return fail(s.error());
  if (auto s = temp->file->close(); !s) return fail(s.error());
  f.temp = temp->path;
  return {};
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

common::Status verify_saved_file(const PersistentHybridCache& cache, const SavedFile& file) {
  auto layout = saved_file_layout(cache, file);
  if (!layout) return layout.error();
  for (const auto& t : layout->tensors) {
    auto len = cache.verify_blob(CacheKind::tensor, tensor_cache_key(t.name, t.length));
    if (!len) return checkpoint_blob_error(len.error());
    if (*len != t.length) return common::Error::malformed("tensor " + t.name + ": length mismatch with the header");
  }
  return {};
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

// All or nothing, in three steps:
//  1. Every saved file is verified (header, and each tensor blob's length and checksum, streamed)
//     before DIR is created or anything is written: a damaged checkpoint writes nothing.
//  2. Each file is assembled (one at a time, so memory holds one file) into a temporary in DIR.
//  3. The temporaries are renamed over their names and DIR is synced once.
// A name already in DIR that is a symbolic link is replaced by the rename, not written through:
// the link may point anywhere (outside DIR, at a file the user did not mean to give away), and a
// careful user asking for files in DIR expects files in DIR, as tar and rsync extract them; a
// link DIR itself is, the user chose. A directory at a name is refused with step 1.
// A failure in step 2 or 3 (or in the final fsync of DIR) removes every temporary and every name
// this call created, and DIR if this call created it. What it cannot undo: a rename in step 3
// that replaced an existing name before a later rename failed (rename(2) in one directory barely
// fails once the temporaries are written); that name then holds the restored file, whole, never
// a torn one.
common::Result<std::vector<std::string>> write_tensor_files(const CacheRoot& root, const std::string& dir,
                                                            common::FileSystem& fs) {
  std::vector<std::string> written;
  auto files = read_file_list(root);
  if (!files) return files.error();
  if (files->empty()) return written;
  const PersistentHybridCache cache(root.blobs());
  for (const SavedFile& sf : *files) {
    if (auto s = verify_saved_file(cache, sf); !s) return s.error();
  }
  std::vector<StagedFile> staged;
  for (const SavedFile& sf : *files) {
    StagedFile f{{}, dir + "/" + sf.file, false, nullptr};
    if (fs.is_dir(dir)) {
      auto used = name_in_use(fs, f.path);
      if (!used) return used.error();
      f.existed = *used;
    }
    staged.push_back(std::move(f));
  }

  const bool created_dir = !fs.exists(dir);
  if (auto s = fs.create_dirs(dir); !s) return s.error();
  std::size_t renamed = 0;
  auto undo = [&](const common::Error& e) -> common::Error {
    for (std::size_t i = 0; i < staged.size(); ++i) {
      if (i >= renamed && !staged[i].temp.empty()) (void)fs.remove(staged[i].temp);
      if (i < renamed && !staged[i].existed) (void)fs.remove(staged[i].path);
      staged[i].pending.reset();
    }
    // Only an empty DIR is removed (std::filesystem: FileSystem has no rmdir; nothing else may
    // have been put there meanwhile).
    if (created_dir) {
      std::error_code ec;
      std::filesystem::remove(dir, ec);
    }
    return e;
  };
  for (std::size_t i = 0; i < files->size(); ++i) {
    auto whole = assemble_saved_file(cache, (*files)[i]);
    if (!whole) return undo(whole.error());
    if (auto s = stage(fs, staged[i], whole->bytes); !s) return undo(s.error());
  }
  for (; renamed < staged.size(); ++renamed) {
    const common::DeferredStopSignals renaming;  // renamed and unregistered as one step
    if (auto s = fs.rename(staged[renamed].temp, staged[renamed].path); !s) {
      return undo(s.error().for_file(staged[renamed].path));
    }
    staged[renamed].pending->release();
  }
  // Without the directory's fsync the renames may not survive a crash: a failed restore, undone
  // as far as it can be (the names it created go).
  if (auto s = fs.sync_dir(dir); !s) return undo(s.error().for_file(dir));
  for (const StagedFile& f : staged) written.push_back(f.path);
  return written;
}

}  // namespace hybrid
