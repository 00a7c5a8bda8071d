// bp scaffold topology --topology mazur|xor|iris [--out F]
#include "command_support.hpp"
#include "common/json_string.hpp"
#include "command_table.hpp"
#include "help_text.hpp"
#include "common/js_json_text.hpp"
#include "output_sink.hpp"
#include "receipt/engine/generate.hpp"
#include "suggest.hpp"
#include "terminal.hpp"

namespace bp::cli {

int run_scaffold(const Invocation& inv) {
  const auto noun = word(inv, 1);
  if (!noun) {
    return usage_error(inv, "incomplete command 'scaffold'. Did you mean 'bp scaffold topology --topology "
                            "mazur|xor|iris'? Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 1)) return print_help(scaffold_topology_usage());
  if (*noun != "topology") {
    const auto suggestion = suggest_subnoun(
        *noun, {{"topology", "bp scaffold topology --topology mazur|xor|iris [--out <file>]"}});
    if (suggestion) {
      return usage_error(inv, "unknown subcommand 'scaffold " + *noun + "'. Did you mean '" +
                                  std::string(*suggestion) + "'? Run 'bp --help' for usage.");
    }
    return usage_error(inv, "unknown subcommand 'scaffold " + *noun + "'. Expected 'topology'. Run 'bp --help' for usage.");
  }
  if (is_help_word(inv, 2)) return print_help(scaffold_topology_usage());
  if (!inv.topology) {
    CliError e;
    e.exit_code = kExitInvalidArgument;
    e.code = "MISSING_TOPOLOGY_ARG";
    e.message = "scaffold topology requires --topology <name>. Expected one of: mazur, xor, iris. Run 'bp scaffold "
                "topology --help' for usage.";
    return fail(inv, e);
  }
  if (*inv.topology != "mazur" && *inv.topology != "xor" && *inv.topology != "iris") {
    CliError e;
    e.exit_code = kExitInvalidArgument;
    e.code = "INVALID_TOPOLOGY_ARG";
    e.message = "unknown topology '" + *inv.topology + "'. Expected one of: mazur, xor, iris.";
    return fail(inv, e);
  }
  auto doc = receipt::engine::scaffold_topology(*inv.topology);
  if (!doc) return fail(inv, from_library_error(doc.error(), "SCAFFOLD_ERROR"));
  const std::string text = common::js_stringify_pretty(doc.value(), 2) + "\n";
  if (!inv.has_out()) {
    // --json without --out prints the document itself: it already is JSON.
    if (!write_stdout(text)) return stdout_write_failed();
    return kExitOk;
  }
  if (auto e = write_out_file(*inv.out, text)) return fail(inv, *e);
  // Scaffolds are ASCII, so bytes and the reference's UTF-16 length agree.
  if (inv.json) {
    (void)write_stdout("{\"ok\":true,\"output_path\":" + common::json_string(*inv.out) +
                       ",\"bytes\":" + std::to_string(text.size()) + "}\n");
  } else {
    verbose_log(inv, "scaffold topology " + *inv.topology + ": wrote " + std::to_string(text.size()) + " bytes to " +
                         *inv.out);
  }
  return kExitOk;
}

}  // namespace bp::cli
