#pragma once
// JSON string literals spelled exactly as JavaScript's JSON.stringify spells them
// (RFC 8259 section 7, ECMAScript QuoteJSONString):
//   " -> \"   \ -> \\   U+0008 -> \b  U+000C -> \f  U+000A -> \n  U+000D -> \r  U+0009 -> \t
//   other U+0000..U+001F -> \u00XX (lowercase hex); everything else, including
//   '/', U+007F, U+2028/U+2029 and all non-ASCII, is copied as UTF-8.
// Input is UTF-8. Bytes that are not well-formed UTF-8 become U+FFFD, one per
// maximal ill-formed subpart (what Node's UTF-8 decoding of a file does), so the
// output is always valid UTF-8 and valid JSON.
#include <string>
#include <string_view>

namespace common {

// Appends the quoted literal (with the surrounding double quotes) to `out`.
void append_json_string(std::string& out, std::string_view s);
[[nodiscard]] std::string json_string(std::string_view s);

}  // namespace common
