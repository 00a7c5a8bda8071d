#pragma once
// The fast path of the strict JSON reader (json_input.hpp): one pass over a contiguous buffer
// straight into an ordered_json DOM, with no iterator adapter, no token buffer built char by
// char and no JSON Pointer kept while it reads.
//
// It accepts a subset of what the checked reader (nlohmann's SAX parser + DomBuilder) accepts
// and, where it accepts, builds the identical DOM: integers as number_unsigned / number_integer
// (an integer outside 64 bits becomes a double, as nlohmann's lexer does), doubles correctly
// rounded, duplicate keys resolved last-value-at-first-position, strings validated as UTF-8 and
// their escapes decoded. Anything it does not accept (malformed text, a number outside binary64,
// nesting deeper than the limit, an underflowing number) makes it answer nullopt without saying
// why: the caller then re-reads the text with the checked reader, which produces the verdict and
// the exact one-line error. Errors therefore keep their wording, line and JSON path byte for byte.
#include <cstddef>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace common {

// The DOM of `text` (one JSON value, surrounded by JSON whitespace only), or nullopt when the
// checked reader must decide. `max_depth`: the deepest nesting of arrays/objects accepted.
[[nodiscard]] std::optional<nlohmann::ordered_json> fast_read_json(std::string_view text, std::size_t max_depth);

}  // namespace common
