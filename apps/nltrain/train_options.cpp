// nltrain train's command line (the options; cmd_train.cpp runs them).
#include "cli_common/count_option.hpp"
#include "cli_common/path_option.hpp"
#include "commands.hpp"
#include "device_option.hpp"
#include "train_options.hpp"

namespace nltrain::cli {

Registration add_train_command(CLI::App& app) {
  auto o = std::make_shared<TrainOptions>();
  CLI::App* cmd = app.add_subcommand("train", "Train on a text file (or the embedded corpus), with checkpoints and resume");
  add_config_flags(cmd, o->flags);
  cli_common::add_count_option(cmd, "--steps", o->flags.steps, "Total training steps of the run (default 1000)");
  cmd->add_option("--lr", o->flags.lr, "Peak learning rate (default 3e-3)");
  cli_common::add_count_option(cmd, "--warmup", o->flags.warmup, "Warm-up steps (default 20)");
  cmd->add_option("--data", o->data.path, "Training data (bytes of text are tokens, or token ids: --data-format; '-': stdin; default: the embedded corpus)");
  cmd->add_option("--data-format", o->data.format,
                  "bytes (default: every byte a token), u16 or u32 (little-endian token ids, each below --vocab); "
                  "--resume keeps the run's");
  cli_common::add_path_option(cmd, "--out", o->out, "Run directory for checkpoints (default nltrain-run)");
  cmd->add_option("--resume", o->resume, "Continue the run saved in this directory");
  cmd->add_option("--from", o->from, "Start a new run from the parameters and configuration of a safetensors file (nltrain export)");
  cmd->add_option("--metrics", o->metrics,
                  "Write one JSON line per step to this file ('-': stdout): step, loss, grad_norm, lr "
                  "(schemas/nltrain-metrics.v0.1.0.json; the same bytes for the same run)");
  cmd->add_flag("--metrics-timing", o->metrics_timing,
                "Add the wall clock to each metrics line: \"timing\": {tokens_per_s, elapsed_s}");
  cmd->add_option("--trace-out", o->trace_out,
                  "Write a Chrome trace (Perfetto) of each step's phases, one track per batch stream and per device; "
                  "timing only, the training is the same bits");
  cmd->add_option("--receipts", o->receipts.path,
                  "Write a step receipt per audited step to this file ('-': stdout) for bp verify nltrain "
                  "(schemas/tensor-step.v0.1.0.json)");
  cli_common::add_count_option(cmd, "--receipt-every", o->receipts.every, "Audit every N-th step (default 1: every step)");
  cmd->add_flag("--compact-receipts", o->receipts.compact,
                "Receipts name the tokens by offset and the tensors after the step by SHA-256 only (bp verify nltrain --data)");
  cli_common::add_count_option(cmd, "--checkpoint-every", o->checkpoint_every, "Steps between checkpoints (default 100)");
  cli_common::add_count_option(cmd, "--batch", o->batch,
                               "Sequences per step, one from each of B contiguous streams of the data, gradient averaged "
                               "(default 1; --resume keeps the run's)");
  cli_common::add_count_option(cmd, "--threads", o->threads,
                               "Threads for a batch's sequences (default: the cores available; the results do not depend on it)");
  cli_common::add_byte_count_option(cmd, "--memory-budget", o->memory_budget,
                                    "RAM for the rules' saved state between forward and backward (bytes; K, M, G, T: 2^10..2^40); "
                                    "above it caches go to RUN/spill and back, with the same results");
  CLI::Option* codec = cmd->add_option("--spill-codec", o->spill_codec,
                                       "How --memory-budget's blobs are written: zstd (shuffled, level 1; the default) or none (raw: "
                                       "for a CPU slower than the disk)")
                            ->check(CLI::IsMember({"zstd", "none"}));
  cmd->add_option("--spill-tier", o->spill_tiers,
                  "LABEL=DIR: a storage tier --memory-budget may spill to (repeatable; the first is the default; "
                  "none: one tier \"ssd\", RUN/spill)");
  cmd->add_option("--placement-table", o->placement_table,
                  "A table learnt by atenia learn from --episodes: spill to the tier and codec it found fastest on this "
                  "machine's RAM band, among the tiers named (no learned choice: the default)");
  cmd->add_option("--episodes", o->episodes,
                  "Append the run's spill placement and its measured throughput to this JSONL file, one atenia episode "
                  "per run (schemas/atenia-episode.v0.2.0.json; for atenia learn)");
  cmd->add_flag("--fp64", o->fp64,
                "Train in binary64: parameters, AdamW moments, error buffers and contexts, the gradient by the hand-written "
                "backward (no MPI, no --memory-budget); --resume must restate it");
  cmd->add_option("--device", o->device, kDeviceHelp);
  cli_common::add_count_option(cmd, "--stop-at", o->stop_at, "Stop (with a checkpoint) at this step; the schedule still spans --steps");
  cmd->add_flag("--force", o->force, "Replace a checkpoint already in --out");
  cmd->add_flag("--quiet", o->quiet, "No progress output");
  cmd->add_flag("--json", o->json, "Summary as JSON");
  return {cmd, [o, codec] {
            o->spill_codec_given = codec->count() > 0;
            o->receipts.device = receipt_device(o->device);
            return run_train(*o);
          }};
}

}  // namespace nltrain::cli
