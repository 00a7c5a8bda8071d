#pragma once
// Atomic replacement of a file: write a temporary file in the same directory, fsync it,
// rename it over the target, fsync the directory. A crash at any instant leaves either
// the old content or the new, never a torn file; on error the temporary is removed.
#include <span>
#include <string>
#include <string_view>

#include "common/file_system.hpp"

namespace common {

Status write_file_atomic(FileSystem& fs, const std::string& path, std::span<const std::byte> data);
Status write_file_atomic(FileSystem& fs, const std::string& path, std::string_view text);

// The directory part of `path` ("" -> ".").
std::string parent_dir(const std::string& path);

}  // namespace common
