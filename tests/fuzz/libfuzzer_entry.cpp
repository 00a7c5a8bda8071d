// libFuzzer entry point; FUZZ_TARGET_NAME selects the target at build time (tests/fuzz/fuzz.cmake).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#ifdef FUZZ_JSON_ONLY  // a binary of the JSON readers' targets alone (fuzz.cmake)
  static const fuzz::Target target = fuzz::find_json_target(FUZZ_TARGET_NAME);
#else
  static const fuzz::Target target = fuzz::find_target(FUZZ_TARGET_NAME);
#endif
  (void)target(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
