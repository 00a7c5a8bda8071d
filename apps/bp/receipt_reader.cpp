#include "receipt_reader.hpp"

#include <algorithm>
#include <cctype>

#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"

namespace bp::cli {
namespace {

bool has_jsonl_extension(const std::string& path) {
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == slash + 1) return false;
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".jsonl";
}

// The reader's line already says "file:line: path: invalid JSON: ..."; prefixing it again would
// say "invalid JSON" twice.
CliError invalid_json(const common::Error& e) {
  CliError c = from_library_error(e, "INVALID_JSON");
  c.hint = "validate the receipt structure against its schema (bp validate) before reconciling.";
  return c;
}

}  // namespace

std::variant<nlohmann::ordered_json, CliError> read_one_receipt(const InputText& in, const std::string& path_or_dash) {
  common::JsonInputOptions options;
  options.file = in.name;
  options.bom = common::BomPolicy::reject;
  if (path_or_dash != "-" && has_jsonl_extension(path_or_dash)) {
    auto records = common::parse_jsonl_text(in.text, options);
    if (records) {
      if (records->size() != 1) {
        CliError e;
        e.code = "BP_JSONL_MULTI_RECORD";
        e.message = "single-record JSONL is required here; got " + std::to_string(records->size()) +
                    " records. Use 'bp verify multi <file.jsonl>' for multi-record JSONL.";
        return e;
      }
      return std::move(records->front().value);
    }
    // Not line-by-line JSON: maybe one pretty-printed document (the whole-file reading decides).
  }
  auto doc = common::parse_json_text(in.text, options);
  if (!doc) {
    // Several receipts one per line (e.g. `bp generate xor-multi-step | bp validate -`): say so and
    // point at the command that reads them, instead of a JSON syntax error on line 2.
    if (auto records = common::parse_jsonl_text(in.text, options); records && records->size() > 1) {
      const std::string where = path_or_dash == "-" ? "stdin" : path_or_dash;
      CliError e;
      e.code = "BP_JSONL_MULTI_RECORD";
      e.message = where + " holds " + std::to_string(records->size()) +
                  " JSON records, one per line (JSON Lines); this command reads one receipt. Use 'bp verify multi " +
                  path_or_dash + "' for multi-record JSONL.";
      e.hint = "to check one record, pass it alone, e.g. `head -n 1 " +
               std::string(path_or_dash == "-" ? "<file>" : path_or_dash) + " | bp validate -`.";
      e.retryable = false;
      return e;
    }
    return invalid_json(doc.error());
  }
  return std::move(doc.value());
}

std::variant<common::JsonDocument, CliError> read_one_receipt_document(InputText& in, const std::string& path_or_dash) {
  common::JsonInputOptions options;
  options.file = in.name;
  options.bom = common::BomPolicy::reject;
  auto doc = common::parse_json_document_keeping(in.text, options);
  if (doc) return std::move(*doc);
  // Refused as one document: JSON Lines (one record: that record; several: BP_JSONL_MULTI_RECORD)
  // or the syntax error, exactly as the tree reader words it.
  auto tree = read_one_receipt(in, path_or_dash);
  if (auto* e = std::get_if<CliError>(&tree)) return std::move(*e);
  auto record = common::parse_json_document(std::get<nlohmann::ordered_json>(tree).dump(), options);
  if (!record) return invalid_json(record.error());
  return std::move(*record);
}

}  // namespace bp::cli
