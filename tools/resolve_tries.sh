#!/usr/bin/env bash
# How reliably Debian's SwiftPM resolves the package (docs/ARM.md, "Swift versions"): in the Debian sid
# root of tools/arm64_root.sh (ARM64_ARCH=amd64 for the native x86-64 one), TRIES times from a fresh
# state (no .build, no Package.resolved) `swift package resolve` then `swift package show-dependencies`
# (which loads the whole graph), with SWIFT_DETERMINISTIC_HASHING=1 and then without; prints each try's
# result (the first error line of a failure) and the counts. Not a test: minutes per try under emulation.
#   tools/resolve_tries.sh [TRIES]     TRIES: per hashing mode, default 10
set -euo pipefail
cd "$(dirname "$0")/.."
tries=${1:-10}
# The tries run in a copy of /src, so that `tools/arm64_root.sh run` syncing /src meanwhile changes nothing.
bash tools/arm64_root.sh run "rm -rf /tmp/resolve-tries && mkdir /tmp/resolve-tries && tar -cf - --exclude=./.build \
    --exclude=./Package.resolved . | tar -xf - -C /tmp/resolve-tries && cd /tmp/resolve-tries && \
    for hashing in SWIFT_DETERMINISTIC_HASHING=1 'default hashing'; do ok=0; failed=0; \
        if [ \"\$hashing\" = 'default hashing' ]; then with='env -u SWIFT_DETERMINISTIC_HASHING'; else with=\"env \$hashing\"; fi; \
        for i in \$(seq 1 $tries); do rm -rf .build Package.resolved; start=\$SECONDS; \
            if \$with swift package resolve > log 2>&1 && \$with swift package show-dependencies >> log 2>&1; \
            then ok=\$((ok + 1)); result=ok; else failed=\$((failed + 1)); result=\"FAIL: \$(grep -m1 error: log)\"; fi; \
            echo \"resolve (\$hashing) try \$i (\$((SECONDS - start)) s): \$result\"; done; \
        echo \"resolve (\$hashing): \$ok resolved, \$failed failed of $tries\"; done"
