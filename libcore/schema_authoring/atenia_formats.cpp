// atenia's wire formats (apps/atenia, formats of libcore/hybrid), v0.1.0: the inputs (the
// simulate scenario, the hardware snapshot, a learning episode, the checkpoint tensor list)
// and the --json outputs of place, learn, simulate (one record per line), checkpoint inspect.
// atenia's own readers are stricter where a value depends on another (ids that must exist,
// ram_low <= ram_high); a null is "unknown" wherever it is allowed.
#include "schema_authoring/families.hpp"

namespace schema_authoring {
namespace {

Node count() { return integer().min(0); }
Node unit() { return number().min(0).max(1); }
Node nullable(Node n) { return anything().any_of({std::move(n), constant(nullptr)}); }
Node tier() { return one_of_values({"ram", "ssd", "vram", "cpu"}); }
// Measured rates: bounded so that no modelled duration is zero-divided or overflows.
Node gb_s() { return number().min(0.001).max(1e6); }
Node gflops() { return number().min(0.001).max(1e9); }

SchemaDocument make(std::string_view name, Node root, std::string_view title, std::string_view summary) {
  SchemaDocument doc(std::string(name), "0.1.0", std::move(root));
  doc.title(std::string(title)).summary(std::string(summary));
  return doc;
}

SchemaDocument scenario() {
  Node tensor = object().field("id", string().non_empty()).field("bytes", count().max(67108864)).field("tier", tier()).closed().ordered();
  Node node = object()
                  .field("name", string().non_empty())
                  .field("kind", one_of_values({"compute_heavy", "memory_bound", "small", "serial"}))
                  .field("flops", count())
                  .field("bytes", count())
                  .field("tensors", array(string().non_empty()))
                  .closed()
                  .ordered();
  Node status = object().optional("pressure", unit()).optional("total_bytes", count()).optional("free_bytes", count()).closed();
  Node tick = object().optional("vram", status).optional("ram", status).optional("ssd", status).closed();
  Node offload = object()
                     .optional("vram_high", unit())
                     .optional("vram_low", unit())
                     .optional("ram_high", unit())
                     .optional("ram_low", unit())
                     .optional("cooldown_ticks", count())
                     .optional("max_actions_per_tick", count())
                     .closed();
  Node root = object()
                  .field("gpu_available", boolean())
                  .optional("advanced_streams", boolean())
                  .optional("offload", offload)
                  .field("tensors", array(tensor))
                  .field("nodes", array(node))
                  .field("ticks", array(tick))
                  .closed()
                  .ordered();
  return make("atenia-scenario", std::move(root), "atenia simulate scenario",
              "Tensors with their sizes and first tiers, graph nodes, and one memory snapshot per tick.");
}

SchemaDocument snapshot() {
  Node gpu = object()
                 .field("id", string().non_empty())
                 .optional("backend", one_of_values({"cpu", "cuda", "rocm", "metal", "oneapi", "vulkan", "unknown"}))
                 .field("vram_total_bytes", count())
                 .field("vram_free_bytes", count())
                 .optional("bandwidth_gbps_est", nullable(gb_s()))
                 .optional("compute_score_est", nullable(number().min(0).max(1e9)))
                 .optional("gflops_est", nullable(gflops()))
                 .optional("h2d_gb_s_est", nullable(gb_s().describe("RAM -> VRAM copies, GB/s")))
                 .optional("d2h_gb_s_est", nullable(gb_s().describe("VRAM -> RAM copies, GB/s")))
                 .optional("launch_us_est", nullable(number().min(0).max(1e9).describe("per-kernel launch latency, microseconds")))
                 .closed()
                 .ordered();
  Node reliability = object()
                         .optional("ok_count", count())
                         .optional("fail_count", count())
                         .optional("last_error", nullable(string()))
                         .optional("last_error_epoch_ms", nullable(count()))
                         .closed();
  Node root =
      object()
          .optional("timestamp_epoch_ms", count())
          .optional("cpu", object()
                               .optional("physical_cores", count())
                               .optional("logical_cores", count())
                               .optional("simd", array(string()))
                               .optional("gflops_est", nullable(gflops()))
                               .optional("mem_gb_s_est", nullable(gb_s()))
                               .closed())
          .optional("gpus", array(gpu))
          .optional("ram", object().optional("total_bytes", count()).optional("free_bytes", count()).closed())
          .optional("ssd", object()
                               .optional("cache_dir", string())
                               .optional("read_mb_s_est", nullable(number().min(0.001).max(1e9)))
                               .optional("write_mb_s_est", nullable(number().min(0.001).max(1e9)))
                               .optional("latency_ms_est", nullable(number().min(0).max(1e9)))
                               .optional("fs_total_bytes", nullable(count()))
                               .optional("fs_free_bytes", nullable(count()))
                               .closed())
          .optional("reliability_by_device", map_of(reliability))
          .optional("pressure",
                    object().optional("ram_pressure", nullable(unit())).optional("vram_pressure", nullable(unit())).closed())
          .closed()
          .ordered();
  return make("atenia-snapshot", std::move(root), "atenia hardware snapshot",
              "What `atenia profile --json` prints and `atenia place --snapshot` reads; every part optional on input.");
}

SchemaDocument episode() {
  Node root = object()
                  .optional("id", string().non_empty().describe("makes learning idempotent across files"))
                  .field("gpu_available", boolean())
                  .field("vram_pressure", unit())
                  .field("ram_pressure", unit())
                  .field("backend", one_of_values({"cpu", "gpu"}))
                  .field("success", boolean())
                  .field("score", integer().min(-2147483648).max(2147483647))
                  .field("had_drift", boolean())
                  .closed()
                  .ordered();
  return make("atenia-episode", std::move(root), "atenia learning episode", "One line of the JSONL file `atenia learn` reads.");
}

// v0.2.0: a record is either v0.1.0's backend episode or a spill placement with what it measured
// (nltrain train --episodes); the first has no "decision", the second requires it.
SchemaDocument episode_v2(const SchemaDocument& v1) {
  SchemaDocument doc = v1.next("0.2.0", "Adds the spill placement episode (\"decision\": \"spill\"); v0.1.0 records are unchanged.");
  Node bytes = count();
  Node seconds = number().min(0);
  Node spill = object()
                   .optional("id", string().non_empty().describe("makes learning idempotent across files"))
                   .field("decision", constant("spill"))
                   .field("ram_pressure", unit().describe("the machine's RAM pressure when the run started"))
                   .field("tier", string().non_empty().describe("the tier's label: 1..32 of a-z 0-9 _ - (checked by atenia)"))
                   .field("codec", one_of_values({"zstd", "none"}))
                   .field("spilled_bytes", bytes.describe("moved out to the tier, all steps"))
                   .field("restored_bytes", count().describe("moved back"))
                   .field("stored_bytes", count().describe("what the tier held after the codec"))
                   .field("write_s", seconds.describe("seconds writing"))
                   .field("read_s", number().min(0).describe("seconds reading back"))
                   .field("score", integer().min(0).max(2147483647).describe(
                                       "KiB/s: (spilled_bytes + restored_bytes) / 2^10 / (write_s + read_s), rounded"))
                   .closed()
                   .ordered();
  Node backend = doc.root();  // v0.1.0's record, as it was
  doc.root() = anything().one_of({std::move(backend), std::move(spill)});
  doc.summary("One line of the JSONL file `atenia learn` reads: a CPU/GPU episode or a spill placement episode.");
  return doc;
}

SchemaDocument tensors() {
  Node t = object()
               .field("id", string().non_empty().describe("at most 150 bytes, no '/', '\\' or control characters (checked by atenia)"))
               .field("bytes", count().max(67108864))
               .field("tier", tier())
               .optional("grad", boolean())
               .optional("desired_tier", tier())
               .optional("plan_summary", string())
               .closed()
               .ordered();
  return make("atenia-tensors", object().field("tensors", array(t)).closed(), "atenia checkpoint tensor list",
              "The generated tensors `atenia checkpoint save --tensors` stores.");
}

Node tier_capacity() {
  return object()
      .field("free_bytes", nullable(count()))
      .field("total_bytes", nullable(count()))
      .field("pressure_after", nullable(number().min(0)))
      .field("fits", boolean())
      .closed()
      .ordered();
}

SchemaDocument place_result() {
  Node root = object()
                  .field("bytes", count())
                  .field("target", one_of_values({"vram", "ram", "ssd", "none"}))
                  .field("device_id", nullable(string()))
                  .field("reason", string().non_empty())
                  .field("compute_heavy", boolean())
                  .field("vram", nullable(tier_capacity()))
                  .field("ram", tier_capacity())
                  .field("ssd", tier_capacity())
                  .closed()
                  .ordered();
  return make("atenia-place-result", std::move(root), "atenia place --json", "Where a tensor of the given size should live, and why.");
}

SchemaDocument learn_result() {
  Node root = object()
                  .field("episodes", count())
                  .field("new", count())
                  .field("already_learned", count())
                  .field("rows", count())
                  .field("table", string())
                  .closed()
                  .ordered();
  return make("atenia-learn-result", std::move(root), "atenia learn --json", "How many episodes were read, and how many were new.");
}

SchemaDocument simulate_record() {
  Node placement = object()
                       .field("node", count())
                       .field("name", nullable(string()))
                       .field("target", one_of_values({"Cpu", "Gpu", "CpuFallback"}))
                       .field("reason", string())
                       .closed()
                       .ordered();
  Node plan = object().field("tick", count()).field("summary", string()).field("placements", array(placement)).closed().ordered();
  Node final_tier = object().field("id", string()).field("tier", one_of_values({"ram", "ssd", "vram", "cpu", "none"})).field("bytes", count()).closed().ordered();
  Node moved = object().field("from", tier()).field("to", tier()).field("bytes", count()).closed().ordered();
  Node fin = object().field("final_tiers", array(final_tier)).field("bytes_moved", array(moved)).closed().ordered();
  Node rate = object()
                  .field("name", one_of_values({"cpu_flops", "cpu_mem", "gpu_flops", "gpu_mem", "ram_to_vram", "vram_to_ram",
                                                "ram_to_ssd", "ssd_to_ram", "ssd_latency", "gpu_launch"}))
                  .field("value", number().min(0))
                  .field("unit", one_of_values({"flop/s", "B/s", "us"}))
                  .field("source", one_of_values({"profiled", "snapshot", "default"}))
                  .field("field", string().describe("the snapshot field (JSON pointer) that holds the rate, or would"))
                  .closed()
                  .ordered();
  Node task = object()
                  .field("tick", count())
                  .field("stream", nullable(one_of_values({"Cpu", "Gpu", "SsdPrefetch"})))
                  .field("device", one_of_values({"CPU", "GPU", "RAM<->VRAM", "RAM<->SSD"}))
                  .field("task", string())
                  .field("flops", count())
                  .field("bytes", count())
                  .field("rate", string().describe("the rate(s) that bounded the duration, joined by '+'"))
                  .field("start_us", number().min(0))
                  .field("dur_us", number().above(0))
                  .closed()
                  .ordered();
  Node timing = object().field("rates", array(rate)).field("tasks", array(task)).field("total_us", number().min(0)).closed().ordered();
  return make("atenia-simulate-record", anything().one_of({plan, timing, fin}), "atenia simulate --json",
              "One line: a tick's plan, then the rates and modelled task times, then (last) every tensor's final tier and "
              "the bytes moved per direction.");
}

SchemaDocument inspect_result() {
  Node entry = object()
                   .field("id", string())
                   .field("is_grad", boolean())
                   .field("tier", tier())
                   .field("len", count())
                   .field("cache_kind", nullable(one_of_values({"tensor", "gradient", "kernel_meta"})))
                   .field("cache_key", nullable(string()))
                   .field("desired_tier", nullable(tier()))
                   .field("plan_summary", nullable(string()))
                   .field("blob", string())
                   .optional("dtype", string().describe("the tensor's dtype in the file it was saved from (--from)"))
                   .optional("shape", array(count()).describe("its shape there"))
                   .field("drift", array(string()).describe("what a restore on this host would not honour (13.9.2), one "
                                                            "item per drift: missing_backend(...), tier_downgrade(...), "
                                                            "plan_mismatch(...)"))
                   .closed()
                   .ordered();
  Node root = object()
                  .field("version", count())
                  .field("created_unix", count())
                  .field("entries", array(entry))
                  .field("bad_blobs", count())
                  .closed()
                  .ordered();
  return make("atenia-checkpoint-inspect", std::move(root), "atenia checkpoint inspect --json",
              "The manifest's entries, each with the verdict of its blob's verification, its dtype and shape when it came "
              "from a tensor file, and its drift.");
}

Node context() {
  return object()
      .field("gpu_available", boolean())
      .field("vram_band", integer().min(0).max(3))
      .field("ram_band", integer().min(0).max(3))
      .closed()
      .ordered();
}

SchemaDocument stats_result() {
  Node entry = object()
                   .field("gpu_available", boolean())
                   .field("vram_band", integer().min(0).max(3))
                   .field("ram_band", integer().min(0).max(3))
                   .field("backend", one_of_values({"cpu", "gpu"}))
                   .field("recommended_backend", one_of_values({"CPU", "GPU"}))
                   .field("episodes", count())
                   .field("successes", count())
                   .field("drift_events", count())
                   .field("average_score", number())
                   .closed()
                   .ordered();
  Node summary = object()
                     .field("total_entries", count())
                     .field("total_episodes", count())
                     .field("gpu_preference_ratio", unit())
                     .closed()
                     .ordered();
  return make("atenia-stats-result", object().field("entries", array(entry)).field("summary", summary).closed().ordered(),
              "atenia stats --json", "The learning snapshot of a table: one entry per context and backend, and a summary.");
}

SchemaDocument explain_result() {
  Node none = object()
                  .field("context", context())
                  .field("learned", constant(false))
                  .field("message", string())
                  .closed()
                  .ordered();
  Node factor = object()
                    .field("kind", one_of_values({"historical_success_rate", "drift_penalty", "observation_count",
                                                  "memory_stability"}))
                    .field("weight", unit())
                    .field("description", string())
                    .closed()
                    .ordered();
  Node learned = object()
                     .field("context", context())
                     .field("learned", constant(true))
                     .field("recommended_backend", one_of_values({"CPU", "GPU"}))
                     .field("confidence", unit().describe("lower bound of the 95% Wilson interval of the success rate"))
                     .field("explanation", string())
                     .field("factors", array(factor))
                     .field("narrative", string())
                     .closed()
                     .ordered();
  return make("atenia-explain-result", anything().one_of({none, learned}), "atenia explain --json",
              "The learned backend choice for one context, its confidence and the account of it.");
}

// v0.2.0: adds the answers of `atenia explain --spill` (both with "decision": "spill").
SchemaDocument explain_result_v2(const SchemaDocument& v1) {
  SchemaDocument doc = v1.next("0.2.0", "Adds the spill placement answers of `atenia explain --spill` (\"decision\": \"spill\").");
  Node context = object().field("ram_band", integer().min(0).max(3)).closed().ordered();
  Node none = object()
                  .field("context", context)
                  .field("decision", constant("spill"))
                  .field("learned", constant(false))
                  .field("message", string())
                  .closed()
                  .ordered();
  Node evidence = object()
                      .field("tier", string().non_empty())
                      .field("codec", one_of_values({"zstd", "none"}))
                      .field("runs", count().min(1))
                      .field("kib_per_s", integer().describe("the runs' mean KiB/s (integer division)"))
                      .field("moved_bytes", count())
                      .closed()
                      .ordered();
  Node learned = object()
                     .field("context", context)
                     .field("decision", constant("spill"))
                     .field("learned", constant(true))
                     .field("recommended_tier", string().non_empty())
                     .field("recommended_codec", one_of_values({"zstd", "none"}))
                     .field("kib_per_s", integer())
                     .field("runs", count().min(1))
                     .field("evidence", array(evidence).describe("every learned choice of the band, fastest first"))
                     .field("explanation", string())
                     .closed()
                     .ordered();
  Node backend = doc.root();  // v0.1.0's two answers, as they were
  doc.root() = anything().one_of({std::move(backend), std::move(none), std::move(learned)});
  doc.summary("The learned backend choice for one context, or the learned spill tier and codec for a RAM band, with the account of it.");
  return doc;
}

Node manifest_entry() {
  return object()
      .field("id", string())
      .field("is_grad", boolean())
      .field("tier", tier())
      .field("len", count())
      .field("cache_kind", nullable(one_of_values({"tensor", "gradient", "kernel_meta"})))
      .field("cache_key", nullable(string()))
      .field("desired_tier", nullable(tier()))
      .field("plan_summary", nullable(string()))
      .closed()
      .ordered();
}

SchemaDocument save_result() {
  return make("atenia-checkpoint-save", object().field("manifest", string()).field("entries", array(manifest_entry())).closed().ordered(),
              "atenia checkpoint save --json", "The manifest written and its entries.");
}

SchemaDocument restore_result() {
  Node entry = object()
                   .field("id", string())
                   .field("restored_tier", one_of_values({"ram", "ssd", "vram", "cpu", "none"}))
                   .field("len", count())
                   .field("state", one_of_values({"loaded", "lazy", "not_restored"}))
                   .closed()
                   .ordered();
  Node decision = object().field("id", string()).field("action", string()).field("reason", string()).closed().ordered();
  Node root = object()
                  .field("entries", array(entry))
                  .field("drift", array(string()))
                  .field("warm_start", array(decision))
                  .field("summary", string())
                  .field("written", array(string()).describe("files written back with --out"))
                  .closed()
                  .ordered();
  return make("atenia-checkpoint-restore", std::move(root), "atenia checkpoint restore --json",
              "What came back, the drift reports, the warm-start plan and the files written back.");
}

}  // namespace

std::vector<SchemaDocument> atenia_schemas() {
  const SchemaDocument episode_v1 = episode(), explain_v1 = explain_result();
  return {scenario(),        snapshot(),       episode_v1,     episode_v2(episode_v1), tensors(),
          place_result(),    learn_result(),   simulate_record(), inspect_result(),    stats_result(),
          explain_v1,        explain_result_v2(explain_v1), save_result(), restore_result()};
}

}  // namespace schema_authoring
