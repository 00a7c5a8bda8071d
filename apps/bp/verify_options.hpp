#pragma once
// The verify library's options as bp's flags and bundled files make them: the verdict under
// --warn-as-fail / --strict, and the Mazur fixtures bp ships (share_locator.hpp), read the way bp
// reads every file (input_source.hpp), so a missing one is named as any missing input is.
#include "argv_scan.hpp"
#include "verify/mazur_checks.hpp"
#include "verify/report.hpp"

namespace bp::cli {

[[nodiscard]] verify::VerdictOptions verdict_options(const Invocation& inv);
[[nodiscard]] verify::MazurFixtures bundled_mazur_fixtures();

}  // namespace bp::cli
