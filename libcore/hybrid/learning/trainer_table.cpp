#include "hybrid/learning/trainer_table.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>
#include <variant>

#include "common/atomic_file.hpp"
#include "hybrid/format/kv_lines.hpp"
#include "hybrid/format/text_trailer.hpp"
#include "hybrid/learning/spill_table_rows.hpp"

namespace hybrid {

namespace {

constexpr std::string_view kTrailerTag = "table_end";
constexpr std::string_view kEpisodeTag = "episode=";

bool is_episode_key(std::string_view k) {
  return k.size() == 32 && k.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}


std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    auto pos = s.find(sep, start);
    out.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

// The fields of a CPU/GPU row, all required, in the order the writer puts them.
constexpr std::array<std::string_view, 8> kRowKeys{"gpu_avail", "vram_band", "ram_band", "backend",
                                                   "count",     "success",   "score_sum", "drift"};

// The first field of `fields` (';'-separated) that is not key=value with a key in `known`, as the
// strict reader reports it; nullopt when there is none. The seed's loader ignores such fields
// (forward compatibility); the tools refuse them, so a mistyped or foreign field is never lost.
template <std::size_t N>
std::optional<std::string> unknown_field(std::string_view fields, const std::array<std::string_view, N>& known) {
  for (std::string_view seg : split(fields, ';')) {
    const auto kv = split_key_value(seg);
    if (kv && std::find(known.begin(), known.end(), kv->key) != known.end()) continue;
    std::string expected;
    for (std::string_view k : known) expected += (expected.empty() ? "" : ", ") + std::string(k);
    return "unknown field '" + common::excerpt(kv ? kv->key : seg) + "'" + (kv ? "" : " (not key=value)") +
           "; expected " + expected;
  }
  return std::nullopt;
}

struct Row {
  ContextBucket bucket;
  BackendChoice backend = BackendChoice::cpu;
  ChoiceStats stats;
};

// A row, or why it is not one.
std::variant<Row, std::string> parse_row(std::string_view line) {
  std::optional<bool> gpu;
  std::optional<std::uint8_t> vram, ram;
  std::optional<BackendChoice> backend;
  std::optional<std::uint32_t> count, success, drift;
  std::optional<std::int64_t> score_sum;
  std::set<std::string_view> seen;
  for (std::string_view seg : split(line, ';')) {
    auto eq = seg.find('=');
    if (eq == std::string_view::npos) continue;  // not a key=value pair: nothing we know
    std::string_view key = seg.substr(0, eq), val = seg.substr(eq + 1);
    bool known = true;
    if (key == "gpu_avail") {
      if (val == "0" || val == "1") gpu = val == "1";
      else return "gpu_avail must be 0 or 1, got '" + std::string(val) + "'";
    } else if (key == "vram_band" || key == "ram_band") {
      auto b = parse_decimal<std::uint8_t>(val);
      if (!b || *b > kMaxBand) return std::string(key) + " must be 0..3, got '" + std::string(val) + "'";
      (key == "vram_band" ? vram : ram) = *b;
    } else if (key == "backend") {
      if (val == "cpu") backend = BackendChoice::cpu;
      else if (val == "gpu") backend = BackendChoice::gpu;
      else return "backend must be cpu or gpu, got '" + std::string(val) + "'";
    } else if (key == "count" || key == "success" || key == "drift") {
      auto n = parse_decimal<std::uint32_t>(val);
      if (!n) return std::string(key) + " must be an unsigned 32-bit integer, got '" + std::string(val) + "'";
      (key == "count" ? count : key == "success" ? success : drift) = *n;
    } else if (key == "score_sum") {
      score_sum = parse_decimal<std::int64_t>(val);
      if (!score_sum) return "score_sum must be a signed 64-bit integer, got '" + std::string(val) + "'";
    } else {
      known = false;  // unknown keys are for forward compatibility
    }
    if (known && !seen.insert(key).second) return "key '" + std::string(key) + "' appears twice";
  }
  for (std::string_view k : kRowKeys) {
    if (!seen.contains(k)) return "missing required key '" + std::string(k) + "'";
  }
  if (*success > *count || *drift > *count) return std::string("success and drift cannot exceed count");
  return Row{{*gpu, *vram, *ram}, *backend, {*count, *success, *score_sum, *drift}};
}

}  // namespace

std::string format_trainer_table(const SelfTrainer& trainer) { return format_trainer_table(TrainerTable{trainer, {}, {}}); }

std::string format_trainer_table(const TrainerTable& table) {
  const SelfTrainer& trainer = table.trainer;
  std::string body = std::string(table.spill.empty() ? kTrainerTableHeader : kTrainerTableHeaderV3) + "\n";
  for (const StatsEntry& e : trainer.all_stats()) {  // already in the documented order
    body += "gpu_avail=" + std::string(e.bucket.gpu_available ? "1" : "0") +
            ";vram_band=" + std::to_string(e.bucket.vram_band) + ";ram_band=" + std::to_string(e.bucket.ram_band) +
            ";backend=" + std::string(to_string(e.backend)) + ";count=" + std::to_string(e.stats.count) +
            ";success=" + std::to_string(e.stats.success_count) + ";score_sum=" + std::to_string(e.stats.score_sum) +
            ";drift=" + std::to_string(e.stats.drift_count) + "\n";
  }
  for (const SpillStatsEntry& e : table.spill.all_stats()) body += format_spill_row(e) + "\n";
  for (const std::string& key : table.episodes) body += std::string(kEpisodeTag) + key + "\n";
  return body + std::string(kTrailerTag) + ";len=" + std::to_string(body.size()) +
         ";" + std::string(format_sum_name(FormatSum::crc32c)) + "=" +
         std::to_string(format_checksum(FormatSum::crc32c, body)) + "\n";
}

ParsedTable parse_trainer_table(std::string_view text) {
  ParsedTable out;
  std::set<std::pair<ContextBucket, BackendChoice>> rows_seen;
  bool trailer_seen = false;
  bool v1 = false, v3 = false;
  std::set<std::pair<std::uint8_t, SpillDecision>> spill_seen;
  LineReader lines(text, LineReader::Cr::strip);
  while (auto next = lines.next()) {
    const std::size_t line_start = next->offset;
    const std::int64_t line_no = next->number;
    const std::string_view line = next->text;
    if (line_no == 1) {
      v1 = line == kTrainerTableHeaderV1;
      v3 = line == kTrainerTableHeaderV3;
      out.header_ok = v1 || v3 || line == kTrainerTableHeader;
      if (!out.header_ok) return out;
      continue;
    }
    if (line.empty()) continue;
    if (trailer_seen) {
      out.integrity = TableIssue{line_no, "content after the table_end trailer"};
      return out;
    }
    if (line.starts_with(std::string(kTrailerTag) + ";")) {
      trailer_seen = true;
      std::optional<std::uint64_t> len;
      std::optional<std::uint32_t> sum;
      const FormatSum algo = v1 ? FormatSum::fnv1a : FormatSum::crc32c;
      const std::string sum_key = std::string(format_sum_name(algo)) + "=";
      for (std::string_view seg : split(line, ';')) {
        if (seg.starts_with("len=")) len = parse_decimal<std::uint64_t>(seg.substr(4));
        if (seg.starts_with(sum_key)) sum = parse_decimal<std::uint32_t>(seg.substr(sum_key.size()));
      }
      const std::string_view body = text.substr(0, line_start);
      if (!len || !sum) {
        out.integrity = TableIssue{line_no, "table_end trailer needs len and " + std::string(format_sum_name(algo))};
      } else if (auto why = trailer_mismatch(algo, body, *len, *sum, "table")) {
        out.integrity = TableIssue{line_no, std::move(*why)};
      } else {
        out.verified = true;
      }
      continue;
    }
    if (line.starts_with(kEpisodeTag)) {
      const std::string_view key = line.substr(kEpisodeTag.size());
      if (!is_episode_key(key)) {
        out.skipped.push_back({line_no, "episode key must be 32 lowercase hex digits"});
      } else if (!out.episodes.emplace(key).second) {
        out.skipped.push_back({line_no, "episode key appears twice"});
      }
      continue;
    }
    if (line.starts_with(kSpillRowTag)) {
      auto spill = parse_spill_row(line);
      if (!v3) {
        out.skipped.push_back({line_no, "a spill row needs the header " + std::string(kTrainerTableHeaderV3)});
      } else if (auto* why = std::get_if<std::string>(&spill)) {
        out.skipped.push_back({line_no, *why});
      } else {
        const SpillStatsEntry& e = std::get<SpillStatsEntry>(spill);
        if (!spill_seen.insert({e.ram_band, e.decision}).second) {
          out.skipped.push_back({line_no, "duplicate spill row for this band, tier and codec (the later row wins)"});
        }
        out.spill.set_stats_entry(e.ram_band, e.decision, e.stats);
        if (auto why = unknown_field(line.substr(kSpillRowTag.size()), kSpillRowKeys)) {
          out.unknown_fields.push_back({line_no, "spill row: " + *why});
        }
      }
      continue;
    }
    auto row = parse_row(line);
    if (auto* why = std::get_if<std::string>(&row)) {
      out.skipped.push_back({line_no, *why});
      continue;
    }
    const Row& r = std::get<Row>(row);
    if (!rows_seen.insert({r.bucket, r.backend}).second) {
      out.skipped.push_back({line_no, "duplicate row for this context and backend (the later row wins)"});
    }
    out.trainer.set_stats_entry(r.bucket, r.backend, r.stats);
    if (auto why = unknown_field(line, kRowKeys)) out.unknown_fields.push_back({line_no, std::move(*why)});
  }
  return out;
}

common::Result<SelfTrainer> read_trainer_table_strict(common::FileSystem& fs, const std::string& path) {
  auto t = read_trainer_table_full(fs, path);
  if (!t) return t.error();
  return std::move(t.value().trainer);
}

common::Status write_trainer_table(common::FileSystem& fs, const TrainerTable& table, const std::string& path,
                                   std::size_t max_bytes) {
  const std::string text = format_trainer_table(table);
  if (text.size() > max_bytes) {
    return common::Error::invalid_argument(
        path + ": the table would be " + std::to_string(text.size()) + " bytes, over the " +
        std::to_string(max_bytes) + " a table may hold (it could not be read back); nothing was written");
  }
  return common::write_file_atomic(fs, path, text);
}

common::Result<TrainerTable> read_trainer_table_full(common::FileSystem& fs, const std::string& path) {
  auto text = common::read_text(fs, path, kMaxTrainerTableBytes);
  if (!text) return text.error().at_file(path);
  ParsedTable parsed = parse_trainer_table(*text);
  auto at = [&](std::int64_t line, std::string msg) {
    return common::Error::malformed(std::move(msg), common::Location{path, line, {}});
  };
  if (text->empty()) return at(1, "empty file; expected header " + std::string(kTrainerTableHeader));
  if (!parsed.header_ok) {
    return at(1, "not a self-training table; expected header " + std::string(kTrainerTableHeader) + " (or " +
                     std::string(kTrainerTableHeaderV3) + ", " + std::string(kTrainerTableHeaderV1) + ")");
  }
  if (parsed.integrity) return at(parsed.integrity->line, parsed.integrity->message);
  // The earliest line that is not a clean row: one left out, or one with a field the format lacks.
  const TableIssue* first = nullptr;
  for (const auto* issues : {&parsed.skipped, &parsed.unknown_fields}) {
    if (!issues->empty() && (first == nullptr || issues->front().line < first->line)) first = &issues->front();
  }
  if (first != nullptr) return at(first->line, first->message);
  if (!parsed.verified) {
    std::int64_t lines = 0;
    for (char c : *text) lines += c == '\n' ? 1 : 0;
    return at(lines + 1, "no table_end trailer: the table is cut short or was not written by atenia");
  }
  return TrainerTable{std::move(parsed.trainer), std::move(parsed.episodes), std::move(parsed.spill)};
}

}  // namespace hybrid
