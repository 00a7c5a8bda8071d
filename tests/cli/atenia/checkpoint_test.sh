#!/usr/bin/env bash
# atenia checkpoint save / restore / inspect over a cache root, and its failure modes.
ATENIA=$1
. "$(dirname "$0")/cli_assert.sh"
R="$WORK/root"
cat > "$WORK/t.json" <<'JSON'
{"tensors":[{"id":"w1","bytes":16,"tier":"ram","desired_tier":"vram","plan_summary":"GPU preferred for matmul"},
 {"id":"w2","bytes":8,"tier":"ssd"},
 {"id":"w3","bytes":4,"tier":"vram","desired_tier":"vram"},
 {"id":"g1","bytes":12,"tier":"ram","grad":true,"desired_tier":"ram"}]}
JSON
run "$ATENIA" checkpoint save "$R" --tensors "$WORK/t.json" --created-unix 77
expect_rc 0; expect_out_eq "saved 4 entries to $R/checkpoint/checkpoint.meta"
head -4 "$R/checkpoint/checkpoint.meta" | cmp -s - <(printf 'version=2\ncreated_unix=77\nentry_count=4\n\n') || fail "manifest header"
grep -qx "cache_key=grad:g1:len12" "$R/checkpoint/checkpoint.meta" || fail "gradient cache key"

run "$ATENIA" checkpoint restore "$R"
expect_rc 0; expect_err_empty
expect_out_eq "RESTORED id=w1 tier=ram len=16 state=loaded
RESTORED id=w2 tier=ssd len=8 state=loaded
RESTORED id=w3 tier=ram len=4 state=loaded
RESTORED id=g1 tier=ram len=12 state=loaded
DRIFT w1: missing_backend(desired=vram), tier_downgrade(vram->ram), plan_mismatch(GPU preferred for matmul)
DRIFT w3: missing_backend(desired=vram), tier_downgrade(vram->ram)
WARM_START id=w1 action=degrade(ram) reason=Tier downgraded from vram to ram during restore drift
WARM_START id=w2 action=keep reason=No desired tier hint
WARM_START id=w3 action=degrade(ram) reason=Tier downgraded from vram to ram during restore drift
WARM_START id=g1 action=keep reason=Desired tier is ram and current placement is ram, no change planned
warm_start: keep=2 promote=0 degrade=2"
run "$ATENIA" checkpoint restore "$R" --lazy --json
expect_rc 0; expect_out_has '{"id":"w1","restored_tier":"ram","len":16,"state":"lazy"}'
run "$ATENIA" checkpoint inspect "$R"
expect_rc 0; expect_out_has "bad_blobs=0"

# A corrupted blob: inspect reports it (exit 1), restore refuses with one line (exit 2).
printf 'X' >> "$R/blobs/tensor/tensor:w2:len8.bin"
cp "$R/checkpoint/checkpoint.meta" "$WORK/manifest.before"
run "$ATENIA" checkpoint inspect "$R"
expect_rc 1; expect_out_has "ENTRY id=w2 is_grad=0 tier=ssd len=8 cache_key=tensor:w2:len8 desired_tier=none blob=Corrupt: "
run "$ATENIA" checkpoint restore "$R"
expect_rc 2; expect_out_empty
expect_err_eq "atenia: entry 'w2': Corrupt: length mismatch in $R/blobs/tensor/tensor:w2:len8.bin: meta says 8 bytes, file has 9"
cmp -s "$WORK/manifest.before" "$R/checkpoint/checkpoint.meta" || fail "restore touched the manifest"

# A damaged manifest: the checksum trailer catches an edit that still parses.
sed -i 's/^len=16$/len=17/' "$R/checkpoint/checkpoint.meta"
run "$ATENIA" checkpoint inspect "$R"
expect_rc 2; grep -q "^atenia: $R/checkpoint/checkpoint.meta:[0-9]*: checksum mismatch" "$WORK/err" || fail "manifest checksum"
printf 'version=1\ncreated_unix=1\nentry_count=1\n\nid=a\nis_grad=0\ntier=gpu\nlen=1\ncache_kind=none\ncache_key=none\n' > "$R/checkpoint/checkpoint.meta"
run "$ATENIA" checkpoint restore "$R"
expect_rc 2; expect_err_eq "atenia: $R/checkpoint/checkpoint.meta:7: tier must be ram, ssd, vram or cpu, got 'gpu'"

# A cache root that is a file; a missing manifest; bad tensor lists.
touch "$WORK/file"
for sub in "restore" "inspect"; do
  run "$ATENIA" checkpoint $sub "$WORK/file"
  expect_rc 2; expect_err_eq "atenia: $WORK/file: cache root exists and is not a directory"
done
run "$ATENIA" checkpoint save "$WORK/file" --tensors "$WORK/t.json"
expect_rc 2; expect_err_eq "atenia: $WORK/file: cache root exists and is not a directory"
run "$ATENIA" checkpoint restore "$WORK/empty"
expect_rc 2; grep -q "^atenia: $WORK/empty/checkpoint/checkpoint.meta: " "$WORK/err" || fail "missing manifest"
printf '{"tensors":[{"id":"a","bytes":1,"tier":"ram"},{"id":"a","bytes":1,"tier":"ram"}]}' > "$WORK/dup.json"
run "$ATENIA" checkpoint save "$WORK/r2" --tensors "$WORK/dup.json"
expect_rc 2; expect_err_eq "atenia: $WORK/dup.json: /tensors/1/id: ids must be non-empty and unique, got \"a\""
[ ! -e "$WORK/r2/checkpoint/checkpoint.meta" ] || fail "a manifest was written for bad input"
run "$ATENIA" checkpoint
expect_rc 2
# Integer options are read strictly (issue 23): CLI11 alone wrapped -5 to 2^64 - 5 and took
# values past 2^64 - 1. One line, exit 2, nothing written.
for v in -5 +5 1.5 18446744073709551616 ""; do
  run "$ATENIA" checkpoint save "$WORK/r3" --tensors "$WORK/t.json" --created-unix "$v"
  expect_rc 2
  [ "$(wc -l < "$WORK/err")" -eq 1 ] && grep -q "^atenia: --created-unix: " "$WORK/err" || fail "--created-unix $v: not one line naming the option"
  [ ! -e "$WORK/r3" ] || fail "--created-unix $v: a root was created"
done
finish
