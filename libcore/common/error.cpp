#include "common/error.hpp"

namespace common {

namespace {

// Errors are one line: control characters that arrive inside quoted input (an id with a newline, a
// file name with a tab) are spelled as escapes instead of breaking the line.
void append_one_line(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7F) {
      out.push_back(ch);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
}

}  // namespace

std::string Error::to_string() const {
  std::string out;
  if (!where_.file.empty()) {
    append_one_line(out, where_.file);
    if (where_.line > 0) {
      // Two appends, not ":" + to_string(): GCC 12 at -O2 reports a false -Wrestrict on the latter.
      out += ':';
      out += std::to_string(where_.line);
    }
    out += ": ";
  }
  if (!where_.json_path.empty()) {
    // A path names keys of the input; a 50 MB key must not make a 50 MB line.
    append_one_line(out, where_.json_path.size() > kMaxErrorPathBytes ? excerpt(where_.json_path, kMaxErrorPathBytes)
                                                                      : where_.json_path);
    out += ": ";
  }
  // Messages quote input through excerpt(); this cap is the backstop for any that do not.
  append_one_line(out, message_.size() > kMaxErrorMessageBytes ? excerpt(message_, kMaxErrorMessageBytes) : message_);
  if (!detail_.empty()) {
    out += " (";
    append_one_line(out, detail_.size() > kMaxErrorMessageBytes ? excerpt(detail_, kMaxErrorMessageBytes) : detail_);
    out += ")";
  }
  return out;
}

std::string excerpt(std::string_view input, std::size_t max_bytes) {
  return excerpt_of_prefix(input, input.size(), max_bytes);
}

std::string excerpt_of_prefix(std::string_view prefix, std::size_t total_bytes, std::size_t max_bytes) {
  if (total_bytes <= max_bytes) return std::string(prefix.substr(0, total_bytes));
  std::size_t cut = max_bytes;
  // Back off over UTF-8 continuation bytes (10xxxxxx) so the cut lands on a character start.
  while (cut > 0 && (static_cast<unsigned char>(prefix[cut]) & 0xC0) == 0x80) --cut;
  std::string out(prefix.substr(0, cut));
  out += "...(" + std::to_string(total_bytes) + " bytes)";
  return out;
}

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::io: return "io";
    case ErrorCode::malformed: return "malformed";
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::unsupported: return "unsupported";
  }
  return "unknown";
}

}  // namespace common
