#pragma once
// Where imported numbers came from and who vouches for them.
#include "schema_authoring/node.hpp"

namespace schema_authoring {

Node source_framework(bool engine_is_a_source);
Node attestor_identity();
Node attestor();

}  // namespace schema_authoring
