#pragma once
// dist: the processes of one data-parallel run (started by mpirun or srun) and the exchanges
// they make. Every exchange is blocking and between named ranks, so what a rank receives never
// depends on timing; the ordered algorithms (ordered.hpp) are built from these.
//
// Without MPI at build time, or when the run was not started by a launcher, the world is one
// process (rank 0 of 1) and every exchange is a no-op or an identity.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace dist {

class Communicator {
 public:
  virtual ~Communicator() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  // What carries the exchanges ("mpi", "one process"), for messages.
  [[nodiscard]] virtual std::string transport() const = 0;
  // Bytes of any length to one rank, and from one rank (blocking, in the order sent).
  [[nodiscard]] virtual common::Status send(int to, std::span<const std::byte> bytes) = 0;
  [[nodiscard]] virtual common::Result<std::vector<std::byte>> receive(int from) = 0;
  // On return every rank holds `root`'s bytes.
  [[nodiscard]] virtual common::Status broadcast(int root, std::vector<std::byte>& bytes) = 0;
  // Ends every rank of the run at once with `code` (a rank that hit an error while the others
  // wait for it: without this they would wait forever).
  [[noreturn]] virtual void abort(int code) = 0;
};

// How many processes the launcher says it started (Open MPI, PMIx, Slurm, MPICH's Hydra
// environment), 1 when none did. A build without MPI uses it to refuse R > 1 copies that would
// each train alone.
[[nodiscard]] int launched_size();

// True when this build can talk to other ranks (MPI was found at build time).
[[nodiscard]] bool has_mpi();

// The run's ranks: MPI's world when built with MPI and launched with R > 1 (MPI is initialized
// on first use and finalized at exit), else one process. Fails when launched with R > 1 by a
// build without MPI, or when MPI cannot start.
[[nodiscard]] common::Result<std::shared_ptr<Communicator>> world();

}  // namespace dist
