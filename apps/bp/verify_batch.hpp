#pragma once
// `bp verify general F1 F2 ... | DIR`: many receipts in one process (no process start per receipt),
// so CI can check a thousand receipts at once. A directory contributes its *.json and *.jsonl
// files (recursively, sorted by path). Each receipt gets the `verify general` gate (a v0.1.0 one the
// Mazur gate), a file of several records the `verify multi` one: verify/batch.hpp decides, this
// file reads each receipt and writes its line.
//
// Human (stderr): "[PASS] path", "[FAIL] path: check: message", "[ERROR] path: message" (--verbose
// adds the full report of every receipt that did not pass), then one summary line.
// --json (stdout): one object per receipt, {"file","ok","report"} or {"file","ok":false,"error"},
// then {"summary":{receipts,passed,warned,failed,errors},"ok":..}.
// Exit: 2 when any receipt could not be read or parsed, else 1 when any failed, else 0.
#include <string>
#include <vector>

#include "argv_scan.hpp"

namespace bp::cli {

[[nodiscard]] int verify_general_many(const Invocation& inv, const std::vector<std::string>& args);

}  // namespace bp::cli
