#include "helper_locator.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <vector>

#include "common/file_system.hpp"

#ifndef BP_EXTRACT_DIR
#define BP_EXTRACT_DIR "apps/bp/extract"
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

// `bp examples` prints a path the user copies from; make it absolute and free of "..".
std::string absolute(const std::string& path) {
  if (char* resolved = ::realpath(path.c_str(), nullptr)) {
    std::string out(resolved);
    std::free(resolved);
    return out;
  }
  return path;
}

}  // namespace

std::string helper_path(const std::string& framework) {
  const std::string file = "/" + framework + ".py";
  if (const char* env = std::getenv("BP_EXTRACT_DIR"); env != nullptr && *env != '\0') {
    return absolute(std::string(env) + file);
  }
  std::vector<std::string> candidates;
  if (auto exe = executable_dir(); !exe.empty()) candidates.push_back(exe + "/../share/bp/extract" + file);
  candidates.push_back(std::string(BP_EXTRACT_DIR) + file);
  common::FileSystem& fs = common::real_file_system();
  for (const auto& path : candidates) {
    if (fs.exists(path) && !fs.is_dir(path)) return absolute(path);
  }
  return candidates.back();
}

}  // namespace bp::cli
