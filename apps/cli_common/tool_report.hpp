#pragma once
// The one-line error report every tool prints, and the output rule every tool follows.
#include <string>
#include <string_view>

#include "cli_common/exit_codes.hpp"
#include "common/error.hpp"
#include "common/result.hpp"

namespace cli_common {

// invalid_argument -> 3; io, malformed and unsupported -> 2.
[[nodiscard]] int exit_code_for(common::ErrorCode code);

// "<tool>: <error line>" on stderr; returns exit_code_for(e.code()).
int report(std::string_view tool, const common::Error& e);

// `-` is stdout (flushed, a lost write is an io error); any other path is written atomically
// and an error names it.
[[nodiscard]] common::Status write_output(const std::string& path, std::string_view text);

}  // namespace cli_common
