// dist::world and the MPI communicator (compiled in where MPI was found: SUITE_HAVE_MPI).
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "dist/communicator.hpp"
#include "dist/single_process.hpp"

#ifdef SUITE_HAVE_MPI
#include <mpi.h>
#endif

namespace dist {

#ifdef SUITE_HAVE_MPI
namespace {

common::Error mpi_error(const std::string& what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(code, text, &n);
  return common::Error::io("MPI: " + what + ": " + std::string(text, static_cast<std::size_t>(n)));
}

// MPI counts are ints: longer messages go in pieces of this many bytes.
constexpr std::size_t kPiece = std::size_t{1} << 30;

class MpiWorld final : public Communicator {
 public:
  MpiWorld() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiWorld() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }
  [[nodiscard]] std::string transport() const override { return "mpi"; }

  [[nodiscard]] common::Status send(int to, std::span<const std::byte> bytes) override {
    const std::uint64_t n = bytes.size();
    if (int rc = MPI_Send(&n, 1, MPI_UINT64_T, to, kTag, MPI_COMM_WORLD); rc != MPI_SUCCESS) return mpi_error(where("send to", to), rc);
    for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
      const int count = static_cast<int>(std::min(kPiece, bytes.size() - at));
      if (int rc = MPI_Send(bytes.data() + at, count, MPI_BYTE, to, kTag, MPI_COMM_WORLD); rc != MPI_SUCCESS) {
        return mpi_error(where("send to", to), rc);
      }
    }
    return {};
  }

  [[nodiscard]] common::Result<std::vector<std::byte>> receive(int from) override {
    std::uint64_t n = 0;
    if (int rc = MPI_Recv(&n, 1, MPI_UINT64_T, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); rc != MPI_SUCCESS) {
      return mpi_error(where("receive from", from), rc);
    }
    std::vector<std::byte> out(n);
    for (std::size_t at = 0; at < out.size(); at += kPiece) {
      const int count = static_cast<int>(std::min<std::size_t>(kPiece, out.size() - at));
      if (int rc = MPI_Recv(out.data() + at, count, MPI_BYTE, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); rc != MPI_SUCCESS) {
        return mpi_error(where("receive from", from), rc);
      }
    }
    return out;
  }

  [[nodiscard]] common::Status broadcast(int root, std::vector<std::byte>& bytes) override {
    std::uint64_t n = bytes.size();
    if (int rc = MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD); rc != MPI_SUCCESS) return mpi_error(where("broadcast from", root), rc);
    bytes.resize(n);
    for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
      const int count = static_cast<int>(std::min<std::size_t>(kPiece, bytes.size() - at));
      if (int rc = MPI_Bcast(bytes.data() + at, count, MPI_BYTE, root, MPI_COMM_WORLD); rc != MPI_SUCCESS) {
        return mpi_error(where("broadcast from", root), rc);
      }
    }
    return {};
  }

  [[noreturn]] void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; this is for the compiler
  }

 private:
  static constexpr int kTag = 7301;
  std::string where(const char* what, int other) const {
    return "rank " + std::to_string(rank_) + ": " + what + " rank " + std::to_string(other);
  }
  int rank_ = 0, size_ = 1;
};

}  // namespace
#endif

bool has_mpi() {
#ifdef SUITE_HAVE_MPI
  return true;
#else
  return false;
#endif
}

common::Result<std::shared_ptr<Communicator>> world() {
  static std::mutex m;
  static std::shared_ptr<Communicator> w;
  const std::lock_guard<std::mutex> lock(m);
  if (w) return w;
  const int launched = launched_size();
  if (launched <= 1) {
    w = std::make_shared<SingleProcess>();
    return w;
  }
#ifdef SUITE_HAVE_MPI
  int provided = 0;
  // Worker threads compute; only the thread that called world() talks to MPI.
  if (int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided); rc != MPI_SUCCESS) {
    return mpi_error("cannot start", rc);
  }
  // Errors come back as return codes, turned into common::Error with the rank named.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  w = std::make_shared<MpiWorld>();
  return w;
#else
  return common::Error::unsupported("started as " + std::to_string(launched) +
                                    " processes by an MPI launcher, but this build has no MPI (configure with "
                                    "-DSUITE_MPI=ON and Open MPI installed: libopenmpi-dev)");
#endif
}

}  // namespace dist
