#include "verify_options.hpp"

#include "share_locator.hpp"

namespace bp::cli {

verify::VerdictOptions verdict_options(const Invocation& inv) { return {inv.warn_as_fail, inv.strict}; }

std::variant<verify::MazurFixtures, CliError> bundled_mazur_fixtures() {
  verify::MazurFixtures f;
  f.golden_path = bundled_fixture("mazur.golden.jsonl");
  f.published_path = bundled_fixture("mazur.published.json");
  f.read = read_bundled_file;
  auto loaded = verify::load_mazur_fixtures(f);
  if (loaded) return std::move(*loaded);
  return broken_installation(loaded.error());
}

}  // namespace bp::cli
