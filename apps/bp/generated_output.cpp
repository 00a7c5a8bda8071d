#include "generated_output.hpp"

#include <unistd.h>

#include <variant>

#include "command_support.hpp"
#include "common/js_text.hpp"
#include "common/json_input.hpp"
#include "common/json_string.hpp"
#include "input_source.hpp"
#include "output_sink.hpp"
#include "share_locator.hpp"
#include "terminal.hpp"

namespace bp::cli {

namespace {

int check_against_golden(const Invocation& inv, const GeneratedBytes& g) {
  std::string want;
  if (g.golden_bundled) {
    auto golden = read_bundled_file(g.golden_path, common::kMaxJsonInputBytes);
    if (!golden) return fail(inv, broken_installation(golden.error()));
    want = std::move(golden.value());
  } else {
    auto golden = read_file_text(g.golden_path, common::kMaxJsonInputBytes);
    if (auto* e = std::get_if<CliError>(&golden)) return fail(inv, *e);
    want = std::move(std::get<std::string>(golden));
  }
  if (g.bytes == want) {
    if (inv.json) {
      (void)write_stdout("{\"ok\":true}\n");
    } else {
      verbose_log(inv, "generate " + g.label + " --check: byte-equal");
    }
    return kExitOk;
  }
  std::size_t same = 0;
  while (same < g.bytes.size() && same < want.size() && g.bytes[same] == want[same]) ++same;
  // Back up to the start of a code point so the offset counts whole characters.
  while (same > 0 && (static_cast<unsigned char>(g.bytes[same]) & 0xC0) == 0x80) --same;
  const std::size_t offset = common::utf16_units(std::string_view(g.bytes).substr(0, same));
  const std::size_t emitted = common::utf16_units(g.bytes);
  const std::size_t golden_len = common::utf16_units(want);
  if (inv.json) {
    (void)write_stdout("{\"ok\":false,\"drift_offset\":" + std::to_string(offset) +
                       ",\"emitted_length\":" + std::to_string(emitted) +
                       ",\"golden_length\":" + std::to_string(golden_len) + "}\n");
  } else {
    const bool color = use_color(STDERR_FILENO, inv.color, inv.json);
    std::string head = "generate " + g.label + " --check: drift detected";
    if (color) head = std::string(sgr_bold_red()) + head + std::string(sgr_reset());
    write_stderr(head + "\n  drift_offset:   " + std::to_string(offset) + "\n  emitted_length: " +
                 std::to_string(emitted) + "\n  golden_length:  " + std::to_string(golden_len) + "\n");
  }
  return kExitFailure;
}

}  // namespace

int deliver_generated(const Invocation& inv, const GeneratedBytes& g) {
  if (inv.check) return check_against_golden(inv, g);
  if (inv.has_out()) {
    if (auto e = write_out_file(*inv.out, g.bytes)) return fail(inv, *e);
    const std::size_t n = common::utf16_units(g.bytes);
    if (inv.json) {
      (void)write_stdout("{\"ok\":true,\"out\":" + common::json_string(*inv.out) + ",\"bytes\":" + std::to_string(n) +
                         "}\n");
    } else {
      verbose_log(inv, "generate " + g.label + ": wrote " + std::to_string(n) + " bytes to " + *inv.out);
    }
    return kExitOk;
  }
  if (!write_stdout(g.bytes)) return stdout_write_failed();
  return kExitOk;
}

}  // namespace bp::cli
