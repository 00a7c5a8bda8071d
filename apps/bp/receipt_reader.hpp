#pragma once
// Reading ONE receipt the way the reference's `validate` does: "-" and non-.jsonl files are one
// JSON document; a .jsonl file is JSON Lines and must hold exactly one record, unless some line
// is not JSON on its own, in which case the whole file is read as one (pretty-printed) document.
// A UTF-8 BOM is refused on receipts. Text that is not one document but several JSON lines gets
// BP_JSONL_MULTI_RECORD pointing at `bp verify multi` (also for stdin).
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "cli_error.hpp"
#include "common/json_document.hpp"
#include "input_source.hpp"

namespace bp::cli {

[[nodiscard]] std::variant<nlohmann::ordered_json, CliError> read_one_receipt(const InputText& in,
                                                                            const std::string& path_or_dash);

// The same receipt as a JsonDocument (8 bytes a value, 16 a number: a few times the input's size, where a tree
// of small objects takes fifty), for a command that only reads it. The same refusals with the same
// texts: what the document reader refuses is read as above, whose error says what the text is.
// `in.text` is moved into the document.
[[nodiscard]] std::variant<common::JsonDocument, CliError> read_one_receipt_document(InputText& in,
                                                                                   const std::string& path_or_dash);

}  // namespace bp::cli
