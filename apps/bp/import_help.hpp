#pragma once
// Help screens of `bp import` (our wording; command lines, streams and exit codes as the reference).
#include <string>
#include <string_view>

namespace bp::cli {

[[nodiscard]] std::string import_usage();
[[nodiscard]] std::string import_framework_usage(std::string_view framework);
[[nodiscard]] std::string import_multi_usage(std::string_view framework);

}  // namespace bp::cli
