#pragma once
// How `validate` and `validate-input` report a document that fails its schema (exit 1):
// a heading and one "error at <JSON path>: <message>" line per error on stderr, or
// {"ok":false,"errors":[{"instancePath":..,"message":..}]} under --json. Valid: "valid" / {"ok":true}.
#include <string_view>
#include <vector>

#include "argv_scan.hpp"
#include "common/error.hpp"

namespace bp::cli {

[[nodiscard]] int report_schema_result(const Invocation& inv, std::string_view heading,
                                       const std::vector<common::Error>& errors);

}  // namespace bp::cli
