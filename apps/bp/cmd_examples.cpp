// bp examples pytorch|pytorch_mlp|jax|jax_mlp [--print]: where the live framework helpers are, or their text.
#include "command_support.hpp"
#include "command_table.hpp"
#include "share_locator.hpp"
#include "terminal.hpp"
#include "verify_output.hpp"

#include <nlohmann/json.hpp>

#include "common/file_system.hpp"

namespace bp::cli {
namespace {

constexpr std::string_view kUsage =
    "Usage: bp examples pytorch|pytorch_mlp|jax|jax_mlp [--print]\n"
    "\n"
    "  Prints the absolute path of a live framework helper shipped with bp, or with --print its\n"
    "  text (copy it into your project: bp examples pytorch --print > pytorch_trace_helper.py).\n"
    "\n"
    "    bp examples pytorch            path of pytorch.py (TraceDumper for a PyTorch loop)\n"
    "    bp examples pytorch --print    its text on standard output\n"
    "    bp examples pytorch --json     {\"ok\":true,\"helper_path\":\"...\"}\n"
    "    bp examples pytorch_mlp        path of pytorch_mlp.py (MlpReceiptWriter: tensor receipts of\n"
    "                                   an nn.Sequential MLP's steps, for bp verify tensor)\n"
    "    bp examples jax                path of jax.py (TraceDumper for a JAX loop)\n"
    "    bp examples jax --print        its text on standard output\n"
    "    bp examples jax_mlp            path of jax_mlp.py (MlpReceiptWriter: tensor receipts of a\n"
    "                                   stax MLP's steps, for bp verify tensor)\n"
    "\n"
    "  A helper only records what the framework computed, as framework-trace sidecars; it never\n"
    "  judges them. bp import <framework> recomputes every step with bp's engine and is the\n"
    "  authority. TensorFlow has no helper; bp(1) TENSORFLOW gives the recipe.\n"
    "\n"
    "  Exit status: 0 printed; 2 usage, or the helper file is missing or unreadable; 3 an\n"
    "  unrecognized argument.\n";

// The helpers are small Python files; anything near this size is not one of them.
constexpr std::size_t kMaxHelperBytes = 1 << 20;

}  // namespace

int run_examples(const Invocation& inv) {
  const auto noun = word(inv, 1);
  if (!noun) {
    (void)write_stdout(kUsage);  // usage on stdout, exit 2, as the reference does
    return kExitMalformedOrIo;
  }
  if (is_help_word(inv, 1)) return print_help(kUsage);
  if (*noun != "pytorch" && *noun != "pytorch_mlp" && *noun != "jax" && *noun != "jax_mlp") {
    return usage_error(inv, "unknown subcommand 'examples " + *noun +
                                "'. Ships 'examples pytorch', 'examples pytorch_mlp', 'examples jax' and 'examples jax_mlp'. Run 'bp examples --help' for usage.");
  }
  if (is_help_word(inv, 2)) return print_help(kUsage);
  bool print = false;
  for (std::size_t i = 2; i < inv.words.size(); ++i) {
    if (inv.words[i] == "--print" && !print) {
      print = true;
      continue;
    }
    CliError e;
    e.exit_code = kExitInvalidArgument;
    e.code = "INVALID_FLAG";
    e.message = "bp examples " + *noun + ": unrecognized flag \"" + inv.words[i] +
                "\". Use --print or no flag. Run 'bp examples " + *noun + " --help' for usage.";
    return fail(inv, e);
  }
  const std::string path = helper_path(*noun);
  auto text = common::real_file_system().read_file(path, kMaxHelperBytes);
  if (!text) {
    CliError e;
    e.code = text.error().reason == common::ReadFailure::not_found ? "ENOENT" : "EIO";
    e.message = "bp examples " + *noun + ": cannot read the bundled helper " + path + ": " +
                text.error().error.message();
    e.hint = "set BP_EXTRACT_DIR to the directory holding pytorch.py and jax.py, or reinstall bp.";
    return fail(inv, e);
  }
  // --json: the reference's {"ok":true,"helper_path":...}; --print writes the text either way.
  const std::string shown = print     ? std::move(*text)
                            : inv.json ? nlohmann::ordered_json{{"ok", true}, {"helper_path", path}}.dump() + "\n"
                                       : path + "\n";
  return write_stdout(shown) ? kExitOk : stdout_write_failed();
}

}  // namespace bp::cli
