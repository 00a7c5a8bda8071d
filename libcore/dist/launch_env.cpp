#include <cstdlib>
#include <string>

#include "dist/communicator.hpp"

namespace dist {

int launched_size() {
  // Each launcher's own variable for the number of processes it started.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "SLURM_NTASKS", "MPI_LOCALNRANKS"}) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') continue;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end == '\0' && n >= 1 && n <= 1 << 20) return static_cast<int>(n);
  }
  return 1;
}

}  // namespace dist
