#!/usr/bin/env bash
# nltrain --vocab and --data-format: a run on a u16 file of token ids (vocab 1000) trains,
# checkpoints and resumes bit for bit, and its receipts (full, and compact with the data) pass bp
# verify nltrain; a u32 file of the same ids trains the same numbers; eval reads the run's format;
# every refusal is one line with its exit code (man nltrain, EXIT STATUS).
NLTRAIN=$1
BP=$2
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 2
SMALL=(--d 8 --heads 2 --seq-len 8 --quiet)

# 3000 ids below 1000, many above 255 (a byte reading of the file would differ), as u16 and u32.
python3 - <<'PY'
import struct
ids = [(i * 337 + i // 5) % 1000 for i in range(3000)]
open("t.u16", "wb").write(struct.pack("<%dH" % len(ids), *ids))
open("t.u32", "wb").write(struct.pack("<%dI" % len(ids), *ids))
open("odd.u16", "wb").write(struct.pack("<%dH" % 100, *ids[:100]) + b"\x07")
bad = ids[:]
bad[123] = 1000
open("bad.u16", "wb").write(struct.pack("<%dH" % len(bad), *bad))
open("big.u32", "wb").write(struct.pack("<%dI" % 100, *([70000] * 100)))
PY
TOK=(--vocab 1000 --data t.u16 --data-format u16)

# An uninterrupted run, and the same run stopped at step 5 and resumed: the same metrics,
# receipts and checkpoint, byte for byte.
run "$NLTRAIN" train "${TOK[@]}" "${SMALL[@]}" --steps 10 --checkpoint-every 3 --out whole --metrics whole.jsonl --receipts whole.r.jsonl
expect_rc 0
run "$NLTRAIN" train "${TOK[@]}" "${SMALL[@]}" --steps 10 --checkpoint-every 3 --out split --metrics split.jsonl --receipts split.r.jsonl --stop-at 5
expect_rc 0
run "$NLTRAIN" train --resume split --vocab 1000 --data-format u16 --quiet --metrics split.jsonl --receipts split.r.jsonl
expect_rc 0
cmp -s whole.jsonl split.jsonl || fail "resumed metrics differ from the uninterrupted run's"
cmp -s whole.r.jsonl split.r.jsonl || fail "resumed receipts differ from the uninterrupted run's"
same_checkpoint whole split || fail "resumed checkpoint differs from the uninterrupted run's"
[ "$(wc -l <whole.jsonl)" -eq 10 ] || fail "10 metrics lines expected"
# The first loss is about ln(1000) = 6.91 (uniform over the vocab), not ln(256) = 5.55.
head -1 whole.jsonl | grep -qE '"loss":6\.9' || fail "first loss is not ln(1000): $(head -1 whole.jsonl)"
grep -qF '"data":{"sha256":"'"$(sha256sum t.u16 | cut -c1-64)"'","bytes":6000,"format":"u16"}' whole.r.jsonl ||
  fail "receipts do not name the u16 data by its SHA-256 and byte count"
grep -qF '"n":1,"chunk":1,"offset":16,' whole.r.jsonl || fail "step 1's offset is not 16 bytes (8 tokens of 2 bytes)"
run "$BP" verify nltrain whole.r.jsonl
expect_rc 0
expect_err_has "PASS, 10 receipt(s)"
run "$BP" verify nltrain whole.r.jsonl --data t.u16
expect_rc 0

# Compact receipts name the tokens by byte offset: bp verify nltrain reads them from the file.
run "$NLTRAIN" train "${TOK[@]}" "${SMALL[@]}" --steps 4 --out compact --receipts compact.r.jsonl --compact-receipts
expect_rc 0
run "$BP" verify nltrain compact.r.jsonl --data t.u16
expect_rc 0
expect_err_has "PASS, 4 receipt(s)"
run "$BP" verify nltrain compact.r.jsonl --data t.u32
expect_rc 3
run "$BP" verify nltrain compact.r.jsonl
expect_rc 3

# The same ids as u32: the same numbers (the model sees ids, not the file's bytes).
run "$NLTRAIN" train --vocab 1000 --data t.u32 --data-format u32 "${SMALL[@]}" --steps 10 --checkpoint-every 3 --out wide --metrics wide.jsonl
expect_rc 0
cmp -s whole.jsonl wide.jsonl || fail "u32 metrics differ from u16 metrics of the same ids"

# eval reads the run's format; the result is per token.
run "$NLTRAIN" eval --checkpoint whole --max-chunks 4 --json
expect_rc 0
expect_out_has '"data":"t.u16","chunks":4,"tokens":32,'
expect_out_has '"bits_per_token":'
run "$NLTRAIN" eval --checkpoint whole --max-chunks 4
expect_out_has "nats/token"
run "$NLTRAIN" eval --checkpoint whole --data t.u32 --data-format u32 --max-chunks 4
expect_rc 0
run "$NLTRAIN" eval --checkpoint whole --data bad.u16
expect_error 2 "--data: bad.u16: token 123 (byte offset 246) is id 1000, outside vocab 1000 (ids 0..999)"

# export carries the vocab; --from keeps it.
run "$NLTRAIN" export whole --to whole.safetensors
expect_rc 0
run "$NLTRAIN" eval --from whole.safetensors --data t.u16 --data-format u16 --max-chunks 2
expect_rc 0
run "$NLTRAIN" train --from whole.safetensors --vocab 256 --data t.u16 --data-format u16 --out from1
expect_error 3 "--vocab: 256 differs from the --from file's 1000"
run "$NLTRAIN" train --from whole.safetensors --data t.u16 --data-format u16 --steps 1 --out from2 --quiet
expect_rc 0

# Refusals, each one line.
run "$NLTRAIN" train --vocab 1000 --data odd.u16 --data-format u16 --out x
expect_error 2 "--data: odd.u16: holds 201 bytes, not a whole number of 2-byte u16 tokens"
run "$NLTRAIN" train --vocab 1000 --data bad.u16 --data-format u16 --out x
expect_error 2 "--data: bad.u16: token 123 (byte offset 246) is id 1000, outside vocab 1000 (ids 0..999)"
[ ! -e x/checkpoint ] || fail "a refused run wrote a checkpoint"
run "$NLTRAIN" train --data t.u16 --data-format u16 --out x
expect_error 2 "--data: t.u16: token 1 (byte offset 2) is id 337, outside vocab 256 (ids 0..255)"
# u32 ids above 2^16.
run "$NLTRAIN" train --vocab 70001 --data big.u32 --data-format u32 "${SMALL[@]}" --steps 1 --out big
expect_rc 0
run "$NLTRAIN" train --vocab 1 --out x
expect_error 3 "vocab: must be in 2..1048576, got 1 (the embedding and the output projection hold vocab x d floats each)"
run "$NLTRAIN" train --vocab 1048576 --d 64 --out x
expect_error 3 "vocab: vocab x d = 1048576 x 64 = 67108864 floats in the embedding (and as many in the output projection); at most 33554432"
run "$NLTRAIN" train --vocab 1048577 --out x
expect_error 3 "vocab: must be in 2..1048576, got 1048577"
echo '{"vocab": 0}' >v0.json
run "$NLTRAIN" train --config v0.json --out x
expect_error 3 "vocab: must be in 2..1048576, got 0"
run "$NLTRAIN" train --data-format u16 --vocab 1000 --out x
expect_error 3 "--data-format u16 needs --data F (the embedded corpus is bytes of text)"
run "$NLTRAIN" train --data t.u16 --data-format u8 --out x
expect_error 3 '--data-format: expected bytes, u16 or u32, got "u8"'
run "$NLTRAIN" train --resume split --vocab 999
expect_error 3 "--vocab: 999 differs from the run's vocab 1000 in split; --resume keeps the run's model"
run "$NLTRAIN" train --resume split --data-format bytes
expect_error 3 "--data-format: bytes differs from the run's u16 in split"
run "$NLTRAIN" train --resume split --data t.u32
expect_error 2 "--resume: the data (t.u32) is not the data this run was trained on"
run "$NLTRAIN" generate --checkpoint whole --prompt "The "
expect_error 3 "generate writes text, one byte per token; this model's vocab is 1000 token ids, not the 256 bytes"
# A byte-level model below 256 ids: text outside them is refused like a token file's.
printf 'plain ASCII text, long enough for two chunks of eight\n' >ascii.txt
printf 'caf\xc3\xa9 and more text after it, enough bytes\n' >latin.txt
run "$NLTRAIN" train --vocab 128 --data ascii.txt "${SMALL[@]}" --steps 2 --out ascii
expect_rc 0
run "$NLTRAIN" train --vocab 128 --data latin.txt --out x
expect_error 2 "--data: latin.txt: token 3 (byte offset 3) is id 195, outside vocab 128 (ids 0..127)"
finish
