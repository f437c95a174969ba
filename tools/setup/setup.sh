#!/usr/bin/env bash
# Installs what building and testing VisionTasks needs and is missing:
# Debian packages (with apt-get when run as root), and PySpark from PyPI for the Spark example.
set -euo pipefail

need=()
pkgconfig_has() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkgconfig_has libjpeg || need+=(libjpeg62-turbo-dev)
pkgconfig_has libpng16 || need+=(libpng-dev)
# libdeflate inflates the common PNGs (8-bit, non-interlaced) in one call, faster than zlib through libpng.
pkgconfig_has libdeflate || need+=(libdeflate-dev)
# stb_image decodes JPEGs: the decoder MediaPipe's file loader uses, so the pixels are its pixels.
pkgconfig_has stb || need+=(libstb-dev)
pkgconfig_has cairo || need+=(libcairo2-dev)
# Labels on annotated pictures need a font Cairo finds through fontconfig.
{ command -v fc-list >/dev/null 2>&1 && fc-list | grep -q .; } || need+=(fonts-dejavu-core)
# Video files and live sources go through Debian's ffmpeg (ffmpeg and ffprobe, libx264 for writing).
{ command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; } || need+=(ffmpeg)
# ffmpeg sends frames as it decoded them; its own libswscale turns them into RGB in our process.
pkgconfig_has libswscale || need+=(libswscale-dev)
pkgconfig_has zlib || need+=(zlib1g-dev)
command -v python3 >/dev/null 2>&1 || need+=(python3)
# pip installs the Python packages below (PyPI).
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
# The CLI's hostile-file tests measure the tool's peak memory with GNU time.
[ -x /usr/bin/time ] || need+=(time)
# The Spark example (examples/spark) runs on Java 17+.
command -v java >/dev/null 2>&1 || need+=(default-jre-headless)
# The browser test of `vision-tasks serve` drives Debian's chromium through chromium-driver.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
# The NEON kernels' test (tools/platform/test_neon_kernels.sh) cross-compiles them for aarch64 and runs them
# under qemu-aarch64.
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
# `make bench` measures the serial fraction of --jobs from a scheduler trace (tools/bench/serial_fraction.py).
command -v perf >/dev/null 2>&1 || need+=(linux-perf)
{ command -v qemu-aarch64-static >/dev/null 2>&1 || command -v qemu-aarch64 >/dev/null 2>&1; } || need+=(qemu-user-static)

if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "setup: installing Debian packages: ${need[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
        echo "setup: missing Debian packages: ${need[*]}" >&2
        echo "setup: run 'sudo apt-get install ${need[*]}' (or run make as root) and try again" >&2
        exit 1
    fi
fi
command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH; install Swift 6 first" >&2; exit 1; }
# Python packages from PyPI, for the Python that runs the tools. On Debian's own python3 (PEP 668: an
# "externally managed" environment) pip installs nothing without PIP_BREAK_SYSTEM_PACKAGES; an older pip
# ignores the variable.
pip_install() { # module package...
    python3 -c "import $1" >/dev/null 2>&1 && return
    shift
    echo "setup: installing $* from PyPI"
    PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet "$@"
}
# PySpark for the Spark example's local-mode test (examples/spark/test_local.py).
pip_install pyspark "pyspark==4.3.0"
# Selenium drives chromium in the browser test.
pip_install selenium "selenium==4.27.1"
# Google's MediaPipe and LiteRT: the writer's check in `make test` (tools/checks/check_written_classifier.py),
# `make bench`, and the reference makers of tools/references.
pip_install "mediapipe, ai_edge_litert" "mediapipe==1.2.2" "ai-edge-litert==2.3.0"
