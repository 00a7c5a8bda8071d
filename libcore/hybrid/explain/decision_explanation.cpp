#include "hybrid/explain/decision_explanation.hpp"

#include "hybrid/explain/decision_factors.hpp"
#include "hybrid/explain/representative_entry.hpp"

namespace hybrid {

namespace {

// What the evidence row says about choosing the CPU, no more than its numbers carry: a CPU row
// with firm confidence supports "reliable"; anything else (few observations, failures, or the
// GPU's row) is quoted as counts and the CPU is named for what it is then, the default.
std::string evidence_sentence(std::uint32_t successes, std::uint32_t episodes, const std::string& row,
                              float confidence) {
  const std::string counts = std::to_string(successes) + " of " + std::to_string(episodes) + " " + row +
                             " observations in this context succeeded";
  if (row == "CPU" && confidence >= kFirmConfidence) {
    return "Historical data indicates CPU is reliable under the current memory pressure: " + counts + ".";
  }
  return "Only " + counts + ", so CPU is chosen as the default, not for a proven record.";
}

}  // namespace

std::optional<DecisionExplanation> explain_decision(const SelfTrainer& trainer,
                                                    const LearningContextSnapshot& context) {
  const LearningSnapshot snap = learning_snapshot(trainer);
  const auto chosen = representative_entry(snap, context);
  if (!chosen) return std::nullopt;

  DecisionExplanation out;
  out.context = context;
  // The decision is the trainer's own for this bucket, never a policy of the explainer.
  out.recommended_backend = trainer.recommend_for_bucket(to_bucket(context));
  const auto& s = chosen->stats;
  out.confidence = observation_confidence(s.successes, s.episodes);
  const std::string row(display_name(chosen->backend));

  if (out.recommended_backend == BackendChoice::gpu) {
    out.explanation = "GPU was selected because GPU execution in this context has been observed " +
                      std::to_string(s.episodes) + " times, with " + std::to_string(s.successes) +
                      " successful executions and " +
                      (s.drift_events == 0 ? std::string("no drift")
                                           : "drift in " + std::to_string(s.drift_events)) +
                      (out.confidence >= kFirmConfidence
                           ? ". Historical performance favors GPU execution under similar memory conditions."
                           : ". That is too few observations for a firm conclusion; the choice is tentative.");
  } else {
    // Rejecting the GPU is explained by the GPU row's drift, when there is one, with its numbers.
    const auto gpu = trainer.stats_for_bucket(to_bucket(context), BackendChoice::gpu);
    const bool gpu_drifted = gpu && gpu->drift_count > 0;
    out.explanation = std::string("CPU was selected because ") +
                      (gpu_drifted ? "GPU execution in this context drifted in " + std::to_string(gpu->drift_count) +
                                         " of " + std::to_string(gpu->count) + " episodes"
                                   : std::string("historical data does not strongly favor GPU")) +
                      ". " + evidence_sentence(s.successes, s.episodes, row, out.confidence);
  }
  return out;
}

}  // namespace hybrid
