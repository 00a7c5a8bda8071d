#!/usr/bin/env bash
# Real tensors (issue 11): safetensors written by Python's `safetensors` package and .npy
# written by NumPy 2 (the venv) and NumPy 1 (Debian) go through `checkpoint save --from`
# and come back bit-exact from `checkpoint restore --out`; the parsers refuse bad files.
# $3: the Python venv with numpy + safetensors (skipped, exit 77, when absent).
ATENIA=$1
VENV=${3:-}
. "$(dirname "$0")/cli_assert.sh"
if [ -z "$VENV" ] || [ ! -x "$VENV/bin/python" ]; then
  echo "SKIPPED: no SUITE_PYTHON_VENV with numpy and safetensors (run .ci/python-env)"; exit 77
fi
PY="$VENV/bin/python"
cd "$WORK" || exit 1
"$PY" - <<'PY' || { echo "SKIPPED: the venv lacks numpy or safetensors"; exit 77; }
import numpy as np
from safetensors.numpy import save_file
rng = np.random.default_rng(11)
save_file({"layer.0.weight": rng.standard_normal((64, 32)).astype(np.float32),
           "layer.0.bias": rng.standard_normal(32).astype(np.float16),
           "steps": np.arange(7, dtype=np.int64),
           "mask": rng.integers(0, 2, 9).astype(np.bool_),
           "empty": np.zeros((0, 3), dtype=np.float64)},
          "model.safetensors", metadata={"framework": "numpy"})
np.save("acts.npy", rng.standard_normal((3, 4, 5)))
np.save("fort.npy", np.asfortranarray(rng.standard_normal((6, 2)).astype(np.float32)))
np.save("scalar.npy", np.int32(7))
PY
/usr/bin/python3 -c 'import numpy as np; np.save("np1.npy", np.arange(12, dtype=np.uint16).reshape(3, 4))' \
  || fail "Debian numpy could not write np1.npy"

run "$ATENIA" checkpoint save "$WORK/root" --from model.safetensors --from acts.npy --from fort.npy \
    --from scalar.npy --from np1.npy --tier ssd --json
expect_rc 0; expect_out_has '"id":"layer.0.weight","is_grad":false,"tier":"ssd","len":8192,'
run "$ATENIA" checkpoint inspect "$WORK/root"
expect_rc 0; expect_out_has "entries=9 bad_blobs=0"
# The bytes are stored once, in the blobs: no second (spill) copy of any tensor under the root.
[ -z "$(find "$WORK/root" -path "$WORK/root/blobs" -prune -o -type f -name '*.bin' -print)" ] \
  || fail "save wrote tensor bytes outside the blobs"
run "$ATENIA" checkpoint restore "$WORK/root" --out "$WORK/back"
expect_rc 0; expect_out_has "WROTE $WORK/back/model.safetensors"
for f in model.safetensors acts.npy fort.npy scalar.npy np1.npy; do
  cmp "$f" "$WORK/back/$f" || fail "$f did not come back bit-exact"
done
"$PY" - "$WORK/back" <<'PY' || fail "the restored files do not load as the originals"
import sys, numpy as np
from safetensors.numpy import load_file
a, b = load_file("model.safetensors"), load_file(sys.argv[1] + "/model.safetensors")
assert a.keys() == b.keys()
for k in a: assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape and a[k].tobytes() == b[k].tobytes(), k
x = np.load(sys.argv[1] + "/fort.npy"); assert np.isfortran(x) and (x == np.load("fort.npy")).all()
PY

# Strict parsers: each bad file is one line naming it, exit 2, and nothing is saved.
printf '\xff\x00\x00\x00\x00\x00\x00\x00{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}' > short.safetensors
run "$ATENIA" checkpoint save "$WORK/bad1" --from short.safetensors
expect_rc 2; expect_err_eq "atenia: short.safetensors: safetensors header length 255 runs past the file or the limit"
"$PY" - <<'PY'
import json, struct
def st(header, data):
    h = json.dumps(header).encode()
    open("x.safetensors", "wb").write(struct.pack("<Q", len(h)) + h + data)
st({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, "b": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}, b"\0" * 8)
PY
run "$ATENIA" checkpoint save "$WORK/bad2" --from x.safetensors
expect_rc 2; expect_err_eq "atenia: x.safetensors: safetensors tensor 'b' overlaps the one before it"
"$PY" -c '
import json, struct
h = json.dumps({"a": {"dtype": "Q7", "shape": [1], "data_offsets": [0, 1]}}).encode()
open("x.safetensors", "wb").write(struct.pack("<Q", len(h)) + h + b"\0")'
run "$ATENIA" checkpoint save "$WORK/bad3" --from x.safetensors
expect_rc 2; expect_err_eq 'atenia: x.safetensors: safetensors header /a/dtype: unknown dtype "Q7"; expected BOOL, U8, I8, F8_E5M2, F8_E4M3, I16, U16, F16, BF16, I32, U32, F32, I64, U64 or F64'
# A tensor named twice: Python's safetensors keeps the last one (the first is dropped without a
# word); our reader refuses the file, naming it and the key.
printf '\x69\x00\x00\x00\x00\x00\x00\x00{"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"w":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}}ab' > dup.safetensors
"$PY" -c 'from safetensors.numpy import load_file; assert list(load_file("dup.safetensors")["w"]) == [97, 98]' \
  || fail "Python's safetensors no longer keeps the last of a duplicated tensor: update this comment"
run "$ATENIA" checkpoint save "$WORK/bad6" --from dup.safetensors
expect_rc 2; expect_err_eq 'atenia: dup.safetensors: safetensors header /w: key "w" appears twice'; expect_out_empty
head -c 150 acts.npy > cut.npy
run "$ATENIA" checkpoint save "$WORK/bad4" --from cut.npy
expect_rc 2; expect_err_eq "atenia: cut.npy: npy file is 150 bytes; its header describes 608"
"$PY" -c 'import numpy as np; np.save("obj.npy", np.array([1, "a"], dtype=object), allow_pickle=True)'
run "$ATENIA" checkpoint save "$WORK/bad5" --from obj.npy
expect_rc 2; expect_err_eq "atenia: obj.npy: .npy dtype '|O' is not supported (bool, integers, floats, complex)"
for d in bad1 bad2 bad3 bad4 bad5 bad6; do [ ! -e "$WORK/$d/checkpoint" ] || fail "$d: a refused save wrote a checkpoint"; done
run "$ATENIA" checkpoint save "$WORK/dup" --from acts.npy --from acts.npy
expect_rc 3
# A tensor name is a name, not a path (issue 26): names with '/', '..', an absolute path, '\\',
# '%', non-ASCII and a 300-byte name are saved under encoded keys, listed as they are, and come
# back byte-identical in the restored file; nothing is written outside the root's blob folders.
"$PY" - <<'PY' || fail "the venv could not write names.safetensors"
import numpy as np
from safetensors.numpy import save_file
names = ["levels/0/W_K", "..", "../../escape", "/etc/passwd", "a%2Fb", "a/b", "a\\b", "x" * 300, "y" * 149 + "/",
         "tensor:..:len4", "\u65e5\u672c/\u8a9e", "."]
save_file({n: np.arange(i + 1, dtype=np.float32) * 0.5 for i, n in enumerate(names)}, "names.safetensors",
          metadata={"format": "pt"})
PY
mkdir "$WORK/jail" && cd "$WORK/jail" || exit 1
run "$ATENIA" checkpoint save root --from ../names.safetensors --tier ssd
expect_rc 0
run "$ATENIA" checkpoint inspect root
expect_rc 0; expect_out_has "entries=12 bad_blobs=0"
expect_out_has "ENTRY id=levels/0/W_K is_grad=0 tier=ssd len=4 cache_key=tensor%:levels%2F0%2FW_K:len4 "
expect_out_has "ENTRY id=../../escape is_grad=0"
expect_out_has "ENTRY id=/etc/passwd is_grad=0"
expect_out_has "ENTRY id=$(printf 'x%.0s' $(seq 300)) is_grad=0"
run "$ATENIA" checkpoint restore root --out back
expect_rc 0; expect_out_has "RESTORED id=levels/0/W_K tier=ssd len=4 state=loaded"
cmp -s ../names.safetensors back/names.safetensors || fail "names.safetensors did not come back byte-identical"
[ "$(ls -A "$WORK/jail" | tr '\n' ' ')" = "back root " ] || fail "save or restore wrote beside the root: $(ls -A "$WORK/jail")"
[ "$(ls -A back)" = "names.safetensors" ] || fail "restore --out wrote more than the file: $(ls -A back)"
[ -z "$(find root/blobs -mindepth 2 -type d)" ] || fail "a name became a folder under the blobs"
[ "$(find root/blobs/tensor -type f | wc -l)" -eq 24 ] || fail "expected 12 .bin + 12 .meta tensor blobs"
find root/blobs -type f | awk -F/ '{ if (length($NF) > 200) bad = 1 } END { exit bad }' || fail "a blob file name is over 200 bytes"
cd "$WORK" || exit 1
# NUL and over-long names are refused, naming the tensor, with nothing written.
"$PY" - <<'PY'
import json, struct
def st(name, header):
    h = json.dumps(header).encode()
    open(name, "wb").write(struct.pack("<Q", len(h)) + h + b"\0" * 4)
st("nul.safetensors", {"a\u0000b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}})
st("long.safetensors", {"z" * 1025: {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}})
PY
run "$ATENIA" checkpoint save "$WORK/bad6" --from nul.safetensors
expect_rc 3; expect_err_has 'tensor id: "a'; expect_err_has 'holds a control character'
run "$ATENIA" checkpoint save "$WORK/bad7" --from long.safetensors
expect_rc 3; expect_err_has "tensor id: an id is at most 1024 bytes, got 1025"
for d in bad6 bad7; do [ ! -e "$WORK/$d/checkpoint" ] || fail "$d: a refused save wrote a checkpoint"; done

finish
