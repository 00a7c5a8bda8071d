#include "cli_common/tool_report.hpp"

#include <cstring>
#include <iostream>

#include "common/atomic_file.hpp"
#include "common/checked_stdout.hpp"
#include "common/file_system.hpp"

namespace cli_common {

int exit_code_for(common::ErrorCode code) {
  return code == common::ErrorCode::invalid_argument ? kExitInvalidArgument : kExitMalformedOrIo;
}

int report(std::string_view tool, const common::Error& e) {
  std::cerr << tool << ": " << e.to_string() << "\n";
  return exit_code_for(e.code());
}

common::Status write_output(const std::string& path, std::string_view text) {
  if (path == "-") {
    std::cout << text;
    if (const int err = common::flush_stdout(); err != 0) {
      return common::Error::io(std::string("cannot write to stdout: ") + std::strerror(err));
    }
    return {};
  }
  if (common::Status s = common::write_file_atomic(common::real_file_system(), path, text); !s.ok()) {
    return s.error().at_file(path);
  }
  return {};
}

}  // namespace cli_common
