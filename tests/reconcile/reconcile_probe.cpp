// Development and differential-test probe: prints the reconciler's raw Result as JSON, the same
// shape the reference's reconcileReceipt / reconcileMultiStep return, so the two can be compared
// record by record (tests/compat/reconcile_differential.*).
//   reconcile_probe FILE...          one line per record: reconcile_receipt(record)
//   reconcile_probe --multi FILE...  one line per file: reconcile_multi_step(records)
// Each FILE is JSON Lines (blank lines skipped), unless some line is not JSON on its own: then the
// whole file is one (pretty-printed) document. Text that is not JSON prints {"parse_error":...}.
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/js_json_text.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/result_json.hpp"

namespace {

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// Calls each(line) for every non-blank line of text.
template <typename Each>
void for_each_line(const std::string& text, Each&& each) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + start, end - start);
    if (!blank(line)) each(line);
    start = end + 1;
  }
}

// One record's verdict line.
std::string single_line(const nlohmann::ordered_json& record) {
  return common::js_stringify(reconcile::to_json(reconcile::reconcile_receipt(record))) + "\n";
}

// Single mode reconciles each line as it is parsed and keeps only the (small) verdict lines, not
// the trees: the differential test's singles file is ~200 MB, and all its trees at once peaked at
// 2.3 GB in the sanitizer build (0.8 GB this way), on CI machines that run two tests at a time.
// A line that is not JSON drops the verdicts and reads the file as one document, as before.
std::string singles(const std::string& text) {
  std::string out;
  try {
    for_each_line(text, [&](std::string_view line) { out += single_line(nlohmann::ordered_json::parse(line)); });
    return out;
  } catch (const std::exception&) {
  }
  return single_line(nlohmann::ordered_json::parse(text));
}

std::string multi(const std::string& text) {
  std::vector<nlohmann::ordered_json> records;
  try {
    for_each_line(text, [&](std::string_view line) { records.push_back(nlohmann::ordered_json::parse(line)); });
  } catch (const std::exception&) {
    records.clear();
    records.push_back(nlohmann::ordered_json::parse(text));
  }
  return common::js_stringify(reconcile::to_json(reconcile::reconcile_multi_step(records))) + "\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool multi_mode = false;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--multi") {
      multi_mode = true;
      continue;
    }
    std::ifstream in(arg, std::ios::binary);
    if (!in) {
      std::cerr << "reconcile_probe: cannot open " << arg << "\n";
      status = 2;
      continue;
    }
    in.seekg(0, std::ios::end);
    std::string text(static_cast<std::size_t>(in.tellg()), '\0');
    in.seekg(0);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    try {
      std::cout << (multi_mode ? multi(text) : singles(text));
    } catch (const std::exception& e) {
      std::cout << common::js_stringify(nlohmann::ordered_json{{"parse_error", e.what()}}) << "\n";
    }
  }
  return status;
}
