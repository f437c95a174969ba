#!/usr/bin/env python3
"""Loopback load test of `vision-tasks serve`, and its latency figures.

Load (default): CLIENTS threads POST the fixture photos to the four tasks in turn while two live
sockets stream frames, for DURATION seconds. Every answer must be 200 and byte-equal to the CLI's
`result` for the same photo (the library's answer); every live reply must carry a result. The
server's RSS after the clients leave (and 12 s of quiet, past the server's idle trim of kept pixel
memory and malloc's free pages, 5 to 10 s) must not exceed its RSS when the load ends by more than 10%:
memory stays bounded, and lower is the trim at work.

Bench (--bench): POST /api/v1/face-landmarker only, at 1, 2 and 8 concurrent clients, printing
requests/s and p50/p99 latency; with --peer, the same against tools/bench/mediapipe_server.py (MediaPipe
1.2.2 under Flask with one worker process per core) and the ratios. Both servers get one worker per
core and 3 s of warm-up at 8 clients first. --json prints the figures as one JSON object too.

Usage: tools/checks/load_test.py [--duration S] [--clients N] [--bench [--peer] [--json]] [--binary PATH] [--photo FILE]
"""
import argparse
import http.client
import json
import os
import struct
import subprocess
import sys
import threading
import time

from serve_support import IMAGES, ROOT, MediaPipeServer, Server

try:
    import websocket  # websocket-client, installed with selenium
except ImportError:
    sys.exit("FAIL: websocket-client is missing (tools/setup/setup.sh installs selenium, which brings it)")

CASES = [("face-detector", "astronaut.png"), ("face-landmarker", "astronaut.png"),
         ("hand-landmarker", "woman_sitting.jpg"), ("gesture-recognizer", "hand_thumb_up.jpg")]
MODELS = {"face-detector": "blaze_face_short_range.tflite", "face-landmarker": "face_landmarker.task",
          "hand-landmarker": "hand_landmarker.task", "gesture-recognizer": "gesture_recognizer.task"}


def cli_result(binary, task, photo):
    """The CLI's `result` for one photo, as the exact JSON text it printed."""
    out = subprocess.run([binary, task, "--model", os.path.join(ROOT, "models", MODELS[task]), "--threads", "1",
                          os.path.join(IMAGES, photo)], check=True, capture_output=True, text=True).stdout
    line = json.loads(out)
    return json.dumps(line["result"], sort_keys=True)


def post(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    connection.request("POST", path, body=body, headers={"Content-Type": "application/octet-stream"})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data, time.perf_counter() - started


def load(binary, duration, clients):
    photos = {photo: open(os.path.join(IMAGES, photo), "rb").read() for _, photo in CASES}
    expected = {task: cli_result(binary, task, photo) for task, photo in CASES}
    errors, counts, live_replies = [], {"requests": 0}, [0, 0]
    lock = threading.Lock()
    with Server(binary) as server:
        stop = time.time() + duration

        def client(index):
            i = index
            while time.time() < stop:
                task, photo = CASES[i % len(CASES)]
                i += 1
                status, data, _ = post(server.port, f"/api/v1/{task}", photos[photo])
                with lock:
                    counts["requests"] += 1
                    if status != 200:
                        errors.append(f"{task}: HTTP {status} {data[:200]!r}")
                    elif json.dumps(json.loads(data), sort_keys=True) != expected[task]:
                        errors.append(f"{task}: the answer differs from the CLI's result")

        def live(index):
            socket = websocket.create_connection(f"ws://127.0.0.1:{server.port}/api/v1/face-landmarker/live", timeout=60)
            t = 0
            while time.time() < stop:
                t += 40
                socket.send_binary(struct.pack("<q", t) + photos["astronaut.png"])
                reply = json.loads(socket.recv())
                if "result" not in reply or len(reply["result"]["faceLandmarks"]) != 1:
                    with lock:
                        errors.append(f"live socket {index}: {reply}")
                live_replies[index] += 1
            socket.close()

        threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        threads += [threading.Thread(target=live, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        samples = []  # the server's RSS every 5 s under load, to show whether it grows
        while any(thread.is_alive() for thread in threads):
            if time.time() < stop:
                samples.append(server.rss_kib())
            time.sleep(min(5, max(0.1, stop - time.time())))
        for thread in threads:
            thread.join()
        rss_loaded = server.rss_kib()
        time.sleep(12)
        rss_after = server.rss_kib()
    print(f"load: {clients} clients + 2 live sockets for {duration} s: {counts['requests']} requests, "
          f"{sum(live_replies)} live replies, {len(errors)} errors")
    print(f"load: server RSS {rss_loaded / 1024:.1f} MiB at the end of the load, {rss_after / 1024:.1f} MiB after the clients left")
    print("load: server RSS under load every 5 s (MiB): " + " ".join(f"{kib / 1024:.0f}" for kib in samples))
    for error in errors[:10]:
        print("FAIL", error)
    ok = not errors and counts["requests"] > 0 and min(live_replies) > 0 and rss_after <= 1.1 * rss_loaded
    if rss_after > 1.1 * rss_loaded:
        print("FAIL: the RSS after the clients left grew more than 10% past the RSS under load")
    return ok


def measure(port, photo, duration, name):
    """{clients: (requests/s, p50 ms, p99 ms)} for POST /api/v1/face-landmarker at 1, 2 and 8 clients."""
    figures = {}
    for clients, seconds in ((8, 3.0), (1, duration), (2, duration), (8, duration)):
        warm = seconds == 3.0 and not figures
        latencies, failures, stop = [], [], time.time() + seconds
        lock = threading.Lock()

        def client():
            while time.time() < stop:
                status, data, took = post(port, "/api/v1/face-landmarker", photo)
                with lock:
                    (latencies.append(took) if status == 200 else failures.append(f"HTTP {status} {data[:120]!r}"))

        threads = [threading.Thread(target=client) for _ in range(clients)]
        started = time.time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.time() - started
        if failures or not latencies:
            raise SystemExit(f"FAIL: {name}: {len(failures)} failed requests, first: {failures[:1]}")
        if warm:
            continue
        latencies.sort()
        p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
        figures[clients] = (len(latencies) / elapsed, p(0.5), p(0.99))
        print(f"bench: {name}: {clients} client(s): {figures[clients][0]:.1f} requests/s, p50 {p(0.5):.1f} ms, "
              f"p99 {p(0.99):.1f} ms ({len(latencies)} requests, load average {os.getloadavg()[0]:.2f})")
    return figures


def bench(binary, duration, peer, photo_path, as_json):
    photo = open(photo_path, "rb").read()
    workers = os.cpu_count() or 2
    with Server(binary, workers=workers) as server:
        ours = measure(server.port, photo, duration, "vision-tasks serve")
    result = {"ours": ours, "loadAverage": os.getloadavg()[0]}
    if peer:
        with MediaPipeServer(binary, workers=workers) as server:
            theirs = measure(server.port, photo, duration, "MediaPipe 1.2.2 Flask + processes")
        result["mediapipe"] = theirs
        for clients in ours:
            print(f"bench: {clients} client(s): requests/s {ours[clients][0] / theirs[clients][0]:.2f}x MediaPipe's, "
                  f"p99 {ours[clients][2] / theirs[clients][2]:.2f}x")
    if as_json:
        print(json.dumps(result))
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--peer", action="store_true", help="with --bench: also measure tools/bench/mediapipe_server.py")
    parser.add_argument("--json", action="store_true", help="with --bench: print the figures as JSON too")
    parser.add_argument("--photo", default=os.path.join(IMAGES, "astronaut.png"), help="with --bench: the request body")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "vision-tasks"))
    args = parser.parse_args()
    ok = bench(args.binary, args.duration, args.peer, args.photo, args.json) if args.bench else load(args.binary, args.duration, args.clients)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
