#!/usr/bin/env bash
# checkpoint restore --out DIR: nothing is written through a link inside DIR, the restore is all
# or nothing, and a checkpoint missing a blob (or a blob's .meta) is a corrupt checkpoint, exit 2,
# with one line naming the missing file under the checkpoint. Before the fix, a link DIR/a.npy ->
# ../victim/keep.txt had the victim overwritten (exit 0); a missing header blob or an invalid
# tensor_files.json left DIR/a.npy written and RESTORED lines printed before failing (exit 3 / 2);
# a missing blob named only a cache key; a deleted tensor_files.json went unnoticed (exit 0).
ATENIA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 1
# Every path with its type and link target, and every regular file's SHA-256.
snapshot() { (cd "$1" && find . -printf '%p %y %l\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum); }

/usr/bin/python3 - <<'PY' || fail "numpy could not write the inputs"
import json, struct
import numpy as np
np.save("a.npy", np.arange(6, dtype=np.float32).reshape(2, 3))
data = np.arange(4, dtype=np.float32).tobytes()
header = json.dumps({"E": {"dtype": "F32", "shape": [4], "data_offsets": [0, len(data)]}}).encode()
header += b" " * (-len(header) % 8)
open("m.safetensors", "wb").write(struct.pack("<Q", len(header)) + header + data)
PY
run "$ATENIA" checkpoint save ck --from a.npy --from m.safetensors
expect_rc 0

# 1. A link inside DIR is replaced by the restored file (renamed over the name); its target,
# outside DIR, is untouched.
mkdir dest victim
echo precious > victim/keep.txt
ln -s ../victim/keep.txt dest/a.npy
run "$ATENIA" checkpoint restore ck --out dest
expect_rc 0
[ "$(cat victim/keep.txt)" == "precious" ] || fail "the file a link in DIR points to was overwritten"
[ -f dest/a.npy ] && [ ! -L dest/a.npy ] || fail "DIR/a.npy is not a regular file in place of the link"
cmp -s dest/a.npy a.npy || fail "DIR/a.npy is not the saved file"
cmp -s dest/m.safetensors m.safetensors || fail "DIR/m.safetensors is not the saved file"
ls dest | grep -q atomic-tmp && fail "a temporary file was left in DIR"
# A dangling link is replaced the same way, and nothing appears where it pointed.
rm -f dest/m.safetensors && ln -s ../nowhere/m.safetensors dest/m.safetensors
run "$ATENIA" checkpoint restore ck --out dest
expect_rc 0
[ ! -e nowhere ] || fail "a dangling link in DIR was written through"
cmp -s dest/m.safetensors m.safetensors || fail "DIR/m.safetensors is not the saved file after a dangling link"
# DIR itself may be a link the user chose.
mkdir real && ln -s real linked
run "$ATENIA" checkpoint restore ck --out linked
expect_rc 0
cmp -s real/a.npy a.npy || fail "restore into a linked DIR did not write into its target"

# 2. All or nothing: each damage below is exit 2, with nothing on stdout, DIR unchanged (or not
# created), and one line on stderr naming the checkpoint directory and what is wrong.
damage() {
  rm -rf ck2 && cp -r ck ck2
  case $1 in
    header) rm "ck2/blobs/kernel_meta/tensorfile:m.safetensors.bin" ;;
    header_meta) rm "ck2/blobs/kernel_meta/tensorfile:m.safetensors.meta" ;;
    tensor) rm "ck2/blobs/tensor/tensor:E:len16.bin" ;;
    tensor_meta) rm "ck2/blobs/tensor/tensor:E:len16.meta" ;;
    list) echo '{bad' > ck2/checkpoint/tensor_files.json ;;
    nolist) rm ck2/checkpoint/tensor_files.json ;;
  esac
}
for d in header header_meta tensor tensor_meta list nolist; do
  for target in fresh existing; do
    damage $d
    rm -rf o2
    if [ $target == existing ]; then mkdir o2 && echo "the user's own" > o2/a.npy; fi
    before=$( [ -d o2 ] && snapshot o2 )
    run "$ATENIA" checkpoint restore ck2 --out o2
    LAST="restore --out with damage '$d' into a $target DIR"
    expect_rc 2
    expect_out_empty
    [ "$(wc -l < "$WORK/err")" -eq 1 ] || fail "stderr is not one line"
    grep -q "ck2/" "$WORK/err" || fail "the error does not name the checkpoint directory"
    if [ $target == fresh ]; then
      [ ! -e o2 ] || fail "DIR was created by a restore that failed"
    else
      [ "$(snapshot o2)" == "$before" ] || fail "DIR changed in a restore that failed"
    fi
  done
done
# The missing file itself is named.
damage header
run "$ATENIA" checkpoint restore ck2 --out o3
expect_rc 2
grep -qF "ck2/blobs/kernel_meta/tensorfile:m.safetensors.bin is missing" "$WORK/err" || fail "the missing header blob is not named"
damage tensor_meta
run "$ATENIA" checkpoint restore ck2
expect_rc 2
grep -qF "ck2/blobs/tensor/tensor:E:len16.meta is missing" "$WORK/err" || fail "the missing .meta is not named"
damage tensor
run "$ATENIA" checkpoint restore ck2 --lazy --out o3
expect_rc 2
grep -qF "ck2/blobs/tensor/tensor:E:len16.bin is missing" "$WORK/err" || fail "the missing tensor blob is not named"
[ ! -e o3 ] || fail "DIR was created by a lazy restore that failed"
# Header blobs with no tensor_files.json listing them: the list was lost, so the checkpoint is
# damaged for inspect as for restore --out (before, inspect said bad_blobs=0 and restore --out
# wrote nothing, exit 0).
damage nolist
run "$ATENIA" checkpoint inspect ck2
expect_rc 2
expect_out_empty
expect_err_eq "atenia: ck2/checkpoint/tensor_files.json is missing, but ck2/blobs/kernel_meta holds the header blob of a saved file (tensorfile:a.npy); the checkpoint is damaged"
run "$ATENIA" checkpoint restore ck2 --out o3
expect_rc 2
expect_err_eq "atenia: ck2/checkpoint/tensor_files.json is missing, but ck2/blobs/kernel_meta holds the header blob of a saved file (tensorfile:a.npy); the checkpoint is damaged"
[ ! -e o3 ] || fail "DIR was created by a restore whose file list is missing"

# A directory at one of the names cannot be replaced: refused before anything is written.
rm -rf o4 && mkdir -p o4/m.safetensors
run "$ATENIA" checkpoint restore ck --out o4
expect_rc 2
expect_out_empty
grep -qF "o4/m.safetensors" "$WORK/err" || fail "the directory in the way is not named"
[ ! -e o4/a.npy ] || fail "a.npy was written although m.safetensors could not be"
finish
