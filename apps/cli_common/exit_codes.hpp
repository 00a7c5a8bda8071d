#pragma once
// The exit statuses of bp, atenia and nltrain: one table, documented in each tool's man page
// (EXIT STATUS) and --help.
namespace cli_common {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;           // a verdict: verification or a check failed
inline constexpr int kExitMalformedOrIo = 2;     // usage, I/O, malformed input
inline constexpr int kExitInvalidArgument = 3;   // an option or value outside its domain
inline constexpr int kExitNotInstalled = 4;      // the installation lacks a file the command needs

}  // namespace cli_common
