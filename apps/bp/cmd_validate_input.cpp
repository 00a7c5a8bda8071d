// bp validate-input <file>: schema-only check of a topology+input document (no engine run).
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "help_text.hpp"
#include "json_argument.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "schema_report.hpp"

namespace bp::cli {

int run_validate_input(const Invocation& inv) {
  if (is_help_word(inv, 1)) return print_help(validate_input_usage());
  // Read as a JsonDocument: this command only reads it, and the schema check runs on it as on a
  // tree (the same errors), at 8 bytes a value (16 a number).
  auto input = read_document_argument(
      inv, 1, {"validate-input", "<file>", validate_input_usage(), true, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&input)) return *code;
  // Malformed JSON is exit 2, as the reference documents (it returns 1 here; bp(1) DIFFERENCES).
  if (auto* e = std::get_if<common::Error>(&input)) {
    CliError c = from_library_error(*e, "JSON_SYNTAX");
    c.message = "validate-input: input rejected: " + c.message;
    return fail(inv, c);
  }
  const DocumentArgument& in = std::get<DocumentArgument>(input);
  const auto* schema = schema_registry::find_schema("topology-input.v0.4.0");
  if (schema == nullptr) {
    CliError missing = from_library_error(common::Error::unsupported("no schema topology-input.v0.4.0"), "NO_SCHEMA");
    missing.exit_code = kExitNotInstalled;  // the installation lacks its schema file
    return fail(inv, missing);
  }
  return report_schema_result(inv, "input schema validation failed (SCHEMA_VIOLATION)",
                              schema_registry::validate(*schema, in.doc.root()));
}

}  // namespace bp::cli
