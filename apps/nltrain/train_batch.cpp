#include "train_batch.hpp"

namespace nltrain::cli {

StreamChunk stream_chunk(std::size_t n_chunks, std::size_t batch, std::size_t b, std::uint64_t n) {
  // b < batch <= C < kMaxCorpusBytes = 2^30: the products stay below 2^60.
  const std::size_t first = b * n_chunks / batch, end = (b + 1) * n_chunks / batch;
  const std::uint64_t pos = n % (end - first);
  return {first + static_cast<std::size_t>(pos), pos == 0 && n > 0};
}

TrainBatch::TrainBatch(const Corpus& corpus, std::size_t seq_len, std::size_t batch)
    : corpus_(corpus), seq_len_(seq_len), n_chunks_(corpus.chunks(seq_len)), at_(batch), ids_(batch), targets_(batch) {}

void TrainBatch::read(std::uint64_t n) {
  seqs_.clear();
  for (std::size_t b = 0; b < at_.size(); ++b) {
    at_[b] = stream_chunk(n_chunks_, at_.size(), b, n);
    corpus_.chunk(at_[b].chunk, seq_len_, ids_[b], targets_[b]);
    seqs_.push_back({ids_[b], targets_[b]});
  }
}

}  // namespace nltrain::cli
