#pragma once
// Turns an authored schema into the committed text: keywords in one fixed order
// (whatever order the builder calls came in), 2-space indent, trailing newline.
// Names under "properties" and "$defs" keep their authored order.
#include <string>

#include "receipt/schema/authoring/node.hpp"

namespace receipt::schema::authoring {

[[nodiscard]] Json canonical_keyword_order(const Json& schema);
[[nodiscard]] std::string render(const Json& schema);

}  // namespace receipt::schema::authoring
