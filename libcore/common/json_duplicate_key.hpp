#pragma once
// The strict reader (json_input.hpp) keeps the last of a key repeated in one object, as
// JSON.parse does. A format whose keys are names that must be unique (a safetensors header names
// each tensor once) asks here whether any object of the text repeats a key.
#include <optional>
#include <string>
#include <string_view>

namespace common {

struct DuplicateKey {
  std::string pointer;  // JSON Pointer of the repeated member ("/w", "/w/dtype")
  std::string key;      // the key itself
};

// The first key, in text order, that appears a second time in the same object of `text`; nullopt
// when no object repeats a key, or when `text` is not JSON (read it with parse_json_text first:
// its error is the one to report). Time and memory linear in the text.
[[nodiscard]] std::optional<DuplicateKey> first_duplicate_key(std::string_view text);

}  // namespace common
