#pragma once
// What one step of nltrain train --batch B reads: B sequences, one from each of B streams. The C
// chunks of the corpus (corpus.hpp) are cut into B contiguous streams: stream b holds chunks
// [floor(b C / B), floor((b + 1) C / B)), so every stream has floor(C/B) or ceil(C/B) chunks and
// together they hold every chunk once. At step n stream b reads its chunk n mod L_b (L_b its
// length), from its own context memory; when n mod L_b = 0 and n > 0 the stream has wrapped, and
// its memory is reset (a new document), the others' not. B = 1 is the unbatched rule: chunk
// n mod C, reset when the data wraps. B must not exceed C (every stream needs a chunk).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "corpus.hpp"
#include "nl/batch_gradients.hpp"

namespace nltrain::cli {

struct StreamChunk {
  std::size_t chunk = 0;  // the corpus chunk the stream reads at this step
  bool wrapped = false;   // the stream starts over at this step: reset its context memory
};

// Stream b of `batch` over n_chunks chunks at step n (batch <= n_chunks, b < batch).
[[nodiscard]] StreamChunk stream_chunk(std::size_t n_chunks, std::size_t batch, std::size_t b, std::uint64_t n);

// The B sequences of a step, refilled in place step after step.
class TrainBatch {
 public:
  TrainBatch(const Corpus& corpus, std::size_t seq_len, std::size_t batch);
  void read(std::uint64_t n);  // fills every stream for step n

  [[nodiscard]] std::size_t size() const { return at_.size(); }
  [[nodiscard]] const StreamChunk& at(std::size_t b) const { return at_[b]; }
  [[nodiscard]] const std::vector<std::size_t>& ids(std::size_t b) const { return ids_[b]; }
  [[nodiscard]] const std::vector<std::size_t>& targets(std::size_t b) const { return targets_[b]; }
  [[nodiscard]] const std::vector<nl::Sequence>& sequences() const { return seqs_; }

 private:
  const Corpus& corpus_;
  std::size_t seq_len_, n_chunks_;
  std::vector<StreamChunk> at_;
  std::vector<std::vector<std::size_t>> ids_, targets_;
  std::vector<nl::Sequence> seqs_;
};

}  // namespace nltrain::cli
