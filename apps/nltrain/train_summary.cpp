#include "train_summary.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace nltrain::cli {
namespace {

double outside_share(const TrainSummary& s) { return s.outside_s / std::max(s.model_s + s.outside_s, 1e-12); }

}  // namespace

std::string summary_json(const TrainSummary& s) {
  const bool trained = s.status != TrainSummary::Status::complete;
  nlohmann::ordered_json j{{"status", s.status == TrainSummary::Status::trained       ? "trained"
                                      : s.status == TrainSummary::Status::interrupted ? "interrupted"
                                                                                      : "complete"},
                           {"steps", s.step - s.first},
                           {"step", s.step},
                           {"first_loss", trained ? float_json(s.first_loss) : nullptr},
                           {"last_loss", trained ? float_json(s.last_loss) : nullptr},
                           {"checkpoint", s.checkpoint}};
  if (trained) {
    j["timing"] = {{"tokens_per_s", s.tokens_per_s},
                   {"model_s", s.model_s},
                   {"outside_s", s.outside_s},
                   {"outside_share", outside_share(s)}};
  }
  return j.dump() + "\n";
}

std::string summary_text(const TrainSummary& s, const nl::MagConfig& cfg) {
  switch (s.status) {
    case TrainSummary::Status::complete:
      return "the run in " + s.out + " is complete (" + std::to_string(s.planned) + " steps); nothing to do\n";
    case TrainSummary::Status::interrupted:
      return "interrupted at step " + std::to_string(s.step) + ": checkpoint saved in " + s.out +
             " (continue with: nltrain train --resume " + s.out + ")\n";
    case TrainSummary::Status::trained: break;
  }
  // The vocab is named only when it is not the bytes' 256 (the loss starts near its logarithm).
  const std::string vocab = cfg.vocab == kByteVocab ? "" : ", vocab " + std::to_string(cfg.vocab);
  return fmt::format("trained steps {}..{} of {} ({} rule, K={}{}, d={}{}): loss {:.4f} -> {:.4f}, {:.0f} tokens/s, {:.1f}% of the "
                     "time outside the model; checkpoint {}\n",
                     s.first, s.step, s.planned, short_rule_name(cfg.rule), cfg.levels(), cfg.learned_schedule() ? " learned schedule" : "",
                     cfg.d, vocab, s.first_loss, s.last_loss, s.tokens_per_s, 100 * outside_share(s), s.checkpoint);
}

std::string step_failed_line(std::uint64_t n, const nl::StepError& e, std::optional<std::uint64_t> saved, const std::string& out) {
  const std::string kept = saved ? "the last good checkpoint (after " + std::to_string(*saved) + " steps) in " + out + " is kept"
                                 : "no checkpoint was written";
  return "nltrain: step " + std::to_string(n) + ": " + (e.non_finite() ? "NaN or Inf in the loss or gradients (" : "step failed (") +
         common::excerpt(e.message()) + "); training stopped; " + kept + "\n";
}

}  // namespace nltrain::cli
