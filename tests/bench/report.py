#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turns the bench's raw runs (host_bench.py, guest_read_cost.py) into medians,
ratios and the verdict on the issues' targets (7, 14, 17, 18): prints a table,
writes JSON.

usage: report.py HOST_JSON OUT_JSON [GUEST_JSON...]
"""
import json
import statistics
import sys

# netpmu's program per hook, and bpftrace's (program names are cut at 15 characters).
HOOKS = [
    ("napi_poll", "napi_poll", "napi_poll"),
    ("irq_handler_entry", "irq_entry", "irq_handler_ent"),
    ("irq_handler_exit", "irq_exit", "irq_handler_exi"),
    ("softirq_entry", "softirq_entry", "softirq_entry"),
    ("softirq_exit", "softirq_exit", "softirq_exit"),
]
NONE, TOP, PER_POLL, BPFTRACE = "1 none", "2 netpmu top", "3 netpmu per-poll", "4 bpftrace"
SERVE = "5 netpmu serve"
FILTERED = "6 per-poll filtered"
HOOK_FLOOR = "7 floor"
TRACE, FLOOR, PARTS = "netpmu trace -I 1000", "0 empty bpftrace", "0 parts"
# Issue 17's targets: each configuration's throughput loss as a multiple of the floor's.
FLOOR_MULTIPLE_TARGETS = {TOP: 1.25, PER_POLL: 2.0}


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def rounded(v, digits=1):
    return None if v is None else round(v, digits)


def loss(row):
    """Throughput lost to a configuration: 1 - its packets per sender CPU-second against none's."""
    return None if row["cpu_ratio"] is None else 1 - row["cpu_ratio"]


def floor_hooks(runs):
    """The hooks' programs netpmu's configurations ran (by name, the tick aside) and the floor's."""
    netpmu = {n for r in runs if r["config"] in (TOP, PER_POLL, SERVE) for n in r.get("prog_names", ())
              if n != "interval_tick"}
    floor = {n.removeprefix("floor_") for r in runs if r["config"] == HOOK_FLOOR for n in r.get("prog_names", ())}
    return {"met": bool(netpmu) and netpmu == floor, "netpmu": sorted(netpmu), "floor": sorted(floor)}


def stats_run(runs, config):
    """CONFIG's run in the round with BPF stats (it holds the programs' figures), or None."""
    return next((r for r in runs if r["config"] == config and r.get("progs")), None)


def bpf_cost(runs, config, column):
    run = stats_run(runs, config)
    out = {}
    if not run:
        return out
    for hook, *names in HOOKS:
        progs = [p for p in run["progs"] if p["name"] == names[column] and p["type"] != "perf_event"]
        cnt = sum(p["run_cnt"] for p in progs)
        ns = sum(p["run_time_ns"] for p in progs)
        out[hook] = {"runs": cnt, "ns_per_run": round(ns / cnt, 1) if cnt else None}
    return out


def tool_row(mine, interval_s):
    """CPU, memory and start-up of one tool over its runs (medians)."""
    row = {"cpu_s": median(r["rusage"]["cpu_s"] for r in mine),
           "wall_s": median(r["rusage"]["wall_s"] for r in mine),
           "peak_rss_kb": median(r.get("peak_rss_kb") for r in mine),
           "steady_rss_kb": median(r.get("steady_rss_kb") for r in mine)}
    first = median(r.get("first_output_s") for r in mine)
    if first is not None:
        row["first_output_ms"] = round(first * 1000, 1)
        row["startup_ms"] = round((first - interval_s) * 1000, 1)
    for key in ("ready_s", "attaching_line_s", "tracing_line_s"):
        v = median(r.get(key) for r in mine)
        if v is not None:
            row[key.replace("_s", "_ms")] = round(v * 1000, 1)
    return row


def throughput_table(timed, interval_s):
    """Each configuration's medians over its timed runs, and its loss as a multiple of the floor's."""
    base = median(r["flood"]["pps"] for r in timed if r["config"] == NONE)
    cpu_base = median(r["flood"]["pkt_per_cpu_s"] for r in timed if r["config"] == NONE)
    table = {}
    for c in (NONE, TOP, PER_POLL, BPFTRACE, SERVE, FILTERED, HOOK_FLOOR):
        mine = [r for r in timed if r["config"] == c]
        pps = median(r["flood"]["pps"] for r in mine)
        cpu_pps = median(r["flood"]["pkt_per_cpu_s"] for r in mine)
        row = {"pps": pps, "ratio": round(pps / base, 4) if base and pps else None,
               "pkt_per_cpu_s": cpu_pps,
               "cpu_ratio": round(cpu_pps / cpu_base, 4) if cpu_base and cpu_pps else None,
               "pps_runs": [r["flood"]["pps"] for r in mine],
               "pkt_per_cpu_s_runs": [r["flood"]["pkt_per_cpu_s"] for r in mine],
               "socket_drops": sum(r["flood"]["socket_drops"] for r in mine)}
        if c != NONE:
            row.update(tool_row(mine, interval_s))
            row["dropped"] = sum(r["losses"].get("dropped", 0) for r in mine if r["losses"])
        table[c] = row
    floor_loss = loss(table[HOOK_FLOOR])
    for c, row in table.items():
        row["loss"] = rounded(loss(row), 4)
        # A floor within the noise (no loss measured) gives no multiple.
        row["x_floor"] = rounded(loss(row) / floor_loss, 2) \
            if floor_loss and floor_loss > 0 and loss(row) is not None else None
        row["x_floor_rounds"] = paired_floor_multiples(timed, c)
    return table


def paired_floor_multiples(timed, config):
    """A configuration's loss as a multiple of the floor's, per round (the runs of
    one round are seconds apart, so the machine's drift over the bench cancels);
    rounds whose floor lost nothing give no multiple."""
    by_round = {}
    for r in timed:
        if "flood" in r:
            by_round.setdefault(r["round"], {})[r["config"]] = r["flood"]["pkt_per_cpu_s"]
    multiples = {}
    for rnd in sorted(by_round):
        got = by_round[rnd]
        if not all(got.get(c) for c in (NONE, HOOK_FLOOR, config)):
            continue
        floor_loss = 1 - got[HOOK_FLOOR] / got[NONE]
        if floor_loss > 0:
            multiples[rnd] = round((1 - got[config] / got[NONE]) / floor_loss, 2)
    return multiples


def packets_per_poll(runs):
    """Packets per NAPI poll in a scenario: the flood's packets over the floor's napi_poll
    runs in the round with BPF stats (every device's polls: the machine's own NICs add few)."""
    run = stats_run(runs, HOOK_FLOOR)
    polls = run and sum(p["run_cnt"] for p in run["progs"] if p["name"] == "floor_napi_poll")
    return round(run["flood"]["received"] / polls, 2) if polls else None


def summarise(host):
    runs = host["runs"]
    timed = [r for r in runs if not r["bpf_stats"]]
    table = throughput_table(timed, host["interval_s"])
    probe = [r for r in timed if r["config"] == TRACE]
    startup = {TRACE: tool_row(probe, host["interval_s"]) if probe else {},
               TOP: {k: v for k, v in table[TOP].items() if "ms" in k},
               BPFTRACE: {k: v for k, v in table[BPFTRACE].items() if "ms" in k}}
    pp = [r for r in runs if r["config"] == PER_POLL]
    ring = {
        "records_per_s": rounded(median(r["losses"]["records"] / r["flood"]["send_s"] for r in pp), 0),
        "records_per_run": [r["losses"]["records"] for r in pp],
        "dropped_per_run": [r["losses"]["dropped"] for r in pp],
        "drop_fraction": rounded(median(r["losses"]["dropped"] / max(r["losses"]["records"] + r["losses"]["dropped"], 1)
                                        for r in pp), 4),
    }
    stats_pp = next((r for r in pp if r.get("progs")), None)
    if stats_pp:
        polls = sum(p["run_cnt"] for p in stats_pp["progs"] if p["name"] == "napi_poll")
        seen = stats_pp["losses"]["records"] + stats_pp["losses"]["dropped"]
        # Polls after the stats were read and before the detach add records, never remove them.
        ring["accounting_check"] = {"napi_poll_runs": polls, "records_plus_dropped": seen,
                                    "every_poll_accounted": seen >= polls}
    cost = {"netpmu": bpf_cost(runs, TOP, 0), "bpftrace": bpf_cost(runs, BPFTRACE, 1),
            "netpmu_per_poll": bpf_cost(runs, PER_POLL, 0), "floor": bpf_cost(runs, FLOOR, 1),
            "netpmu_serve": bpf_cost(runs, SERVE, 0), "netpmu_per_poll_filtered": bpf_cost(runs, FILTERED, 0)}
    for hook, n in cost["netpmu"].items():
        b = cost["bpftrace"].get(hook, {}).get("ns_per_run")
        f = cost["floor"].get(hook, {}).get("ns_per_run")
        a = n["ns_per_run"]
        n["vs_bpftrace"] = round(a / b, 3) if a and b else None
        if a and b and f is not None and b > f:
            n["vs_bpftrace_net_of_floor"] = round(max(a - f, 0) / (b - f), 3)
    cost["parts"] = parts_cost(runs)
    return table, startup, ring, cost, serve_cost(runs, table, cost)


def bpf_ns_per_packet(runs, config, prefix=""):
    """BPF time on the hooks per packet delivered, from the round with BPF stats:
    every hook's runs times their time (the tick aside), over the flood's packets."""
    run = stats_run(runs, config)
    if not run or not run["flood"]["received"]:
        return None
    names = {prefix + netpmu_name for _, netpmu_name, _ in HOOKS}
    ns = sum(p["run_time_ns"] for p in run["progs"] if p["name"] in names and p["type"] != "perf_event")
    return round(ns / run["flood"]["received"], 1)


def bpf_time_target(runs, config):
    """A configuration's BPF time per packet as a multiple of the floor's: the part
    of the loss that is netpmu's own work, without the throughput rounds' noise."""
    mine, floor = bpf_ns_per_packet(runs, config), bpf_ns_per_packet(runs, HOOK_FLOOR, "floor_")
    limit = FLOOR_MULTIPLE_TARGETS[config]
    multiple = round(mine / floor, 3) if mine and floor else None
    return {"met": multiple is not None and multiple <= limit, "x_floor": multiple, "limit": limit,
            "ns_per_packet": mine, "floor_ns_per_packet": floor}


def parts_cost(runs):
    """ns per run of each part (tests/bench/parts.bpf.c), and net of the empty program's."""
    run = stats_run(runs, PARTS)
    if not run:
        return {}
    ns = {p["name"]: p["run_time_ns"] / p["run_cnt"] for p in run["progs"] if p["run_cnt"]}
    empty = ns.get("part_empty")
    return {name.removeprefix("part_"): {"ns_per_run": round(v, 1),
                                         "net_ns": round(v - empty, 1) if empty is not None else None}
            for name, v in sorted(ns.items())}


def serve_cost(runs, table, cost):
    """netpmu serve scraped every second against its peer top (the same programs
    without an exporter) and the floor (empty programs on the same hooks)."""
    serve, top, scrapes = table[SERVE], table[TOP], [r["scrape"] for r in runs if r.get("scrape")]
    per_hook = {}
    for hook, s in cost["netpmu_serve"].items():
        t = cost["netpmu"].get(hook, {}).get("ns_per_run")
        f = cost["floor"].get(hook, {}).get("ns_per_run")
        a = s["ns_per_run"]
        per_hook[hook] = {"ns_per_run": a, "top_ns_per_run": t, "floor_ns_per_run": f,
                          "vs_top": round(a / t, 3) if a and t else None,
                          "vs_floor": round(a / f, 3) if a and f else None,
                          "vs_top_net_of_floor": round(max(a - f, 0) / (t - f), 3)
                          if a and t and f is not None and t > f else None}
    all_ms = [ms for s in scrapes for ms in s["ms"]]
    return {
        "pkt_per_cpu_s_vs_none": serve["cpu_ratio"], "pkt_per_cpu_s_vs_top":
            round(serve["pkt_per_cpu_s"] / top["pkt_per_cpu_s"], 4)
            if serve["pkt_per_cpu_s"] and top["pkt_per_cpu_s"] else None,
        "pps_vs_none": serve["ratio"],
        "top_pkt_per_cpu_s_runs": top["pkt_per_cpu_s_runs"],
        "serve_pkt_per_cpu_s_runs": serve["pkt_per_cpu_s_runs"],
        "scrapes_per_run": [s["scrapes"] for s in scrapes],
        "failed_scrapes": sum(s["failed"] for s in scrapes),
        "scrape_ms_median": rounded(median(all_ms), 2), "scrape_ms_max": max(all_ms) if all_ms else None,
        "bpf_ns_per_run": per_hook,
    }


def floor_target(table, config):
    """Met when three rounds in four are within the limit, missed when three in four
    are above it; between, the rounds straddle the limit and this run cannot tell."""
    row, limit = table[config], FLOOR_MULTIPLE_TARGETS[config]
    rounds = list(row["x_floor_rounds"].values())
    q1, _, q3 = statistics.quantiles(rounds, n=4) if len(rounds) >= 3 else (None, None, None)
    return {"met": None if q1 is None or q1 <= limit < q3 else q3 <= limit,
            "within_noise": q1 is not None and q1 <= limit < q3,
            "x_floor": row["x_floor"], "x_floor_quartiles": [rounded(q1, 2), rounded(q3, 2)],
            "x_floor_rounds": rounds, "limit": limit, "loss": row["loss"],
            "floor_loss": table[HOOK_FLOOR]["loss"]}


def serve_against_top(table):
    """serve runs top's programs and scrapes besides: it is worse only when its
    multiple is above top's in three rounds of four (each round's own pair)."""
    serve, top = table[SERVE]["x_floor_rounds"], table[TOP]["x_floor_rounds"]
    excess = [round(serve[r] - top[r], 2) for r in serve if r in top]
    q1 = statistics.quantiles(excess, n=4)[0] if len(excess) >= 3 else None
    return {"met": None if q1 is None else q1 <= 0, "serve_minus_top_x_floor_rounds": excess,
            "serve_x_floor": table[SERVE]["x_floor"], "top_x_floor": table[TOP]["x_floor"]}


def targets(runs, table, startup, ring, cost, serve):
    top, bt, trace = table[TOP], table[BPFTRACE], startup[TRACE]
    raw = {h: v["vs_bpftrace"] for h, v in cost["netpmu"].items() if v.get("vs_bpftrace") is not None}
    net = {h: v.get("vs_bpftrace_net_of_floor") for h, v in cost["netpmu"].items()}
    silent = ring.get("accounting_check", {}).get("every_poll_accounted")
    under = lambda a, b, share: a is not None and b is not None and a < b * share  # noqa: E731
    tenth = lambda a, b: under(a, b, 0.1)  # noqa: E731
    return {
        "bpf_cost_at_most_half": {"met": bool(raw) and all(v <= 0.5 for v in raw.values()),
                                  "ratios": raw, "net_of_accounting_floor": net},
        # Issue 17: netpmu's own work on top of merely running BPF on its hooks.
        "floor_has_netpmus_hooks": floor_hooks(runs),
        "top_loss_within_1.25x_floor": floor_target(table, TOP),
        "per_poll_loss_within_2x_floor": floor_target(table, PER_POLL),
        "top_bpf_time_within_1.25x_floor": bpf_time_target(runs, TOP),
        "per_poll_bpf_time_within_2x_floor": bpf_time_target(runs, PER_POLL),
        "serve_loss_no_worse_than_top": serve_against_top(table),
        "startup_under_tenth": {"met": tenth(trace.get("startup_ms"), bt.get("startup_ms")),
                                "netpmu_ms": trace.get("startup_ms"), "bpftrace_ms": bt.get("startup_ms"),
                                "netpmu_top_ms": top.get("startup_ms")},
        "peak_rss_under_tenth": {"met": tenth(top["peak_rss_kb"], bt["peak_rss_kb"]),
                                 "netpmu_kb": top["peak_rss_kb"], "bpftrace_kb": bt["peak_rss_kb"]},
        "steady_rss_under_twentieth": {"met": under(top["steady_rss_kb"], bt["steady_rss_kb"], 0.05),
                                   "netpmu_kb": top["steady_rss_kb"], "bpftrace_kb": bt["steady_rss_kb"]},
        "no_silent_drop": {"met": bool(silent), "per_poll_dropped_and_counted": ring["dropped_per_run"]},
        # Issue 18: a per-poll trace filtered in the kernel costs less than the unfiltered one.
        "filtered_per_poll_cheaper": filtered_target(table, cost),
        # Issue 14: scraping adds nothing per packet when serve's median is within top's own spread.
        "serve_scrape_no_per_packet_cost": {
            "met": bool(serve["serve_pkt_per_cpu_s_runs"] and serve["top_pkt_per_cpu_s_runs"]) and
            table[SERVE]["pkt_per_cpu_s"] >= min(serve["top_pkt_per_cpu_s_runs"]) and
            not serve["failed_scrapes"],
            "pkt_per_cpu_s_vs_top": serve["pkt_per_cpu_s_vs_top"],
            "top_runs": serve["top_pkt_per_cpu_s_runs"], "serve_runs": serve["serve_pkt_per_cpu_s_runs"]},
    }


def filtered_target(table, cost):
    """With --where 'work >= budget' tested in the kernel, the napi_poll program
    must run shorter (the stable figure) and the flood must not go slower: the
    throughput judged on each round's own pair, as the floor targets are, MISSED
    when the filtered trace is slower in three rounds of four, noise when the
    rounds straddle."""
    f = cost["netpmu_per_poll_filtered"].get("napi_poll", {}).get("ns_per_run")
    u = cost["netpmu_per_poll"].get("napi_poll", {}).get("ns_per_run")
    fc, uc = table[FILTERED]["pkt_per_cpu_s"], table[PER_POLL]["pkt_per_cpu_s"]
    pairs = zip(table[FILTERED]["pkt_per_cpu_s_runs"], table[PER_POLL]["pkt_per_cpu_s_runs"])
    rounds = [round(a / b, 4) for a, b in pairs if a and b]
    q1, _, q3 = statistics.quantiles(rounds, n=4) if len(rounds) >= 3 else (None, None, None)
    shorter = bool(f and u) and f < u
    noise = shorter and q1 is not None and q1 < 1 <= q3
    return {"met": None if q1 is None or noise else shorter and q1 >= 1, "within_noise": noise,
            "napi_poll_ns_filtered": f, "napi_poll_ns_unfiltered": u,
            "ns_ratio": round(f / u, 3) if f and u else None,
            "pkt_per_cpu_s_filtered": fc, "pkt_per_cpu_s_unfiltered": uc,
            "pkt_per_cpu_s_ratio_rounds": rounds,
            "pkt_per_cpu_s_ratio_quartiles": [rounded(q1, 4), rounded(q3, 4)]}


def fmt(v, spec="%s", none="-"):
    return none if v is None else spec % v


def mib(kb):
    return fmt(kb and kb / 1024, "%.1f")


def print_serve(serve):
    p = print
    p("\nnetpmu serve scraped every second (%s scrapes a run, %d failed; a scrape %s ms median, %s ms max):"
      % (serve["scrapes_per_run"], serve["failed_scrapes"], fmt(serve["scrape_ms_median"]),
         fmt(serve["scrape_ms_max"])))
    p("  pkt/CPU-s %s x none, %s x top (top's runs %s, serve's %s)" % (
        fmt(serve["pkt_per_cpu_s_vs_none"], "%.3f"), fmt(serve["pkt_per_cpu_s_vs_top"], "%.3f"),
        serve["top_pkt_per_cpu_s_runs"], serve["serve_pkt_per_cpu_s_runs"]))
    p("  %-16s %10s %10s %10s %7s %7s %7s" % ("hook, ns/run", "serve", "top", "empty", "vs top", "vs empty",
                                             "net"))
    for hook, h in serve["bpf_ns_per_run"].items():
        p("  %-16s %10s %10s %10s %7s %7s %7s" % (
            hook, fmt(h["ns_per_run"]), fmt(h["top_ns_per_run"]), fmt(h["floor_ns_per_run"]),
            fmt(h["vs_top"], "%.2f"), fmt(h["vs_floor"], "%.2f"), fmt(h["vs_top_net_of_floor"], "%.2f")))
    p("  net = (serve - empty) / (top - empty)")


def print_throughput(table):
    p = print
    p("%-20s %9s %6s %10s %6s %7s %7s %9s %10s %8s" % ("configuration", "pkt/s", "vs 1", "pkt/CPU-s", "vs 1",
                                                       "x floor", "CPU s", "peak MiB", "steady MiB", "dropped"))
    for c, row in table.items():
        p("%-20s %9s %6s %10s %6s %7s %7s %9s %10s %8s" % (
            c, fmt(row["pps"], "%d"), fmt(row["ratio"], "%.3f"), fmt(row["pkt_per_cpu_s"], "%d"),
            fmt(row["cpu_ratio"], "%.3f"), fmt(row["x_floor"], "%.2f"), fmt(row.get("cpu_s"), "%.2f"),
            mib(row.get("peak_rss_kb")), mib(row.get("steady_rss_kb")), fmt(row.get("dropped"), "%d")))


def print_batched(batched):
    print("\nbatched: threaded NAPI on the receiving veth, rescheduled after 200 us, %s packets per poll"
          " (worst case above: %s); pkt/CPU-s: delivered per second of the sender's and the NAPI"
          " thread's CPU time" % (fmt(batched["packets_per_poll"]), fmt(batched["worst_packets_per_poll"])))
    print_throughput(batched["throughput"])


def print_table(host, table, startup, ring, cost, guests, verdict):
    p = print
    p("\nnetpmu bench on %s: %d x %d-byte UDP datagrams across veth (GRO), %d rounds, medians"
      % (host["kernel"], host["packets"], host["size"], host["rounds"]))
    print_throughput(table)
    p("pkt/s: delivered, wall clock; pkt/CPU-s: sent per second of the sender's own CPU time, which"
      " includes veth's NAPI polls and softirqs (and every hook's BPF cost) but not time other"
      " processes took from it; x floor: the loss of pkt/CPU-s against 1 as a multiple of 7's (empty"
      " programs on netpmu's hooks); CPU s and MiB: the tracing tool's. A target on x floor is judged"
      " on each round's own multiple (its runs are seconds apart): met when 3 rounds in 4 are within"
      " it, MISSED when 3 in 4 are above, noise when the rounds straddle it")
    p("\nstart-up: start to first interval output (1 s interval) minus the interval; attach line")
    for name, row in startup.items():
        attach = row.get("tracing_line_ms") or row.get("attaching_line_ms")
        p("  %-22s %8s ms   (first output %s ms%s)" % (
            name, fmt(row.get("startup_ms")), fmt(row.get("first_output_ms")),
            ", attach line %s ms" % attach if attach else ""))
    p("\nBPF cost per program run, ns (kernel.bpf_stats_enabled, one flood; runs in brackets)")
    p("%-18s %16s %16s %6s %6s %16s %16s" % ("hook", "netpmu top", "bpftrace", "ratio", "net",
                                             "netpmu per-poll", "empty program"))
    for hook, n in cost["netpmu"].items():
        b, q, f = (cost[k].get(hook, {}) for k in ("bpftrace", "netpmu_per_poll", "floor"))
        cell = lambda d: "%s (%d)" % (fmt(d.get("ns_per_run")), d.get("runs", 0))  # noqa: E731
        p("%-18s %16s %16s %6s %6s %16s %16s" % (hook, cell(n), cell(b), fmt(n.get("vs_bpftrace"), "%.2f"),
                                                 fmt(n.get("vs_bpftrace_net_of_floor"), "%.2f"), cell(q), cell(f)))
    p("  net = (netpmu - empty) / (bpftrace - empty): the accounting's own clock read taken out")
    if cost["parts"]:
        p("\nwhere the ns go: one kind of work per program on softirq_entry, ns per run and net of the empty one")
        for name, v in cost["parts"].items():
            p("  %-16s %8s %8s" % (name, fmt(v["ns_per_run"]), fmt(v["net_ns"])))
    acc = ring.get("accounting_check", {})
    p("\nper-poll ring buffer: %s records/s, dropped per run %s (median %.2f%%), every poll accounted"
      " (records + dropped >= napi_poll runs): %s" % (
          fmt(ring["records_per_s"], "%.0f"), ring["dropped_per_run"], 100 * (ring["drop_fraction"] or 0),
          acc.get("every_poll_accounted")))
    for g in guests:
        r0, r8 = g["runs"]
        p("guest %s (TCG: relative only): one bpf_perf_event_read_value on hns3_pmu_sicl_0 ~ %s ns"
          " (interval tick: %s ns with 0 counters, %s ns with 8); %.2f x a 0-counter tick; by the"
          " per-poll napi_poll (noisier): %s ns" % (
              g["kernel"], g["read_ns_tcg_tick"], r0["tick_ns_per_run"], r8["tick_ns_per_run"],
              g["read_ns_tcg_tick"] / r0["tick_ns_per_run"], g["read_ns_tcg_poll"]))
    p("\ntargets:")
    for name, v in verdict.items():
        said = "noise" if v.get("within_noise") else "n/a" if v["met"] is None else "met" if v["met"] else "MISSED"
        p("  %-26s %-6s %s" % (name, said,
                               json.dumps({k: x for k, x in v.items() if k != "met"})))


def main():
    host = json.load(open(sys.argv[1]))
    guests = []
    for path in sys.argv[3:]:
        try:
            guests.append(json.load(open(path)))
        except (OSError, ValueError):
            pass
    worst = {**host, "runs": [r for r in host["runs"] if r.get("scenario", "worst") == "worst"]}
    batched_runs = [r for r in host["runs"] if r.get("scenario") == "batched"]
    table, startup, ring, cost, serve = summarise(worst)
    verdict = targets(worst["runs"], table, startup, ring, cost, serve)
    batched = None
    if batched_runs:
        batched = {"packets_per_poll": packets_per_poll(batched_runs),
                   "worst_packets_per_poll": packets_per_poll(worst["runs"]),
                   "throughput": throughput_table([r for r in batched_runs if not r["bpf_stats"]],
                                                  host["interval_s"])}
        # With many packets a poll the floor's loss can vanish in the noise: rounds
        # without one give no multiple, and too few of them no verdict (n/a).
        for c, limit in FLOOR_MULTIPLE_TARGETS.items():
            verdict["batched: %s within %gx floor" % (c, limit)] = floor_target(batched["throughput"], c)
    print_table(host, table, startup, ring, cost, guests, verdict)
    if batched:
        print_batched(batched)
    print_serve(serve)
    with open(sys.argv[2], "w") as f:
        json.dump({"host": {k: v for k, v in host.items() if k != "runs"}, "throughput": table, "batched": batched,
                   "startup": startup, "bpf_cost_ns_per_run": cost, "per_poll_ring_buffer": ring, "serve": serve,
                   "guest_read_cost": guests, "targets": verdict, "runs": host["runs"]}, f, indent=1)


if __name__ == "__main__":
    main()
