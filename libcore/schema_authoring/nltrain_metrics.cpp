// The line nltrain train writes per step to --metrics (JSON Lines), nltrain-metrics v0.1.0.
// Only what the run computes is at the top level, so a seeded run's metrics are the same bytes
// every time; the wall-clock fields exist only when asked for (--metrics-timing), nested in
// "timing", so a reader never mistakes them for part of the result.
#include "schema_authoring/families.hpp"

namespace schema_authoring {
namespace {

SchemaDocument metrics_line() {
  Node timing = object()
                    .field("tokens_per_s", number().min(0).describe("tokens trained per wall-clock second since the start"))
                    .field("elapsed_s", number().min(0).describe("wall-clock seconds since the start, to the millisecond"))
                    .closed()
                    .ordered();
  // Only under --memory-budget (so an unbudgeted run's lines are the bytes they always were): the
  // step's spill traffic. The counts are the same every run; the seconds only with --metrics-timing.
  Node memory = object()
                    .field("budget_bytes", integer().min(1).describe("the --memory-budget, in bytes"))
                    .field("spilled_bytes", integer().min(0).describe("bytes of the rules' saved state moved out of RAM in this step"))
                    .field("restored_bytes", integer().min(0).describe("bytes moved back for the backward pass"))
                    .field("stored_bytes", integer().min(0).describe("what the spilled state took on disk, after the codec"))
                    .field("peak_resident_bytes", integer().min(0).describe("the most saved-state bytes in RAM at once"))
                    // Optional: lines written before nltrain said where its spills went lack them.
                    .optional("tier", string().pattern("^[a-z0-9][a-z0-9_-]{0,31}$").describe(
                                       "the label of the tier the spills go to (--spill-tier; \"ssd\": RUN/spill)"))
                    .optional("codec", one_of_values({"zstd", "none"}).describe("the codec the spills are written with"))
                    .optional("learned", boolean().describe("true when --placement-table chose the tier and codec, false for "
                                                         "the default (the first --spill-tier, --spill-codec)"))
                    .optional("write_s", number().min(0).describe("seconds spent writing spills (--metrics-timing only)"))
                    .optional("read_s", number().min(0).describe("seconds spent reading them back (--metrics-timing only)"))
                    .closed()
                    .ordered();
  Node root = object()
                  .field("step", integer().min(0).describe("0-based step of the run"))
                  .field("loss", number().describe("the fp32 loss, shortest decimal that reads back to it"))
                  .field("grad_norm", number().min(0).describe("global gradient norm before clipping"))
                  .field("lr", number().min(0).describe("the learning rate of the step"))
                  .optional("timing", timing.describe("wall-clock fields: only with --metrics-timing"))
                  .optional("memory", memory.describe("the memory budget's cost: only with --memory-budget"))
                  .closed()
                  .ordered();
  SchemaDocument doc("nltrain-metrics", "0.1.0", std::move(root));
  doc.title("nltrain metrics line")
      .summary("One line of nltrain train --metrics: the step, its loss, gradient norm and learning rate; with "
               "--metrics-timing also a timing object (tokens per second, elapsed seconds); with --memory-budget a memory object "
               "(the step's spill traffic, and the tier and codec it went to).");
  return doc;
}

}  // namespace

std::vector<SchemaDocument> nltrain_metrics_schemas() { return {metrics_line()}; }

}  // namespace schema_authoring
