#pragma once
// The only place bp touches stdout / stderr. Writes loop until every byte is out (the
// reference loses everything past 64 KiB when stdout is a pipe; we never truncate).
#include <string_view>

namespace bp::cli {

// false when the stream is closed or the write failed (EPIPE, disk full).
[[nodiscard]] bool write_stdout(std::string_view bytes);
// The errno of the first write to stdout that failed in this process; 0 when none did.
// main() turns it into exit 2, whatever the command (and even where it ignored the result).
[[nodiscard]] int stdout_write_error();
bool write_stderr(std::string_view bytes);

enum class ColorChoice { auto_detect, never, always };

// --color and NO_COLOR decide; auto means "the stream is a terminal". Never under --json.
[[nodiscard]] bool use_color(int fd, ColorChoice choice, bool json_mode);

// ANSI SGR wrapping when `enabled`.
[[nodiscard]] std::string_view sgr_red();
[[nodiscard]] std::string_view sgr_bold_red();
[[nodiscard]] std::string_view sgr_green();
[[nodiscard]] std::string_view sgr_reset();

}  // namespace bp::cli
