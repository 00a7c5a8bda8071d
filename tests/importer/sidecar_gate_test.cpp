// read_sidecar reads a sidecar as a JsonDocument and gates it there. Its answer must be the tree
// path's (parse_sidecar, then the checks on the tree): the same error text for every refusal (not
// JSON, a single-step format, an unsupported optimizer, each way the schema refuses), the same tree
// and schema version for an accepted sidecar. Each case is also read padded with 64 KiB of JSON
// whitespace inside its object, after a line break (errors name lines and columns).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "importer/sidecar_checks.hpp"
#include "sidecar_variants.hpp"

using nlohmann::ordered_json;

namespace sidecar_gate_test {

// What read_sidecar answered before it had a document path: the tree, then the checks in turn.
std::string tree_answer(std::string_view text, const importer::SidecarGate& gate) {
  auto tree = importer::parse_sidecar(text, "L", "it is");
  if (!tree) return "error: " + tree.error().to_string();
  if (gate.single_step) {
    if (auto s = importer::check_single_step_format(*tree, *gate.single_step, gate.label); !s) {
      return "error: " + s.error().to_string();
    }
  }
  if (auto s = importer::check_optimizer_supported(*tree, gate.label); !s) return "error: " + s.error().to_string();
  auto v = importer::validate_sidecar(*tree, gate.label, gate.suffix);
  if (!v) return "error: " + v.error().to_string();
  return "v" + *v + " " + tree->dump();
}

std::string answer(const common::Result<importer::GatedSidecar>& r) {
  if (!r) return "error: " + r.error().to_string();
  return "v" + r->version + " " + r->doc.dump();
}

constexpr std::size_t kPadding = std::size_t{64} * 1024;

// `text` with JSON whitespace after its first '{' (and a line break, for line numbers).
std::string padded(std::string text) {
  const auto brace = text.find('{');
  if (brace != std::string::npos) {
    text.insert(brace + 1, "\n" + std::string(kPadding, ' '));
  } else {
    text.insert(0, std::string(kPadding, ' ') + "\n");
  }
  return text;
}

std::vector<std::pair<std::string, std::string>> cases() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, s] : importer_test::sidecar_variants()) out.emplace_back(name, s.dump());
  ordered_json base = importer_test::softmax_sidecar();
  const auto with = [&](const char* name, auto edit) {
    ordered_json s = base;
    edit(s);
    out.emplace_back(name, s.dump());
  };
  with("optimizer lion", [](ordered_json& s) { s["optimizer"] = {{"name", "lion"}, {"learning_rate", 0.1}}; });
  with("multi-step format", [](ordered_json& s) { s["format"] = "framework-trace.v0.2.0"; });
  with("unknown format", [](ordered_json& s) { s["format"] = "framework-trace.v9.9.9"; });
  with("no topology", [](ordered_json& s) { s.erase("topology"); });
  with("learning_rate a string", [](ordered_json& s) { s["learning_rate"] = "0.1"; });
  with("an extra member", [](ordered_json& s) { s["extra"] = {1, 2, 3}; });
  with("an array", [](ordered_json& s) { s = ordered_json::array({s}); });
  const std::string text = base.dump();
  out.emplace_back("not JSON: cut short", text.substr(0, text.size() - 5));
  out.emplace_back("not JSON: a byte after it", text + "x");
  out.emplace_back("duplicate keys", "{\"format\":\"x\"," + text.substr(1));
  out.emplace_back("a BOM and JavaScript spaces around it", "\xEF\xBB\xBF \xC2\xA0\n" + text + "\r\n\xE2\x80\xA8");
  return out;
}

}  // namespace sidecar_gate_test

TEST_CASE("read_sidecar: a sidecar, gated as a document, gets the tree path's answer") {
  using namespace sidecar_gate_test;
  std::size_t refused = 0, accepted = 0;
  for (const auto& [name, text] : cases()) {
    for (const importer::SidecarGate& gate :
         {importer::SidecarGate{.label = "L: line 1", .single_step = std::nullopt, .suffix = " (multi)"},
          importer::SidecarGate{.label = "L", .single_step = importer::Framework::pytorch}}) {
      const std::string long_text = padded(text);
      CAPTURE(name);
      CAPTURE(gate.single_step.has_value());
      const std::string want = tree_answer(long_text, gate);
      CHECK(answer(importer::read_sidecar(std::string_view(long_text), "L", "it is", gate)) == want);
      std::string owned = long_text;
      CHECK(answer(importer::read_sidecar(owned, "L", "it is", gate)) == want);
      // The caller's text is still there (a later record's failure may read it again).
      CHECK((importer::js_trim(owned) == importer::js_trim(long_text)));
      // Unpadded, the same answers as the tree path's.
      CHECK(answer(importer::read_sidecar(std::string_view(text), "L", "it is", gate)) == tree_answer(text, gate));
      (want.starts_with("error: ") ? refused : accepted) += 1;
    }
  }
  CHECK(refused >= 20);
  CHECK(accepted >= 15);
}
