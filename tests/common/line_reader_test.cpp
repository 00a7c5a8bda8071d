#include "common/line_reader.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>


namespace {

// A pipe carrying `bytes` in writes of `step` bytes, so lines and chunks are cut anywhere.
struct Fed {
  int fd = -1;
  std::thread writer;
  Fed(const std::string& bytes, std::size_t step) {
    int p[2];
    REQUIRE(::pipe(p) == 0);
    fd = p[0];
    writer = std::thread([bytes, step, w = p[1]] {
      for (std::size_t at = 0; at < bytes.size(); at += step) {
        if (::write(w, bytes.data() + at, std::min(step, bytes.size() - at)) < 0) break;
      }
      ::close(w);
    });
  }
  ~Fed() {
    writer.join();
    ::close(fd);
  }
};

}  // namespace

TEST_CASE("common/line_reader: lines at \\n, CRLF and a last line without \\n; the observer sees every byte") {
  std::string input = "a\r\nbb\n\n";
  input.append(70000, 'x');
  input += "\nlast\r";
  for (std::size_t step : {1, 3, 4096, 100000}) {
    Fed fed(input, step);
    common::LineReader reader(fed.fd, 1 << 20);
    std::string seen;
    reader.observe_chunks([&](std::string_view chunk) { seen += chunk; });
    std::vector<std::string> lines;
    std::string line;
    while (reader.next(line) == common::LineReader::Status::line) lines.push_back(line);
    CHECK(lines == std::vector<std::string>{"a", "bb", "", std::string(70000, 'x'), "last"});
    CHECK(reader.line_number() == 5);
    CHECK(seen == input);
  }
}

TEST_CASE("common/line_reader: a line past the limit is too_long, numbered; nothing after it is read") {
  std::string input = "ok\n";
  input.append(11, 'y');
  input += "\nnever\n";
  Fed fed(input, 5);
  common::LineReader reader(fed.fd, 10);
  std::string line;
  CHECK(reader.next(line) == common::LineReader::Status::line);
  CHECK(reader.next(line) == common::LineReader::Status::too_long);
  CHECK(reader.line_number() == 2);
  char rest[64];
  while (::read(fed.fd, rest, sizeof rest) > 0) {
  }
}

