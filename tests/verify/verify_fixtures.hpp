#pragma once
// What the verify library's tests feed it: the suite's fixtures (fixtures/), parsed or as lines,
// and a file descriptor that reads given text (the streaming gates read one).
#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/file_system.hpp"
#include "support/suite_paths.hpp"

namespace verify_test {

inline std::string fixture_path(const std::string& name) { return suite_test::source_dir() + "/fixtures/" + name; }

inline std::string fixture_text(const std::string& name) {
  auto text = common::read_text(common::real_file_system(), fixture_path(name), std::size_t{1} << 30);
  REQUIRE_MESSAGE(text.ok(), name);
  return *text;
}

inline nlohmann::ordered_json fixture_json(const std::string& name) {
  return nlohmann::ordered_json::parse(fixture_text(name));
}

inline std::vector<std::string> fixture_lines(const std::string& name) {
  std::vector<std::string> lines;
  const std::string text = fixture_text(name);
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// An unlinked temporary file holding `text`, positioned at its start; closed with the object.
class TextInput {
 public:
  explicit TextInput(const std::string& text) : file_(std::tmpfile(), &std::fclose) {
    REQUIRE(file_ != nullptr);
    REQUIRE(std::fwrite(text.data(), 1, text.size(), file_.get()) == text.size());
    REQUIRE(std::fflush(file_.get()) == 0);
    std::rewind(file_.get());
  }
  [[nodiscard]] int fd() const { return fileno(file_.get()); }

 private:
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

inline std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

}  // namespace verify_test
