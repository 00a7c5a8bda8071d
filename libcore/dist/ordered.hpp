#pragma once
// Exchanges whose result does not depend on the number of ranks or on timing: everything moves
// in rank order. A plain MPI_Allreduce sum may add the ranks' parts in any order (and so give
// other bits from run to run); these do not.
#include <functional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "dist/communicator.hpp"

namespace dist {

// Rank 0's `bytes` list holds every rank's `mine`, in rank order; other ranks get an empty list.
[[nodiscard]] common::Result<std::vector<std::vector<std::byte>>> gather_in_rank_order(Communicator& c,
                                                                                       std::span<const std::byte> mine);

// A running value passed along the ranks in order: rank 0 calls add_mine on `running` as given,
// sends it to rank 1, which adds its part and passes it on, and so on; the last rank's result is
// then broadcast, so that every rank returns with it. A sum of floats built this way has the
// bits of one process adding every part in rank order, whatever the number of ranks.
[[nodiscard]] common::Status chain_in_rank_order(Communicator& c, std::vector<float>& running,
                                                 const std::function<void(std::vector<float>&)>& add_mine);

// Every rank's `identity` (a digest of what must agree: configuration, data, binary version)
// must equal rank 0's; the error names the first rank that differs and `what`. All ranks return
// the same verdict.
[[nodiscard]] common::Status agree(Communicator& c, const std::string& identity, const std::string& what);

// Every rank's `mine`; every rank returns the first non-empty one in rank order (empty: none).
[[nodiscard]] common::Result<std::string> first_in_rank_order(Communicator& c, const std::string& mine);

}  // namespace dist
