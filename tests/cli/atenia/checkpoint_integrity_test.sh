#!/usr/bin/env bash
# checkpoint inspect agrees with restore (a size no blob can have, an entry with no blob, a
# corrupt header blob of a saved .npy); no blob is left that no reference names (a tensor saved
# again under another length, a save killed with SIGKILL then recovered); a save whose report is
# lost after the commit exits 0 with a warning; a tensor file with more tensors than a checkpoint
# holds is refused before anything is written.
ATENIA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 1

npy() { /usr/bin/python3 -c "import numpy as np, sys; np.save(sys.argv[1], $2)" "$1" || fail "numpy could not write $1"; }

# Rewrites a manifest's body with `sed`-style edits applied by Python, with a fresh trailer
# (byte length and CRC-32C of the body), so only the edited field is wrong.
edit_manifest() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys
path, extra = sys.argv[1], sys.argv[2]
text = open(path, "rb").read().decode()
body = text[: text.index("manifest_len=")]
body = body.replace("entry_count=1\n", "entry_count=2\n") + extra
from crc32c import crc32c
raw = body.encode()
open(path, "wb").write(raw + ("manifest_len=%d\nmanifest_crc32c=%d\n" % (len(raw), crc32c(raw))).encode())
PY
}
# The blob files under ROOT that no manifest entry or saved file header names.
orphans() {
  /usr/bin/python3 - "$1" <<'PY'
import json, os, sys
root = sys.argv[1]
keys = set()
for line in open(os.path.join(root, "checkpoint/checkpoint.meta")):
    k, _, v = line.rstrip("\n").partition("=")
    if k == "cache_key" and v != "none": keys.add(v)
files = os.path.join(root, "checkpoint/tensor_files.json")
if os.path.exists(files):
    keys |= {"tensorfile:" + f["file"] for f in json.load(open(files))["files"]}
for kind in ("tensor", "gradient", "kernel_meta"):
    d = os.path.join(root, "blobs", kind)
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        key = name
        for suffix in (".bin.next", ".bin", ".meta"):
            if key.endswith(suffix):
                key = key[: -len(suffix)]
                break
        if key not in keys: print(kind + "/" + name)
PY
}

# --- 2a. An entry claiming 4 EiB, with no blob: restore refuses it, and so must inspect.
echo '{"tensors":[{"id":"w1","bytes":16,"tier":"ram"}]}' > t.json
run "$ATENIA" checkpoint save A --tensors t.json
expect_rc 0
edit_manifest A/checkpoint/checkpoint.meta $'id=huge\nis_grad=0\ntier=ram\nlen=4611686018427387904\ncache_kind=none\ncache_key=none\ndesired_tier=none\nplan_summary=none\n\n'
run "$ATENIA" checkpoint restore A
expect_rc 2
run "$ATENIA" checkpoint inspect A
expect_rc 2
grep -qF "len" "$WORK/err" && grep -qF "at most 1073741824" "$WORK/err" || fail "inspect does not name the impossible size"
# The same entry at a plausible size: still no blob to restore from.
run "$ATENIA" checkpoint save B --tensors t.json
edit_manifest B/checkpoint/checkpoint.meta $'id=noblob\nis_grad=0\ntier=ram\nlen=16\ncache_kind=none\ncache_key=none\ndesired_tier=none\nplan_summary=none\n\n'
run "$ATENIA" checkpoint restore B
expect_rc 2
run "$ATENIA" checkpoint inspect B
expect_rc 1
expect_out_has "id=noblob is_grad=0 tier=ram len=16 cache_key=none desired_tier=none blob=no cache reference to restore from"
expect_out_has "bad_blobs=1"

# --- 2b. A corrupt header blob of a saved .npy: restore --out fails on it, so inspect fails.
npy x.npy 'np.arange(16, dtype=np.float32)'
run "$ATENIA" checkpoint save C --from x.npy
expect_rc 0
hdr="C/blobs/kernel_meta/tensorfile:x.npy.bin"
/usr/bin/python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[20]^=1; open(p,'wb').write(b)" "$hdr"
mkdir outC
run "$ATENIA" checkpoint restore C --out outC
expect_rc 2
grep -qF "checksum mismatch in C/blobs/kernel_meta/tensorfile:x.npy.bin" "$WORK/err" || fail "restore --out does not name the corrupt header"
run "$ATENIA" checkpoint inspect C
expect_rc 1
expect_out_has "FILE file=x.npy header=checksum mismatch in C/blobs/kernel_meta/tensorfile:x.npy.bin: meta says "
expect_out_has "bad_blobs=1"
run "$ATENIA" checkpoint inspect C --json
expect_rc 1
expect_out_has '"bad_blobs":1'

# --- 3a. x saved again under another length: the old length's blobs go with the commit.
npy x.npy 'np.arange(32, dtype=np.float32)'
run "$ATENIA" checkpoint save C --from x.npy
expect_rc 0
[ -z "$(orphans C)" ] || fail "blobs nothing references after a re-save: $(orphans C | head -3)"
[ ! -e "C/blobs/tensor/tensor:x:len64.bin" ] || fail "the replaced tensor's blob is still there"
run "$ATENIA" checkpoint inspect C
expect_rc 0

# --- 3b. A save killed with SIGKILL at several instants, then recovered: the committed
#     checkpoint is intact and no blob is left that nothing references.
/usr/bin/python3 -c "
import json
print(json.dumps({'tensors': [{'id': 'k%03d' % i, 'bytes': 4096, 'tier': 'ram'} for i in range(300)]}))" > many.json
for delay in 0.05 0.2 0.5 1.0; do
  "$ATENIA" checkpoint save C --tensors many.json --created-unix 9 >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  run "$ATENIA" checkpoint recover C
  LAST="recover after SIGKILL at ${delay}s"
  expect_rc 0
  [ ! -e C/.save-backup ] && [ ! -e C/.save-backup.partial ] && [ ! -e C/.save-backup.done ] || fail "recover left a backup"
  [ -z "$(orphans C)" ] || fail "$(orphans C | wc -l) blob files nothing references after recovery"
  run "$ATENIA" checkpoint inspect C
  expect_rc 0
done

# --- 4. stdout closed: the save commits, so it exits 0 and warns that the report was lost.
closed_stdout() { "$@" >&- 2>"$WORK/err"; RC=$?; LAST="$* >&-"; }
closed_stdout "$ATENIA" checkpoint save D --tensors t.json --created-unix 3
expect_rc 0
grep -qF "atenia: warning: the checkpoint was saved, but its report could not be written to stdout" "$WORK/err" \
  || fail "no warning that the report was lost"
[ "$(wc -l < "$WORK/err")" -eq 1 ] || fail "more than one line on stderr"
run "$ATENIA" checkpoint inspect D
expect_rc 0
expect_out_has "created_unix=3"
echo '{"backend":"gpu","gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.1,"success":true,"score":9,"had_drift":false}' > e.jsonl
closed_stdout "$ATENIA" learn e.jsonl --table table
expect_rc 0
expect_err_eq "atenia: warning: the table was written, but its report could not be written to stdout: Bad file descriptor"
[ -s table ] || fail "learn did not write the table"

# --- 6. A .safetensors of zero-length tensors: 1024 (the cap) are saved, 1025 refused before
#     anything is written.
st() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, struct, sys
h = {"t%05d" % i: {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]} for i in range(int(sys.argv[2]))}
b = json.dumps(h, separators=(",", ":")).encode()
open(sys.argv[1], "wb").write(struct.pack("<Q", len(b)) + b)
PY
}
st over.safetensors 1025
run "$ATENIA" checkpoint save E --from over.safetensors
expect_rc 3
expect_err_eq "atenia: --from over.safetensors: holds 1025 tensors; a checkpoint holds at most 1024; nothing was written"
[ ! -e E ] || fail "a refused save created the root"
run "$ATENIA" checkpoint save E --tensors t.json --from over.safetensors
expect_rc 3
[ ! -e E ] || fail "a refused save created the root"
st cap.safetensors 1024
run "$ATENIA" checkpoint save F --from cap.safetensors
expect_rc 0
expect_out_eq "saved 1024 entries to F/checkpoint/checkpoint.meta"
# --- 9. A tensor saved with --tier vram comes back on VRAM when restore is told a GPU is there
#     (this machine's GPU, or the in-process stand-in without one); without --gpu-available the
#     restore stays hardware-agnostic (RAM). Before, it always came back in RAM.
npy v.npy 'np.arange(8, dtype=np.float32)'
run "$ATENIA" checkpoint save G --from v.npy --tier vram
expect_rc 0
run "$ATENIA" checkpoint restore G --gpu-available
expect_rc 0
expect_out_has "RESTORED id=v tier=vram len=32 state=loaded"
expect_err_empty
run "$ATENIA" checkpoint restore G
expect_rc 0
expect_out_has "RESTORED id=v tier=ram len=32 state=loaded"
finish
