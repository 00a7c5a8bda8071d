#!/usr/bin/env bash
# nltrain train --fp64 under mpirun with 2 ranks: refused before anything is trained or written,
# exit 3, one line from rank 0 naming --fp64 and the ranks (mpiexec adds its own about the exit
# code); with 1 rank it trains.
NLTRAIN=$1
MPIRUN=$2
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/cli_assert.sh"
cd "$WORK" || exit 2
. "$HERE/mpi_env.sh"

head -c 2000 "$HERE/train_test.sh" >text.txt
M=(train --fp64 --d 8 --heads 2 --seq-len 8 --window 8 --steps 2 --quiet --data text.txt)
run "$MPIRUN" -n 2 "$NLTRAIN" "${M[@]}" --out two
expect_rc 3
[ "$(grep -c '^nltrain: ' "$WORK/err")" -eq 1 ] || fail "want one nltrain line, from rank 0"
expect_err_has "nltrain: --fp64 trains in one process; it does not run across 2 MPI ranks"
[ ! -s "$WORK/out" ] || fail "stdout is not empty"
[ ! -e two ] || fail "a refused run created its run directory"
run "$MPIRUN" -n 1 "$NLTRAIN" "${M[@]}" --out one
expect_rc 0
[ -e one/checkpoint ] || fail "one rank: no checkpoint"
finish
