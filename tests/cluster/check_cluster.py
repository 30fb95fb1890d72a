#!/usr/bin/env python3
"""Checks tools/cluster/damas_cluster.py on a local Ray cluster bound to 127.0.0.1: each job
(training data, an endgame database, a match, an opening book) run as units through Ray gives
what the plain damas command gives (files compared byte for byte, the match's report line for
line), and a unit whose Ray worker is killed mid-run is
retried with the result unchanged.

    python3 tests/cluster/check_cluster.py [DAMAS]

DAMAS defaults to target/release/damas; Ray must be installed in this Python
(`pip install ray`). Exits non-zero with the reason on the first difference.
"""

import filecmp
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tools" / "cluster" / "damas_cluster.py"
DAMAS = str(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "target/release/damas").resolve())
RAY = str(Path(sys.executable).with_name("ray"))


def fail(why):
    sys.exit(f"check_cluster: FAILED: {why}")


def run(argv, **kw):
    out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if out.returncode != 0:
        fail(f"{' '.join(map(str, argv))}: exit {out.returncode}\n{out.stderr[-2000:]}")
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def same_tree(a, b):
    names_a, names_b = sorted(os.listdir(a)), sorted(os.listdir(b))
    if names_a != names_b:
        fail(f"{a} and {b} hold different files: {names_a} / {names_b}")
    for name in names_a:
        if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
            fail(f"{name} differs between {a} and {b}")
    return len(names_a)


def kill_a_worker_of(pattern, killed):
    """Kills the Ray worker (the parent) of the first damas process whose command line holds
    `pattern`, once one shows up; records what it killed in `killed`."""
    deadline = time.time() + 120
    while time.time() < deadline and not killed:
        found = subprocess.run(["pgrep", "-f", pattern], stdout=subprocess.PIPE, text=True)
        for pid in found.stdout.split():
            try:
                parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
                os.kill(parent, signal.SIGKILL)
                killed.append((int(pid), parent))
                return
            except (OSError, ValueError, IndexError):
                continue
        time.sleep(0.05)


def main():
    work = Path(tempfile.mkdtemp(prefix="damas-cluster-"))
    port = free_port()
    # Ray resolves 127.0.0.1 to the machine's address unless told that this is a cluster of
    # one machine (the variable's name is Ray's); its command-line head turns on token
    # authentication, which the driver must be told to use (the token is in ~/.ray).
    env = dict(
        os.environ,
        RAY_USAGE_STATS_ENABLED="0",
        RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0",
        RAY_AUTH_MODE="token",
    )
    # The token the head and its clients share: made once (~/.ray/auth_token), kept after.
    subprocess.run([RAY, "get-auth-token", "--generate"], stdout=subprocess.DEVNULL, env=env,
                   check=True)
    head = [RAY, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}"]
    head += ["--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"]
    run(head, env=env)
    address = f"127.0.0.1:{port}"
    driver = [sys.executable, str(DRIVER), "--address", address, "--damas", DAMAS]
    try:
        # Training data: 4 units, merged, against one process on one thread.
        data = ["--variant", "english", "--games", "24", "--nodes", "1000", "--seed", "7"]
        run(driver + ["--work", str(work / "dg"), "datagen", "--shards", "4"]
            + ["--out", str(work / "ray.data"), "--"] + data, env=env)
        run([DAMAS, "datagen"] + data + ["--threads", "1", "--out", str(work / "plain.data")])
        if not filecmp.cmp(work / "ray.data", work / "plain.data", shallow=False):
            fail("datagen: the merged units differ from the plain run")
        print("datagen: 4 units merged = the plain run, byte for byte")

        # Resumed: a job started again does only the units whose output is not kept.
        (work / "dg" / "datagen-3-of-4").unlink()
        (work / "ray.data").unlink()
        again = run(driver + ["--work", str(work / "dg"), "datagen", "--shards", "4"]
                    + ["--out", str(work / "ray.data"), "--"] + data, env=env)
        done = [line for line in again.stderr.splitlines() if line.startswith("[")]
        if len(done) != 1 or not done[0].startswith("[4/4] 3-of-4 done"):
            fail(f"datagen resumed: expected unit 3 alone to run, saw {done}")
        if not filecmp.cmp(work / "ray.data", work / "plain.data", shallow=False):
            fail("datagen resumed: the merged units differ from the plain run")
        print("datagen resumed: only the missing unit ran again; the file still equal")

        # English 2-4 database: 23 units in the order of their needs.
        run(driver + ["egdb", "--egdb-path", str(work / "egdb-ray"), "--"]
            + ["--variant", "english", "--pieces", "4"], env=env)
        run([DAMAS, "egdb", "build", "--variant", "english", "--pieces", "4"]
            + ["--egdb-path", str(work / "egdb-plain")])
        files = same_tree(work / "egdb-ray", work / "egdb-plain")
        print(f"egdb: English 2-4 by units = the plain build ({files} files, byte for byte)")

        # A 40-game match at a fixed node count in 4 units, the SPRT decided by the merge.
        games = ["--variant", "english", "--engine", "name=a", "--engine", "name=b"]
        games += ["--each", "option.hash=4", "--tc", "nodes=3000", "-n", "40", "--seed", "3"]
        sprt = ["elo0=0", "elo1=20"]
        merged = run(driver + ["--work", str(work / "m"), "match", "--shards", "4", "--sprt"]
                     + sprt + ["--"] + games, env=env)
        plain = run([DAMAS, "match"] + games + ["--sprt"] + sprt)
        report = merged.stdout.splitlines()[1:]
        if not report or report != plain.stdout.splitlines()[1:]:
            fail(f"match: the merged report differs:\n{merged.stdout}\n---\n{plain.stdout}")
        print(f"match: 4 units merged = the plain match ({plain.stdout.splitlines()[0]})")

        # A 60-position English book in rounds of 8, each round in 3 units merged before the
        # next.
        opening = ["--variant", "english", "--depth", "6", "--positions", "60", "--batch", "8"]
        run(driver + ["--work", str(work / "bk"), "book", "--shards", "3"]
            + ["--out", str(work / "ray.book"), "--"] + opening, env=env)
        run([DAMAS, "book", "build"] + opening + ["--out", str(work / "plain.book")])
        if not filecmp.cmp(work / "ray.book", work / "plain.book", shallow=False):
            fail("book: the merged units differ from the plain build")
        print("book: 60 positions in rounds of 3 units, merged = the plain build, byte for byte")

        # A unit's worker killed mid-run: the unit is done again, the data unchanged.
        killed = []
        killer = threading.Thread(
            target=kill_a_worker_of, args=("datagen --variant english --games 24", killed)
        )
        killer.start()
        run(driver + ["--work", str(work / "dg-kill"), "datagen", "--shards", "4"]
            + ["--out", str(work / "killed.data"), "--"] + data, env=env)
        killer.join()
        if not killed:
            fail("no unit's worker was seen to kill")
        if not filecmp.cmp(work / "killed.data", work / "plain.data", shallow=False):
            fail("datagen with a killed worker differs from the plain run")
        pid, worker = killed[0]
        print(f"retry: worker {worker} of unit process {pid} killed; the data is still equal")
    finally:
        subprocess.run([RAY, "stop", "--force"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env)
    print("check_cluster: all equal")


if __name__ == "__main__":
    main()
