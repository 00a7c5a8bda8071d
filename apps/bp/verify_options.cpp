#include "verify_options.hpp"

#include <variant>

#include "input_source.hpp"
#include "share_locator.hpp"

namespace bp::cli {

verify::VerdictOptions verdict_options(const Invocation& inv) { return {inv.warn_as_fail, inv.strict}; }

verify::MazurFixtures bundled_mazur_fixtures() {
  verify::MazurFixtures f;
  f.golden_path = bundled_fixture("mazur.golden.jsonl");
  f.published_path = bundled_fixture("mazur.published.json");
  f.read = [](const std::string& path, std::size_t max_bytes) -> common::Result<std::string> {
    auto text = read_file_text(path, max_bytes);
    if (auto* e = std::get_if<CliError>(&text)) return common::Error::io(e->message);
    return std::move(std::get<std::string>(text));
  };
  return f;
}

}  // namespace bp::cli
