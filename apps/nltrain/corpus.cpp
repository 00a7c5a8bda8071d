#include "corpus.hpp"

#include "common/file_system.hpp"
#include "common/error.hpp"
#include "common/sha256.hpp"
#include "input_text.hpp"

namespace nltrain::cli {

std::string_view embedded_corpus() {
  // Written for nltrain: plain, repetitive English about the trainer itself, so a small
  // byte-level model shows its loss falling within a few hundred steps.
  static constexpr std::string_view kText = R"(A memory that learns while it reads.
The model reads a chunk of text, one byte at a time. Each level of memory keeps what it saw,
and the fast level changes at every step while the slow levels change every eight steps, or
every sixty-four. The fast level remembers the last few words; the slow levels remember the
shape of the whole text. When a level is frozen, it still reads, and what it would have
learned is kept in its error buffer until it wakes again.
The trainer reads the text, predicts the next byte, measures how wrong it was, and moves every
weight a little in the direction that makes it less wrong. Then it reads the next chunk.
Step by step the loss falls. At first the model knows nothing: every byte is as likely as
every other, and the loss is the logarithm of two hundred and fifty six. Soon it learns that
spaces follow words, that a capital letter starts a sentence, that "the" is common and "q" is
rare. Later it learns whole words, and then which words follow which.
A checkpoint keeps everything: the weights, the moments of the optimizer, the memory of every
level, and the step the conductor has reached. Stop the trainer, start it again from the
checkpoint, and it goes on exactly as if it had never stopped, loss for loss and bit for bit.
The gradients are checked three ways: by the tape, which records every operation and plays
them back in reverse; by the backward pass written by hand; and by finite differences, which
nudge each weight up and down and watch the loss move. When all three agree, the gradients
can be trusted.
A memory that learns while it reads is a nested learner: an inner loop that writes to memory
at every token, inside an outer loop that trains the weights at every chunk. The inner loop
is fast and forgets; the outer loop is slow and remembers. Between them the model learns to
learn.
The quick brown fox jumps over the lazy dog. The lazy dog sleeps in the sun. The sun rises in
the east and sets in the west. The west wind blows over the hills, and the hills are green in
spring and brown in autumn. In winter the snow falls and the fox leaves tracks in the snow.
One, two, three, four, five, six, seven, eight, nine, ten. Ten, nine, eight, seven, six, five,
four, three, two, one. Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday.
January, February, March, April, May, June, July, August, September, October, November,
December. Red, orange, yellow, green, blue, indigo, violet.
To train a model on your own text, give the trainer a file. To see what it learned, ask it to
write: give it a prompt and it continues, one byte at a time, choosing each byte by the odds
it has learned. To see how well it learned, evaluate it on text it has not seen. To see the
curve of its loss, plot the metrics. To check its gradients from your own tools, write the
state as JSON, compute the gradients yourself, and compare.
)";
  return kText;
}

void Corpus::chunk(std::size_t c, std::size_t seq_len, std::vector<std::size_t>& ids,
                   std::vector<std::size_t>& targets) const {
  ids.resize(seq_len), targets.resize(seq_len);
  const std::size_t base = c * seq_len;
  for (std::size_t t = 0; t < seq_len; ++t) {
    ids[t] = nl::token_at(bytes, format, base + t);
    targets[t] = nl::token_at(bytes, format, base + t + 1);
  }
}

common::Result<nl::TokenFormat> parse_data_format(std::string_view name) {
  if (auto f = nl::parse_token_format(name)) return *f;
  return common::Error::invalid_argument("--data-format: expected bytes, u16 or u32, got \"" + common::excerpt(name) + "\"");
}

common::Result<Corpus> load_corpus(const std::string& path, std::size_t seq_len, nl::TokenFormat format, std::size_t vocab) {
  Corpus c;
  c.format = format;
  if (path.empty() && format != nl::TokenFormat::bytes) {
    return common::Error::invalid_argument("--data-format " + std::string(nl::token_format_name(format)) +
                                           " needs --data F (the embedded corpus is bytes of text)");
  }
  if (path.empty()) {
    c.name = "(embedded)";
    c.bytes = std::string(embedded_corpus());
  } else {
    c.name = input_name(path);
    if (path != "-" && common::real_file_system().is_dir(path)) {
      return common::Error::io("--data: " + path + " is a directory, not a text file");
    }
    auto text = read_input(path, kMaxCorpusBytes);
    if (!text.ok()) return text.error();
    c.bytes = std::move(*text);
    if (c.bytes.empty()) return common::Error::malformed("--data: " + c.name + " is empty; nltrain needs text to train on");
  }
  // Before anything trains: a partial token or an id the model has no row for.
  if (common::Status s = nl::check_tokens(c.bytes, format, vocab); !s.ok()) {
    return common::Error::malformed("--data: " + c.name + ": " + s.error().message());
  }
  if (c.tokens() < seq_len + 1) {
    const std::string unit = format == nl::TokenFormat::bytes ? " bytes" : " " + std::string(nl::token_format_name(format)) + " tokens";
    return common::Error::malformed("--data: " + c.name + " holds " + std::to_string(c.tokens()) + unit +
                                    "; one chunk needs seq_len + 1 = " + std::to_string(seq_len + 1));
  }
  c.sha256 = common::sha256_hex(c.bytes);
  return c;
}

}  // namespace nltrain::cli
