#pragma once
// The training data: by default text whose bytes are the tokens (vocabulary 256). Any file works,
// UTF-8 or not: a multi-byte character is simply several tokens. With --data-format u16|u32 the
// file is the user's own token ids, little-endian (nl/token_data.hpp), each below the model's
// vocab. Step n trains on chunk n mod C of the C = floor((N-1)/s) non-overlapping chunks of s
// input tokens of the N in the file (targets: the next tokens); the context memory is reset when
// the data wraps around.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "nl/token_data.hpp"

namespace nltrain::cli {

// Largest corpus read into memory.
inline constexpr std::size_t kMaxCorpusBytes = std::size_t{1} << 30;

struct Corpus {
  std::string name;   // the path, or "(embedded)"
  std::string bytes;  // the file as read; its SHA-256 and size are the run's data digest
  std::string sha256;
  nl::TokenFormat format = nl::TokenFormat::bytes;
  [[nodiscard]] std::size_t tokens() const { return nl::token_count(bytes, format); }
  [[nodiscard]] std::size_t chunks(std::size_t seq_len) const { return (tokens() - 1) / seq_len; }
  // Where chunk c's first token lies in the file: receipts name compact tokens by this offset.
  [[nodiscard]] std::size_t byte_offset(std::size_t c, std::size_t seq_len) const { return c * seq_len * nl::token_size(format); }
  // ids and targets of chunk c (c < chunks(seq_len)).
  void chunk(std::size_t c, std::size_t seq_len, std::vector<std::size_t>& ids, std::vector<std::size_t>& targets) const;
};

[[nodiscard]] std::string_view embedded_corpus();

// --data-format: bytes, u16 or u32 (invalid_argument naming the flag otherwise).
[[nodiscard]] common::Result<nl::TokenFormat> parse_data_format(std::string_view name);

// path empty: the embedded corpus (bytes only). Fails (io / malformed) on an unreadable or empty
// file, a directory, a size that is not whole tokens, a token id >= vocab, or fewer than
// seq_len + 1 tokens; the message names the file.
[[nodiscard]] common::Result<Corpus> load_corpus(const std::string& path, std::size_t seq_len,
                                                 nl::TokenFormat format = nl::TokenFormat::bytes, std::size_t vocab = 256);

}  // namespace nltrain::cli
