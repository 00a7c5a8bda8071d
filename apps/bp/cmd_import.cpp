// bp import <framework> [multi] <sidecar>: frameworks are named explicitly, never detected from
// file contents. The grammar is checked here; importer:: does the work; import_report.cpp says
// how it went.
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "import_help.hpp"
#include "import_report.hpp"
#include "import_timestamp.hpp"
#include "importer/observer_import.hpp"
#include "input_source.hpp"
#include "output_sink.hpp"
#include "terminal.hpp"

namespace bp::cli {
namespace {

int run_one_import(const Invocation& inv, importer::Framework framework, bool multi, const std::string& file) {
  const std::string label = importer::caller_label(framework, multi);
  const std::string shown = file == "-" ? "<stdin>" : file;
  verbose_log(inv, std::string("importing ") + (multi ? "multi-step " : "") + shown + " via " + label);
  auto stamp = import_timestamp();
  if (auto* e = std::get_if<CliError>(&stamp)) return fail(inv, *e);
  auto input = read_input(file);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  importer::ImportOptions options;
  options.framework = framework;
  options.import_timestamp = std::get<std::string>(stamp);
  const std::string& bytes = std::get<InputText>(input).text;
  auto result = multi ? importer::import_sidecar_stream(bytes, options) : importer::import_sidecar(bytes, options);
  if (!result) return report_import_failure(inv, result.error(), multi, shown);
  if (inv.has_out()) {
    if (auto e = write_out_file(*inv.out, result->bytes)) return fail(inv, *e);
    verbose_log(inv, multi ? "wrote " + *inv.out + " (" + std::to_string(result->steps.size()) +
                                 " receipts, bundle_root_digest=" + result->bundle_root_digest.value_or("") + ")"
                           : "wrote " + *inv.out);
  } else if (!write_stdout(result->bytes)) {
    return stdout_write_failed();
  }
  return report_import_outcome(inv, *result, multi);
}

}  // namespace

int run_import(const Invocation& inv) {
  const auto framework_word = word(inv, 1);
  if (!framework_word) {
    (void)write_stdout(import_usage());  // the reference prints usage on stdout and exits 2 here
    return kExitMalformedOrIo;
  }
  if (is_help_word(inv, 1)) return print_help(import_usage());
  const auto framework = importer::parse_framework(*framework_word);
  if (!framework) {
    CliError e;
    e.code = "UNKNOWN_FRAMEWORK";
    e.message = "unknown framework '" + *framework_word +
                "' for 'bp import'. Known: pytorch, jax, tensorflow. bp does NOT auto-detect framework from file "
                "contents — name it explicitly. Run 'bp import --help' for the current import surface.";
    return fail(inv, e);
  }
  const bool multi = word(inv, 2) == std::optional<std::string>("multi");
  const std::string command = "import " + *framework_word + (multi ? " multi" : "");
  const std::string placeholder = multi ? "<sidecar.jsonl>" : "<sidecar-file>";
  const std::string usage = multi ? import_multi_usage(*framework_word) : import_framework_usage(*framework_word);
  const std::size_t file_index = multi ? 3 : 2;
  // Missing file first, then --help, as the reference orders them.
  if (!word(inv, file_index) || word(inv, file_index)->empty()) {
    auto r = file_argument(inv, file_index, {command, placeholder, usage, true, kExitInvalidArgument});
    return std::get<int>(r);
  }
  if (is_help_word(inv, file_index)) return print_help(usage);
  auto file = file_argument(inv, file_index, {command, placeholder, usage, true, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  return run_one_import(inv, *framework, multi, std::get<std::string>(file));
}

}  // namespace bp::cli
