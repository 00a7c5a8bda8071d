#pragma once
// The schema pattern matcher lives in common (common/schema/pattern_matcher.hpp); its old name.
#include "common/schema/pattern_matcher.hpp"

namespace receipt::schema::detail {

using common::schema::detail::PatternMatcher;

}  // namespace receipt::schema::detail
