// bp validate-input <file>: schema-only check of a topology+input document (no engine run).
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "common/json_input.hpp"
#include "help_text.hpp"
#include "input_source.hpp"
#include "receipt/schema/schema_registry.hpp"
#include "receipt/schema/validator.hpp"
#include "schema_report.hpp"

namespace bp::cli {

int run_validate_input(const Invocation& inv) {
  if (is_help_word(inv, 1)) return print_help(validate_input_usage());
  auto arg = file_argument(inv, 1, {"validate-input", "<file>", validate_input_usage(), true, kExitBadArgument});
  if (auto* code = std::get_if<int>(&arg)) return *code;
  const std::string& file = std::get<std::string>(arg);
  verbose_log(inv, "processing " + std::string(file == "-" ? "<stdin>" : file));
  auto input = read_input(file);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  const InputText& in = std::get<InputText>(input);
  common::JsonInputOptions options;
  options.file = in.name;
  options.bom = common::BomPolicy::strip;
  auto doc = common::parse_json_text(in.text, options);
  // Malformed JSON is exit 2, as the reference documents (it returns 1 here; bp(1) DIFFERENCES).
  if (!doc) {
    CliError e = from_library_error(doc.error(), "JSON_SYNTAX");
    e.message = "validate-input: input rejected: " + e.message;
    return fail(inv, e);
  }
  const auto* schema = receipt::schema::find_schema("topology-input.v0.4.0");
  if (schema == nullptr) {
    return fail(inv, from_library_error(common::Error::unsupported("no schema topology-input.v0.4.0"), "NO_SCHEMA"));
  }
  return report_schema_result(inv, "input schema validation failed (SCHEMA_VIOLATION)",
                              receipt::schema::validate(*schema, doc.value()));
}

}  // namespace bp::cli
