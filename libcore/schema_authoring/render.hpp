#pragma once
// Turns an authored schema into the committed text: keywords in one fixed order
// (whatever order the builder calls came in), 2-space indent, trailing newline.
// Names under "properties" and "$defs" keep their authored order.
#include <string>

#include "schema_authoring/node.hpp"

namespace schema_authoring {

[[nodiscard]] Json canonical_keyword_order(const Json& schema);
[[nodiscard]] std::string render(const Json& schema);

}  // namespace schema_authoring
