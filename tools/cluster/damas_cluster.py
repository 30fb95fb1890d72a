#!/usr/bin/env python3
"""Runs damas's long jobs as work units on a Ray cluster (https://docs.ray.io).

Each job is a set of independent units that the damas binary knows how to do and to merge:

  datagen   `damas datagen --shard K/N`, merged by `damas datagen merge`
  egdb      `damas egdb build --unit NAME`, one pair of slices each, after the units its
            captures and promotions lead into (`damas egdb units` lists them and their needs)
  match     `damas match --shard K/N --results FILE`, merged by `damas match merge` (which
            decides the SPRT over all the games, in the order one process plays them)
  book      `damas book build --shard K/N --book BEFORE`, round after round (each round a
            batch of positions to expand), each round's units merged by `damas book merge`
            before the next

Ray schedules the units (one core each, and for the database the memory `egdb units`
estimates), retries a unit whose process fails or whose worker is lost, and the driver keeps
what each finished unit made in --work, so a job started again with the same arguments does
only what is left. Nothing here is a scheduler or a protocol of our own.

    ray start --head --node-ip-address=127.0.0.1 --num-cpus=2
    python3 tools/cluster/damas_cluster.py --address 127.0.0.1:6379 --work w datagen \\
        --shards 8 --out english.data -- --variant english --games 1000 --nodes 4000

Without --address the driver starts a Ray instance of its own on this machine for the job.
Every machine of the cluster needs the damas binary at the same path (--damas), and the egdb
job needs --egdb-path on a file system every machine sees (the units read the slices built
before them from it). docs/cluster.md has the rest.
"""

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import ray
except ImportError:  # The dry run needs no Ray.
    ray = None

# CPU time a number of an endgame slice takes to solve, in microseconds, measured on this
# project's 2-core machines (docs/egdb.md): English 2-6 in 1,668 s of CPU for 5.0 G numbers,
# Frisian's 4-piece slices (with king streaks) 2.3 us a number. For the dry run's estimate.
US_PER_NUMBER = {"frisian": 2.3, "frysk": 2.3}
US_PER_NUMBER_DEFAULT = 0.35


class UnitFailed(Exception):
    """A unit's damas process exited with an error."""


def die_with_parent():
    """Runs in the child before exec: the kernel kills it when its parent (the Ray worker)
    dies, so a unit whose worker is lost leaves no process behind writing the unit's files."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # Not Linux: a lost worker's child may run on until it finishes.


def run_damas(argv, name):
    """Runs one unit's damas command; raises UnitFailed (Ray then retries it) on failure."""
    child = subprocess.run(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=die_with_parent
    )
    if child.returncode != 0:
        tail = child.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise UnitFailed(f"unit {name}: exit status {child.returncode}: {' | '.join(tail)}")
    return child.stdout


def unit_with_output(argv, name, out_flag, inputs=()):
    """A unit that writes one file: run in a scratch directory of the worker's machine and
    returned as bytes, so the units need no shared file system. `inputs` are (flag, bytes):
    files written there first and given to damas after their flags."""
    with tempfile.TemporaryDirectory(prefix="damas-unit-") as scratch:
        out = os.path.join(scratch, "out")
        given = []
        for i, (flag, data) in enumerate(inputs):
            path = os.path.join(scratch, f"in-{i}")
            with open(path, "wb") as f:
                f.write(data)
            given += [flag, path]
        run_damas(argv + given + [out_flag, out], name)
        with open(out, "rb") as f:
            return f.read()


def unit_in_place(argv, name, *_needs):
    """A unit that writes where the job's files are (the database slices); `_needs` are the
    results of the units it must follow, which Ray waits for before it starts this one."""
    run_damas(argv, name)
    return name


def damas_path(given):
    path = Path(given).resolve()
    if not path.is_file():
        sys.exit(f"damas_cluster: {path}: no damas binary (cargo build --release, or --damas)")
    return str(path)


class Progress:
    """Units done out of all, with the time left at the pace so far, on stderr."""

    def __init__(self, total, done):
        self.total, self.done, self.started, self.first = total, done, time.time(), done

    def step(self, name):
        self.done += 1
        elapsed = time.time() - self.started
        made = self.done - self.first
        left = (self.total - self.done) * elapsed / made if made else 0
        print(
            f"[{self.done}/{self.total}] {name} done, {elapsed:.0f} s, about {left:.0f} s left",
            file=sys.stderr,
            flush=True,
        )


def start_ray(args):
    if ray is None:
        sys.exit("damas_cluster: Ray is not installed (pip install 'ray>=2.9')")
    if args.address:
        # A head started by `ray start` authenticates its clients with the token it keeps in
        # ~/.ray/auth_token (Ray 2.5x and later); RAY_AUTH_MODE=disabled for one that does not.
        os.environ.setdefault("RAY_AUTH_MODE", "token")
        ray.init(address=args.address, logging_level="ERROR", log_to_driver=False)
    else:
        ray.init(
            num_cpus=args.cpus, include_dashboard=False, logging_level="ERROR", log_to_driver=False
        )


REMOTE = {}


def submit(fn, args, resources, *params):
    """Submits `fn(*params)` as a Ray task with `resources`, retried --retries times."""
    if fn not in REMOTE:
        REMOTE[fn] = ray.remote(max_retries=args.retries, retry_exceptions=True)(fn)
    return REMOTE[fn].options(**resources).remote(*params)


def wait_all(pending, progress, on_done, retries):
    """Waits for the tasks of `pending` (task -> unit name), calling on_done as each ends."""
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for task in ready:
            name = pending.pop(task)
            try:
                result = ray.get(task)
            except Exception as failure:  # A unit that failed every try (Ray's or ours).
                reason = str(failure).strip().splitlines()[-1]
                sys.exit(f"damas_cluster: unit {name} failed {retries + 1} times: {reason}")
            on_done(name, result)
            progress.step(name)


def sharded(args, command, out_flag, merge):
    """A job of --shards units `damas COMMAND ... --shard K/N OUT_FLAG FILE`, each unit's file
    kept in --work as it ends; `merge` makes the job's result of the files."""
    damas = damas_path(args.damas)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    units = [(f"{k}-of-{args.shards}", f"{k}/{args.shards}") for k in range(1, args.shards + 1)]
    files = {name: work / f"{command}-{name}" for name, _ in units}
    left = [(name, shard) for name, shard in units if not files[name].exists()]
    if args.dry_run:
        for name, shard in units:
            state = "done" if files[name].exists() else "to do"
            print(f"{name}\t{command} --shard {shard}\t{state}")
        return
    if left:
        start_ray(args)
        pending = {}
        for name, shard in left:
            argv = [damas, command] + args.rest + ["--shard", shard]
            pending[submit(unit_with_output, args, {"num_cpus": 1}, argv, name, out_flag)] = name
        progress = Progress(len(units), len(units) - len(left))

        def keep(name, data):
            partial = files[name].with_suffix(".partial")
            partial.write_bytes(data)
            partial.rename(files[name])

        wait_all(pending, progress, keep, args.retries)
    merge(damas, [str(files[name]) for name, _ in units])


def datagen(args):
    def merge(damas, files):
        out = subprocess.run([damas, "datagen", "merge", "--out", args.out] + files)
        if out.returncode != 0:
            sys.exit(out.returncode)

    if "--threads" not in args.rest and "-t" not in args.rest:
        args.rest += ["--threads", "1"]
    sharded(args, "datagen", "--out", merge)


def match(args):
    def merge(damas, files):
        out = subprocess.run([damas, "match", "merge"] + files + args.sprt)
        if out.returncode != 0:
            sys.exit(out.returncode)

    sharded(args, "match", "--results", merge)


def book_positions(damas, path):
    """The positions of the book at `path` (`damas book stats`)."""
    stats = subprocess.run([damas, "book", "stats", str(path)], stdout=subprocess.PIPE, text=True)
    if stats.returncode != 0:
        sys.exit(stats.returncode)
    for line in stats.stdout.splitlines():
        if line.startswith("positions: "):
            return int(line.split()[1])
    sys.exit(f"damas_cluster: {path}: `damas book stats` gave no positions")


def book(args):
    """`damas book build` round by round: each round's positions expanded in --shards units
    (each given the book the round starts from), merged by `damas book merge` before the next
    round, until the book has --positions positions or stops growing."""
    damas = damas_path(args.damas)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    target = int(option_value(args.rest, "--positions", "1000"))
    batch = int(option_value(args.rest, "--batch", "16"))
    rounds = sorted(work.glob("book-round-*.book"), key=lambda p: int(p.stem.split("-")[-1]))
    done = len(rounds)

    def rounds_left(size):
        # The first round expands the start alone; then a batch a round.
        return (1 if size == 0 else 0) + -(-max(0, target - max(size, 1)) // batch)

    if args.dry_run:
        size = book_positions(damas, rounds[-1]) if rounds else 0
        print(f"# {done} rounds done ({size} positions); about {rounds_left(size)} rounds of "
              f"{args.shards} units each left ({batch} positions a round, {target} in all)")
        return
    last = rounds[-1] if rounds else None
    size = book_positions(damas, last) if last else 0
    progress = Progress((done + rounds_left(size)) * args.shards, done * args.shards)
    started = False
    while size < target:
        if not started:
            start_ray(args)
            started = True
        before = [("--book", last.read_bytes())] if last else []
        pending = {}
        parts = {}
        for k in range(1, args.shards + 1):
            name = f"round-{done}-{k}-of-{args.shards}"
            argv = [damas, "book", "build"] + args.rest + ["--shard", f"{k}/{args.shards}"]
            task = submit(unit_with_output, args, {"num_cpus": 1}, argv, name, "--out", before)
            pending[task] = name
        wait_all(pending, progress, lambda name, data: parts.__setitem__(name, data),
                 args.retries)
        files = [str(last)] if last else []
        for name, data in sorted(parts.items()):
            path = work / f"{name}.part"
            path.write_bytes(data)
            files.append(str(path))
        merged = work / f"book-round-{done}.book"
        partial = work / f"partial-round-{done}.book"
        out = subprocess.run([damas, "book", "merge", "--out", str(partial)] + files)
        if out.returncode != 0:
            sys.exit(out.returncode)
        partial.rename(merged)
        grown = book_positions(damas, merged)
        last, done = merged, done + 1
        if grown == size:
            break  # Nothing left to expand.
        size = grown
        progress.total = progress.done + rounds_left(size) * args.shards
    if last is None:
        sys.exit("damas_cluster: the book has no position (--positions 0?)")
    Path(args.out).write_bytes(last.read_bytes())
    print(f"book: {size} positions in {done} rounds into {args.out}", file=sys.stderr)


def egdb_units(damas, rest, egdb_path):
    listing = subprocess.run(
        [damas, "egdb", "units", "--egdb-path", egdb_path] + rest,
        stdout=subprocess.PIPE,
        text=True,
    )
    if listing.returncode != 0:
        sys.exit(listing.returncode)
    units = []
    for line in listing.stdout.splitlines():
        if line.startswith("#"):
            continue
        name, slices, numbers, memory, built, needs = line.split("\t")
        units.append(
            {
                "name": name,
                "slices": slices,
                "numbers": int(numbers),
                "memory_mib": float(memory),
                "built": built == "yes",
                "needs": [] if needs == "-" else needs.split(","),
            }
        )
    return units


def option_value(rest, flag, default):
    for i, word in enumerate(rest):
        if word == flag and i + 1 < len(rest):
            return rest[i + 1]
        if word.startswith(flag + "="):
            return word.split("=", 1)[1]
    return default


def egdb(args):
    damas = damas_path(args.damas)
    units = egdb_units(damas, args.rest, args.egdb_path)
    variant = option_value(args.rest, "--variant", option_value(args.rest, "-v", "english"))
    rate = args.us_per_number or US_PER_NUMBER.get(variant, US_PER_NUMBER_DEFAULT)
    if args.dry_run:
        print("# unit\tnumbers\tmemory_mib\test_cpu_s\tbuilt\tneeds")
        for unit in units:
            cost = unit["numbers"] * rate / 1e6
            built = "yes" if unit["built"] else "no"
            needs = ",".join(unit["needs"]) or "-"
            print(
                f"{unit['name']}\t{unit['numbers']}\t{unit['memory_mib']:.1f}\t{cost:.0f}\t"
                f"{built}\t{needs}"
            )
        left = [u for u in units if not u["built"]]
        # The longest chain of needs still to build bounds the job however many cores it has.
        path = {}
        for unit in units:
            own = 0 if unit["built"] else unit["numbers"] * rate / 1e6 / args.threads_per_unit
            path[unit["name"]] = own + max((path[n] for n in unit["needs"]), default=0)
        print(
            f"# {len(units)} units, {len(left)} to build: "
            f"{sum(u['numbers'] for u in left)} numbers, about "
            f"{sum(u['numbers'] for u in left) * rate / 1e6 / 3600:.1f} h of CPU at {rate} us a "
            f"number; the longest chain of needs about {max(path.values(), default=0) / 3600:.1f} "
            f"h at {args.threads_per_unit} threads a unit; the largest unit "
            f"{max((u['memory_mib'] for u in left), default=0):.0f} MiB"
        )
        return
    Path(args.egdb_path).mkdir(parents=True, exist_ok=True)
    start_ray(args)
    threads = ["--threads", str(args.threads_per_unit)]
    tasks = {}
    pending = {}
    for unit in units:
        if unit["built"]:
            continue
        needs = [tasks[n] for n in unit["needs"] if n in tasks]
        argv = (
            [damas, "egdb", "build", "--egdb-path", args.egdb_path]
            + args.rest
            + threads
            + ["--unit", unit["name"]]
        )
        resources = {"num_cpus": args.threads_per_unit}
        if unit["memory_mib"] > 512:
            # Rounded up to a power of two: Ray starts a worker process for each different
            # shape of resources (a unit's exact figure each: 3 s a unit on English 2-4).
            resources["memory"] = 2 ** (int(unit["memory_mib"]) + 64).bit_length() * 2**20
        task = submit(unit_in_place, args, resources, argv, unit["name"], *needs)
        tasks[unit["name"]] = task
        pending[task] = unit["name"]
    progress = Progress(len(units), len(units) - len(pending))
    wait_all(pending, progress, lambda name, _: None, args.retries)
    left = [u["name"] for u in egdb_units(damas, args.rest, args.egdb_path) if not u["built"]]
    if left:
        sys.exit(f"damas_cluster: units not built: {' '.join(left)}")
    print(f"built {len(units)} units into {args.egdb_path}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(
        description="damas's long jobs as work units on Ray",
        epilog="Arguments after -- go to damas as they are (e.g. --variant, --games, --nodes).",
    )
    parser.add_argument("--address", help="a Ray cluster's address (default: a local one)")
    parser.add_argument("--cpus", type=int, help="cores of the local Ray (default: all)")
    parser.add_argument("--damas", default="target/release/damas", help="the damas binary")
    parser.add_argument("--work", default="target/cluster", help="where finished units are kept")
    parser.add_argument("--retries", type=int, default=3, help="retries of a failed unit")
    parser.add_argument("--dry-run", action="store_true", help="list the units and stop")
    jobs = parser.add_subparsers(dest="job", required=True)
    d = jobs.add_parser("datagen", help="damas datagen in --shards units, merged")
    d.add_argument("--shards", type=int, required=True)
    d.add_argument("--out", required=True, help="the merged data file")
    d.set_defaults(run=datagen)
    m = jobs.add_parser("match", help="damas match in --shards units, merged")
    m.add_argument("--shards", type=int, required=True)
    m.add_argument("--sprt", nargs="*", default=[], help="the SPRT, as damas match merge")
    m.set_defaults(run=match)
    b = jobs.add_parser("book", help="damas book build, round by round in --shards units")
    b.add_argument("--shards", type=int, required=True)
    b.add_argument("--out", required=True, help="the book")
    b.set_defaults(run=book)
    e = jobs.add_parser("egdb", help="damas egdb build, a unit per pair of slices")
    e.add_argument("--egdb-path", required=True, help="the databases' directory (shared)")
    e.add_argument("--threads-per-unit", type=int, default=1)
    e.add_argument("--us-per-number", type=float, help="CPU cost of a number, for --dry-run")
    e.set_defaults(run=egdb)
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        cut = argv.index("--")
        argv, rest = argv[:cut], argv[cut + 1 :]
    args = parser.parse_args(argv)
    args.rest = rest
    if getattr(args, "sprt", None):
        args.sprt = ["--sprt"] + args.sprt
    for flag in ["--shard", "--out", "--results", "--unit", "--egdb-path", "--book"]:
        if flag in rest:
            sys.exit(f"damas_cluster: {flag} is the driver's to set, not given after --")
    args.run(args)


if __name__ == "__main__":
    main()
