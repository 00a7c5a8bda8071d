#pragma once
// Where imported numbers came from and who vouches for them.
#include "receipt/schema/authoring/node.hpp"

namespace receipt::schema::authoring {

Node source_framework(bool engine_is_a_source);
Node attestor_identity();
Node attestor();

}  // namespace receipt::schema::authoring
