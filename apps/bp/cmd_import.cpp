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
#include "importer/stream_file_import.hpp"
#include "input_source.hpp"
#include "jobs_option.hpp"
#include "output_sink.hpp"
#include "terminal.hpp"
#include "verify_stream_error.hpp"

namespace bp::cli {
namespace {

// A stream: read a line at a time, receipts spooled, so memory does not grow with its length.
// `shown`: the input as messages name it.
int run_stream_import(const Invocation& inv, const importer::ImportOptions& options, const std::string& file,
                      const std::string& shown) {
  auto opened = open_input_fd(file);
  if (auto* e = std::get_if<CliError>(&opened)) return fail(inv, *e);
  const InputFd input{std::get<int>(opened)};
  common::Spool receipts;
  if (auto e = receipts.open("bp-import")) {
    return fail(inv, cli_error(kExitMalformedOrIo, "IO_ERROR", *e + " (set TMPDIR to a writable directory)"));
  }
  auto outcome = importer::import_sidecar_stream_fd(input.fd, options, receipts);
  if (!outcome) return report_import_failure(inv, outcome.error(), true, shown);
  importer::ImportResult result;
  result.steps = std::move(outcome->steps);
  result.bundle_root_digest = outcome->bundle_root_digest;
  if (inv.has_out()) {
    auto to_file = [&](common::WritableFile& f) -> common::Status {
      common::Status st;
      const bool read_back = importer::replay_receipts(receipts, *outcome, [&](std::string_view chunk) {
        st = f.append(std::span<const std::byte>(reinterpret_cast<const std::byte*>(chunk.data()), chunk.size()));
        return st.ok();
      });
      if (!st) return st;
      if (!read_back) return common::Error::io("could not read back the receipts' temporary file");
      return {};
    };
    if (auto e = write_out_file(*inv.out, to_file)) return fail(inv, *e);
    verbose_log(inv, "wrote " + *inv.out + " (" + std::to_string(result.steps.size()) +
                         " receipts, bundle_root_digest=" + outcome->bundle_root_digest + ")");
  } else if (!importer::replay_receipts(receipts, *outcome, [](std::string_view chunk) { return write_stdout(chunk); })) {
    if (stdout_write_error() != 0) return stdout_write_failed();
    return fail(inv, cli_error(kExitMalformedOrIo, "IO_ERROR", "could not read back the receipts' temporary file"));
  }
  return report_import_outcome(inv, result, true);
}

int run_one_import(const Invocation& inv, importer::Framework framework, bool multi, const std::string& file) {
  const std::string label = importer::caller_label(framework, multi);
  const std::string shown = input_display_name(file);
  verbose_log(inv, std::string("importing ") + (multi ? "multi-step " : "") + shown + " via " + label);
  auto stamp = import_timestamp();
  if (auto* e = std::get_if<CliError>(&stamp)) return fail(inv, *e);
  importer::ImportOptions options;
  options.framework = framework;
  options.import_timestamp = std::get<std::string>(stamp);
  if (multi) {
    auto jobs = jobs_option(inv, "bp import " + std::string(importer::framework_name(framework)) + " multi");
    if (auto* e = std::get_if<CliError>(&jobs)) return fail(inv, *e);
    options.jobs = std::get<std::size_t>(jobs);
    return run_stream_import(inv, options, file, shown);
  }
  if (inv.jobs) {
    CliError e;
    e.exit_code = kExitInvalidArgument;
    e.code = "INVALID_FLAG";
    e.message = "--jobs is for a trace of many steps (bp import " + std::string(importer::framework_name(framework)) +
                " multi); a one-step import runs on one thread.";
    return fail(inv, e);
  }
  auto input = read_input(file);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  auto result = importer::import_sidecar(std::get<InputText>(input).text, options);
  if (!result) return report_import_failure(inv, result.error(), false, shown);
  if (inv.has_out()) {
    if (auto e = write_out_file(*inv.out, result->bytes)) return fail(inv, *e);
    verbose_log(inv, "wrote " + *inv.out);
  } else if (!write_stdout(result->bytes)) {
    return stdout_write_failed();
  }
  return report_import_outcome(inv, *result, false);
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
