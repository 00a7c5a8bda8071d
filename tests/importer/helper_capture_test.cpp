#include "importer/helper_capture.hpp"
#include "importer/observer_import.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <sys/resource.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

template <typename T>
void put(std::string& out, T v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  out.append(b, sizeof v);
}

std::string chunk(char tag, const std::string& payload) {
  std::string out(1, tag);
  put(out, static_cast<std::uint64_t>(payload.size()));
  return out + payload;
}

std::string layout(std::uint32_t id, std::uint32_t slots, const std::string& text) {
  std::string p;
  put(p, id);
  put(p, slots);
  return chunk('L', p + text);
}

std::string steps(std::uint32_t id, std::uint32_t count, const std::vector<double>& values) {
  std::string p;
  put(p, id);
  put(p, count);
  for (double v : values) put(p, v);
  return chunk('S', p);
}

const std::string kMagic(importer::kCaptureMagic);
// A layout with a float slot used twice and an integer slot.
const std::string kText = R"({"a":"\u00000","b":["\u00000","\u00011"],"c":"\u0002"})";

std::string expand_ok(const std::string& capture) {
  auto r = importer::expand_capture(capture, 1 << 20);
  REQUIRE_MESSAGE(r.ok(), r.error().to_string());
  return *r;
}

std::string refusal(const std::string& capture, std::size_t max = 1 << 20) {
  auto r = importer::expand_capture(capture, max);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().to_string().find('\n') == std::string::npos);
  return r.error().message();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("helper_capture: slots take Python's spelling of floats and plain integers, a line per step") {
  const std::string c = kMagic + layout(0, 2, kText) + steps(0, 2, {0.1, 3, -1e-05, 12});
  CHECK(importer::is_capture(c));
  CHECK(expand_ok(c) ==
        "{\"a\":0.1,\"b\":[0.1,3],\"c\":\"\\u0002\"}\n{\"a\":-1e-05,\"b\":[-1e-05,12],\"c\":\"\\u0002\"}\n");
  CHECK(expand_ok(kMagic).empty());
  // Layouts are numbered in order and steps may name any earlier one.
  const std::string two = kMagic + layout(0, 1, "[\"\\u00000\"]") + layout(1, 1, "{\"x\":\"\\u00010\"}") +
                          steps(1, 1, {-0.0}) + steps(0, 1, {2.5});
  CHECK(expand_ok(two) == "{\"x\":0}\n[2.5]\n");
  CHECK_FALSE(importer::is_capture("{\"format\":1}"));
}

TEST_CASE("helper_capture: a malformed capture is refused in one line naming the byte") {
  const std::string good = kMagic + layout(0, 2, kText);
  CHECK(has(refusal("BPCAP02\n"), "no BPCAP01 magic"));
  CHECK(has(refusal(kMagic + "L\x01"), "byte 8: a chunk header needs 9 bytes"));
  CHECK(has(refusal(kMagic + layout(0, 2, kText).substr(0, 20)), "runs past the end"));
  CHECK(has(refusal(kMagic + chunk('X', "")), "unknown chunk tag 0x58"));
  CHECK(has(refusal(kMagic + chunk('L', "1234")), "needs an id and a slot count"));
  CHECK(has(refusal(kMagic + layout(1, 2, kText)), "layout id 1 out of order (expected 0)"));
  CHECK(has(refusal(kMagic + layout(0, 0, "[]")), "slot count 0 outside"));
  CHECK(has(refusal(kMagic + layout(0, (1u << 24) + 1, "[]")), "outside 1..16777216"));
  CHECK(has(refusal(kMagic + layout(0, 1, "[\"\\u00001\"]")), "slot 1 >= slot count 1"));
  CHECK(has(refusal(kMagic + layout(0, 1, "[\"\\u00000\",\"\\u00010\"]")), "used as both a float and an integer"));
  for (const char* bad :
       {"[\"\\u0000\"]", "[\"\\u000001\"]", "[\"\\u00007x\"]", "[\"\\u0000123456789\"]", "[\"\\u00000"}) {
    INFO(std::string(bad));
    CHECK(has(refusal(kMagic + layout(0, 1u << 24, bad)), "malformed slot"));
  }
  CHECK(has(refusal(kMagic + steps(0, 1, {1})), "layout id 0 not defined yet"));
  CHECK(has(refusal(good + steps(0, 0, {})), "0 steps of 2 slots"));
  CHECK(has(refusal(good + steps(0, 2, {1, 2, 3})), "2 steps of 2 slots need 32 bytes of numbers, the chunk has 24"));
  CHECK(has(refusal(good + steps(0, 1, {std::numeric_limits<double>::quiet_NaN(), 1})), "float slot 0 is NaN"));
  CHECK(has(refusal(good + steps(0, 1, {1, std::numeric_limits<double>::infinity()})), "integer slot 1"));
  CHECK(has(refusal(good + steps(0, 1, {1, 2.5})), "not an integer within 2^53"));
  CHECK(has(refusal(good + steps(0, 1, {1, 9007199254740994.0})), "not an integer within 2^53"));
  CHECK(expand_ok(good + steps(0, 1, {1, 9007199254740992.0})).find("9007199254740992]") != std::string::npos);
}

TEST_CASE("helper_capture: the expansion stays under its cap, checked before a chunk is written") {
  const std::string c = kMagic + layout(0, 2, kText) + steps(0, 3, {1, 2, 3, 4, 5, 6});
  const std::size_t full = expand_ok(c).size();
  auto r = importer::expand_capture(c, full);
  CHECK(r.ok());
  CHECK(has(refusal(c, full - 1), "expands to more than"));
  CHECK(has(refusal(c, 10), "expands to more than 10 bytes"));
  // A million steps of a long layout are refused up front, not after writing most of them.
  std::string big = kMagic + layout(0, 1, "[\"\\u00000\"" + std::string(1000, ' ') + "]");
  std::string p;
  put(p, std::uint32_t{0});
  put(p, std::uint32_t{1000000});
  p.append(std::size_t{8} * 1000000, '\0');
  CHECK(has(refusal(big + chunk('S', p), 1 << 20), "expands to more than 1048576 bytes"));
}

TEST_CASE("helper_capture: bp import refuses a capture that expands to a capture") {
  // The inner capture is the outer one's layout text: expanding each level in turn would nest as
  // deep as the file does.
  const std::string inner = kMagic + layout(0, 1, "[\"\\u00000\"]") + steps(0, 1, {1.5});
  const std::string outer = kMagic + layout(0, 1, inner.substr(0, inner.size() - 1) + "\"\\u00000\"") +
                            steps(0, 1, {2.0});
  REQUIRE(importer::is_capture(expand_ok(outer)));
  importer::ImportOptions o;
  o.import_timestamp = "2026-01-02T03:04:05.000Z";
  for (const bool multi : {false, true}) {
    auto r = multi ? importer::import_sidecar_stream(outer, o) : importer::import_sidecar(outer, o);
    REQUIRE_FALSE(r.ok());
    CHECK(has(r.error().message(), "expands to another capture"));
  }
}

TEST_CASE("helper capture: a layout's claimed slot count costs no memory before its steps are read") {
  // 64 layouts of 2^24 slots each, 17 bytes apiece: main at b687e58 allocated 16 MiB per layout
  // (1 GiB here) before reading a single step. The memory now follows the text the file holds.
  auto peak_kib = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
  };
  std::string capture = kMagic;
  for (std::uint32_t id = 0; id < 64; ++id) capture += layout(id, std::uint32_t{1} << 24, "{}");
  capture += layout(64, 3, kText) + steps(64, 1, {0.5, 7, 0});
  const long before = peak_kib();
  CHECK(expand_ok(capture) == "{\"a\":0.5,\"b\":[0.5,7],\"c\":\"\\u0002\"}\n");
  CHECK(peak_kib() - before < 64 * 1024);
}
