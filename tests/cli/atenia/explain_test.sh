#!/usr/bin/env bash
# atenia explain (APX 13.11.4): the seed's smoke test, its usage contract, and --table.
ATENIA=$1
. "$(dirname "$0")/cli_assert.sh"
USAGE='Usage: atenia explain --gpu-available=<true|false> --vram-band=<0..3> --ram-band=<0..3>'

run "$ATENIA" explain --gpu-available=true --vram-band=0 --ram-band=0
expect_rc 0; expect_out_eq "No learned data available for the given context."; expect_err_empty

for bad in "--gpu-available=yes --vram-band=0 --ram-band=0" "--gpu-available=true --vram-band=4 --ram-band=0" \
           "--gpu-available=true --vram-band=0" "--gpu-available=true --vram-band=x --ram-band=0" \
           "--gpu-available=true --vram-band=-1 --ram-band=0" "--gpu-available=true --vram-band=0 --ram-band=0 --bogus" ""; do
  # shellcheck disable=SC2086
  run "$ATENIA" explain $bad
  expect_rc 1; expect_err_eq "$USAGE"; expect_out_empty
done

cat > "$WORK/episodes.jsonl" <<'JSONL'
{"gpu_available":true,"vram_pressure":0.1,"ram_pressure":0.2,"backend":"gpu","success":true,"score":9,"had_drift":false}
{"gpu_available":true,"vram_pressure":0.3,"ram_pressure":0.4,"backend":"gpu","success":true,"score":11,"had_drift":false}
{"gpu_available":true,"vram_pressure":0.2,"ram_pressure":0.1,"backend":"cpu","success":true,"score":4,"had_drift":false}
JSONL
run "$ATENIA" learn "$WORK/episodes.jsonl" --table "$WORK/t.table"
expect_rc 0
run "$ATENIA" explain --gpu-available=true --vram-band=0 --ram-band=0 --table "$WORK/t.table"
expect_rc 0
expect_out_eq "Atenia selected GPU execution with a confidence of 34%. GPU was selected because GPU execution in this context has been observed 2 times, with 2 successful executions and no drift. Historical performance favors GPU execution under similar memory conditions.

The decision is based on a strong historical GPU success rate under similar memory conditions. No significant drift or instability has been observed in GPU execution in this context.

Key contributing factors include historical success factor has high influence. drift impact factor has low influence. observation count factor has low influence. memory stability factor has high influence."
run "$ATENIA" explain --gpu-available=true --vram-band=0 --ram-band=0 --table "$WORK/t.table" --json
expect_rc 0
expect_out_has '"recommended_backend":"GPU","confidence":0.34237194,'
expect_out_has '{"kind":"observation_count","weight":0.04,'
# No GPU: the learned GPU rows do not apply to this context.
run "$ATENIA" explain --gpu-available=false --vram-band=0 --ram-band=0 --table "$WORK/t.table"
expect_rc 0; expect_out_eq "No learned data available for the given context."

run "$ATENIA" explain --gpu-available=true --vram-band=0 --ram-band=0 --table "$WORK/missing.table"
expect_rc 2; expect_out_empty
printf 'NOT_A_TABLE\n' > "$WORK/bad.table"
run "$ATENIA" explain --gpu-available=true --vram-band=0 --ram-band=0 --table "$WORK/bad.table"
expect_rc 2; expect_err_eq "atenia: $WORK/bad.table:1: not a self-training table; expected header ATENIA_SELFTRAINER_V2 (or ATENIA_SELFTRAINER_V1)"
finish
