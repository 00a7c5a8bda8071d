// bp validate <file>: schema-only check of a receipt against the schema its version names.
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"
#include "input_source.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "receipt_reader.hpp"
#include "schema_report.hpp"

namespace bp::cli {
namespace {

// The command ends the process: the document goes back to the OS with it, instead of being freed
// node by node (a tenth of validating a 6 MB receipt). Held from a static pointer, so it is
// reachable memory, not a leak, to LeakSanitizer.
void keep_until_exit(nlohmann::ordered_json&& doc) {
  static auto* kept = new nlohmann::ordered_json();
  *kept = std::move(doc);
}

}  // namespace

int run_validate(const Invocation& inv) {
  if (is_help_word(inv, 1)) return print_help(validate_usage());
  auto arg = file_argument(inv, 1, {"validate", "<file>", validate_usage(), true, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&arg)) return *code;
  const std::string& file = std::get<std::string>(arg);
  verbose_log(inv, "processing " + file);
  auto input = read_input(file);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  auto doc = read_one_receipt(std::get<InputText>(input), file);
  if (auto* e = std::get_if<CliError>(&doc)) return fail(inv, *e);
  const auto& receipt = std::get<nlohmann::ordered_json>(doc);
  if (inv.verbose && receipt.is_object()) {
    if (auto it = receipt.find("schema_version"); it != receipt.end() && it->is_string()) {
      verbose_log(inv, "schema_version: " + it->get<std::string>());
    }
    if (auto it = receipt.find("fixture"); it != receipt.end() && it->is_string()) {
      verbose_log(inv, "fixture_id: " + it->get<std::string>());
    }
    verbose_log(inv, "validating...");
  }
  const std::string version = schema_registry::pick_receipt_version(receipt);
  const auto* schema = schema_registry::find_schema(version);
  if (schema == nullptr) {
    CliError missing = from_library_error(common::Error::unsupported("no receipt schema " + version), "NO_SCHEMA");
    missing.exit_code = kExitNotInstalled;  // the installation lacks its schema file
    return fail(inv, missing);
  }
  const int status =
      report_schema_result(inv, "schema validation failed", schema_registry::validate(*schema, receipt));
  keep_until_exit(std::move(std::get<nlohmann::ordered_json>(doc)));
  return status;
}

}  // namespace bp::cli
