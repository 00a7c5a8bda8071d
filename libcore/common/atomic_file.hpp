#pragma once
// Atomic replacement of a file: write a temporary file in the same directory, fsync it,
// rename it over the target, fsync the directory. A crash at any instant leaves either
// the old content or the new, never a torn file; on error the temporary is removed.
//  - A symbolic link at `path` is followed: the link stays, its target is replaced atomically.
//  - A device or a FIFO at `path` is written in place (no rename; atomicity does not apply).
//  - A directory at `path` is an io error.
//  - The temporary ("<target>.atomic-tmp.<k>", see FileSystem::create_temp_beside) is removed
//    on SIGINT / SIGTERM / SIGHUP when the tool installed install_temp_file_cleanup(), and a
//    SIGKILLed one by the next write to the same target.
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "common/file_system.hpp"

namespace common {

Status write_file_atomic(FileSystem& fs, const std::string& path, std::span<const std::byte> data);
// The content written by `write` into the file, in as many appends as it likes (content that is
// not held in memory at once); its error ends the write as any other.
Status write_file_atomic(FileSystem& fs, const std::string& path, const std::function<Status(WritableFile&)>& write);
Status write_file_atomic(FileSystem& fs, const std::string& path, std::string_view text);

// The directory part of `path` ("" -> ".").
std::string parent_dir(const std::string& path);

}  // namespace common
