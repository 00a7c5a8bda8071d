// common::encode_base64 / decode_base64: RFC 4648 round trips, and the decoder takes the one
// canonical text of each byte string only.
#include <doctest/doctest.h>

#include <string>

#include "common/base64.hpp"

namespace {

std::span<const std::byte> bytes(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }

std::string text(const std::vector<std::byte>& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

}  // namespace

TEST_CASE("base64: RFC 4648 test vectors both ways") {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (auto [plain, coded] : vectors) {
    CAPTURE(plain);
    CHECK(common::encode_base64(bytes(plain)) == coded);
    auto back = common::decode_base64(coded);
    REQUIRE(back.has_value());
    CHECK(text(*back) == plain);
  }
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  CHECK(text(*common::decode_base64(common::encode_base64(bytes(all)))) == all);
}

TEST_CASE("base64: only the canonical text decodes") {
  for (const char* bad : {"Zg=", "Zg", "Zh==", "Zm9=", "Z===", "====", "Zg==Zg==", "Zm 9v", " Zm9v", "Zm9v\n", "Zm-v", "Zm_v", "=Zm9"}) {
    CAPTURE(bad);
    CHECK_FALSE(common::decode_base64(bad).has_value());
  }
}

TEST_CASE("base64: every length round-trips, and a character outside the alphabet anywhere is refused") {
  std::string plain;
  for (int len = 0; len < 40; ++len) {
    CAPTURE(len);
    const std::string coded = common::encode_base64(bytes(plain));
    auto back = common::decode_base64(coded);
    REQUIRE(back.has_value());
    CHECK(text(*back) == plain);
    for (std::size_t at = 0; at < coded.size(); ++at) {
      if (coded[at] == '=') continue;
      for (char bad : {'=', '-', '\0', '\x80'}) {
        if (bad == '=' && at + 2 >= coded.size()) continue;  // padding there can be another text's
        std::string damaged = coded;
        damaged[at] = bad;
        CAPTURE(at);
        CHECK_FALSE(common::decode_base64(damaged).has_value());
      }
    }
    plain += static_cast<char>(len * 37 + 11);
  }
}
