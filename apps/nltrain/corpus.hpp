#pragma once
// The training text: bytes are the tokens (vocabulary 256). Any file works, UTF-8 or not: a
// multi-byte character is simply several tokens. Step n trains on chunk n mod C of the C =
// floor((N-1)/s) non-overlapping chunks of s input bytes (targets: the next bytes); the context
// memory is reset when the data wraps around.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace nltrain::cli {

// Largest corpus read into memory.
inline constexpr std::size_t kMaxCorpusBytes = std::size_t{1} << 30;

struct Corpus {
  std::string name;   // the path, or "(embedded)"
  std::string bytes;
  std::string sha256;
  [[nodiscard]] std::size_t chunks(std::size_t seq_len) const { return (bytes.size() - 1) / seq_len; }
  // ids and targets of chunk c (c < chunks(seq_len)).
  void chunk(std::size_t c, std::size_t seq_len, std::vector<std::size_t>& ids, std::vector<std::size_t>& targets) const;
};

[[nodiscard]] std::string_view embedded_corpus();

// path empty: the embedded corpus. Fails (io / malformed) on an unreadable or empty file, a
// directory, or a file shorter than seq_len + 1 bytes.
[[nodiscard]] common::Result<Corpus> load_corpus(const std::string& path, std::size_t seq_len);

}  // namespace nltrain::cli
