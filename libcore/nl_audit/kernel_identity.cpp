#include "nl_audit/kernel_identity.hpp"

#include <dlfcn.h>

#include "common/blas_server.hpp"

namespace nl_audit {

std::string blas_identity() {
  // Looked up at run time: the build links whatever CBLAS Debian's alternatives provide, and
  // only OpenBLAS has these two entry points.
  common::load_blas();
  using Text = char* (*)();
  auto config = reinterpret_cast<Text>(dlsym(RTLD_DEFAULT, "openblas_get_config"));
  auto core = reinterpret_cast<Text>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (config == nullptr) return "cblas (unidentified)";
  std::string s = config();
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (core != nullptr) s += std::string(" (core ") + core() + ")";
  return s;
}

}  // namespace nl_audit
