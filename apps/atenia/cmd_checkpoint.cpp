// atenia checkpoint save ROOT --tensors T.json [--created-unix N] [--json]
// atenia checkpoint restore ROOT [--lazy] [--gpu-available] [--json]
// atenia checkpoint inspect ROOT [--json]
// (APX 13.9). T.json: {"tensors":[{"id":"w1","bytes":64,"tier":"ram","grad":false,
//                      "desired_tier":"vram","plan_summary":"..."}]}  (last three optional)
// save stores each tensor's bytes (scenario_payload) in ROOT's persistent cache, places it on
// its tier and writes ROOT/checkpoint/checkpoint.meta. restore materializes a checkpoint into
// a fresh manager and prints what came back, the drift and the warm-start plan. inspect checks
// every referenced blob (length + checksum) without restoring; a bad one makes the exit 1.
#include <filesystem>
#include <iostream>
#include <set>

#include "cache_root.hpp"
#include "commands.hpp"
#include "save_rollback.hpp"
#include "common/dir_lock.hpp"
#include "common/json_input.hpp"
#include "hybrid/checkpoint/checkpoint_store.hpp"
#include "hybrid/checkpoint/lazy_restore.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/checkpoint/warm_start.hpp"
#include "hybrid/graph/batch_scenario.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"
#include "common/atomic_file.hpp"

namespace atenia::cli {

namespace {

struct CheckpointOptions {
  std::string root;
  std::string tensors;
  std::vector<std::string> from;  // .npy / .safetensors files
  std::string tier = "ram";       // where tensors from files are placed
  std::string out;                // restore: write the files back here
  std::uint64_t created_unix = 0;
  bool lazy = false;
  bool gpu_available = false;
  bool json = false;
};

struct TensorSpec {
  std::string id;
  std::uint64_t bytes = 0;
  hybrid::MemoryTier tier = hybrid::MemoryTier::Ram;
  bool grad = false;
  std::optional<hybrid::MemoryTier> desired;
  std::optional<std::string> summary;
};

// Ids become manifest lines and cache file names: refused up front, before anything is written.
std::optional<std::string> bad_id(const std::string& id) {
  for (char c : id) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return "\"" + common::excerpt(id) + "\" holds a control character (a newline?)";
    if (c == '/' || c == '\\') return "\"" + common::excerpt(id) + "\" holds '/' or '\\'";
  }
  if (id.size() > 150) return "an id is at most 150 bytes, got " + std::to_string(id.size());
  return std::nullopt;
}

common::Result<hybrid::MemoryTier> tier_field(const Fields& f, const char* key) {
  auto s = f.string(key);
  if (!s) return s.error();
  auto t = hybrid::parse_memory_tier(*s);
  if (!t) return f.error(key, "expected \"ram\", \"ssd\", \"vram\" or \"cpu\", got \"" + common::excerpt(*s) + "\"");
  return *t;
}

common::Result<std::vector<TensorSpec>> read_tensor_specs(const std::string& path) {
  auto doc = read_json_input(path);
  if (!doc) return doc.error();
  Fields top(*doc, input_name(path), 0, "");
  if (auto s = top.only({"tensors"}); !s) return s.error();
  auto arr = top.array("tensors");
  if (!arr) return arr.error();
  std::vector<TensorSpec> out;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < (*arr)->size(); ++i) {
    Fields f((**arr)[i], input_name(path), 0, "/tensors/" + std::to_string(i));
    if (auto s = f.only({"id", "bytes", "tier", "grad", "desired_tier", "plan_summary"}); !s) return s.error();
    TensorSpec t;
    auto id = f.string("id");
    if (!id) return id.error();
    if (id->empty() || !ids.insert(*id).second) return f.error("id", "ids must be non-empty and unique, got \"" + common::excerpt(*id) + "\"");
    if (auto why = bad_id(*id)) return f.error("id", *why);
    t.id = *id;
    auto bytes = f.unsigned_int("bytes");
    if (!bytes) return bytes.error();
    if (*bytes > hybrid::kMaxScenarioTensorBytes) return f.error("bytes", "larger than the 64 MiB limit");
    t.bytes = *bytes;
    auto tier = tier_field(f, "tier");
    if (!tier) return tier.error();
    t.tier = *tier;
    if (f.has("grad")) {
      auto g = f.boolean("grad");
      if (!g) return g.error();
      t.grad = *g;
    }
    if (f.has("desired_tier")) {
      auto d = tier_field(f, "desired_tier");
      if (!d) return d.error();
      t.desired = *d;
    }
    if (f.has("plan_summary")) {
      auto s = f.string("plan_summary");
      if (!s) return s.error();
      t.summary = *s;
    }
    out.push_back(std::move(t));
  }
  return out;
}

int fail_checkpoint(const hybrid::CheckpointError& e) { return report(hybrid::to_common_error(e)); }

nlohmann::ordered_json entry_json(const hybrid::CheckpointEntry& e) {
  return {{"id", e.id},
          {"is_grad", e.is_grad},
          {"tier", hybrid::to_string(e.tier)},
          {"len", e.len_bytes},
          {"cache_kind", e.cache_kind ? nlohmann::ordered_json(hybrid::to_string(*e.cache_kind)) : nullptr},
          {"cache_key", e.cache_key ? nlohmann::ordered_json(*e.cache_key) : nullptr},
          {"desired_tier", e.desired_tier ? nlohmann::ordered_json(hybrid::to_string(*e.desired_tier)) : nullptr},
          {"plan_summary", e.last_plan_summary ? nlohmann::ordered_json(*e.last_plan_summary) : nullptr}};
}

// Beside the manifest: which tensors came from which file, so `restore --out` can write the
// files back. The header bytes themselves are a checksummed blob in the persistent cache.
std::string files_path(const CacheRoot& root) { return root.checkpoint() + "/tensor_files.json"; }
std::string header_key(const std::string& file) { return "tensorfile:" + file; }

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct LoadedFile {
  std::string file;  // base name
  hybrid::TensorFile layout;
  std::vector<std::uint8_t> bytes;
};

common::Result<std::vector<LoadedFile>> load_tensor_files(const std::vector<std::string>& paths, std::set<std::string>& ids) {
  std::vector<LoadedFile> out;
  std::set<std::string> names;
  for (const std::string& path : paths) {
    LoadedFile lf;
    lf.file = base_name(path);
    if (lf.file.empty() || lf.file == "." || lf.file == ".." || !names.insert(lf.file).second) {
      return common::Error::invalid_argument("--from " + path + ": file names must be distinct");
    }
    auto text = read_input_text(path, hybrid::kMaxBlobBytes + hybrid::kMaxTensorHeaderBytes);
    if (!text) return text.error();
    lf.bytes.assign(text->begin(), text->end());
    std::string stem = lf.file;
    if (stem.size() > 4 && stem.ends_with(".npy")) stem.resize(stem.size() - 4);
    auto layout = hybrid::parse_tensor_file(lf.bytes, stem, input_name(path));
    if (!layout) return layout.error();
    lf.layout = std::move(layout.value());
    for (const auto& t : lf.layout.tensors) {
      if (auto why = bad_id(t.name)) return common::Error::invalid_argument("--from " + path + ": tensor id: " + *why);
      if (!ids.insert(t.name).second) {
        return common::Error::invalid_argument("--from " + path + ": tensor id \"" + common::excerpt(t.name) +
                                               "\" is already taken by another input");
      }
      if (t.length > hybrid::kMaxBlobBytes) {
        return common::Error::invalid_argument("--from " + path + ": tensor \"" + common::excerpt(t.name) + "\" is " +
                                               std::to_string(t.length) + " bytes; the limit is " +
                                               std::to_string(hybrid::kMaxBlobBytes));
      }
    }
    out.push_back(std::move(lf));
  }
  return out;
}

// Registers a saved tensor on its tier for the manifest. The bytes live once, in the blob
// just written (fsynced and renamed into place); restore places them from there. So RAM, CPU
// and SSD entries are registered by size alone: spilling an SSD tensor here as well wrote and
// fsynced every byte a second time, into a spill file nothing reads (restore spills afresh).
// VRAM keeps the real registration: without a GPU it degrades to RAM, and the manifest must
// record the tier the tensor really got.
hybrid::MoveResult<void> place_saved(hybrid::HybridMemoryManager& mem, const std::string& id,
                                     std::span<const std::uint8_t> data, hybrid::MemoryTier tier) {
  if (tier == hybrid::MemoryTier::Vram) return mem.register_tensor_with_data(id, hybrid::Bytes(data.begin(), data.end()), tier);
  mem.register_tensor(id, data.size(), tier);
  return {};
}

int run_save(const CheckpointOptions& o) {
  if (o.tensors.empty() && o.from.empty()) {
    return report(common::Error::malformed("checkpoint save needs --tensors FILE or at least one --from FILE"));
  }
  int stdin_inputs = o.tensors == "-" ? 1 : 0;
  for (const auto& f : o.from) stdin_inputs += f == "-" ? 1 : 0;
  if (stdin_inputs > 1) return report(common::Error::malformed("only one input can be - (stdin)"));
  auto tier = hybrid::parse_memory_tier(o.tier);
  if (!tier) return report(common::Error::invalid_argument("--tier: expected ram, ssd, vram or cpu, got \"" + common::excerpt(o.tier) + "\""));
  std::vector<TensorSpec> no_specs;
  auto specs = o.tensors.empty() ? common::Result<std::vector<TensorSpec>>(no_specs) : read_tensor_specs(o.tensors);
  if (!specs) return report(specs.error());
  std::set<std::string> ids;
  for (const auto& t : *specs) ids.insert(t.id);
  auto files = load_tensor_files(o.from, ids);
  if (!files) return report(files.error());
  const CacheRoot root{o.root};
  const bool root_existed = common::real_file_system().exists(root.root);
  if (auto s = ensure_cache_root(root); !s) return report(s.error());
  // One save at a time per root: two would race on the blobs and the manifest's temporaries.
  auto lock = common::DirLock::acquire(root.root);
  if (!lock) return report(lock.error());
  // A save that fails part-way removes every file it added and puts back every file it
  // replaced (blobs of the same id and length, the file list), so the previous checkpoint
  // stays loadable, bit for bit; the lock keeps other writers out.
  auto rollback = SaveRollback::begin(root.root);
  if (!rollback) return report(rollback.error());
  auto fail = [&](const common::Error& e) {
    rollback->rollback();
    if (!root_existed) {
      std::error_code ec;
      std::filesystem::remove_all(root.root, ec);
    }
    return report(e);
  };
  auto mem = make_manager(root, root.ssd(), true);
  const hybrid::PersistentHybridCache& cache = *mem.persistent_cache();
  for (const TensorSpec& t : *specs) {
    hybrid::Bytes payload = hybrid::scenario_payload(t.id, t.bytes);
    if (t.grad) {
      if (auto r = mem.gradients().persist(t.id, payload, o.created_unix, true); !r) {
        return fail(hybrid::to_common_error(r.error()));
      }
    } else if (auto r = cache.put_blob(hybrid::CacheKind::Tensor, hybrid::tensor_cache_key(t.id, t.bytes), payload,
                                       o.created_unix, true);
               !r) {
      return fail(hybrid::to_common_error(r.error()));
    }
    if (auto r = place_saved(mem, t.id, payload, t.tier); !r) {
      return fail(hybrid::to_common_error(r.error()));
    }
    mem.hints().set_desired_tier(t.id, t.desired);
    mem.hints().set_last_plan_summary(t.id, t.summary);
  }
  nlohmann::ordered_json file_list = nlohmann::ordered_json::array();
  for (LoadedFile& lf : *files) {
    const auto& header = lf.layout.header;
    if (auto r = cache.put_blob(hybrid::CacheKind::KernelMeta, header_key(lf.file),
                                {reinterpret_cast<const std::uint8_t*>(header.data()), header.size()}, o.created_unix, true);
        !r) {
      return fail(hybrid::to_common_error(r.error()));
    }
    nlohmann::ordered_json names = nlohmann::ordered_json::array();
    for (const auto& t : lf.layout.tensors) {
      const std::span<const std::uint8_t> data(lf.bytes.data() + t.offset, t.length);
      if (auto r = cache.put_blob(hybrid::CacheKind::Tensor, hybrid::tensor_cache_key(t.name, t.length), data,
                                  o.created_unix, true);
          !r) {
        return fail(hybrid::to_common_error(r.error()));
      }
      if (auto r = place_saved(mem, t.name, data, *tier); !r) {
        return fail(hybrid::to_common_error(r.error()));
      }
      names.push_back(t.name);
    }
    file_list.push_back({{"file", lf.file}, {"format", hybrid::to_string(lf.layout.format)}, {"tensors", names}});
    lf.bytes = {};  // stored in the blobs now
  }
  if (auto s = common::real_file_system().create_dirs(root.checkpoint()); !s) return fail(s.error());
  if (auto s = write_output(files_path(root), nlohmann::ordered_json{{"version", 1}, {"files", file_list}}.dump() + "\n");
      !s) {
    return fail(s.error());
  }
  auto cp = hybrid::save_checkpoint(root.checkpoint(), o.created_unix, mem);
  if (!cp) return fail(hybrid::to_common_error(cp.error()));
  rollback->commit();
  if (o.json) {
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const auto& e : cp->entries) entries.push_back(entry_json(e));
    std::cout << nlohmann::ordered_json{{"manifest", hybrid::manifest_path(root.checkpoint())}, {"entries", entries}}.dump()
              << "\n";
  } else {
    std::cout << "saved " << cp->entries.size() << " entries to " << hybrid::manifest_path(root.checkpoint()) << "\n";
  }
  return kExitOk;
}

// Writes every file `save --from` took in back under `dir`, from the verified blobs.
common::Result<std::vector<std::string>> write_tensor_files(const CacheRoot& root, const std::string& dir) {
  auto& fs = common::real_file_system();
  std::vector<std::string> written;
  if (!fs.exists(files_path(root))) return written;
  auto doc = read_json_input(files_path(root));
  if (!doc) return doc.error();
  Fields top(*doc, files_path(root), 0, "");
  if (auto s = top.only({"version", "files"}); !s) return s.error();
  auto files = top.array("files");
  if (!files) return files.error();
  if (auto s = fs.create_dirs(dir); !s) return s.error();
  const hybrid::PersistentHybridCache cache(root.blobs());
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
    auto header = cache.get_blob(hybrid::CacheKind::KernelMeta, header_key(*file));
    if (!header) return hybrid::to_common_error(header.error());
    std::string stem = *file;
    if (stem.size() > 4 && stem.ends_with(".npy")) stem.resize(stem.size() - 4);
    auto layout = hybrid::parse_tensor_header(
        *format == "npy" ? hybrid::TensorFileFormat::Npy : hybrid::TensorFileFormat::Safetensors,
        {reinterpret_cast<const char*>(header->data()), header->size()}, stem, *file);
    if (!layout) return layout.error();
    std::vector<std::vector<std::uint8_t>> blobs;
    for (const auto& t : layout->tensors) {
      auto b = cache.get_blob(hybrid::CacheKind::Tensor, hybrid::tensor_cache_key(t.name, t.length));
      if (!b) return hybrid::to_common_error(b.error());
      blobs.push_back(std::move(b.value()));
    }
    std::vector<std::span<const std::uint8_t>> spans(blobs.begin(), blobs.end());
    auto bytes = hybrid::assemble_tensor_file(*layout, spans);
    if (!bytes) return bytes.error();
    const std::string path = dir + "/" + *file;
    if (auto s = common::write_file_atomic(fs, path, {reinterpret_cast<const std::byte*>(bytes->data()), bytes->size()});
        !s) {
      return s.error();
    }
    written.push_back(path);
  }
  return written;
}

int run_restore(const CheckpointOptions& o) {
  const CacheRoot root{o.root};
  if (auto s = SaveRollback::recover_interrupted(root.root); !s) return report(s.error());
  auto& fs = common::real_file_system();
  if (fs.exists(root.root) && !fs.is_dir(root.root)) return report(ensure_cache_root(root).error());
  ScratchDir scratch;  // the restored SSD tier is a throwaway: restore must not touch ROOT
  auto mem = make_manager(root, scratch.path(), o.gpu_available);
  hybrid::DriftCollector drift;
  hybrid::LazyRegistry lazy;
  auto cp = o.lazy ? hybrid::restore_checkpoint_lazy(root.checkpoint(), mem, lazy, &drift)
                   : hybrid::restore_checkpoint(root.checkpoint(), mem, &drift);
  if (!cp) return fail_checkpoint(cp.error());
  const auto plan = hybrid::build_warm_start_plan(mem, cp.value(), drift.reports(), o.gpu_available);

  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& e : cp->entries) {
    const auto tier = mem.get_tier(e.id);
    const char* state = !tier ? "not_restored" : o.lazy && lazy.state(e.id) == hybrid::LazyState::Unmaterialized
                                                     ? "lazy"
                                                     : "loaded";
    if (o.json) {
      entries.push_back({{"id", e.id}, {"restored_tier", tier ? hybrid::to_string(*tier) : "none"},
                         {"len", e.len_bytes}, {"state", state}});
    } else {
      std::cout << "RESTORED id=" << e.id << " tier=" << (tier ? hybrid::to_string(*tier) : "none")
                << " len=" << e.len_bytes << " state=" << state << "\n";
    }
  }
  nlohmann::ordered_json drifts = nlohmann::ordered_json::array(), decisions = nlohmann::ordered_json::array();
  for (const auto& r : drift.reports()) {
    if (o.json) drifts.push_back(hybrid::to_string(r));
    else std::cout << "DRIFT " << hybrid::to_string(r) << "\n";
  }
  for (const auto& d : plan.decisions) {
    if (o.json) decisions.push_back({{"id", d.id}, {"action", hybrid::to_string(d.action)}, {"reason", d.reason}});
    else std::cout << "WARM_START id=" << d.id << " action=" << hybrid::to_string(d.action) << " reason=" << d.reason << "\n";
  }
  nlohmann::ordered_json written = nlohmann::ordered_json::array();
  if (!o.out.empty()) {
    auto w = write_tensor_files(root, o.out);
    if (!w) return report(w.error());
    for (const auto& f : *w) {
      if (!o.json) std::cout << "WROTE " << f << "\n";
      written.push_back(f);
    }
  }
  if (o.json) {
    std::cout << nlohmann::ordered_json{{"entries", entries}, {"drift", drifts}, {"warm_start", decisions},
                                        {"summary", plan.summary}, {"written", written}}.dump()
              << "\n";
  } else {
    std::cout << plan.summary << "\n";
  }
  return kExitOk;
}

int run_inspect(const CheckpointOptions& o) {
  const CacheRoot root{o.root};
  if (auto s = SaveRollback::recover_interrupted(root.root); !s) return report(s.error());
  auto& fs = common::real_file_system();
  if (fs.exists(root.root) && !fs.is_dir(root.root)) return report(ensure_cache_root(root).error());
  auto cp = hybrid::read_manifest(fs, root.checkpoint());
  if (!cp) return fail_checkpoint(cp.error());
  const hybrid::PersistentHybridCache cache(root.blobs());
  int bad = 0;
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& e : cp->entries) {
    std::string blob = "none";
    if (e.cache_kind && e.cache_key) {
      auto len = cache.verify_blob(*e.cache_kind, *e.cache_key);  // streamed: bounded memory
      if (!len) blob = hybrid::to_string(len.error());
      else if (*len != e.len_bytes) blob = "length mismatch with manifest";
      else blob = "ok";
      if (blob != "ok") ++bad;
    }
    if (o.json) {
      auto j = entry_json(e);
      j["blob"] = blob;
      entries.push_back(j);
    } else {
      std::cout << "ENTRY id=" << e.id << " is_grad=" << (e.is_grad ? 1 : 0) << " tier=" << hybrid::to_string(e.tier)
                << " len=" << e.len_bytes << " cache_key=" << e.cache_key.value_or("none")
                << " desired_tier=" << (e.desired_tier ? hybrid::to_string(*e.desired_tier) : "none")
                << " blob=" << blob << "\n";
    }
  }
  if (o.json) {
    std::cout << nlohmann::ordered_json{{"version", cp->version}, {"created_unix", cp->created_unix},
                                        {"entries", entries}, {"bad_blobs", bad}}.dump()
              << "\n";
  } else {
    std::cout << "version=" << cp->version << " created_unix=" << cp->created_unix << " entries=" << cp->entries.size()
              << " bad_blobs=" << bad << "\n";
  }
  return bad == 0 ? kExitOk : kExitFailure;
}

}  // namespace

Registration add_checkpoint_command(CLI::App& app) {
  auto o = std::make_shared<CheckpointOptions>();
  auto* sub = app.add_subcommand("checkpoint", "Save, restore or inspect a hybrid checkpoint under a cache root");
  sub->require_subcommand(1);
  auto* save = sub->add_subcommand("save", "Store tensors in the cache root and write its checkpoint");
  save->add_option("root", o->root, "cache root directory")->required();
  save->add_option("--tensors", o->tensors, "JSON file listing generated tensors to checkpoint (- for stdin)");
  save->add_option("--from", o->from, "a .npy or .safetensors file whose tensors to checkpoint (repeatable; - for stdin)");
  save->add_option("--tier", o->tier, "tier for the tensors of --from files: ram, ssd, vram or cpu")->capture_default_str();
  save->add_option("--created-unix", o->created_unix, "logical timestamp recorded in the manifest");
  save->add_flag("--json", o->json, "machine-readable output");
  auto* restore = sub->add_subcommand("restore", "Restore the checkpoint into a fresh memory manager");
  restore->add_option("root", o->root, "cache root directory")->required();
  restore->add_flag("--lazy", o->lazy, "register entries without loading their bytes (13.9.3)");
  restore->add_flag("--gpu-available", o->gpu_available, "plan the warm start for a host with a GPU");
  restore->add_option("--out", o->out, "write the .npy / .safetensors files saved with --from back into this directory");
  restore->add_flag("--json", o->json, "machine-readable output");
  auto* inspect = sub->add_subcommand("inspect", "List the manifest and verify every referenced blob");
  inspect->add_option("root", o->root, "cache root directory")->required();
  inspect->add_flag("--json", o->json, "machine-readable output");
  return {sub, [o, save, restore] {
            if (save->parsed()) return run_save(*o);
            if (restore->parsed()) return run_restore(*o);
            return run_inspect(*o);
          }};
}

}  // namespace atenia::cli
