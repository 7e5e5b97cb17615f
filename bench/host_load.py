"""A bounded load test of ``brandubh host`` on the loopback: the figures of
docs/host.md ("Load"). A script, not a test: nothing here asserts a time.

    python bench/host_load.py [--games 50] [--plies 40] [--watchers 1] [--pause 0]

It starts ``brandubh host --port 0`` on a fresh store in a temporary folder
(a process of its own, so that its memory is its own), then plays ``--games``
games at once, each on a thread of its own: both seats' moves (a random
legal one each, read from the last state) on one kept-alive connection,
``--pause`` seconds apart in each game (0: as fast as the server answers;
2: people at a quick game),
and ``--watchers`` event streams a game counting the states they are sent.
It prints the moves a second, the latency of a move (sent to answered,
stored included), the latency of its delivery to each watcher (the move
sent to the new state read by the watcher), how many states the watchers
were sent, the server's resident memory and the store's size, with the load
average seen. The limit on open files is raised to its hard limit first
(each watcher is a socket on both sides).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def ask(connection: http.client.HTTPConnection, method: str, path: str, body=None, token=None):
    headers = {"Content-Type": "application/json"} if method == "POST" else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, json.dumps(body).encode() if body is not None else None, headers)
    answer = connection.getresponse()
    return answer.status, json.loads(answer.read())


VERSION = re.compile(rb'"version": (\d+)')


def play(port: int, plies: int, seed: int, latencies: list, counts: dict, lock: threading.Lock,
         watchers: int, started: threading.Event, delivered: list, pause: float = 0.0) -> None:
    rng = random.Random(seed)
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    status, made = ask(c, "POST", "/api/host/games", {"side": "attackers", "clock": "15+10"})
    assert status == 201, made
    tokens = {"attackers": made["token"], "defenders": made["invite_token"]}
    path = f"/api/host/games/{made['id']}"
    seen = [0] * watchers
    sent_at: dict[int, float] = {}   # a state's version to when the move that made it was sent

    def watch(index: int) -> None:
        w = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        w.request("GET", path + "/events")
        answer = w.getresponse()
        mine = []
        while True:
            line = answer.readline()
            if not line:
                break
            if line.startswith(b"data:"):
                seen[index] += 1
                found = VERSION.search(line)
                when = sent_at.get(int(found.group(1))) if found else None
                if when is not None:
                    mine.append(time.perf_counter() - when)
        with lock:
            delivered.extend(mine)

    threads = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(watchers)]
    for t in threads:
        t.start()
    started.wait()
    _, state = ask(c, "GET", path)
    moves = 0
    if pause:
        time.sleep(rng.uniform(0, pause))   # the games' moves spread over the pause, not all at once
    while state["status"] == "active" and moves < plies:
        if pause and moves:
            time.sleep(pause)
        move = rng.choice(state["legal"])
        begin = time.perf_counter()
        sent_at[state["version"] + 1] = begin
        status, state = ask(c, "POST", path + "/move", {"move": move["from"] + move["to"]},
                            tokens[state["to_move"]])
        took = time.perf_counter() - begin
        assert status == 200, state
        moves += 1
        with lock:
            latencies.append(took)
    if state["status"] == "active":
        ask(c, "POST", path + "/resign", {}, tokens[state["to_move"]])   # the watchers' streams end
    for t in threads:
        t.join(60)
    with lock:
        counts["moves"] += moves
        counts["sent"] += sum(seen)
        counts["expected"] += watchers * (moves + 2)   # the state at the start, each move, the end
    c.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--watchers", type=int, default=1)
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between two moves of a game")
    args = parser.parse_args()
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))   # the server, started below, inherits it
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "load.sqlite")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        server = subprocess.Popen([sys.executable, "-m", "brandubh", "host", "--port", "0", "--db", db,
                                   "--games-per-client", str(args.games + 10), "--rate", "100000",
                                   "--streams-per-client", str(args.games * args.watchers + 10)],
                                  stdout=subprocess.PIPE, text=True, env=env)
        try:
            port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
            idle = rss_kib(server.pid)
            latencies: list[float] = []
            counts = {"moves": 0, "sent": 0, "expected": 0}
            delivered: list[float] = []
            lock = threading.Lock()
            started = threading.Event()
            players = [threading.Thread(target=play, args=(port, args.plies, n, latencies, counts, lock,
                                                           args.watchers, started, delivered, args.pause))
                       for n in range(args.games)]
            for t in players:
                t.start()
            time.sleep(max(1.0, args.games * args.watchers / 500))   # every game made and followed first
            peak = rss_kib(server.pid)
            begin = time.perf_counter()
            started.set()
            while any(t.is_alive() for t in players):
                peak = max(peak, rss_kib(server.pid))
                time.sleep(0.1)
            wall = time.perf_counter() - begin
            latencies.sort()

            def pct(p: float) -> float:
                return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

            print(f"{args.games} games at once, {args.watchers} watcher(s) each, {args.plies} plies at most, "
                  f"{args.pause:g} s between a game's moves: "
                  f"{counts['moves']} moves in {wall:.1f} s = {counts['moves'] / wall:.0f} moves a second")
            print(f"latency of a move (ms): median {statistics.median(latencies) * 1000:.1f}, "
                  f"p95 {pct(0.95):.1f}, p99 {pct(0.99):.1f}, max {latencies[-1] * 1000:.1f}")
            delivered.sort()
            if delivered:
                print(f"delivery of a move to a watcher (ms): median {statistics.median(delivered) * 1000:.1f}, "
                      f"p95 {1000 * delivered[int(0.95 * len(delivered))]:.1f}, "
                      f"p99 {1000 * delivered[int(0.99 * len(delivered))]:.1f}, max {delivered[-1] * 1000:.1f}")
            print(f"states sent to watchers: {counts['sent']} of {counts['expected']} "
                  "(a slow watcher may miss states between, never the last)")
            print(f"server memory (RSS): {idle / 1024:.0f} MiB idle, {peak / 1024:.0f} MiB at the peak; "
                  f"store {sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)) / 1024:.0f} KiB; "
                  f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
