#pragma once
// Strict JSON reading for every wire format the suite takes in.
//
//   auto doc = common::parse_json_text(text, {.file = "config.json", .bom = common::BomPolicy::strip});
//   if (!doc) return doc.error();   // "config.json:3: /layers/1: ..."
//
// Rules (JSON.parse semantics where the reference relies on them, stricter where it is safe):
//  - RFC 8259 JSON only: no comments, no trailing commas, no NaN/Infinity tokens.
//  - Numbers that overflow binary64 (1e400) are rejected (JSON.parse would give Infinity).
//  - Duplicate object keys: the last value wins, at the position of the first (JSON.parse).
//  - Integers stay integers in the DOM (number_integer / number_unsigned); fractions are doubles.
//  - A UTF-8 byte order mark is rejected or stripped as the caller says (receipts reject,
//    input configs strip).
//  - Size and nesting limits below; larger input is an error, never a crash.
// Errors: ErrorCode::malformed (io for unreadable files), Location{file, line, json_path}
// where json_path is the JSON Pointer of the value being read when it went wrong.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/file_system.hpp"
#include "common/result.hpp"

namespace common {

// Largest JSON / JSONL input accepted, in bytes (256 MiB).
inline constexpr std::size_t kMaxJsonInputBytes = std::size_t{256} * 1024 * 1024;
// Deepest nesting of arrays/objects accepted (receipts use about 12).
inline constexpr std::size_t kMaxJsonNestingDepth = 128;

enum class BomPolicy { reject, strip };

struct JsonInputOptions {
  std::string file;                 // shown in errors; empty for stdin / unnamed text
  BomPolicy bom = BomPolicy::reject;
  std::size_t max_bytes = kMaxJsonInputBytes;
  std::size_t max_depth = kMaxJsonNestingDepth;
  std::int64_t first_line = 1;      // line number of text[0] (used for JSONL records)
};

[[nodiscard]] Result<nlohmann::ordered_json> parse_json_text(std::string_view text, const JsonInputOptions& options = {});

struct JsonlRecord {
  std::int64_t line = 0;  // 1-based line of the record in the input
  nlohmann::ordered_json value;
};

// JSON Lines: records separated by "\n" or "\r\n"; blank (whitespace-only) lines are
// skipped. An input with no record at all is an error ("empty JSONL input").
[[nodiscard]] Result<std::vector<JsonlRecord>> parse_jsonl_text(std::string_view text,
                                                                const JsonInputOptions& options = {});

// Reads `path` through `fs` (refusing more than options.max_bytes) and parses it;
// options.file defaults to `path`.
[[nodiscard]] Result<nlohmann::ordered_json> read_json_file(FileSystem& fs, const std::string& path,
                                                            JsonInputOptions options = {});
[[nodiscard]] Result<std::vector<JsonlRecord>> read_jsonl_file(FileSystem& fs, const std::string& path,
                                                               JsonInputOptions options = {});

// RFC 6901 escaping of one reference token ("~" -> "~0", "/" -> "~1").
[[nodiscard]] std::string json_pointer_token(std::string_view key);

}  // namespace common
