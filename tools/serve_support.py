"""Starting and stopping `vision-tasks serve` for the browser and load tests."""
import os
import re
import socket
import subprocess
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "images")
OUTPUT = os.path.join(ROOT, "test-output")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`vision-tasks serve` on a free loopback port, stopped when the `with` block ends."""

    def __init__(self, binary, workers=2):
        self.binary = binary
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def __enter__(self):
        if not os.path.exists(self.binary):
            raise SystemExit(f"error: {self.binary} is missing: build vision-tasks first")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--models", os.path.join(ROOT, "models"),
             "--workers", str(self.workers)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 120
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"error: the server exited: {self.process.stdout.read()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        raise SystemExit("error: the server did not answer /healthz within 120 s")

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


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *arguments], check=True)
