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

int run_validate(const Invocation& inv) {
  if (is_help_word(inv, 1)) return print_help(validate_usage());
  auto arg = file_argument(inv, 1, {"validate", "<file>", validate_usage(), true, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&arg)) return *code;
  const std::string& file = std::get<std::string>(arg);
  verbose_log(inv, "processing " + file);
  auto input = read_input(file);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  // A document, not a tree: a schema check only reads, and at 8 bytes a value (16 a number) the peak stays
  // within a few times the input (a tree of 12 million empty objects took 17 times its 36 MB).
  auto doc = read_one_receipt_document(std::get<InputText>(input), file);
  if (auto* e = std::get_if<CliError>(&doc)) {
    // The reader's hint ("validate the receipt structure ... (bp validate)") is advice for the
    // commands that come after validation; here it would tell the user to run this command.
    if (e->code == "INVALID_JSON") e->hint.reset();
    return fail(inv, *e);
  }
  const common::JsonView receipt = std::get<common::JsonDocument>(doc).root();
  if (inv.verbose && receipt.is_object()) {
    for (const char* key : {"schema_version", "fixture"}) {
      if (auto v = receipt.find(key); v && v->is_string()) {
        verbose_log(inv, std::string(key == std::string_view("fixture") ? "fixture_id" : key) + ": " + std::string(v->string()));
      }
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
  return report_schema_result(inv, "schema validation failed", schema_registry::validate(*schema, receipt));
}

}  // namespace bp::cli
