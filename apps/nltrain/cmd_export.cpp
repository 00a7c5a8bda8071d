// nltrain export: a run's parameters (and, with --optimizer, its AdamW moments) as a
// safetensors file (tensor_file.hpp).
#include <memory>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "common/file_system.hpp"
#include "run_dir.hpp"
#include "tensor_file.hpp"

namespace nltrain::cli {
namespace {

struct ExportOptions {
  std::string run, to;
  bool optimizer = false, force = false;
};

int run_export(const ExportOptions& o) {
  if (o.to.empty()) return report(common::Error::invalid_argument("--to: must not be empty"));
  if (o.to != "-" && !o.force && common::real_file_system().exists(o.to)) {
    return report(common::Error::io("--to: " + o.to + " exists; use --force to replace it"));
  }
  std::string bytes;
  if (o.run.ends_with(".safetensors")) {  // rewritten in nltrain's own layout (checked strictly)
    auto f = load_tensor_file(o.run);
    if (!f.ok()) return report(f.error());
    if (o.optimizer && !f->adam_m) {
      return report(common::Error::invalid_argument("--optimizer: " + o.run + " holds no adam_m/ and adam_v/ tensors"));
    }
    bytes = encode_tensor_file(f->cfg, f->params, o.optimizer ? &*f->adam_m : nullptr, o.optimizer ? &*f->adam_v : nullptr,
                               f->step);
  } else {
    auto ck = load_checkpoint(o.run);
    if (!ck.ok()) return report(ck.error());
    const nl::TrainerState& s = ck->state;
    bytes = encode_tensor_file(s.cfg, s.params, o.optimizer ? &s.adam.m : nullptr, o.optimizer ? &s.adam.v : nullptr, s.step);
  }
  if (common::Status w = write_output(o.to, bytes); !w.ok()) return report(w.error());
  return kExitOk;
}

}  // namespace

Registration add_export_command(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand("export", "Write a run's parameters as a safetensors file (F32, named as in the JSON state)");
  cmd->add_option("RUN", o->run, "Run directory, checkpoint file, or a .safetensors file to rewrite")->required();
  cmd->add_option("--to", o->to, "Output .safetensors file ('-': stdout)")->required();
  cmd->add_flag("--optimizer", o->optimizer, "Also the AdamW moments, as adam_m/<name> and adam_v/<name>");
  cmd->add_flag("--force", o->force, "Replace an existing --to file");
  return {cmd, [o] { return run_export(*o); }};
}

}  // namespace nltrain::cli
