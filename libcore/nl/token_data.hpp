#pragma once
// Token data: how a training file spells its token ids. `bytes` is nltrain's byte-level text
// (every byte a token, ids 0..255); `u16` and `u32` are files of little-endian token ids the
// user made with their own tokenizer. The data stays as read (no widened copy): token i is
// decoded where it is used.
#include <cstddef>
#include <optional>
#include <string_view>

#include "common/result.hpp"

namespace nl {

enum class TokenFormat : unsigned char { bytes, u16, u32 };

[[nodiscard]] std::size_t token_size(TokenFormat f);  // 1, 2 or 4 bytes
[[nodiscard]] std::string_view token_format_name(TokenFormat f);  // "bytes", "u16", "u32"
[[nodiscard]] std::optional<TokenFormat> parse_token_format(std::string_view name);

// Whole tokens in `data` (a partial last token is not counted; check_tokens refuses it).
[[nodiscard]] inline std::size_t token_count(std::string_view data, TokenFormat f) { return data.size() / token_size(f); }

// The id of token i (i < token_count).
[[nodiscard]] std::size_t token_at(std::string_view data, TokenFormat f, std::size_t i);

// `data` holds whole tokens and every id is below `vocab`: one pass over the data as it lies.
// malformed otherwise, naming the byte count, or the first bad token's index, byte offset and id.
[[nodiscard]] common::Status check_tokens(std::string_view data, TokenFormat f, std::size_t vocab);

}  // namespace nl
