#!/usr/bin/env bash
# Creates (if missing) and enters the emulated Debian sid arm64 root that `make test-arm64` builds
# and tests the package in. Debian packages only (qemu-user-static, binfmt-support, debootstrap on the
# host; swiftlang from sid inside); Swift packages come from the machine's local mirror, bind-mounted
# read-only at the same path, with the host's git URL rewrite copied into the root.
#   tools/platform/arm64_root.sh create        make the root if it is missing (about 10 minutes)
#   tools/platform/arm64_root.sh run 'CMD'     run the shell command CMD in the root, in a copy of the package (/src)
#   tools/platform/arm64_root.sh packages      print the Debian packages the root gets (what its ready-marker holds)
#   tools/platform/arm64_root.sh path          print the root's folder on the host (its /tmp is $(... path)/tmp)
#   tools/platform/arm64_root.sh unmount       unmount what the script mounted in the root (/dev, /proc, the package
#                                     mirror, models/); do so before removing the root's folder
# ARM64_ROOT (default .build-arm64/root, kept out of git) names the root's folder.
# ARM64_ARCH=amd64 makes and enters the same root for x86-64 instead (no emulation: Debian's Swift at
# native speed, for trying SwiftPM quickly); give it its own ARM64_ROOT.
# ARM64_SKIP_HOST_SETUP=1 installs nothing on the host and registers no binfmt handler (for the script's
# own test, tools/platform/test_arm64_root.sh, whose scratch root of host binaries needs no emulation).
# The package's models/ (a folder, or a link to one) is mounted read-only at its real path in the root
# and /src/models links to it; with no models/, the root has no /src/models (`make models` fetches them).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=${ARM64_ROOT:-$PWD/.build-arm64/root}
MIRROR=${ARM64_DEBIAN_MIRROR:-http://deb.debian.org/debian}
ARCH=${ARM64_ARCH:-arm64}
PACKAGES="swiftlang libstdc++-16-dev libc6-dev pkg-config git ca-certificates libjpeg62-turbo-dev \
libpng-dev libdeflate-dev libstb-dev libcairo2-dev zlib1g-dev ffmpeg libswscale-dev curl"

[ "$(id -u)" = 0 ] || { echo "arm64: needs root (debootstrap, mounts, chroot)" >&2; exit 1; }

host_tools() {
    local need=()
    command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
    if [ "$ARCH" = amd64 ]; then
        [ "$(uname -m)" = x86_64 ] || { echo "arm64: ARM64_ARCH=amd64 needs an x86-64 host" >&2; exit 1; }
        [ ${#need[@]} = 0 ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }
        return
    fi
    [ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
    command -v update-binfmts >/dev/null 2>&1 || need+=(binfmt-support)
    if [ ${#need[@]} -gt 0 ]; then
        echo "arm64: installing on the host: ${need[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    fi
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 \
        || update-binfmts --import qemu-aarch64
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || { echo "arm64: qemu-aarch64 is not registered with binfmt_misc" >&2; exit 1; }
}

mounts() {
    mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
    mountpoint -q "$ROOT/dev" || mount --bind /dev "$ROOT/dev"
    local repos
    repos=$(git config --system --get-regexp '^url\..*\.insteadof$' | head -1 | sed -E 's/^url\.(.*)\.insteadof .*/\1/' || true)
    if [ -n "$repos" ] && [ -d "$repos" ]; then
        mkdir -p "$ROOT$repos"
        mountpoint -q "$ROOT$repos" || { mount --bind "$repos" "$ROOT$repos" && mount -o remount,bind,ro "$ROOT$repos"; }
        git config --system --get-regexp '^url\.' | while read -r key value; do
            git config --file "$ROOT/root/.gitconfig" --get-all "$key" 2>/dev/null | grep -qxF "$value" \
                || git config --file "$ROOT/root/.gitconfig" --add "$key" "$value"
        done
    fi
    git config --file "$ROOT/root/.gitconfig" safe.directory '*'
    # models/, read-only at its real path, and /src/models a link to it: sync_sources copies no file git
    # ignores, so a plain models/ folder would otherwise be missing there, as a link to it would be.
    mkdir -p "$ROOT/src"
    if [ -e "$ROOT/src/models" ] && [ ! -L "$ROOT/src/models" ]; then
        echo "arm64: $ROOT/src/models is not a link; remove it and run again" >&2
        exit 1
    fi
    if [ -d models/ ]; then
        local target
        target=$(readlink -f models)
        mkdir -p "$ROOT$target"
        mountpoint -q "$ROOT$target" || { mount --bind "$target" "$ROOT$target" && mount -o remount,bind,ro "$ROOT$target"; }
        ln -sfn "$target" "$ROOT/src/models"
    else
        rm -f "$ROOT/src/models"
        echo "arm64: the package has no models/ (make models fetches them): the root has none" >&2
    fi
}

# The package's files (tracked, and new ones git does not ignore) copied to /src in the root, files
# gone from the package removed there: the root keeps its own .build and Package.resolved (an
# x86-64 build's pins would make SwiftPM fetch the server's packages there too).
sync_sources() {
    mkdir -p "$ROOT/src"
    local want have
    want=$(mktemp) have=$(mktemp)
    git ls-files -z -co --exclude-standard | sort -z > "$want"
    tar --null --ignore-failed-read -T "$want" -cf - 2>/dev/null | tar -xf - -C "$ROOT/src"
    (cd "$ROOT/src" && find . -path ./.build -prune -o -type f -not -name Package.resolved -printf '%P\0') | sort -z > "$have"
    comm -z -23 "$have" "$want" | (cd "$ROOT/src" && xargs -0 -r rm -f --)
    rm -f "$want" "$have"
}

create() {
    [ "${ARM64_SKIP_HOST_SETUP:-0}" = 1 ] || host_tools
    # The marker holds the package list installed: a root made with an older list gets the new packages.
    if [ "$(cat "$ROOT/.visiontasks-root-ready" 2>/dev/null)" = "$PACKAGES" ]; then return; fi
    local start=$SECONDS
    if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
        mkdir -p "$ROOT"
        debootstrap --arch="$ARCH" --variant=minbase sid "$ROOT" "$MIRROR"
        echo "arm64: debootstrap took $((SECONDS - start)) s"
    fi
    # The sid mirror's Release file can be past its Valid-Until date.
    echo 'Acquire::Check-Valid-Until "false";' > "$ROOT/etc/apt/apt.conf.d/99no-valid-until"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
    mounts
    chroot "$ROOT" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
        "apt-get update -qq && apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null && apt-get clean"
    echo "$PACKAGES" > "$ROOT/.visiontasks-root-ready"
    echo "arm64: root ready in $((SECONDS - start)) s: $ROOT"
}

# Every mount under the root, deepest first; fails if one stays.
unmount_all() {
    local m
    { findmnt -rn -o TARGET | grep -F "$ROOT/" || true; } | sort -r | while read -r m; do umount "$m"; done
    if findmnt -rn -o TARGET | grep -qF "$ROOT/"; then echo "arm64: mounts left under $ROOT" >&2; exit 1; fi
}

case "${1:-}" in
    create) create ;;
    packages) echo "$PACKAGES" ;;
    path) echo "$ROOT" ;;
    unmount) unmount_all ;;
    run) shift; create; sync_sources; mounts
         chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
             /bin/bash -c "cd /src && $*" ;;
    *) echo "usage: tools/platform/arm64_root.sh create | run CMD... | packages | path | unmount" >&2; exit 2 ;;
esac
