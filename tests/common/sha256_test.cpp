#include "common/sha256.hpp"

#include <doctest/doctest.h>

TEST_CASE("sha256: FIPS 180-2 test vectors") {
  CHECK(common::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(common::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(common::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("sha256: incremental equals one-shot") {
  common::Sha256 h;
  h.update(std::string_view("ab"));
  h.update(std::string_view("c"));
  CHECK(common::to_hex(h.finish()) == common::sha256_hex("abc"));
}
