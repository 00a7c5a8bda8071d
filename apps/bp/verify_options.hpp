#pragma once
// The verify library's options as bp's flags and bundled files make them: the verdict under
// --warn-as-fail / --strict, and the Mazur fixtures bp ships (share_locator.hpp), loaded before any
// receipt is judged: a missing or malformed one is a broken installation (exit 4, one line naming
// the file), not a failed check of the receipt (the reference's exit 1; bp(1) DIFFERENCES).
#include <variant>

#include "argv_scan.hpp"
#include "cli_error.hpp"
#include "verify/mazur_checks.hpp"
#include "verify/report.hpp"

namespace bp::cli {

[[nodiscard]] verify::VerdictOptions verdict_options(const Invocation& inv);
[[nodiscard]] std::variant<verify::MazurFixtures, CliError> bundled_mazur_fixtures();

}  // namespace bp::cli
