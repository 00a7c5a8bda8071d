// nltrain eval / generate: forward-only use of a checkpoint.
#include <cmath>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "cli_common/count_option.hpp"
#include "corpus.hpp"
#include "nl/cms_forward.hpp"
#include "nl/trainer.hpp"
#include "run_dir.hpp"
#include "tensor_file.hpp"

namespace nltrain::cli {
namespace {

struct Loaded {
  nl::TrainerState state;
  RunRecord run;
};

// The checkpoint, or with --from the tensor file's parameters at its step (a fresh optimizer;
// the run's text is the embedded corpus unless --data names one).
common::Result<Loaded> load(const std::string& dir, const std::string& from) {
  if (dir.empty() == from.empty()) return common::Error::invalid_argument("give one of --checkpoint and --from");
  if (!from.empty()) {
    auto f = load_tensor_file(from);
    if (!f.ok()) return f.error();
    nl::TrainerState st = nl::Trainer(f->cfg, std::move(f->params), nl::AdamWConfig{}).state();
    st.step = f->step;
    return Loaded{std::move(st), RunRecord{}};
  }
  auto ck = load_checkpoint(dir);
  if (!ck.ok()) return ck.error();
  auto rec = decode_run(ck->run, checkpoint_path(dir));
  if (!rec.ok()) return rec.error();
  return Loaded{std::move(ck->state), std::move(*rec)};
}

struct EvalOptions {
  std::string checkpoint, from, data;
  std::optional<std::string> data_format;  // unset: the run's (bytes with --from)
  std::optional<std::uint64_t> max_chunks;
  bool json = false;
};

int run_eval(const EvalOptions& o) {
  auto l = load(o.checkpoint, o.from);
  if (!l.ok()) return report(l.error());
  const std::size_t s = l->state.cfg.seq_len;
  nl::TokenFormat format = l->run.data_format;
  if (o.data_format) {
    auto f = parse_data_format(*o.data_format);
    if (!f.ok()) return report(f.error());
    format = *f;
  }
  auto corpus = load_corpus(o.data.empty() ? l->run.data : o.data, s, format, l->state.cfg.vocab);
  if (!corpus.ok()) return report(corpus.error());
  if (o.max_chunks && *o.max_chunks == 0) return report(common::Error::invalid_argument("--max-chunks: must be at least 1"));
  const std::uint64_t trained = l->state.step;
  auto t = nl::Trainer::from_state(std::move(l->state));
  if (!t.ok()) return report(t.error());
  t->reset_context();  // evaluation reads the text from its start, with fresh memory
  std::size_t n = corpus->chunks(s);
  if (o.max_chunks) n = std::min<std::size_t>(n, *o.max_chunks);
  std::vector<std::size_t> ids, targets;
  double sum = 0;
  for (std::size_t c = 0; c < n; ++c) {
    corpus->chunk(c, s, ids, targets);
    auto loss = t->forward_step(ids, targets);
    if (!loss.ok()) return report(common::Error::malformed("chunk " + std::to_string(c) + ": " + loss.error().message()));
    sum += *loss;
  }
  const double mean = sum / static_cast<double>(n);
  // Per byte where bytes are the tokens; per token of the user's own ids otherwise.
  const bool bytes = format == nl::TokenFormat::bytes;
  const std::string unit = bytes ? "byte" : "token";
  if (o.json) {
    nlohmann::ordered_json j{{"checkpoint_step", trained}, {"data", corpus->name}, {"chunks", n}, {"tokens", n * s}, {"loss", mean},
                             {"perplexity", std::exp(mean)}, {"bits_per_" + unit, mean / std::log(2.0)}};
    std::cout << j.dump() << "\n";
  } else {
    std::cout << fmt::format("checkpoint after {} steps on {}: {} chunks, {} tokens: loss {:.4f} nats/{}, perplexity {:.3f}, {:.3f} bits/{}\n",
                             trained, corpus->name, n, n * s, mean, unit, std::exp(mean), mean / std::log(2.0), unit);
  }
  return kExitOk;
}

struct GenerateOptions {
  std::string checkpoint, from, prompt;
  std::size_t tokens = 200;
  std::uint64_t seed = 1;
  double temperature = 0.8;
  bool json = false;
};

// xorshift64*: a seeded, platform-independent stream.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : x_(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  double uniform() {
    x_ ^= x_ >> 12, x_ ^= x_ << 25, x_ ^= x_ >> 27;
    return static_cast<double>((x_ * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53;
  }

 private:
  std::uint64_t x_;
};

int run_generate(const GenerateOptions& o) {
  if (o.prompt.empty()) return report(common::Error::invalid_argument("--prompt: must not be empty"));
  if (o.tokens > 100000) return report(common::Error::invalid_argument("--tokens: at most 100000"));
  if (!(o.temperature >= 0) || !std::isfinite(o.temperature)) {
    return report(common::Error::invalid_argument("--temperature: must be a finite number >= 0 (0: always the likeliest byte)"));
  }
  auto l = load(o.checkpoint, o.from);
  if (!l.ok()) return report(l.error());
  const nl::MagConfig& cfg = l->state.cfg;
  // The prompt and the output are bytes of text: a model of other token ids has no text to show.
  if (cfg.vocab != kByteVocab) {
    return report(common::Error::invalid_argument("generate writes text, one byte per token; this model's vocab is " +
                                                  std::to_string(cfg.vocab) + " token ids, not the 256 bytes (use nltrain eval)"));
  }
  const std::size_t s = cfg.seq_len, V = cfg.vocab;
  const nl::ContextMemory<float> ctx = nl::ContextMemory<float>::initial(cfg);
  const nl::Pulse pulse = nl::Conductor(cfg.periods, 0).pulse();
  std::string text = o.prompt;
  Rng rng(o.seed);
  std::vector<std::size_t> ids(s), targets(s);
  std::vector<double> p(V);
  for (std::size_t i = 0; i < o.tokens; ++i) {
    // The last s bytes; a short prompt is padded on the left with spaces.
    for (std::size_t t = 0; t < s; ++t) {
      const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(text.size()) - static_cast<std::ptrdiff_t>(s) + static_cast<std::ptrdiff_t>(t);
      ids[t] = at < 0 ? ' ' : static_cast<unsigned char>(text[static_cast<std::size_t>(at)]);
    }
    targets = ids;
    auto f = nl::cms_forward<float>(cfg, l->state.params, ids, targets, pulse, ctx);
    if (!f.ok()) return report(f.error());
    const float* probs = &f->probs[(s - 1) * V];
    std::size_t pick = 0;
    if (o.temperature == 0) {
      for (std::size_t v = 1; v < V; ++v)
        if (probs[v] > probs[pick]) pick = v;
    } else {
      // p^(1/T) taken relative to the likeliest byte: the same distribution, but the likeliest
      // weighs 1, so a tiny temperature (1e-320) sharpens towards greedy instead of every weight
      // underflowing to 0 (which picked byte 0xFF every time).
      double top = 0;
      for (std::size_t v = 0; v < V; ++v) top = std::max<double>(top, probs[v]);
      double total = 0;
      for (std::size_t v = 0; v < V; ++v) {
        total += (p[v] = top > 0 ? std::pow(std::max<double>(probs[v], 0) / top, 1.0 / o.temperature) : 1.0);
      }
      double u = rng.uniform() * total;
      pick = V - 1;
      for (std::size_t v = 0; v < V; ++v) {
        if (u < p[v]) {
          pick = v;
          break;
        }
        u -= p[v];
      }
    }
    text.push_back(static_cast<char>(pick));
  }
  if (o.json) {
    nlohmann::ordered_json j{{"prompt", o.prompt}, {"text", text.substr(o.prompt.size())}, {"seed", o.seed},
                             {"temperature", o.temperature}};
    std::cout << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  } else {
    std::cout << text << "\n";
  }
  return kExitOk;
}

}  // namespace

Registration add_eval_command(CLI::App& app) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* cmd = app.add_subcommand("eval", "Loss and perplexity of a checkpoint on a text (forward only)");
  cmd->add_option("--checkpoint", o->checkpoint, "Run directory (or checkpoint file)");
  cmd->add_option("--from", o->from, "Parameters from a safetensors file (nltrain export) instead of --checkpoint");
  cmd->add_option("--data", o->data, "Text (or token ids) to evaluate on ('-': stdin; default: the run's training data)");
  cmd->add_option("--data-format", o->data_format, "bytes, u16 or u32, as nltrain train (default: the run's; bytes with --from)");
  cli_common::add_count_option(cmd, "--max-chunks", o->max_chunks, "Evaluate at most this many chunks");
  cmd->add_flag("--json", o->json, "Result as JSON");
  return {cmd, [o] { return run_eval(*o); }};
}

Registration add_generate_command(CLI::App& app) {
  auto o = std::make_shared<GenerateOptions>();
  CLI::App* cmd = app.add_subcommand("generate", "Sample text from a checkpoint, byte by byte (seeded, deterministic)");
  cmd->add_option("--checkpoint", o->checkpoint, "Run directory (or checkpoint file)");
  cmd->add_option("--from", o->from, "Parameters from a safetensors file (nltrain export) instead of --checkpoint");
  cmd->add_option("--prompt", o->prompt, "Text to continue")->required();
  cli_common::add_count_option(cmd, "--tokens", o->tokens, "Bytes to generate (default 200)");
  cli_common::add_count_option(cmd, "--seed", o->seed, "Sampling seed (default 1)");
  cmd->add_option("--temperature", o->temperature, "Sampling temperature (default 0.8; 0: greedy)");
  cmd->add_flag("--json", o->json, "Result as JSON");
  return {cmd, [o] { return run_generate(*o); }};
}

}  // namespace nltrain::cli
