#!/usr/bin/env bash
# The test of tools/platform/arm64_root.sh itself (`make test` runs it; a few seconds): on a scratch clone of the
# package, with a scratch root made of the host's own bash and env (and their libraries) whose
# ready-marker is in place, so nothing is debootstrapped, installed or emulated
# (ARM64_SKIP_HOST_SETUP=1), it runs `tools/platform/arm64_root.sh run` and checks what the root sees as
# /src/models: the files of a plain models/ folder, read-only; then those of a folder outside the
# clone that models/ has become a link to; then nothing once models/ is gone; and that `unmount` leaves
# no mount under the root.
#   tools/platform/test_arm64_root.sh [SCRIPT]   SCRIPT: the root script to test (default tools/platform/arm64_root.sh)
# Needs root (mounts, chroot). Unmounts all it mounted before removing the scratch folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
script=$(readlink -f "${1:-tools/platform/arm64_root.sh}")
[ "$(id -u)" = 0 ] || { echo "arm64 root test: needs root (mounts, chroot)" >&2; exit 1; }
[ -f "$script" ] || { echo "arm64 root test: no script $script" >&2; exit 1; }

scratch=$(mktemp -d /tmp/arm64-root-test.XXXXXX)
clone=$scratch/clone root=$scratch/root
# Unmounts every mount under the scratch folder, deepest first; removes the folder only when none is left.
cleanup() {
    local m left
    for _ in 1 2 3; do
        { findmnt -rn -o TARGET | grep -F "$scratch/" || true; } | sort -r | while read -r m; do umount "$m" || true; done
    done
    left=$(findmnt -rn -o TARGET | grep -cF "$scratch/" || true)
    if [ "$left" = 0 ]; then rm -rf --one-file-system "$scratch"
    else echo "arm64 root test: $left mounts left under $scratch; not removing it" >&2; fi
}
trap cleanup EXIT

git clone -q "$PWD" "$clone"
cp "$script" "$clone/tools/platform/arm64_root.sh"

# The scratch root: bash and env with the libraries and loader they load, at the host's paths.
mkdir -p "$root/bin" "$root/usr/bin" "$root/proc" "$root/dev" "$root/root"
cp "$(readlink -f /bin/bash)" "$root/bin/bash"
cp "$(readlink -f /usr/bin/env)" "$root/usr/bin/env"
for binary in /bin/bash /usr/bin/env; do ldd "$binary"; done | grep -oE '/[^ ]+' | sort -u | while read -r lib; do
    cp --parents -L "$lib" "$root"
done
ARM64_ROOT=$root bash "$script" packages > "$root/.visiontasks-root-ready"

passed=0 failed=0
# Runs CMD in the root; checks that it prints WANT.
expect() {
    local what=$1 want=$2 cmd=$3 got
    got=$(ARM64_ROOT=$root ARM64_SKIP_HOST_SETUP=1 bash "$clone/tools/platform/arm64_root.sh" run "$cmd" 2>"$scratch/stderr") || true
    if [ "$got" = "$want" ]; then
        passed=$((passed + 1))
        echo "ok: $what"
    else
        failed=$((failed + 1))
        echo "FAIL: $what: the root printed '$got', expected '$want'"
        sed 's/^/  stderr: /' "$scratch/stderr"
    fi
}
read_model='if read -r l < /src/models/face_landmarker.task; then echo "$l"; else echo missing; fi'

mkdir "$clone/models"
echo "plain folder $$" > "$clone/models/face_landmarker.task"
expect "a plain models/ folder is seen as /src/models" "plain folder $$" "$read_model"
expect "the root cannot write to models/" "read-only" \
    'if [ ! -f /src/models/face_landmarker.task ]; then echo missing
     elif { echo x > /src/models/face_landmarker.task; } 2>/dev/null; then echo writable; else echo read-only; fi'

mkdir "$scratch/elsewhere"
echo "linked folder $$" > "$scratch/elsewhere/face_landmarker.task"
mv "$clone/models" "$scratch/plain-models"
ln -s "$scratch/elsewhere" "$clone/models"
expect "models/ as a link to a folder outside the clone is seen as /src/models" "linked folder $$" "$read_model"

rm "$clone/models"
expect "without models/ the root has no /src/models" "none" '[ -e /src/models ] && echo present || echo none'

# `unmount` leaves nothing mounted under the root (it held /proc, /dev, the package mirror, models).
mounted=$({ findmnt -rn -o TARGET | grep -cF "$root/"; } || true)
if [ "$mounted" -gt 0 ] && ARM64_ROOT=$root bash "$clone/tools/platform/arm64_root.sh" unmount \
    && [ "$({ findmnt -rn -o TARGET | grep -cF "$root/"; } || true)" = 0 ]; then
    passed=$((passed + 1))
    echo "ok: unmount removes the root's $mounted mounts"
else
    failed=$((failed + 1))
    echo "FAIL: unmount: $mounted mounts before, $({ findmnt -rn -o TARGET | grep -cF "$root/"; } || true) after"
fi

echo "arm64 root: $passed passed, $failed failed"
[ "$failed" = 0 ]
