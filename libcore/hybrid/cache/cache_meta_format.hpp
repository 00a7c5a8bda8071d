#pragma once
// The .meta file of a persistent cache entry: "kind=..\nlen=..\ncrc32c=..\ncreated_unix=..\nkey=..\n"
// (the payload's CRC-32C in decimal; format v2). A v1 meta holds checksum32= (FNV-1a) instead
// and still reads; a meta holding both, or neither, is corrupt. Parsing is strict: each key exactly once, no unknown keys, decimal
// numbers without sign or leading '+', in range. Any violation is CacheFailure::corrupt.
#include <string>
#include <string_view>

#include "hybrid/cache/cache_types.hpp"

namespace hybrid {

[[nodiscard]] std::string format_cache_meta(const CacheEntryMeta& meta);
[[nodiscard]] CacheResult<CacheEntryMeta> parse_cache_meta(std::string_view text);

}  // namespace hybrid
