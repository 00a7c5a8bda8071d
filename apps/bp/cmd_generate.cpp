// bp generate <builtin> | from-config <file>: run the engine, emit canonical receipts.
#include <algorithm>
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "share_locator.hpp"
#include "generated_output.hpp"
#include "help_text.hpp"
#include "json_argument.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/topology/parse_topology_input.hpp"
#include "suggest.hpp"

namespace bp::cli {
namespace {

// The golden a builtin is checked against: "<name>.golden.jsonl", or "<base>.multi-step.jsonl"
// for "<base>-multi-step".
std::string golden_file_for(std::string_view name) {
  constexpr std::string_view kMulti = "-multi-step";
  if (name.size() > kMulti.size() && name.substr(name.size() - kMulti.size()) == kMulti) {
    return std::string(name.substr(0, name.size() - kMulti.size())) + ".multi-step.jsonl";
  }
  return std::string(name) + ".golden.jsonl";
}

// Library errors of this command: whatever the input document or the engine refuses (schema,
// topology consistency, out-of-range numbers) is bad input, exit 2, never a bad CLI argument.
int fail_library(const Invocation& inv, const common::Error& e, std::string code, std::string_view context) {
  CliError c = from_library_error(e, std::move(code));
  if (c.exit_code == kExitInvalidArgument) c.exit_code = kExitMalformedOrIo;
  c.message = std::string(context) + c.message;
  return fail(inv, c);
}

int run_builtin(const Invocation& inv, std::string_view name) {
  auto receipts = receipt::engine::generate_builtin(name);
  if (!receipts) return fail_library(inv, receipts.error(), "ENGINE_RUNTIME_ERROR", "generate: ");
  auto bytes = receipt::emit::emit_receipts(receipts.value());
  if (!bytes) return fail_library(inv, bytes.error(), "EMIT_ERROR", "generate: ");
  // --check --out F compares against F (as from-config does); the reference ignores F there.
  const bool bundled = !(inv.check && inv.has_out());
  std::string golden = bundled ? bundled_fixture(golden_file_for(name)) : *inv.out;
  return deliver_generated(inv, {std::move(bytes.value()), std::string(name), std::move(golden), bundled});
}

int run_from_config(const Invocation& inv) {
  if (is_help_word(inv, 2)) return print_help(generate_from_config_usage());
  // Read as a JsonDocument (8 bytes a value, 16 a number beyond 28 bits, the same refusals): a tree is built only of a
  // document small enough to be a topology input at all.
  auto input = read_document_argument(
      inv, 2, {"generate from-config", "<file>", generate_from_config_usage(), false, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&input)) return *code;
  if (auto* e = std::get_if<common::Error>(&input)) {
    return fail_library(inv, *e, "JSON_SYNTAX", "generate from-config: input rejected: ");
  }
  const DocumentArgument& in = std::get<DocumentArgument>(input);
  if (in.doc.value_count() > receipt::topology::kMaxTopologyInputValues) {
    const common::Error too_many = common::Error::malformed(
        "the document holds " + std::to_string(in.doc.value_count()) + " JSON values; a topology input within its limits holds at most " +
            std::to_string(receipt::topology::kMaxTopologyInputValues),
        {in.name, 0, ""});
    return fail_library(inv, too_many, "SCHEMA_VIOLATION", "generate from-config: input rejected: ");
  }
  auto parsed = receipt::topology::parse_topology_input(common::to_ordered_json(in.doc.root()), in.name);
  if (!parsed) {
    return fail_library(inv, parsed.error().at_file(in.name), "SCHEMA_VIOLATION",
                        "generate from-config: input rejected: ");
  }
  auto receipts = receipt::engine::generate_from_config(parsed.value());
  if (!receipts) {
    return fail_library(inv, receipts.error().at_file(in.name), "ENGINE_RUNTIME_ERROR",
                        "generate from-config: engine rejected input: ");
  }
  auto bytes = receipt::emit::emit_receipts(receipts.value());
  if (!bytes) {
    return fail_library(inv, bytes.error().at_file(in.name), "ENGINE_RUNTIME_ERROR",
                        "generate from-config: engine rejected input: ");
  }
  if (inv.check && !inv.has_out()) {
    CliError e;
    e.exit_code = kExitInvalidArgument;
    e.code = "MISSING_CHECK_GOLDEN";
    e.message =
        "generate from-config --check requires --out <file> to name the golden fixture to compare against. "
        "Example: bp generate from-config my.json --check --out fixtures/my.golden.jsonl";
    return fail(inv, e);
  }
  return deliver_generated(inv, {std::move(bytes.value()), "from-config", inv.out.value_or(in.argument), false});
}

}  // namespace

int run_generate(const Invocation& inv) {
  const auto noun = word(inv, 1);
  if (!noun) {
    return usage_error(inv, "incomplete command 'generate'. Did you mean 'bp generate mazur', 'bp generate xor', "
                            "'bp generate iris', or 'bp generate from-config <file>'? Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 1)) return print_help(top_usage());
  const auto& names = receipt::engine::builtin_names();
  if (std::find(names.begin(), names.end(), std::string_view(*noun)) != names.end()) {
    if (is_help_word(inv, 2)) return print_help(generate_builtin_usage(*noun));
    return run_builtin(inv, *noun);
  }
  if (*noun == "from-config") return run_from_config(inv);
  std::vector<std::string> examples;
  std::string expected;
  for (std::string_view b : names) {
    examples.push_back("bp generate " + std::string(b));
    expected += "'" + std::string(b) + "', ";
  }
  std::vector<SubnounExample> choices;
  for (std::size_t i = 0; i < names.size(); ++i) choices.push_back({names[i], examples[i]});
  choices.push_back({"from-config", "bp generate from-config <file>"});
  if (const auto suggestion = suggest_subnoun(*noun, choices)) {
    return usage_error(inv, "unknown subcommand 'generate " + *noun + "'. Did you mean '" + std::string(*suggestion) +
                                "'? Run 'bp --help' for usage.");
  }
  return usage_error(inv, "unknown subcommand 'generate " + *noun + "'. Expected " + expected +
                              "or 'from-config'. Run 'bp --help' for usage.");
}

}  // namespace bp::cli
