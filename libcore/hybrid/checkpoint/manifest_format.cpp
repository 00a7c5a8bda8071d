#include "hybrid/checkpoint/manifest_format.hpp"

#include <charconv>
#include <map>
#include <set>
#include <vector>

#include "common/atomic_file.hpp"
#include "hybrid/cache/persistent_cache.hpp"
#include "hybrid/format/kv_lines.hpp"
#include "hybrid/format/text_trailer.hpp"

namespace hybrid {

namespace {

// v1 manifests carry an FNV-1a trailer, later ones CRC-32C. Read from the header's version
// line before the header is checked, so that a damaged header reports the checksum mismatch.
FormatSum trailer_sum_for(std::string_view version) {
  return version == std::to_string(kCheckpointVersionV1) ? FormatSum::fnv1a : FormatSum::crc32c;
}

std::string trailer_sum_key(FormatSum sum) { return "manifest_" + std::string(format_sum_name(sum)); }

std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

struct Line {
  std::int64_t number = 0;
  std::string_view key;
  std::string_view value;
};

struct Block {
  std::vector<Line> lines;
  std::size_t start_offset = 0;  // byte offset of the block's first line
};

template <typename T>
bool parse_uint(std::string_view s, T& out) {
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  CheckpointResult<HybridCheckpoint> run() {
    std::vector<Block> blocks;
    if (auto err = split_blocks(blocks)) return *err;
    if (blocks.empty()) return fail(1, "empty manifest; expected a header block with version, created_unix, entry_count");

    // The trailer, when present, is the last block and covers every byte before it.
    const Block& last = blocks.back();
    if (!last.lines.empty() && last.lines.front().key.starts_with("manifest_")) {
      std::string_view version;
      for (const Line& l : blocks.front().lines) {
        if (l.key == "version") version = l.value;
      }
      if (auto err = check_trailer(last, trailer_sum_for(version))) return *err;
      blocks.pop_back();
    }

    HybridCheckpoint cp;
    std::uint64_t entry_count = 0;
    {
      auto fields = fields_of(blocks.front(), {"version", "created_unix", "entry_count"}, {});
      if (!fields) return fields.error();
      auto& f = fields.value();
      if (!parse_uint(f["version"].value, cp.version)) return bad_value(f["version"], "an unsigned integer");
      if (cp.version != kCheckpointVersion && cp.version != kCheckpointVersionV1) {
        return fail(f["version"].number, "unsupported manifest version " + std::string(f["version"].value) +
                                             "; expected " + std::to_string(kCheckpointVersion) + " (or " +
                                             std::to_string(kCheckpointVersionV1) + ")");
      }
      if (!parse_uint(f["created_unix"].value, cp.created_unix)) return bad_value(f["created_unix"], "an unsigned integer");
      if (!parse_uint(f["entry_count"].value, entry_count)) return bad_value(f["entry_count"], "an unsigned integer");
    }

    std::set<std::pair<bool, std::string>> ids;
    for (std::size_t b = 1; b < blocks.size(); ++b) {
      auto entry = parse_entry(blocks[b]);
      if (!entry) return entry.error();
      if (!ids.insert({entry->is_grad, entry->id}).second) {
        return fail(blocks[b].lines.front().number, "id '" + entry->id + "' appears twice");
      }
      cp.entries.push_back(std::move(entry.value()));
    }
    if (cp.entries.size() != entry_count) {
      return fail(blocks.front().lines.front().number, "entry_count says " + std::to_string(entry_count) +
                                                           " but the manifest has " +
                                                           std::to_string(cp.entries.size()) + " entries");
    }
    return cp;
  }

 private:
  CheckpointError fail(std::int64_t line, const std::string& msg) const {
    return CheckpointError::invalid_format(source_ + ":" + std::to_string(line) + ": " + msg);
  }
  CheckpointError bad_value(const Line& l, const std::string& expected) const {
    return fail(l.number, std::string(l.key) + " must be " + expected + ", got '" + std::string(l.value) + "'");
  }

  std::optional<CheckpointError> split_blocks(std::vector<Block>& blocks) const {
    bool in_block = false;
    LineReader lines(text_, LineReader::Cr::strip);
    while (auto line = lines.next()) {
      if (line->text.empty()) {
        in_block = false;
        continue;
      }
      const auto kv = split_key_value(line->text);
      if (!kv || kv->key.empty()) {
        return fail(line->number, "expected key=value, got '" + std::string(line->text) + "'");
      }
      if (!in_block) {
        blocks.push_back({{}, line->offset});
        in_block = true;
      }
      blocks.back().lines.push_back({line->number, kv->key, kv->value});
    }
    return std::nullopt;
  }

  std::optional<CheckpointError> check_trailer(const Block& block, FormatSum algo) const {
    const std::string sum_key = trailer_sum_key(algo);
    auto fields = fields_of(block, {"manifest_len", sum_key.c_str()}, {});
    if (!fields) return fields.error();
    auto& f = fields.value();
    std::uint64_t len = 0;
    std::uint32_t sum = 0;
    if (!parse_uint(f["manifest_len"].value, len)) return bad_value(f["manifest_len"], "an unsigned integer");
    if (!parse_uint(f[sum_key].value, sum)) return bad_value(f[sum_key], "an unsigned 32-bit integer");
    const std::string_view body = text_.substr(0, block.start_offset);
    if (auto why = trailer_mismatch(algo, body, len, sum, "manifest")) {
      return fail(len != body.size() ? f["manifest_len"].number : f[sum_key].number, *why);
    }
    return std::nullopt;
  }

  // The block's lines by key; every `required` key present, only `required` + `optional` keys.
  CheckpointResult<std::map<std::string, Line, std::less<>>> fields_of(const Block& block,
                                                                      std::initializer_list<const char*> required,
                                                                      std::initializer_list<const char*> optional) const {
    std::map<std::string, Line, std::less<>> out;
    std::set<std::string_view> allowed;
    for (const char* k : required) allowed.insert(k);
    for (const char* k : optional) allowed.insert(k);
    for (const Line& l : block.lines) {
      if (!allowed.contains(l.key)) return fail(l.number, "unknown key '" + std::string(l.key) + "'");
      if (!out.emplace(std::string(l.key), l).second) return fail(l.number, "key '" + std::string(l.key) + "' appears twice");
    }
    for (const char* k : required) {
      if (!out.contains(k)) return fail(block.lines.front().number, std::string("missing key '") + k + "'");
    }
    return out;
  }

  CheckpointResult<CheckpointEntry> parse_entry(const Block& block) const {
    auto fields = fields_of(block, {"id", "is_grad", "tier", "len", "cache_kind", "cache_key"},
                            {"desired_tier", "plan_summary"});
    if (!fields) return fields.error();
    auto& f = fields.value();
    CheckpointEntry e;
    e.id = std::string(f["id"].value);
    if (f["is_grad"].value != "0" && f["is_grad"].value != "1") return bad_value(f["is_grad"], "0 or 1");
    e.is_grad = f["is_grad"].value == "1";
    auto tier = parse_memory_tier(f["tier"].value);
    if (!tier) return bad_value(f["tier"], "ram, ssd, vram or cpu");
    e.tier = *tier;
    if (!parse_uint(f["len"].value, e.len_bytes)) return bad_value(f["len"], "an unsigned integer");
    // No blob is larger (put_blob refuses it), so a bigger claim is damage: refused here, so that
    // inspect and restore, which both parse the manifest, give the same verdict.
    if (e.len_bytes > kMaxBlobBytes) {
      return bad_value(f["len"], "at most " + std::to_string(kMaxBlobBytes) + " (the largest blob)");
    }
    const std::string_view kind = f["cache_kind"].value, key = f["cache_key"].value;
    if (kind != "none") {
      auto k = parse_cache_kind(kind);
      if (!k || kind == "kernelmeta") return bad_value(f["cache_kind"], "tensor, gradient, kernel_meta or none");
      e.cache_kind = *k;
    }
    if (key != "none") e.cache_key = std::string(key);
    if (e.cache_kind.has_value() != e.cache_key.has_value()) {
      return fail(f["cache_key"].number, "cache_kind and cache_key must both be none or both be set");
    }
    if (auto it = f.find("desired_tier"); it != f.end() && it->second.value != "none") {
      auto d = parse_memory_tier(it->second.value);
      if (!d) return bad_value(it->second, "ram, ssd, vram, cpu or none");
      e.desired_tier = *d;
    }
    if (auto it = f.find("plan_summary"); it != f.end() && it->second.value != "none") {
      e.last_plan_summary = std::string(it->second.value);
    }
    return e;
  }

  std::string_view text_;
  const std::string& source_;
};

}  // namespace

CheckpointResult<std::string> format_manifest(const HybridCheckpoint& cp) {
  std::string out = "version=" + std::to_string(kCheckpointVersion) + "\ncreated_unix=" + std::to_string(cp.created_unix) +
                    "\nentry_count=" + std::to_string(cp.entries.size()) + "\n";
  for (const CheckpointEntry& e : cp.entries) {
    for (const std::string* s : {&e.id, e.cache_key ? &*e.cache_key : nullptr}) {
      if (s && (s->empty() || s->find_first_of("\r\n") != std::string::npos || *s == "none")) {
        return CheckpointError::invalid_format("entry '" + one_line(e.id) +
                                               "': ids and cache keys must be one non-empty line other than 'none'");
      }
    }
    out += "\nid=" + e.id + "\nis_grad=" + (e.is_grad ? "1" : "0") + "\ntier=" + to_string(e.tier) +
           "\nlen=" + std::to_string(e.len_bytes) + "\ncache_kind=" + (e.cache_kind ? to_string(*e.cache_kind) : "none") +
           "\ncache_key=" + (e.cache_key ? *e.cache_key : "none") +
           "\ndesired_tier=" + (e.desired_tier ? to_string(*e.desired_tier) : "none") +
           "\nplan_summary=" + (e.last_plan_summary ? one_line(*e.last_plan_summary) : "none") + "\n";
  }
  out += "\n";
  const std::size_t body_len = out.size();
  const std::uint32_t sum = format_checksum(FormatSum::crc32c, out);
  return out + "manifest_len=" + std::to_string(body_len) + "\n" + trailer_sum_key(FormatSum::crc32c) + "=" +
         std::to_string(sum) + "\n";
}

CheckpointResult<HybridCheckpoint> parse_manifest(std::string_view text, const std::string& source) {
  return Parser(text, source).run();
}

CheckpointResult<HybridCheckpoint> read_manifest(common::FileSystem& fs, const std::string& root) {
  const std::string path = manifest_path(root);
  auto text = common::read_text(fs, path, kMaxManifestBytes);
  if (!text) return CheckpointError::io(text.error().at_file(path).to_string());
  return parse_manifest(*text, path);
}

CheckpointResult<void> write_manifest(common::FileSystem& fs, const std::string& root, const HybridCheckpoint& cp) {
  auto text = format_manifest(cp);
  if (!text) return text.error();
  if (auto s = fs.create_dirs(root); !s) return CheckpointError::io(s.error().to_string());
  if (auto s = common::write_file_atomic(fs, manifest_path(root), text.value()); !s) {
    return CheckpointError::io(s.error().to_string());
  }
  return {};
}

}  // namespace hybrid
