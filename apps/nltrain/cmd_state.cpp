// nltrain init / grads: the library's JSON state (nl/state_json.hpp) for checking gradients from
// outside: init writes one chunk's state, grads evaluates a state and writes the result.
#include <iostream>
#include <optional>

#include "cli_support.hpp"
#include "commands.hpp"
#include "cli_common/count_option.hpp"
#include "cli_common/path_option.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"
#include "corpus.hpp"
#include "input_text.hpp"
#include "nl/cms_backward.hpp"
#include "nl/state_json.hpp"

namespace nltrain::cli {
namespace {

struct InitOptions {
  ConfigFlags flags;
  std::string data, out;
  std::optional<std::string> data_format;
  std::uint64_t step = 0;
  std::uint64_t chunk = 0;
};

int run_init(const InitOptions& o) {
  if (o.flags.config_file == "-" && o.data == "-") return report(common::Error::malformed(kOneStdin));
  auto rc = build_run_config(o.flags);
  if (!rc.ok()) return report(rc.error());
  nl::TokenFormat format = nl::TokenFormat::bytes;
  if (o.data_format) {
    auto f = parse_data_format(*o.data_format);
    if (!f.ok()) return report(f.error());
    format = *f;
  }
  auto corpus = load_corpus(o.data, rc->model.seq_len, format, rc->model.vocab);
  if (!corpus.ok()) return report(corpus.error());
  const std::size_t n = corpus->chunks(rc->model.seq_len);
  if (o.chunk >= n) {
    return report(common::Error::invalid_argument("--chunk: " + std::to_string(o.chunk) + " is beyond the data's " +
                                                  std::to_string(n) + " chunks"));
  }
  nl::StateInput in;
  in.cfg = rc->model;
  in.params = nl::MagParams<float>::init(in.cfg);
  corpus->chunk(o.chunk, in.cfg.seq_len, in.ids, in.targets);
  in.step = o.step;
  if (common::Status s = write_output(o.out, nl::state_to_json(in).dump() + "\n"); !s.ok()) return report(s.error());
  return kExitOk;
}

struct GradsOptions {
  std::string state, out = "-";
  std::optional<std::uint64_t> step;
  bool fp64 = false, exact = false;
};

// The same chunk in double precision through the hand-written backward: exact (every number the
// binary64 value) or rounded to fp32 for the result format.
common::Result<std::string> evaluate_fp64(const nl::StateInput& in, bool exact) {
  nl::StateResult r;
  r.pulse = nl::Conductor(in.cfg.periods, in.step).pulse();
  const nl::ContextMemory<float> ctx32 = in.context ? *in.context : nl::ContextMemory<float>::initial(in.cfg);
  nl::ContextMemory<double> ctx;
  for (const auto& l : ctx32.levels) ctx.levels.emplace_back(l.begin(), l.end());
  const nl::MagParams<double> p = in.params.cast<double>();
  auto f = nl::cms_forward<double>(in.cfg, p, in.ids, in.targets, r.pulse, ctx);
  if (!f.ok()) return f.error();
  const nl::MagGradients<double> g = nl::cms_backward<double>(in.cfg, p, *f);
  if (exact) return nl::result_to_json_fp64(in.cfg, f->pulse, f->loss, g, f->context_after).dump() + "\n";
  r.loss = static_cast<float>(f->loss);
  r.gradients = g.params.cast<float>();
  for (const auto& e : g.error) {
    std::vector<double> flat = e.to_flat();
    const std::vector<float> f32(flat.begin(), flat.end());
    r.error.push_back(nl::LevelParams<float>::from_flat(f32, in.cfg.d, nl::has_omega(in.cfg.rule)).value());
  }
  for (const auto& l : f->context_after.levels) r.context_after.levels.emplace_back(l.begin(), l.end());
  r.pulse = f->pulse;
  return nl::result_to_json(in.cfg, r).dump() + "\n";
}

int run_grads(const GradsOptions& o) {
  auto text = read_input(o.state, common::kMaxJsonInputBytes);
  if (!text.ok()) return report(text.error());
  const std::string name = input_name(o.state);
  auto doc = common::parse_json_text(*text, {.file = name, .bom = common::BomPolicy::strip});
  if (!doc.ok()) return report(doc.error());
  auto in = nl::parse_state(*doc);
  if (!in.ok()) return report(in.error().at_file(name));
  if (o.step) in->step = *o.step;
  if (o.exact && !o.fp64) return report(common::Error::invalid_argument("--exact: only with --fp64 (the fp32 path's values are exact as written)"));
  auto evaluate = [&]() -> common::Result<std::string> {
    if (o.fp64) return evaluate_fp64(*in, o.exact);
    auto r = nl::evaluate_state(opaque_registry(), *in);
    if (!r.ok()) return r.error();
    return nl::result_to_json(in->cfg, *r).dump() + "\n";
  };
  const auto out = evaluate();
  if (!out.ok()) return report(out.error().at_file(name));
  if (common::Status s = write_output(o.out, *out); !s.ok()) return report(s.error());
  return kExitOk;
}

}  // namespace

Registration add_init_command(CLI::App& app) {
  auto o = std::make_shared<InitOptions>();
  CLI::App* cmd = app.add_subcommand("init", "Write a JSON state (configuration, initial parameters, one chunk) for external checks");
  add_config_flags(cmd, o->flags);
  cmd->add_option("--data", o->data, "Text (or token ids) the chunk is taken from ('-': stdin; default: the embedded corpus)");
  cmd->add_option("--data-format", o->data_format, "bytes (default), u16 or u32, as nltrain train");
  cli_common::add_count_option(cmd, "--chunk", o->chunk, "Which chunk of the text (default 0)");
  cli_common::add_count_option(cmd, "--step", o->step, "The conductor's step for the chunk (sets which levels are active; default 0)");
  cli_common::add_path_option(cmd, "--out", o->out, "Output file ('-': stdout)")->required();
  return {cmd, [o] { return run_init(*o); }};
}

Registration add_grads_command(CLI::App& app) {
  auto o = std::make_shared<GradsOptions>();
  CLI::App* cmd = app.add_subcommand("grads", "Evaluate a JSON state: loss, gradients, error buffers, context after");
  cmd->add_option("STATE", o->state, "State file (nltrain-state/0.1.0; '-': stdin)")->required();
  cli_common::add_count_option(cmd, "--step", o->step, "Override the state's step");
  cmd->add_flag("--fp64", o->fp64, "Evaluate in double precision (hand-written backward), rounded to fp32");
  cmd->add_flag("--exact", o->exact, "With --fp64: every number is the binary64 value itself, not its fp32 rounding");
  cli_common::add_path_option(cmd, "--out", o->out, "Output file (default '-': stdout)");
  return {cmd, [o] { return run_grads(*o); }};
}

}  // namespace nltrain::cli
