// Development and differential-test probe: prints the reconciler's raw Result as JSON, the same
// shape the reference's reconcileReceipt / reconcileMultiStep return, so the two can be compared
// record by record (tests/compat/reconcile_differential.*).
//   reconcile_probe FILE...          one line per record: reconcile_receipt(record)
//   reconcile_probe --multi FILE...  one line per file: reconcile_multi_step(records)
// Each FILE is JSON Lines (blank lines skipped), unless some line is not JSON on its own: then the
// whole file is one (pretty-printed) document. Text that is not JSON prints {"parse_error":...}.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/js_json_text.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/result_json.hpp"

int main(int argc, char** argv) {
  bool multi = false;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--multi") {
      multi = true;
      continue;
    }
    std::ifstream in(arg, std::ios::binary);
    if (!in) {
      std::cerr << "reconcile_probe: cannot open " << arg << "\n";
      status = 2;
      continue;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    std::vector<nlohmann::ordered_json> records;
    try {
      std::istringstream lines(text);
      std::string line;
      while (std::getline(lines, line)) {
        if (line.find_first_not_of(" \t\r") != std::string::npos) records.push_back(nlohmann::ordered_json::parse(line));
      }
    } catch (const std::exception&) {
      records.clear();
      try {
        records.push_back(nlohmann::ordered_json::parse(text));
      } catch (const std::exception& e) {
        std::cout << common::js_stringify(nlohmann::ordered_json{{"parse_error", e.what()}}) << "\n";
        continue;
      }
    }
    if (multi) {
      std::cout << common::js_stringify(reconcile::to_json(reconcile::reconcile_multi_step(records))) << "\n";
    } else {
      for (const auto& r : records) std::cout << common::js_stringify(reconcile::to_json(reconcile::reconcile_receipt(r))) << "\n";
    }
  }
  return status;
}
