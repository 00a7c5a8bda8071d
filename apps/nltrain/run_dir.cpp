#include "run_dir.hpp"

#include <unistd.h>

#include <filesystem>
#include <utility>

#include <nlohmann/json.hpp>

#include "common/file_system.hpp"
#include "common/json_input.hpp"
#include "nl_store/run_store.hpp"

namespace nltrain::cli {

std::string encode_run(const RunRecord& r) {
  nlohmann::ordered_json j{{"data", r.data},
                           {"data_sha256", r.data_sha256},
                           {"data_bytes", r.data_bytes},
                           {"steps", r.steps},
                           {"checkpoint_every", r.checkpoint_every}};
  if (r.receipts.next_index > 0) {  // absent otherwise: the bytes of runs without receipts stay as they were
    j["receipts"] = {{"next_index", r.receipts.next_index},
                     {"last_sha256", r.receipts.last_sha256.value_or("")},
                     {"last_step", r.receipts.last_step.value_or(0)}};
    if (r.receipt_every) j["receipts"]["every"] = *r.receipt_every;
    if (r.compact_receipts) j["receipts"]["compact"] = true;  // absent: full receipts
  }
  if (r.batch > 1) j["batch"] = r.batch;  // absent for 1: an unbatched run's bytes stay as they were
  // absent for bytes: a byte-level run's record stays as it was
  if (r.data_format != nl::TokenFormat::bytes) j["data_format"] = nl::token_format_name(r.data_format);
  return j.dump();
}

common::Result<RunRecord> decode_run(const std::string& text, const std::string& what) {
  auto j = common::parse_json_text(text, {.file = what});
  auto bad = [&] { return common::Error::malformed(what + ": the checkpoint's run record is not nltrain's"); };
  if (!j.ok() || !j->is_object()) return bad();
  RunRecord r;
  try {
    r.data = j->at("data").get<std::string>();
    r.data_sha256 = j->at("data_sha256").get<std::string>();
    r.data_bytes = j->at("data_bytes").get<std::uint64_t>();
    r.steps = j->at("steps").get<std::uint64_t>();
    r.checkpoint_every = j->at("checkpoint_every").get<std::uint64_t>();
    if (j->contains("receipts")) {
      const auto& c = j->at("receipts");
      r.receipts = {c.at("next_index").get<std::uint64_t>(), c.at("last_sha256").get<std::string>(),
                    c.at("last_step").get<std::uint64_t>()};
      if (c.contains("every")) r.receipt_every = c.at("every").get<std::uint64_t>();
      if (c.contains("compact")) r.compact_receipts = c.at("compact").get<bool>();
      if (r.receipt_every == 0u) return bad();
    }
    if (j->contains("batch")) r.batch = j->at("batch").get<std::uint64_t>();
    if (j->contains("data_format")) {
      const auto f = nl::parse_token_format(j->at("data_format").get<std::string>());
      if (!f || *f == nl::TokenFormat::bytes) return bad();  // bytes is spelled by the key's absence
      r.data_format = *f;
    }
  } catch (const nlohmann::json::exception&) {
    return bad();
  }
  if (r.steps == 0 || r.batch == 0) return bad();
  return r;
}

std::string checkpoint_path(const std::string& dir) {
  common::FileSystem& fs = common::real_file_system();
  if (!fs.is_dir(dir) && fs.node_kind(dir) == common::NodeKind::regular) return dir;
  const std::string legacy = dir + "/" + nl_store::kLegacyCheckpointFile;
  if (!fs.exists(nl_store::run_manifest_path(dir)) && fs.exists(legacy)) return legacy;
  return nl_store::run_manifest_path(dir);
}

namespace {

// The directories create_dirs(dir) would make, dir first (none when it exists).
std::vector<std::string> missing_dirs(const std::string& dir) {
  common::FileSystem& fs = common::real_file_system();
  std::vector<std::string> out;
  for (std::filesystem::path p = std::filesystem::path(dir).lexically_normal(); !p.empty() && p != p.root_path();
       p = p.parent_path()) {
    if (p.filename().empty()) continue;  // "a/b/": the trailing separator
    if (fs.node_kind(p.string()) != common::NodeKind::missing) break;
    out.push_back(p.string());
  }
  return out;
}

// Removes `created` (dir first) while each is an empty directory: rmdir(2) removes nothing else.
void remove_empty(const std::vector<std::string>& created) {
  for (const std::string& d : created) {
    if (::rmdir(d.c_str()) != 0) return;  // not empty (a checkpoint, a file of the user's), or gone: keep the rest
  }
}

}  // namespace

RunDirLock::~RunDirLock() { remove_empty(created_); }

common::Result<RunDirLock> lock_run_dir(const std::string& dir) {
  common::FileSystem& fs = common::real_file_system();
  if (fs.node_kind(dir) != common::NodeKind::missing && !fs.is_dir(dir)) {
    return common::Error::io("--out: " + dir + " exists and is not a directory");
  }
  std::vector<std::string> created = missing_dirs(dir);
  if (common::Status s = fs.create_dirs(dir); !s.ok()) return s.error().at_file(dir);
  auto lock = common::DirLock::acquire(dir, common::LockWait::fail_at_once);
  if (lock.ok()) return RunDirLock(std::move(*lock), std::move(created));
  remove_empty(created);
  if (lock.error().held_elsewhere()) {
    return common::Error::io(dir + ": another nltrain is training into this directory (its lock is held)");
  }
  return common::Error(lock.error());
}

common::Status save_checkpoint(const std::string& dir, const nl::Checkpoint& c) { return nl_store::save_run(dir, c); }
common::Status save_checkpoint(const std::string& dir, const nl::Checkpoint64& c) { return nl_store::save_run(dir, c); }

bool has_checkpoint(const std::string& dir) { return nl_store::has_run_checkpoint(dir); }

common::Result<nl::Checkpoint> load_checkpoint(const std::string& dir) { return nl_store::load_run(dir); }
common::Result<nl_store::AnyCheckpoint> load_any_checkpoint(const std::string& dir) { return nl_store::load_any_run(dir); }

}  // namespace nltrain::cli
