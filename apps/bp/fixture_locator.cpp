#include "fixture_locator.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <vector>

#include "common/file_system.hpp"

#ifndef BP_FIXTURES_DIR
#define BP_FIXTURES_DIR "fixtures"
#endif

namespace bp::cli {
namespace {

std::string executable_dir() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  std::string path(buf.data(), static_cast<std::size_t>(n));
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string{} : path.substr(0, slash);
}

}  // namespace

std::string fixtures_dir() {
  // An explicit override is taken as given, so a wrong value shows up in errors instead of
  // silently falling back.
  if (const char* env = std::getenv("BP_FIXTURES_DIR"); env != nullptr && *env != '\0') return env;
  std::vector<std::string> candidates;
  if (auto exe = executable_dir(); !exe.empty()) candidates.push_back(exe + "/../share/bp/fixtures");
  candidates.emplace_back(BP_FIXTURES_DIR);
  common::FileSystem& fs = common::real_file_system();
  for (const auto& dir : candidates) {
    if (fs.is_dir(dir)) return dir;
  }
  return candidates.back();
}

std::string bundled_fixture(const std::string& file_name) { return fixtures_dir() + "/" + file_name; }

}  // namespace bp::cli
