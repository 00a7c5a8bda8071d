#!/usr/bin/env bash
# Nothing under a checkpoint root is reached through a symbolic link that leaves it. Before the
# fix, an interrupted save's recovery (run by inspect and restore too) renamed
# ROOT/.save-backup/<rel> to ROOT/<rel> through a planted link ROOT/evil -> elsewhere, replacing
# files outside the root with the attacker's. Now inspect and restore only read: they leave the
# root and the outside byte-identical (a listing with hashes); the writers (save, recover) walk
# the root through descriptors opened with O_NOFOLLOW and refuse the link.
ATENIA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_assert.sh"
cd "$WORK" || exit 1
# Every path with its type and link target, and every regular file's SHA-256.
snapshot() { (cd "$1" && find . -printf '%p %y %l\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum); }

/usr/bin/python3 -c "import numpy as np; np.save('x.npy', np.arange(4, dtype=np.float32))" || fail "numpy"
run "$ATENIA" checkpoint save R --from x.npy --created-unix 5
expect_rc 0

mkdir outside
echo "the user's own file" > outside/existing.txt
ln -s "$WORK/outside" R/evil
for cmd in inspect restore save recover; do
  rm -rf R/.save-backup
  mkdir -p R/.save-backup/evil R/.save-backup/deeper
  echo "attacker" > R/.save-backup/evil/existing.txt
  echo "attacker" > R/.save-backup/evil/planted.txt
  ln -s "$WORK/outside/existing.txt" R/.save-backup/deeper/link.txt
  echo "would be put back" > R/.save-backup/aaa.txt   # a recovery would move it to R/aaa.txt
  before=$(snapshot outside)
  root_before=$(snapshot R)
  case $cmd in
    inspect) run "$ATENIA" checkpoint inspect R ;;
    restore) mkdir -p "back-$cmd"; run "$ATENIA" checkpoint restore R --out "back-$cmd" ;;
    save) run "$ATENIA" checkpoint save R --from x.npy --created-unix 6 ;;
    recover) run "$ATENIA" checkpoint recover R ;;
  esac
  LAST="checkpoint $cmd with a link out of the root"
  expect_rc 2
  case $cmd in
    inspect|restore)
      [ "$(snapshot R)" == "$root_before" ] || fail "a command that only reads changed the root"
      [ "$cmd" != restore ] || grep -qF "run \`atenia checkpoint recover R\`" "$WORK/err" \
        || fail "restore does not name the command that recovers" ;;
    save) grep -qE "R/(evil|\.save-backup/deeper/link\.txt) is a symbolic link or a special file" "$WORK/err" \
         || fail "save does not name the link it refuses" ;;
    *) grep -qF "R/evil is not a directory (a symbolic link or another file)" "$WORK/err" \
         || fail "the error does not name the link" ;;
  esac
  [ "$(snapshot outside)" == "$before" ] || fail "a file outside the root was written"
  [ -L R/evil ] || fail "the planted link was replaced"
  rm -f R/aaa.txt
  [ ! -e R/deeper/link.txt ] && [ ! -L R/deeper/link.txt ] || fail "a link in the backup was moved into the root"
done

# A save writes its blobs through R/blobs: a link there (or anywhere below the root) is refused
# before anything is written, and nothing appears outside the root.
rm -rf R S outside/blobs-target && mkdir -p S outside/blobs-target
ln -s "$WORK/outside/blobs-target" S/blobs
before=$(snapshot outside)
run "$ATENIA" checkpoint save S --from x.npy --created-unix 7
LAST="checkpoint save into a root whose blobs directory is a link"
expect_rc 2
grep -qF "S/blobs is a symbolic link or a special file" "$WORK/err" || fail "save does not name the link"
[ "$(snapshot outside)" == "$before" ] || fail "save wrote through a link out of the root"
finish
