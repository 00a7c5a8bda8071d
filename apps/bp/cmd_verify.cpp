// bp verify mazur [F] | general F... | multi F | nltrain F: the verify gates are the verify
// library's (libcore/verify: general.hpp, multi.hpp, batch.hpp, nltrain.hpp); this file reads the
// arguments and the receipt, calls the gate and hands its report to the renderer, which picks the
// exit status (verify_output.hpp, verify_multi.hpp, verify_batch.hpp, verify_nltrain.hpp).
#include <variant>

#include "command_support.hpp"
#include "command_table.hpp"
#include "common/file_system.hpp"
#include "share_locator.hpp"
#include "help_text.hpp"
#include "input_source.hpp"
#include "receipt_reader.hpp"
#include "suggest.hpp"
#include "verify/general.hpp"
#include "verify_batch.hpp"
#include "verify_multi.hpp"
#include "verify_nltrain.hpp"
#include "verify_tensor.hpp"
#include "verify_options.hpp"
#include "verify_output.hpp"
#include "verify_usage.hpp"

namespace bp::cli {
namespace {

// The one receipt of `path` as a JsonDocument (the gates build a tree only of one their schema
// accepts), or the exit status of its failure.
std::variant<common::JsonDocument, int> read_receipt(const Invocation& inv, const std::string& path) {
  auto input = read_input(path);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  auto doc = read_one_receipt_document(std::get<InputText>(input), path);
  if (auto* e = std::get_if<CliError>(&doc)) return fail(inv, *e);
  return std::move(std::get<common::JsonDocument>(doc));
}

int run_mazur(const Invocation& inv) {
  if (is_help_word(inv, 2)) return print_help(verify_mazur_usage());
  // The file is optional (default: the bundled Mazur golden); only a flag-shaped one is refused.
  const auto given = word(inv, 2);
  if (given && !given->empty() && (*given)[0] == '-' && *given != "-") {
    auto r = file_argument(inv, 2, {"verify mazur", "<file>", {}, false, kExitInvalidArgument});
    if (auto* code = std::get_if<int>(&r)) return *code;
  }
  // The installation first: its golden is also the default receipt, and a missing one is exit 4.
  auto fixtures = bundled_mazur_fixtures();
  if (auto* e = std::get_if<CliError>(&fixtures)) return fail(inv, *e);
  const std::string path = given && !given->empty() ? *given : bundled_fixture("mazur.golden.jsonl");
  verbose_log(inv, "verify subject: " + path);
  auto receipt = read_receipt(inv, path);
  if (auto* code = std::get_if<int>(&receipt)) return *code;
  const verify::MazurOptions options{verdict_options(inv), std::move(std::get<verify::MazurFixtures>(fixtures))};
  return emit_verify_report(inv, verify::verify_mazur(std::move(std::get<common::JsonDocument>(receipt)), options));
}

int run_general(const Invocation& inv) {
  const std::string usage = verify_general_usage();
  if (is_help_word(inv, 2)) return print_help(usage);
  auto file = file_argument(inv, 2, {"verify general", "<file>", usage, false, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  const std::string& path = std::get<std::string>(file);
  // Several receipts, or a directory of them: one process, one summary (verify_batch.hpp).
  if (inv.words.size() > 3 || (path != "-" && common::real_file_system().is_dir(path))) {
    std::vector<std::string> paths(inv.words.begin() + 2, inv.words.end());
    return verify_general_many(inv, paths);
  }
  verbose_log(inv, "verify general subject: " + path);
  auto receipt = read_receipt(inv, path);
  if (auto* code = std::get_if<int>(&receipt)) return *code;
  const verify::GeneralOptions options{verdict_options(inv), path};
  return emit_verify_report(inv, verify::verify_general(std::move(std::get<common::JsonDocument>(receipt)), options));
}

int run_multi(const Invocation& inv) {
  const std::string usage = verify_multi_usage();
  if (is_help_word(inv, 2)) return print_help(usage);
  auto file = file_argument(inv, 2, {"verify multi", "<file.jsonl>", usage, false, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  const std::string& path = std::get<std::string>(file);
  verbose_log(inv, "verify multi subject: " + path);
  return verify_multi_file(inv, path);
}

int run_nltrain(const Invocation& inv) {
  const std::string usage = verify_nltrain_usage();
  if (is_help_word(inv, 2)) return print_help(usage);
  auto file = file_argument(inv, 2, {"verify nltrain", "<file.jsonl>", usage, false, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  if (inv.words.size() > 3) {
    return usage_error(inv, "verify nltrain takes one stream of receipts; unexpected '" + inv.words[3] +
                                "' (concatenate the files: cat a.jsonl b.jsonl | bp verify nltrain -).");
  }
  return verify_nltrain_file(inv, std::get<std::string>(file));
}

int run_tensor(const Invocation& inv) {
  const std::string usage = verify_tensor_usage();
  if (is_help_word(inv, 2)) return print_help(usage);
  auto file = file_argument(inv, 2, {"verify tensor", "<file.jsonl>", usage, false, kExitInvalidArgument});
  if (auto* code = std::get_if<int>(&file)) return *code;
  if (inv.words.size() > 3) {
    return usage_error(inv, "verify tensor takes one stream of receipts; unexpected '" + inv.words[3] +
                                "' (concatenate the files: cat a.jsonl b.jsonl | bp verify tensor -).");
  }
  if (inv.data || inv.cross_machine || inv.threads || inv.jobs) {
    // An option of another verify kind is an invalid argument here (exit 3, as an unknown flag).
    CliError e;
    e.exit_code = kExitInvalidArgument;
    e.code = "INVALID_FLAG";
    e.message = "verify tensor takes no --data, --cross-machine, --threads (verify nltrain's) or --jobs (verify multi's).";
    return fail(inv, e);
  }
  return verify_tensor_file(inv, std::get<std::string>(file));
}

}  // namespace

int run_verify(const Invocation& inv) {
  const auto noun = word(inv, 1);
  if (!noun) {
    return usage_error(inv, "incomplete command 'verify'. Did you mean 'bp verify mazur', 'bp verify general "
                            "<file>', or 'bp verify multi <file.jsonl>'? Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 1)) return print_help(verify_usage());
  if (*noun == "mazur") return run_mazur(inv);
  if (*noun == "general") return run_general(inv);
  if (*noun == "multi") return run_multi(inv);
  if (*noun == "nltrain") return run_nltrain(inv);
  if (*noun == "tensor") return run_tensor(inv);
  const auto suggestion = suggest_subnoun(*noun, {{"mazur", "bp verify mazur"},
                                                  {"general", "bp verify general <file>"},
                                                  {"multi", "bp verify multi <file.jsonl>"},
                                                  {"nltrain", "bp verify nltrain <file.jsonl>"},
                                                  {"tensor", "bp verify tensor <file.jsonl>"}});
  if (suggestion) {
    return usage_error(inv, "unknown subcommand 'verify " + *noun + "'. Did you mean '" + std::string(*suggestion) +
                                "'? Run 'bp --help' for usage.");
  }
  return usage_error(inv, "unknown subcommand 'verify " + *noun +
                              "'. Expected 'mazur', 'general', 'multi', 'nltrain', or 'tensor'. Run 'bp --help' for usage.");
}

}  // namespace bp::cli
