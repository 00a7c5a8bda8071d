#include "checkpoint_inputs.hpp"

#include <algorithm>

#include "cli_support.hpp"
#include "common/error.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/graph/batch_scenario.hpp"

namespace atenia::cli {

// Ids become manifest lines: refused up front, before anything is written. They never become
// paths as they are: a cache key encodes any id that is not a safe file name (tensor_cache_key),
// so "levels/0/W_K", ".." or "/etc/passwd" are names like any other.
std::optional<std::string> bad_id(const std::string& id) {
  for (char c : id) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return "\"" + common::excerpt(id) + "\" holds a control character (a newline?)";
  }
  if (id.size() > kMaxTensorIdBytes) {
    return "an id is at most " + std::to_string(kMaxTensorIdBytes) + " bytes, got " + std::to_string(id.size());
  }
  return std::nullopt;
}

namespace {

common::Result<hybrid::MemoryTier> spec_tier_field(const Fields& f, const char* key) {
  auto s = f.string(key);
  if (!s) return s.error();
  auto t = hybrid::parse_memory_tier(*s);
  if (!t) return f.error(key, "expected \"ram\", \"ssd\", \"vram\" or \"cpu\", got \"" + common::excerpt(*s) + "\"");
  return *t;
}

std::string input_base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

common::Result<std::vector<TensorSpec>> read_tensor_specs(const std::string& path) {
  auto doc = read_json_input(path);
  if (!doc) return doc.error();
  Fields top(*doc, input_name(path), 0, "");
  if (auto s = top.only({"tensors"}); !s) return s.error();
  auto arr = top.array("tensors");
  if (!arr) return arr.error();
  if ((*arr)->size() > kMaxCheckpointTensors) {
    return top.error("tensors", "lists " + std::to_string((*arr)->size()) + " tensors; a checkpoint holds at most " +
                                    std::to_string(kMaxCheckpointTensors));
  }
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
    auto tier = spec_tier_field(f, "tier");
    if (!tier) return tier.error();
    t.tier = *tier;
    if (f.has("grad")) {
      auto g = f.boolean("grad");
      if (!g) return g.error();
      t.grad = *g;
    }
    if (f.has("desired_tier")) {
      auto d = spec_tier_field(f, "desired_tier");
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

common::Result<std::vector<LoadedFile>> load_tensor_files(const std::vector<std::string>& paths, std::set<std::string>& ids) {
  std::vector<LoadedFile> out;
  std::set<std::string> names;
  for (const std::string& path : paths) {
    LoadedFile lf;
    lf.file = input_base_name(path);
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
    if (lf.layout.tensors.size() > kMaxCheckpointTensors - std::min(ids.size(), kMaxCheckpointTensors)) {
      const std::string earlier = ids.empty() ? "" : " (and " + std::to_string(ids.size()) + " in earlier inputs)";
      return common::Error::invalid_argument("--from " + path + ": holds " + std::to_string(lf.layout.tensors.size()) +
                                             " tensors" + earlier + "; a checkpoint holds at most " +
                                             std::to_string(kMaxCheckpointTensors) + "; nothing was written");
    }
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

}  // namespace atenia::cli
