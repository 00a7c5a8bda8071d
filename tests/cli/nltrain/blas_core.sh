# Sourced by the nltrain CLI tests that compare a run with bytes recorded on another machine.
# nltrain's fp32 bits depend on OpenBLAS's core type: its sgemm kernels sum in different orders
# (the AVX2 core, Haswell, gives other bits than the AVX-512 ones). The recorded outputs
# (fixtures/nltrain, data/) were made with the AVX-512 kernels under the name Cooperlake, and
# SkylakeX, which OpenBLAS detects on the same CPUs under some hypervisors, gives the same bits.
# Where this CPU has Cooperlake's instructions (AVX-512 with BF16), OpenBLAS is told to use it;
# elsewhere a test leaves out only its comparisons with recorded bits, and says so.
RECORDED_BLAS_CORE=Cooperlake

if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -qw avx512_bf16 /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo &&
  grep -qw avx512bw /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=$RECORDED_BLAS_CORE
fi

# blas_core NLTRAIN: the core nltrain trains with here, as its step receipts name it.
blas_core() {
  local d
  d=$(mktemp -d "${TMPDIR:-/tmp}/blas-core-XXXXXX") || return 2
  (cd "$d" && "$1" train --d 8 --heads 2 --seq-len 8 --steps 1 --quiet --out r --receipts r.jsonl >/dev/null 2>&1 &&
    sed -nE 's/.*"blas":"[^"]*\(core ([A-Za-z0-9]+)\)".*/\1/p' r.jsonl | head -1)
  local rc=$?
  rm -rf "$d"
  return $rc
}

# recorded_bits NLTRAIN: true where this machine's core gives the recorded bits; otherwise prints
# which comparisons are left out ($2) and why.
recorded_bits() {
  local core
  core=$(blas_core "$1")
  case $core in "$RECORDED_BLAS_CORE" | SkylakeX) return 0 ;; esac
  echo "SKIPPED PART: $2: the recorded bits are OpenBLAS core $RECORDED_BLAS_CORE's; nltrain trains here with core ${core:-unknown}"
  return 1
}
