#!/usr/bin/env python3
"""bp's argument grammar: options anywhere, unknown flags, --color, help/version, unknown and
incomplete commands, missing and flag-like file arguments, commands named but not in this build.
The cases marked REF behave exactly as the reference; tests/compat/bp_cli_grammar.cmake replays
them against the reference CLI."""
import re
import sys

from bp_cli import Failures, bp_from_argv, expect, run, run_many

RERUN = "Run 'bp --help' for usage."
# libcore/build_info: the project's version, "+g<commit>" from a checkout, ".dirty" with changes.
VERSION = re.compile(r"1\.0\.0(\+g[0-9a-f]{12}(\.dirty)?)?\n")

# (name, args, exit, stdout or None, stderr or None, same-as-reference)
CASES = [
    # The suite's version, with the commit when built from a checkout (checked in main(); the
    # reference prints its package version alone).
    ("version", ["--version"], 0, None, "", False),
    ("version short", ["-v"], 0, None, "", False),
    ("unknown flag", ["--bogus"], 3, "",
     "bp: unrecognized flag \"--bogus\". Run 'bp --help' for the recognized options.\n", True),
    ("flag suggestion", ["--jsno"], 3, "",
     "bp: unrecognized flag \"--jsno\". Did you mean \"--json\"? Run 'bp --help' for the recognized options.\n"
     "Hint: did you mean --json?\n", True),
    ("flag suggestion with value", ["generate", "mazur", "--colr=never"], 3, "",
     "bp: unrecognized flag \"--colr=never\". Did you mean \"--color\"? Run 'bp --help' for the recognized "
     "options.\nHint: did you mean --color?\n", True),
    ("unknown flag json", ["--json", "--bogus"], 3,
     "{\"ok\":false,\"error\":{\"code\":\"INVALID_FLAG\",\"message\":\"unrecognized flag \\\"--bogus\\\". Run "
     "'bp --help' for the recognized options.\"}}\n", "", True),
    ("bad color ignores json", ["--color=purple", "--json", "generate", "mazur"], 3, "",
     "bp: invalid value for --color: 'purple'. Expected 'auto', 'never', or 'always'.\n", True),
    ("command suggestion", ["gen"], 2, "",
     "bp: unknown command 'gen'. Did you mean 'bp generate mazur | xor | iris | from-config <file>'? " + RERUN + "\n",
     True),
    ("command typo", ["verfiy"], 2, "",
     "bp: unknown command 'verfiy'. Did you mean 'bp verify mazur | general <file> | multi <file.jsonl>'? "
     + RERUN + "\n", True),
    ("longest prefix", ["validate-inp"], 2, "",
     "bp: unknown command 'validate-inp'. Did you mean 'bp validate-input <file>'? " + RERUN + "\n", True),
    ("unknown command json", ["--json", "zzzzzzzzzz"], 2,
     "{\"ok\":false,\"error\":{\"code\":\"USAGE\",\"message\":\"unknown command 'zzzzzzzzzz'. " + RERUN + "\"}}\n",
     "", True),
    ("generate incomplete", ["generate"], 2, "",
     "bp: incomplete command 'generate'. Did you mean 'bp generate mazur', 'bp generate xor', 'bp generate iris', "
     "or 'bp generate from-config <file>'? " + RERUN + "\n", True),
    ("generate subnoun suggestion", ["generate", "maz"], 2, "",
     "bp: unknown subcommand 'generate maz'. Did you mean 'bp generate mazur'? " + RERUN + "\n", True),
    # Every built-in, where the reference names three of its six (issue 23).
    ("generate unknown subnoun", ["generate", "bogus"], 2, "",
     "bp: unknown subcommand 'generate bogus'. Expected 'mazur', 'xor', 'iris', 'xor-per-neuron-bias', "
     "'softmax-ce', 'xor-multi-step', or 'from-config'. " + RERUN + "\n", False),
    ("generate near miss", ["generate", "xr"], 2, "",
     "bp: unknown subcommand 'generate xr'. Did you mean 'bp generate xor'? " + RERUN + "\n", False),
    # --out with no file is refused (the reference writes to stdout and exits 0).
    ("out without file", ["generate", "xor", "--out"], 3, "",
     "bp: --out needs a file name (--out <file>); without --out the output goes to stdout.\n", False),
    ("out= without file", ["generate", "xor", "--out="], 3, "",
     "bp: --out needs a file name (--out <file>); without --out the output goes to stdout.\n", False),
    # A suggestion only when the names are close ("quiet" is three edits from "print").
    ("no far suggestion", ["verify", "multi", "--quiet"], 3, "",
     "bp: unrecognized flag \"--quiet\". Run 'bp --help' for the recognized options.\n", False),
    ("from-config missing file json", ["generate", "from-config", "--json"], 2,
     "{\"ok\":false,\"error\":{\"code\":\"MISSING_FILE_ARG\",\"message\":\"missing required argument <file> for "
     "'generate from-config'. Run 'bp generate from-config --help' for usage.\"}}\n", "", True),
    ("from-config double dash", ["generate", "from-config", "--"], 3, "",
     "bp: refusing to treat \"--\" as a filename (starts with '-'). Use 'bp generate from-config --help' for "
     "usage.\n", True),
    ("from-config check without out", ["generate", "from-config", "DATA/tiny.input.json", "--check"], 3, "",
     "bp: generate from-config --check requires --out <file> to name the golden fixture to compare against. "
     "Example: bp generate from-config my.json --check --out fixtures/my.golden.jsonl\n", True),
    ("from-config missing file", ["generate", "from-config", "DATA/no-such-file.json"], 2, "",
     "bp: file not found: DATA/no-such-file.json.\nHint: check the path.\n", False),
    ("from-config missing file json envelope", ["generate", "from-config", "DATA/no-such-file.json", "--json"], 2,
     "{\"ok\":false,\"error\":{\"code\":\"ENOENT\",\"message\":\"file not found: DATA/no-such-file.json.\","
     "\"hint\":\"check the path.\",\"retryable\":false}}\n", "", False),
    ("from-config directory", ["generate", "from-config", "DATA"], 2, "",
     "bp: path is a directory, not a file: DATA.\nHint: provide a file path.\n", True),
    ("scaffold incomplete", ["scaffold"], 2, "",
     "bp: incomplete command 'scaffold'. Did you mean 'bp scaffold topology --topology mazur|xor|iris'? "
     + RERUN + "\n", True),
    ("scaffold subnoun suggestion", ["scaffold", "topo"], 2, "",
     "bp: unknown subcommand 'scaffold topo'. Did you mean 'bp scaffold topology --topology mazur|xor|iris "
     "[--out <file>]'? " + RERUN + "\n", True),
    ("scaffold missing topology", ["scaffold", "topology"], 3, "",
     "bp: scaffold topology requires --topology <name>. Expected one of: mazur, xor, iris. Run 'bp scaffold "
     "topology --help' for usage.\n", True),
    ("scaffold unknown topology", ["scaffold", "topology", "--topology", "foo"], 3, "",
     "bp: unknown topology 'foo'. Expected one of: mazur, xor, iris.\n", True),
    ("validate flag-like file", ["validate", "---x"], 3, None, None, False),
    ("verify incomplete", ["verify"], 2, "",
     "bp: incomplete command 'verify'. Did you mean 'bp verify mazur', 'bp verify general <file>', or 'bp verify "
     "multi <file.jsonl>'? " + RERUN + "\n", True),
    ("verify subnoun suggestion", ["verify", "gen"], 2, "",
     "bp: unknown subcommand 'verify gen'. Did you mean 'bp verify general <file>'? " + RERUN + "\n", True),
    ("import unknown framework", ["import", "foo", "x"], 2, "",
     "bp: unknown framework 'foo' for 'bp import'. Known: pytorch, jax, tensorflow. bp does NOT auto-detect "
     "framework from file contents \u2014 name it explicitly. Run 'bp import --help' for the current import "
     "surface.\n", True),
    ("reconcile incomplete", ["reconcile"], 2, "",
     "bp: incomplete command 'reconcile'. Did you mean 'bp reconcile receipt <file>'? " + RERUN + "\n", True),
    # A missing receipt: exit 2 with the reference's words, without its hint to run from the repo
    # root (the file is the user's own, not one of the package's).
    ("verify missing file", ["verify", "general", "x.jsonl"], 2, "",
     "bp: file not found: x.jsonl.\nHint: check the path.\n", False),
    ("reconcile missing file", ["reconcile", "receipt", "r.json"], 2, "",
     "bp: file not found: r.json.\nHint: check the path.\n", False),
    ("import missing file json", ["import", "pytorch", "multi", "DATA/no-such-file.jsonl", "--json"], 2,
     "{\"ok\":false,\"error\":{\"code\":\"ENOENT\",\"message\":\"file not found: DATA/no-such-file.jsonl.\","
     "\"hint\":\"check the path.\",\"retryable\":false}}\n", "", False),
    ("import usage exit 2", ["import"], 2, None, "", False),
]


def substitute(args, data_dir):
    return [a.replace("DATA", data_dir) for a in args]


def main():
    bp = bp_from_argv()
    data_dir = sys.argv[2]
    reference_only = "--reference-only" in sys.argv[3:]
    f = Failures()
    cases = [c for c in CASES if c[5] or not reference_only]
    results = run_many(bp, [substitute(c[1], data_dir) for c in cases])
    for (name, args, code, out, err, _), (rc, got_out, got_err) in zip(cases, results):
        f.check(name + " exit", rc, code)
        if out is not None:
            f.check(name + " stdout", got_out.decode("utf-8", "replace"), out.replace("DATA", data_dir))
        if err is not None:
            f.check(name + " stderr", got_err.decode("utf-8", "replace"), err.replace("DATA", data_dir))
    if reference_only:
        return f.finish()
    for name, args, *_ in cases[:2]:
        rc, out, err = run(bp, args)
        f.truth(name + " is the suite's version", VERSION.fullmatch(out.decode("utf-8", "replace")) is not None,
                repr(out[:80]))
    # Help goes to stdout with exit 0, wherever it is asked for.
    for args in (["--help"], ["-h"], [], ["generate", "--help"], ["generate", "mazur", "--help"],
                 ["generate", "from-config", "-h"], ["scaffold", "topology", "--help"], ["validate", "--help"],
                 ["validate-input", "-h"], ["verify", "multi", "--help"], ["import", "jax", "--help"],
                 ["verify", "--help"]):
        rc, out, err = expect(f, bp, "help " + " ".join(args), args, 0, None, "")
        f.truth("help " + " ".join(args) + " prints", out.startswith(b"bp ") or out.startswith(b"Usage: bp "),
                repr(out[:60]))
    rc, out, err = run(bp, ["verify", "--help"])
    f.truth("verify --help lists the three kinds", out.startswith(b"Usage: bp verify mazur|general|multi"), repr(out[:60]))
    rc, out, err = run(bp, ["--help"])
    f.truth("help lists no command as unavailable", b"Named, not available" not in out and b"bp import" in out, repr(out[:60]))
    # Unknown command without suggestion: message, blank line, usage, on stderr.
    rc, out, err = expect(f, bp, "unknown command", ["zzzzzzzzzz"], 2, "")
    f.truth("unknown command usage", re.match(re.escape(b"bp: unknown command 'zzzzzzzzzz'. " + RERUN.encode() + b"\n\nbp ")
                                              + VERSION.pattern[:-2].encode() + b" ", err) is not None, repr(err[:120]))
    # examples --json: the reference's {"ok":true,"helper_path":...}, the path bp examples prints.
    rc, path, _ = expect(f, bp, "examples path", ["examples", "pytorch"], 0, None, "")
    rc, out, _ = expect(f, bp, "examples --json", ["examples", "pytorch", "--json"], 0, None, "")
    f.check("examples --json stdout", out.decode(),
            '{"ok":true,"helper_path":%s}\n' % __import__("json").dumps(path.decode().rstrip("\n")))
    # Another verify kind's option given to verify tensor: an invalid argument (exit 3, bp(1)).
    for opt in (["--threads", "2"], ["--jobs", "2"], ["--data", "x"], ["--cross-machine"]):
        expect(f, bp, "verify tensor " + opt[0], ["verify", "tensor", "-", *opt], 3, "",
               "bp: verify tensor takes no --data, --cross-machine, --threads (verify nltrain's) or --jobs "
               "(verify multi's).\n")
    # Missing file argument in human mode: the command's usage on stderr, exit 2.
    rc, out, err = expect(f, bp, "from-config missing file", ["generate", "from-config"], 2, "")
    f.truth("from-config usage on stderr", err.startswith(b"Usage: bp generate from-config <file>"), repr(err[:60]))
    return f.finish()


if __name__ == "__main__":
    sys.exit(main())
