"""Starting and stopping `vision-tasks serve` (and its MediaPipe peer) for the browser and load tests."""
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUTPUT = os.path.join(ROOT, "test-output")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`vision-tasks serve` on a free loopback port, stopped when the `with` block ends; `models` is the
    models folder (default: the project's)."""

    def __init__(self, binary, workers=2, models=None):
        self.binary = binary
        self.workers = workers
        self.models = models or os.path.join(ROOT, "models")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    name = "the server"
    ready_seconds = 120

    def command(self):
        if not os.path.exists(self.binary):
            raise SystemExit(f"error: {self.binary} is missing: build vision-tasks first")
        return [self.binary, "serve", "--port", str(self.port), "--models", self.models,
                "--workers", str(self.workers)]

    def __enter__(self):
        self.process = subprocess.Popen(self.command(), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + self.ready_seconds
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"error: {self.name} exited: {self.process.stdout.read()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"error: {self.name} did not answer /healthz within {self.ready_seconds} s")

    def rss_kib(self):
        """The server's resident set size in KiB (from /proc)."""
        with open(f"/proc/{self.process.pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class MediaPipeServer(Server):
    """tools/bench/mediapipe_server.py (MediaPipe 1.2.2, Flask + worker processes) on a free loopback port."""
    name = "the MediaPipe server"
    ready_seconds = 180

    def command(self):
        return [sys.executable, os.path.join(ROOT, "tools", "bench", "mediapipe_server.py"), "--port", str(self.port),
                "--workers", str(self.workers)]

    def rss_kib(self):
        """The RSS of the server and its worker processes, in KiB."""
        total = 0
        for pid in [self.process.pid] + children(self.process.pid):
            try:
                with open(f"/proc/{pid}/status") as status:
                    total += int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))
            except (OSError, AttributeError):
                pass
        return total


def children(pid):
    """Every descendant process id of `pid` (from /proc)."""
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            kids = []
        found += kids
        frontier += kids
    return found


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *arguments], check=True)
