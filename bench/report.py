#!/usr/bin/env python3
"""Turns bench/run's results into the table in docs/BENCHMARKS.md.

    report.py RESULTS_DIR --items N BENCHMARKS_MD

Replaces what lies between the `<!-- bench:results -->` and `<!-- /bench:results -->` markers
(the machine, the table) and leaves the rest of the file, the analysis, as it is.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess

START, END = "<!-- bench:results -->", "<!-- /bench:results -->"


def load(results, name):
    with open(os.path.join(results, f"{name}.json")) as file:
        return [entry["median"] for entry in json.load(file)["results"]]


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def ratio(value):
    return f"{value:.2f}×"


def met(ok):
    return "yes" if ok else "**no**"


def command_output(*command):
    try:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as meminfo:
        memory = int(meminfo.readline().split()[1]) / 1024 / 1024
    system = "Linux"
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as release:
            for line in release:
                if line.startswith("PRETTY_NAME="):
                    system = line.split("=", 1)[1].strip().strip('"')
    swift = command_output("swift", "--version").splitlines()
    import pluggy

    return (f"{model}, {os.cpu_count()} cores, {memory:.0f} GiB; {system}, kernel {platform.release()}; "
            f"{swift[0] if swift else 'swift unknown'}; {command_output('hyperfine', '--version')}; "
            f"Python {platform.python_version()} with pluggy {pluggy.__version__}")


def table(results, items):
    floor, version, run1, run10, run100, worker = load(results, "startup")
    state_floor, logexercise, listing = load(results, "state")
    peer_floor, ours1, peer1, ours100, peer100 = load(results, "peer")
    scan_floor, first_scan, warm = load(results, "scan")
    sandbox_floor, scan_on, scan_off, worker_on, worker_off = load(results, "sandbox")
    with open(os.path.join(results, "inprocess.json")) as file:
        inprocess = json.load(file)
    (warm_floor, true, static, env_true, env_floor, client, warm1, warm100, warm_worker, warm_log, warm_list,
     cold1, warm_peer) = load(results, "warm")
    auto_floor, auto_cold, auto_first = load(results, "autostart")
    desktop_floor, bus_call, activate, gapplication, activate_cold = load(results, "desktop")
    with open(os.path.join(results, "throughput.json")) as file:
        throughput = json.load(file)
    with open(os.path.join(results, "memory.json")) as file:
        memory = json.load(file)
    per_second = throughput["runs"] / throughput["seconds"]
    true_per_second = throughput["runs"] / throughput["trueSeconds"]
    mb = lambda size: f"{size / 1e6:.1f} MB"

    rows = [
        ("1", "`bench-floor` (no-op Swift executable, release)", ms(floor), "1.00× (reference)", "—", "—"),
        ("", "`standfit-host --version`", ms(version), ratio(version / floor) + " floor", "—", "—"),
        ("2", "`run` no-op, 1 plugin", ms(run1), ratio(run1 / floor) + " floor", "≤ 1.3× floor", met(run1 / floor <= 1.3)),
        ("2", "`run` no-op, 10 plugins", ms(run10), ratio(run10 / floor) + " floor", "≤ 1.3× floor", met(run10 / floor <= 1.3)),
        ("2", "`run` no-op, 100 plugins", ms(run100), ratio(run100 / floor) + " floor", "≤ 1.3× floor", met(run100 / floor <= 1.3)),
        ("2", "100 plugins ÷ 1 plugin", "—", ratio(run100 / run1), "≤ 1.05×", met(run100 / run1 <= 1.05)),
        ("", "`run` no-op, 1 plugin not pinned (worker process)", ms(worker), ratio(worker / floor) + " floor", "—", "—"),
        ("3", f"`run logexercise` (durable write), 100 plugins, {items} menu items", ms(logexercise),
         ratio(logexercise / state_floor) + " floor", "—", "—"),
        ("3", f"`list`, 100 plugins, {items} menu items", ms(listing), ratio(listing / state_floor) + " floor",
         "≤ 1.5× floor", met(listing / state_floor <= 1.5)),
        ("4", "peer (pluggy) `run` no-op, 1 plugin", ms(peer1), ratio(peer1 / ours1) + " ours (" + ms(ours1) + ")",
         "≥ 8×", met(peer1 / ours1 >= 8)),
        ("4", "peer (pluggy) `run` no-op, 100 plugins", ms(peer100), ratio(peer100 / ours100) + " ours (" + ms(ours100) + ")",
         "≥ 8×", met(peer100 / ours100 >= 8)),
        ("5", "direct C call of the no-op handler", f"{inprocess['direct_ns']:.1f} ns", "1.00× (reference)", "—", "—"),
        ("5", "one `ffi_call` (libffi alone)", f"{inprocess['ffi_raw_ns']:.1f} ns",
         ratio(inprocess["ffi_raw_ns"] / inprocess["direct_ns"]) + " direct", "—", "—"),
        ("5", "the host's typed libffi call (`FFIHandler.call`)", f"{inprocess['ffi_host_ns']:.1f} ns",
         f"+{inprocess['ffi_overhead_ns']:.1f} ns over direct", "≤ 60 ns overhead", met(inprocess["ffi_overhead_ns"] <= 60)),
        ("5", "registered action's `perform` (context, call, reply)", f"{inprocess['perform_ns']:.1f} ns",
         ratio(inprocess["perform_ns"] / inprocess["ffi_host_ns"]) + " typed call", "—", "—"),
        ("5", "full dispatcher (`Dispatcher.run`)", f"{inprocess['dispatch_ns']:.1f} ns",
         f"{inprocess['dispatches_per_second'] / 1e6:.2f} M dispatches/s", "≥ 2 M/s", met(inprocess["dispatches_per_second"] >= 2e6)),
        ("6", "first scan of 100 plugins (`list`, no cache)", ms(first_scan),
         ratio(first_scan / scan_floor) + " floor, " + ratio(first_scan / warm) + " warm", "—", "—"),
        ("6", "warm start, nothing changed (`list`, 100 plugins)", ms(warm), ratio(warm / scan_floor) + " floor", "—", "—"),
        ("7", "first scan of 100 untrusted plugins, sandbox off", ms(scan_off), ratio(scan_off / sandbox_floor) + " floor", "—", "—"),
        ("7", "first scan of 100 untrusted plugins, sandbox on", ms(scan_on), ratio(scan_on / scan_off) + " sandbox off", "—", "—"),
        ("7", "`run` no-op in a worker, sandbox off", ms(worker_off), ratio(worker_off / sandbox_floor) + " floor", "—", "—"),
        ("7", "`run` no-op in a worker, sandbox on", ms(worker_on), ratio(worker_on / worker_off) + " sandbox off", "—", "—"),
        ("8", "`/bin/true`", ms(true), ratio(true / warm_floor) + " floor", "—", "—"),
        ("8", "static no-op Swift executable (`bench-floor-static`)", ms(static), ratio(static / true) + " `/bin/true`", "—", "—"),
        ("8", "`/bin/true` through `env` (the launcher of every command below)", ms(env_true),
         ratio(env_true / true) + " `/bin/true`", "—", "—"),
        ("8", "floor through `env`", ms(env_floor), ratio(env_floor / warm_floor) + " floor", "—", "—"),
        ("8", "client alone: warm `--version` (connect, request, answer)", ms(client),
         ratio(client / env_true) + " `/bin/true`", "—", "—"),
        ("8", "warm `run` no-op, 1 plugin (pinned; in its warm worker)", ms(warm1),
         ratio(warm1 / env_floor) + " floor, " + ratio(warm1 / env_true) + " `/bin/true` (both through `env`)",
         "≤ 0.5× floor and ≤ 1.6× `/bin/true`", met(warm1 / env_floor <= 0.5 and warm1 / env_true <= 1.6)),
        ("8", "warm `run` no-op, 100 plugins", ms(warm100), ratio(warm100 / warm1) + " 1 plugin", "≤ 1.05×", met(warm100 / warm1 <= 1.05)),
        ("8", "warm `run` no-op, 1 plugin not pinned (sandboxed warm worker)", ms(warm_worker), ratio(warm_worker / warm1) + " pinned",
         "≤ 1.2×", met(warm_worker / warm1 <= 1.2)),
        ("8", f"warm `run logexercise`, 100 plugins, {items} menu items", ms(warm_log), ratio(warm_log / env_floor) + " floor",
         "≤ 1.0× floor", met(warm_log / env_floor <= 1.0)),
        ("8", f"warm `list`, 100 plugins, {items} menu items", ms(warm_list), ratio(warm_list / env_floor) + " floor",
         "≤ 0.6× floor", met(warm_list / env_floor <= 0.6)),
        ("8", "cold `run` no-op, 1 plugin (the client execs the full host)", ms(cold1), ratio(cold1 / env_floor) + " floor",
         "≤ 5× floor", met(cold1 / env_floor <= 5)),
        ("8", "peer (pluggy) `run` no-op, 1 plugin, ÷ warm", ms(warm_peer), ratio(warm_peer / warm1) + " warm",
         "≥ 30×", met(warm_peer / warm1 >= 30)),
        ("8", "first command: cold `run` that starts a server", ms(auto_first), ratio(auto_first / auto_cold) + " cold without one",
         "—", "—"),
        ("8", "warm runs per second, 8 clients at once", f"{per_second:,.0f}/s",
         f"{throughput['failures']} failed of {throughput['runs']:,}; the same loop runs `env` + `/bin/true` "
         f"{true_per_second:,.0f}/s ({ratio(per_second / true_per_second)})", "≥ 1,000/s, 0 failed",
         met(per_second >= 1000 and throughput["failures"] == 0)),
        ("8", "server resident memory, idle, 100 plugins", mb(memory["server"]), "—", "≤ 50 MB", met(memory["server"] <= 50e6)),
        ("8", "a warm worker's resident memory (no-op plugin)", mb(memory["worker"]), "—", "—", "—"),
        ("9", "one call to the bus itself (`gdbus call … GetId`: the tool's start and a round trip)", ms(bus_call),
         ratio(bus_call / desktop_floor) + " floor", "—", "—"),
        ("9", "`ActivateAction` no-op through the bus, server running (`gdbus call`)", ms(activate),
         ratio(activate / bus_call) + " GetId, +" + ms(activate - bus_call) + " for the server", "—", "—"),
        ("9", "`gapplication action org.standfit.Host bench.noop.0`", ms(gapplication),
         ratio(gapplication / bus_call) + " GetId", "—", "—"),
        ("9", "cold D-Bus activation: the bus starts the server for the call", ms(activate_cold),
         ratio(activate_cold / activate) + " running, " + ratio(activate_cold / desktop_floor) + " floor", "—", "—"),
    ]
    lines = ["| § | Figure | Median | Ratio | Target | Met |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    floors = ", ".join(ms(value) for value in (floor, state_floor, peer_floor, scan_floor, sandbox_floor, warm_floor, auto_floor,
                                                desktop_floor))
    lines += ["", f"The floor, timed again in each group: {floors}."]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--items", default="?")
    parser.add_argument("markdown")
    arguments = parser.parse_args()
    runs = len(json.load(open(os.path.join(arguments.results, "startup.json")))["results"][0]["times"])
    section = "\n".join([
        START,
        f"Measured {datetime.date.today().isoformat()} by `bench/run` on: {machine()}.",
        f"Whole-process figures: hyperfine medians of {runs} runs after warm-up (`hyperfine -N`, no shell); "
        "in-process figures: medians of 21 batches on one core (`taskset -c 0`).",
        "",
        table(arguments.results, arguments.items),
        END,
    ])
    text = open(arguments.markdown).read() if os.path.exists(arguments.markdown) else f"# Benchmarks\n\n{START}\n{END}\n"
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    with open(arguments.markdown, "w") as file:
        file.write(before + section + after)


if __name__ == "__main__":
    main()
