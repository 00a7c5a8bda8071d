#include "verify_options.hpp"

#include "common/file_system.hpp"
#include "share_locator.hpp"

namespace bp::cli {

verify::VerdictOptions verdict_options(const Invocation& inv) { return {inv.warn_as_fail, inv.strict}; }

std::variant<verify::MazurFixtures, CliError> bundled_mazur_fixtures() {
  verify::MazurFixtures f;
  f.golden_path = bundled_fixture("mazur.golden.jsonl");
  f.published_path = bundled_fixture("mazur.published.json");
  // The file system's own error names the path and the system's reason ("cannot open file: No
  // such file or directory"), which the one line below quotes.
  f.read = [](const std::string& path, std::size_t max_bytes) -> common::Result<std::string> {
    auto text = common::real_file_system().read_file(path, max_bytes);
    if (!text) return text.error().error;
    return std::move(text.value());
  };
  auto loaded = verify::load_mazur_fixtures(f);
  if (loaded) return std::move(*loaded);
  CliError e;
  e.exit_code = kExitNotInstalled;
  e.code = "BROKEN_INSTALLATION";
  e.message = "this installation is broken: " + loaded.error().to_string();
  e.retryable = false;
  return e;
}

}  // namespace bp::cli
