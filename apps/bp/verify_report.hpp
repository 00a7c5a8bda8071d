#pragma once
// How a verify report (verify/report.hpp, decided by the library) reads: the --json envelope
// {"ok":..,"report":{..}} on stdout, otherwise "verification passed|failed" and
// "  [PASS] name: message" lines on stderr, as the reference writes them.
#include <string>
#include <string_view>

#include "verify/report.hpp"

namespace bp::cli {

// The --json line: {"ok":<overall != fail>,"report":{..}}\n
[[nodiscard]] std::string report_envelope(const verify::VerifyReport& r);

// "  [PASS] name: message\n" and, for a failed check, its evidence as indented JSON.
[[nodiscard]] std::string render_check(const verify::Check& c, bool color);
// The whole human report (header, blank line, checks, the coverage line when `verbose`), "\n"-ended.
[[nodiscard]] std::string render_report(const verify::VerifyReport& r, bool color, bool verbose);

// "PASS" / "FAIL" / "WARN" / "SKIP", colored when `color`.
[[nodiscard]] std::string status_tag(verify::CheckStatus s, bool color);

// Header colors shared with the multi report.
[[nodiscard]] std::string paint_header(std::string_view text, std::string_view overall, bool color);

}  // namespace bp::cli
