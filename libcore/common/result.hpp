#pragma once
// Result<T>: a value or a common::Error; Status: success or a common::Error.
// The same Expected<T, E> that components with their own typed errors use.
#include "common/error.hpp"
#include "common/expected.hpp"

namespace common {

template <typename T>
using Result = Expected<T, Error>;

using Status = Result<void>;

}  // namespace common
