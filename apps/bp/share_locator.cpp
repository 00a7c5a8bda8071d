#include "share_locator.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <vector>

#include "build_info/build_info.hpp"
#include "common/file_system.hpp"

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

enum class Kind { directory, file };

// `entry` ("" or "/name.py") under the shipped folder `share_name`, by the order above.
std::string locate(const char* env_var, const char* share_name, const std::string& source_dir, const std::string& entry,
                   Kind kind) {
  if (const char* env = std::getenv(env_var); env != nullptr && *env != '\0') return std::string(env) + entry;
  std::vector<std::string> candidates;
  if (auto exe = executable_dir(); !exe.empty()) {
    candidates.push_back(exe + "/../share/bp/" + share_name + entry);
  }
  candidates.push_back(source_dir + entry);
  common::FileSystem& fs = common::real_file_system();
  for (const auto& path : candidates) {
    if (kind == Kind::directory ? fs.is_dir(path) : fs.exists(path) && !fs.is_dir(path)) return path;
  }
  return candidates.back();
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

std::string fixtures_dir() {
  return locate("BP_FIXTURES_DIR", "fixtures", std::string(build_info::source_dir()) + "/fixtures", "", Kind::directory);
}

std::string bundled_fixture(const std::string& file_name) { return fixtures_dir() + "/" + file_name; }

common::Result<std::string> read_bundled_file(const std::string& path, std::size_t max_bytes) {
  auto text = common::real_file_system().read_file(path, max_bytes);
  if (!text) return text.error().error;
  return std::move(text.value());
}

CliError broken_installation(const common::Error& e) {
  CliError out;
  out.exit_code = kExitNotInstalled;
  out.code = "BROKEN_INSTALLATION";
  out.message = "this installation is broken: " + e.to_string();
  out.retryable = false;
  return out;
}

std::string helper_path(const std::string& framework) {
  return absolute(locate("BP_EXTRACT_DIR", "extract", std::string(build_info::source_dir()) + "/apps/bp/extract",
                         "/" + framework + ".py", Kind::file));
}

}  // namespace bp::cli
