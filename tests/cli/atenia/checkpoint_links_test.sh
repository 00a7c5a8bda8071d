#!/usr/bin/env bash
# Nothing under a checkpoint root is reached through a symbolic link that leaves it. Before the
# fix, an interrupted save's recovery (run by inspect and restore too) renamed
# ROOT/.save-backup/<rel> to ROOT/<rel> through a planted link ROOT/evil -> elsewhere, replacing
# files outside the root with the attacker's.
ATENIA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 1
snapshot() { (cd "$1" && find . -print | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 cat); }

/usr/bin/python3 -c "import numpy as np; np.save('x.npy', np.arange(4, dtype=np.float32))" || fail "numpy"
run "$ATENIA" checkpoint save R --from x.npy --created-unix 5
expect_rc 0

mkdir outside
echo "the user's own file" > outside/existing.txt
ln -s "$WORK/outside" R/evil
for cmd in inspect restore save; do
  rm -rf R/.save-backup
  mkdir -p R/.save-backup/evil R/.save-backup/deeper
  echo "attacker" > R/.save-backup/evil/existing.txt
  echo "attacker" > R/.save-backup/evil/planted.txt
  ln -s "$WORK/outside/existing.txt" R/.save-backup/deeper/link.txt
  before=$(snapshot outside)
  case $cmd in
    inspect) run "$ATENIA" checkpoint inspect R ;;
    restore) mkdir -p "back-$cmd"; run "$ATENIA" checkpoint restore R --out "back-$cmd" ;;
    save) run "$ATENIA" checkpoint save R --from x.npy --created-unix 6 ;;
  esac
  LAST="checkpoint $cmd with a link out of the root"
  expect_rc 2
  grep -qF "R/evil is not a directory (a symbolic link or another file)" "$WORK/err" \
    || fail "the error does not name the link"
  [ "$(snapshot outside)" == "$before" ] || fail "a file outside the root was written"
  [ -L R/evil ] || fail "the planted link was replaced"
  [ ! -e R/deeper/link.txt ] && [ ! -L R/deeper/link.txt ] || fail "a link in the backup was moved into the root"
done
finish
