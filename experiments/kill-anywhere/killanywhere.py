"""The kill-anywhere check of four kinds of run (`run.sh` starts it; see README.md).

For each kind: one uninterrupted run; then the same run killed with SIGKILL at random moments
and resumed with the same command each time, until the stopping rule's number of kills has
been made and the last resume has finished; every finished run (a round) is compared with the
uninterrupted one by compare.py. Then two processes on one run directory: the second must be
refused, naming the first. Only processes this script started are ever killed, by their id.
"""

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WORK = HERE / "work"
# A copy of the binary, so that a rebuild of the tree during the check changes nothing.
WORK.mkdir(exist_ok=True)
shutil.copy2(os.environ.get("PJLAB", str(ROOT / "target/release/pjlab")), WORK / "pjlab")
PJLAB = str(WORK / "pjlab")
TEMPORARY = re.compile(r"^\.pjlab-.*|.*\.tmp$")
# Files whose (re)writing is a save: the records, the ledger, checkpoints, networks.
SAVED = re.compile(r".*\.(parquet|jsonl|nnue|json)$|^latest$")
# What every start writes, not a save of the run's progress.
STARTUP = {"provenance.jsonl", "run.json", ".lock"}

# The stopping rule, fixed before the script is run: this many kills per kind, the kill
# moments drawn from a generator seeded with SEED (and the kind's name).
KILLS = 24
SEED = 66
# Kill moments, in turn: a very short delay (start-up and the first writes), a delay up to half the
# uninterrupted run's duration, right at or after a save (a temporary file appearing, or a
# record file written), and again a delay up to half the run.
MODES = ["short", "random", "save", "random"]

I = str(HERE)
KINDS = {
    "train": {
        "fresh": [PJLAB, "-q", "train", "--config", f"{I}/train.toml", "--out", "run"],
        "resume": [PJLAB, "-q", "train", "--config", f"{I}/train.toml", "--out", "run"],
        "lock": "pjlab train",
    },
    "atlas": {
        "fresh": [PJLAB, "-q", "atlas", "run", "--spec", f"{I}/tiny-atlas.toml", "--out", "run",
                  "--workers", "1"],
        "resume": [PJLAB, "-q", "atlas", "run", "--spec", f"{I}/tiny-atlas.toml", "--out", "run",
                   "--workers", "1"],
        "lock": "pjlab atlas run",
    },
    "generations": {
        "fresh": [PJLAB, "-q", "nnue", "generations", "--spec", f"{I}/generations.toml",
                  "--out", "run", "--workers", "1"],
        "resume": [PJLAB, "-q", "nnue", "generations", "--spec", f"{I}/generations.toml",
                   "--out", "run", "--workers", "1"],
        "lock": "pjlab nnue generations",
    },
}
TOURNAMENT = [PJLAB, "-q", "tournament", "--agents",
              "alphabeta:depth=1,alphabeta:depth=2,greedy,random", "--games", "20",
              "--max-plies", "120", "--workers", "1", "--out", "run"]
KINDS["tournament"] = {
    "fresh": TOURNAMENT,
    # Resumed with --resume (a tournament's own way; its options given again are ignored).
    "resume": TOURNAMENT + ["--resume"],
    "lock": "pjlab tournament",
}


def log(*args):
    print(*args, flush=True)


def scan(run):
    """{relative path: (mtime_ns, size)} of every file under `run`."""
    out = {}
    for dirpath, _, names in os.walk(run):
        for name in names:
            p = os.path.join(dirpath, name)
            try:
                st = os.stat(p)
            except FileNotFoundError:
                continue
            out[os.path.relpath(p, run)] = (st.st_mtime_ns, st.st_size)
    return out


def temporaries(run):
    return {p for p in scan(run) if any(TEMPORARY.match(part) for part in Path(p).parts)} | {
        os.path.relpath(os.path.join(d, n), run)
        for d, dirs, _ in os.walk(run)
        for n in dirs
        if TEMPORARY.match(n)
    }


def export(kind, cwd, label):
    """The training run's kept checkpoints as ONNX files, under exports-LABEL (byte-comparable)."""
    if kind != "train":
        return
    out = cwd / f"exports-{label}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    for ckpt in sorted((cwd / "run/checkpoints").glob("iter-*")):
        subprocess.run([PJLAB, "-q", "export", "--checkpoint", f"run/checkpoints/{ckpt.name}",
                        "--out", str(out / f"{ckpt.name}.onnx")], cwd=cwd, check=True,
                       stdout=subprocess.DEVNULL)


def attempt(cmd, cwd, mode, delay, rng):
    """Runs `cmd`, kills it as `mode` says; returns (killed, rc, during_save, seconds)."""
    run = cwd / "run"
    before_tmp = temporaries(run) if run.exists() else set()
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=open(cwd / "stderr.log", "a"))
    during = False
    if mode == "save":
        seen = scan(run) if run.exists() else {}
        while proc.poll() is None:
            now = scan(run) if run.exists() else {}
            if temporaries(run) - before_tmp if run.exists() else set():
                during = True
                break
            changed = [p for p, s in now.items()
                       if SAVED.match(Path(p).name) and Path(p).name not in STARTUP
                       and seen.get(p) != s]
            if changed:
                time.sleep(rng.uniform(0, 0.005))
                break
            time.sleep(0.001)
    else:
        deadline = start + delay
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)  # this script's own child, by its id
    rc = proc.wait()
    seconds = time.monotonic() - start
    killed = rc == -signal.SIGKILL
    if killed and run.exists() and (temporaries(run) - before_tmp):
        during = True
    return killed, rc, during, seconds


def compare(cwd, kind, label):
    res = subprocess.run([sys.executable, str(HERE / "compare.py"), str(cwd / "uninterrupted"),
                          str(cwd / "run")], capture_output=True, text=True)
    lines = res.stdout.splitlines()
    if kind == "train":
        r2 = subprocess.run([sys.executable, str(HERE / "compare.py"),
                             str(cwd / "exports-uninterrupted"), str(cwd / f"exports-{label}")],
                            capture_output=True, text=True)
        lines += ["exports: " + line for line in r2.stdout.splitlines()]
    differs = [line for line in lines if line.startswith("differs") or "differs" in line[:20]]
    leftovers = [line for line in lines if "leftover" in line]
    return differs, leftovers


def refusal(kind, spec, cwd):
    """Two processes on one run directory: the second must be refused naming the first."""
    busy = cwd / "busy"
    shutil.rmtree(busy, ignore_errors=True)
    busy.mkdir()
    first = subprocess.Popen(spec["fresh"], cwd=busy, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    lock = busy / "run/.lock"
    while first.poll() is None:
        try:
            if lock.read_text().strip() == str(first.pid):
                break
        except FileNotFoundError:
            pass
        time.sleep(0.001)
    second = subprocess.run(spec["resume"], cwd=busy, capture_output=True, text=True)
    held = first.poll() is None
    if held:
        first.send_signal(signal.SIGKILL)
    first.wait()
    message = second.stderr.strip()
    ok = (held and second.returncode != 0 and f"process {first.pid}" in message
          and spec["lock"] in message)
    return {"held": held, "second_rc": second.returncode, "message": message, "refused": ok}


def one_kind(kind):
    spec = KINDS[kind]
    rng = random.Random(f"{SEED}-{kind}")
    cwd = WORK / kind
    shutil.rmtree(cwd, ignore_errors=True)
    cwd.mkdir(parents=True)
    t0 = time.monotonic()
    subprocess.run(spec["fresh"], cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    whole = time.monotonic() - t0
    export(kind, cwd, "uninterrupted")
    (cwd / "run").rename(cwd / "uninterrupted")
    log(f"{kind}: uninterrupted run {whole:.1f} s")

    kills = saves = resumes = rounds = 0
    failures, differences, leftovers, moments = [], [], [], []
    round_attempts = 0
    while True:
        if kills < KILLS:
            mode = MODES[kills % len(MODES)]
            delay = {"short": rng.uniform(0, 0.05), "random": rng.uniform(0, whole / 2),
                     "save": 0.0}[mode]
        else:
            mode, delay = "none", float("inf")
        cmd = spec["resume"] if (cwd / "run").exists() else spec["fresh"]
        if round_attempts > 0:
            resumes += 1
        round_attempts += 1
        killed, rc, during, seconds = attempt(cmd, cwd, mode, delay, rng)
        if killed:
            kills += 1
            saves += during
            moments.append(f"{mode}:{seconds:.3f}{'*' if during else ''}")
            continue
        if rc != 0:
            failures.append(f"attempt {round_attempts} of round {rounds + 1} exited {rc} "
                            f"(see work/{kind}/stderr.log)")
            log(f"{kind}: a resume failed with {rc}; stopping this kind")
            break
        rounds += 1
        label = f"round{rounds}"
        export(kind, cwd, label)
        d, left = compare(cwd, kind, label)
        differences += [f"round {rounds}: {x}" for x in d]
        leftovers += [f"round {rounds}: {x}" for x in left]
        log(f"{kind}: round {rounds} finished after {round_attempts - 1} resumes, "
            f"{len(d)} differences")
        if kills >= KILLS:
            break
        keep = cwd / f"finished-{label}"
        (cwd / "run").rename(keep)
        round_attempts = 0
    busy = refusal(kind, spec, cwd)
    log(f"{kind}: kills {kills} ({saves} during a save), resumes {resumes}, rounds {rounds}, "
        f"differences {len(differences)}, refused {busy['refused']}")
    return {"kind": kind, "uninterrupted_s": round(whole, 2), "kills": kills,
            "kills_during_save": saves, "resumes": resumes, "rounds": rounds,
            "equal": not differences and not failures, "failures": failures,
            "differences": differences, "leftovers": leftovers, "moments": moments,
            "second_process": busy}


BEGIN, END = "<!-- results: written by killanywhere.py -->", "<!-- end of results -->"


def write_readme(results):
    """Replaces the results section of README.md (between BEGIN and END) with `results`."""
    rows = ["| kind | uninterrupted run (s) | kills | kills during a save | resumes | finished "
            "runs compared | equal | second process refused |",
            "|---|---|---|---|---|---|---|---|"]
    notes = []
    for kind in KINDS:
        r = results.get(kind)
        if r is None:
            continue
        rows.append(f"| {kind} | {r['uninterrupted_s']} | {r['kills']} | "
                    f"{r['kills_during_save']} | {r['resumes']} | {r['rounds']} | "
                    f"{'yes' if r['equal'] else 'no'} | "
                    f"{'yes' if r['second_process']['refused'] else 'no'} |")
        notes.append(f"- **{kind}**: refusal: `{r['second_process']['message']}`")
        for d in r["failures"] + r["differences"]:
            notes.append(f"  - {d}")
        if r["leftovers"]:
            notes.append(f"  - temporary files a kill left behind ({len(r['leftovers'])}): "
                         + "; ".join(f"`{x.split(': ', 2)[-1]}`" for x in r["leftovers"][:4])
                         + (" ..." if len(r["leftovers"]) > 4 else ""))
        notes.append("  - kill moments (mode:seconds after the start, * = during a save): "
                     + " ".join(r["moments"]))
    section = "\n".join([BEGIN, *rows, "", *notes, END])
    readme = HERE / "README.md"
    text = readme.read_text() if readme.exists() else f"{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    readme.write_text(head + section + tail)


def main():
    kinds = sys.argv[1:] or list(KINDS)
    results = [one_kind(k) for k in kinds]
    out = HERE / "results.json"
    old = json.loads(out.read_text()) if out.exists() else {}
    old.update({r["kind"]: r for r in results})
    out.write_text(json.dumps(old, indent=1) + "\n")
    write_readme(old)
    sys.exit(0 if all(r["equal"] and r["second_process"]["refused"] for r in results) else 1)


if __name__ == "__main__":
    main()
