#pragma once
// The frameworks `bp import` names explicitly (never detected from file contents), and the
// identities an import records for each: the label its messages start with and the extractor
// identity written into source_framework.extractor (the reference's, so receipts stay byte-equal).
#include <optional>
#include <string>
#include <string_view>

namespace importer {

enum class Framework { pytorch, jax, tensorflow };

[[nodiscard]] std::string_view framework_name(Framework f);
[[nodiscard]] std::optional<Framework> parse_framework(std::string_view name);

// "bp-import-pytorch@0.6.0" (single step); every multi-step importer records "...@0.8.0".
[[nodiscard]] std::string_view extractor_identity(Framework f, bool multi);

// "bp import pytorch" / "bp import pytorch multi": the prefix of every import error message.
[[nodiscard]] std::string caller_label(Framework f, bool multi);

}  // namespace importer
