#pragma once
// Where nltrain reads an input that can be a stream: `-` is standard input, anything else a
// file. Every such input (train/init/eval --data, --config, grads STATE, plot METRICS) goes
// through read_input, so `nltrain train --metrics - | nltrain plot -` works.
#include <cstddef>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace nltrain::cli {

// How an input is named in messages: "<stdin>" for `-`, the path otherwise.
[[nodiscard]] std::string input_name(std::string_view path);

// The bytes of `path` (`-`: all of standard input), at most `max_bytes` of them.
[[nodiscard]] common::Result<std::string> read_input(const std::string& path, std::size_t max_bytes);

}  // namespace nltrain::cli
