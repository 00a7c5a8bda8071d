#pragma once
// The strict reader of json_input.hpp, building a JsonDocument (json_document.hpp) instead of an
// ordered_json tree: the same input is accepted, with the same values, and the same input is
// refused, with the same one-line error (file, line, JSON Pointer, text), byte for byte.
//
//   auto doc = common::parse_json_document(std::move(text), {.file = path, .bom = common::BomPolicy::strip});
//   if (!doc) return doc.error();
//
// How: one pass of its own tokenizer over the text, which accepts what parse_json_text accepts
// except duplicate keys; whatever it does not accept goes to parse_json_text, whose error is the
// answer (or, for duplicate keys, whose tree, written out and read again, is the document). The
// tokenizer's refusals therefore never need their own texts. A differential test and a fuzz
// target hold the two readers equal.
#include <string>

#include "common/json_document.hpp"
#include "common/json_input.hpp"
#include "common/result.hpp"

namespace common {

// The document owns `text`. options.max_bytes above JsonDocument::kMaxTextBytes is an
// invalid_argument error.
[[nodiscard]] Result<JsonDocument> parse_json_document(std::string text, const JsonInputOptions& options = {});
// The same, moving `text` into the document only when it is accepted: refused, `text` is as it
// was, for a caller that then reads it another way (bp validate: as JSON Lines, to say "several
// records" rather than a syntax error on line 2).
[[nodiscard]] Result<JsonDocument> parse_json_document_keeping(std::string& text, const JsonInputOptions& options = {});

// Reads `path` through `fs` and parses it; options.file defaults to `path`.
[[nodiscard]] Result<JsonDocument> read_json_document(FileSystem& fs, const std::string& path,
                                                      JsonInputOptions options = {});

}  // namespace common
