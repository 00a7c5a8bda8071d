#pragma once
// What `bp import` says after the library has answered, with the reference's streams: receipts
// on stdout (or --out), the summary on stderr — under --json one JSON line on stderr whatever
// the outcome, so stdout stays a clean receipt stream. Exit 0 when every differential agreed,
// 1 when one disagreed (the receipts are still written), 2 when the sidecar was refused.
#include <string>

#include "argv_scan.hpp"
#include "common/error.hpp"
#include "importer/observer_import.hpp"

namespace bp::cli {

// The sidecar was refused: one line "bp: <file>: <message>" (under --json the reference's
// IMPORT_FAILED / IMPORT_STREAM_FAILED object, which names no file). Exit 2.
[[nodiscard]] int report_import_failure(const Invocation& inv, const common::Error& e, bool multi,
                                        const std::string& file);

// Receipts already delivered; the differential outcome. Returns 0 or 1.
[[nodiscard]] int report_import_outcome(const Invocation& inv, const importer::ImportResult& result, bool multi);

}  // namespace bp::cli
