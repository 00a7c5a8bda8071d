// tensor_step: JSONL as nltrain's step receipts -> the receipt reader and bp verify nltrain's
// stream verifier. Invariants: neither throws; an accepted line re-emits to its own bytes (one
// spelling per receipt); errors are one line; the verdict is deterministic (two verifiers over
// the same stream agree failure for failure) and a receipt's verdict does not depend on being
// read alone or at the head of a stream (the first receipt carries its own state).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"
#include "nl_audit/verify.hpp"
#include "support/foreign_blas.hpp"

namespace fuzz {
namespace {

[[noreturn]] void broken(const char* invariant, const std::string& detail) {
  std::fprintf(stderr, "fuzz invariant broken: tensor_step: %s: %s\n", invariant, detail.c_str());
  std::abort();
}

std::vector<std::string> split_lines(std::string_view data) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < data.size() && out.size() < 16) {
    std::size_t end = data.find('\n', pos);
    if (end == std::string_view::npos) end = data.size();
    out.emplace_back(data.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

struct Verdict {
  std::string text;  // failures and the stopping error, one per line
  std::size_t accepted = 0;
};

// Receipts made with another BLAS than this machine's are checked as bp verify nltrain
// --cross-machine checks them: without it no seed would be accepted on such a machine.
nl_audit::VerifyOptions options_for(const std::vector<std::string>& lines) {
  nl_audit::VerifyOptions o;
  o.cross_machine = !lines.empty() && suite_test::made_with_another_blas(lines.front());
  return o;
}

Verdict run(const std::vector<std::string>& lines) {
  nl_audit::StreamVerifier v(options_for(lines));
  Verdict out;
  std::int64_t n = 0;
  for (const std::string& l : lines) {
    common::Status s = v.add(l, "fuzz", ++n);
    if (!s.ok()) {
      const std::string e = s.error().to_string();
      if (e.find('\n') != std::string::npos) broken("one-line error", e);
      out.text += "stop: " + e + "\n";
      break;
    }
    ++out.accepted;
  }
  for (const nl_audit::Failure& f : v.failures()) {
    out.text += std::to_string(f.rule) + " " + std::to_string(f.line) + " " + f.tensor + " " + f.message + "\n";
  }
  return out;
}

}  // namespace

Depth tensor_step_target(std::string_view data) {
  try {
    const std::vector<std::string> lines = split_lines(data);
    for (const std::string& l : lines) {
      auto r = nl_audit::read_receipt(l, "fuzz", 1);
      if (r.ok() && nl_audit::write_receipt(*r) != l) broken("canonical fixed point", l.substr(0, 80));
    }
    const Verdict a = run(lines), b = run(lines);
    if (a.text != b.text) broken("deterministic verdict", a.text + " | " + b.text);
    if (!lines.empty()) {
      const Verdict head = run({lines.front()});
      if ((head.accepted == 1) != (a.accepted >= 1)) broken("a receipt read alone and at the head of a stream", head.text);
    }
    if (a.accepted == 0) return Depth::parse_refused;
    return a.text.empty() ? Depth::accepted : Depth::later_refused;
  } catch (const std::exception& e) {
    broken("no exception", e.what());
  }
}

}  // namespace fuzz
