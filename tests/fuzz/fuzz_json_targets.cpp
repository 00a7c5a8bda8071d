// The JSON readers' targets (json, json_document): they need only libcore/common, so their
// libFuzzer binaries build on their own (tests/fuzz/fuzz.cmake), with any compiler that builds
// common.
#include <string>

#include <nlohmann/json.hpp>

#include "common/json_document_reader.hpp"
#include "common/json_fast_reader.hpp"
#include "common/json_input.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_targets.hpp"
#include "support/json_reads.hpp"

namespace fuzz {

Depth json_target(std::string_view data) {
  // The reader's fast path (json_fast_reader.hpp) accepts only what nlohmann's own strict parser
  // accepts, into the same DOM: the same text, number kinds included, when dumped.
  if (auto fast = common::fast_read_json(data, common::kMaxJsonNestingDepth)) {
    nlohmann::ordered_json checked;
    try {
      checked = nlohmann::ordered_json::parse(data);
    } catch (const nlohmann::ordered_json::exception& e) {
      broken("the fast path accepts only valid JSON", e.what());
    }
    expect(fast->dump() == checked.dump(), "the fast path reads the same DOM", checked.dump().substr(0, 200));
  }
  auto doc = common::parse_json_text(data, options());
  auto lines = common::parse_jsonl_text(data, options());
  if (!lines) check_error(lines.error());
  if (!doc) {
    check_error(doc.error());
    return lines ? Depth::later_refused : Depth::parse_refused;
  } else {
    const std::string again = doc->dump();
    auto reparsed = common::parse_json_text(again, options());
    expect(reparsed.ok(), "accepted JSON re-parses", reparsed.ok() ? "" : reparsed.error().to_string());
    expect(*reparsed == *doc, "accepted JSON re-parses to the same value", again.substr(0, 200));
  }
  return Depth::accepted;
}

// Every number of `v` reads back from its source text as the value the document holds.
void expect_number_texts(common::JsonView v) {
  if (v.is_number()) {
    const auto alone = common::parse_json_text(std::string(v.number_text()));
    expect(alone.ok() && alone->dump() == common::to_ordered_json(v).dump(), "a number's text reads back as its value",
           std::string(v.number_text()));
  } else if (v.is_array() || v.is_object()) {
    for (common::JsonView e : v.is_array() ? v.elements() : v.members()) expect_number_texts(e);
  }
}

Depth json_document_target(std::string_view data) {
  // The arena reader (json_document_reader.hpp) against the tree reader, under both BOM policies:
  // the same verdict, the same error line, and the same value (number kinds included, dumped).
  Depth depth = Depth::parse_refused;
  for (const auto bom : {common::BomPolicy::reject, common::BomPolicy::strip}) {
    common::JsonInputOptions o = options();
    o.bom = bom;
    const auto tree = common::parse_json_text(data, o);
    const auto doc = common::parse_json_document(std::string(data), o);
    if (doc.ok() != tree.ok()) {
      broken("the document reader accepts what the tree reader accepts",
             tree.ok() ? doc.error().to_string() : tree.error().to_string());
    }
    if (!tree) {
      check_error(tree.error());
      expect(doc.error().to_string() == tree.error().to_string(), "both readers refuse with the same line",
             doc.error().to_string() + " | " + tree.error().to_string());
      continue;
    }
    expect(common::to_ordered_json(doc->root()).dump() == tree->dump(), "both readers read the same value",
           tree->dump().substr(0, 200));
    expect_number_texts(doc->root());
    // The strict typed reader reads the document as it reads the tree (JsonViewFields' reads).
    for (const auto dialect : {common::JsonReader::Dialect::terse, common::JsonReader::Dialect::quoting}) {
      const common::JsonReader r("fuzz.json", 1, dialect);
      expect(suite_test::every_read(r, doc->root()) == suite_test::every_read(r, *tree), "a document reads as its tree reads",
             tree->dump().substr(0, 200));
    }
    expect(common::dump_excerpt(doc->root(), common::kMaxQuotedInputBytes) == common::excerpt(tree->dump()),
           "a document's bounded dump is its tree's excerpt", tree->dump().substr(0, 200));
    depth = Depth::accepted;
  }
  return depth;
}

Target find_json_target(std::string_view name) {
  if (name == "json") return json_target;
  if (name == "json_document") return json_document_target;
  return nullptr;
}

}  // namespace fuzz
