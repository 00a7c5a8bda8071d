#pragma once
// CLI11's option types as the cli_common headers name them, without CLI11's header (a large one,
// kept to the .cpp files that build the options).

namespace CLI {
class App;
class Option;
}  // namespace CLI
