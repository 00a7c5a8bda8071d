#pragma once
// After a committed save (and after a recovery) the root keeps only the blobs its checkpoint
// references: the manifest's entries and the headers of the files in tensor_files.json. A
// tensor saved again under another length, or a save killed part-way, would otherwise leave
// its blobs behind for good. Runs with the root locked, after the commit point, never before.
#include "hybrid/checkpoint_root/root_layout.hpp"
#include "common/result.hpp"

namespace hybrid {

// Removes every file under ROOT/blobs/{tensor,gradient,kernel_meta} that no reference names
// (payload, .meta, or an interrupted replace's .bin.next). A root without a manifest is left
// as it is; an unreadable manifest or file list is an error and nothing is removed. The walk
// never follows a link. The number of files removed.
[[nodiscard]] common::Result<std::size_t> sweep_unreferenced_blobs(const CacheRoot& root);

}  // namespace hybrid
