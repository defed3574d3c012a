#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turns the bench's raw runs (host_bench.py, guest_read_cost.py) into medians,
ratios and the verdict on issue 7's targets: prints a table, writes JSON.

usage: report.py HOST_JSON GUEST_JSON|- OUT_JSON
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


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def bpf_cost(runs, config, column):
    stats_run = next((r for r in runs if r["config"] == config and r.get("progs")), None)
    out = {}
    if not stats_run:
        return out
    for hook, *names in HOOKS:
        name = names[column]
        progs = [p for p in stats_run["progs"] if p["name"] == name and p["type"] != "perf_event"]
        cnt = sum(p["run_cnt"] for p in progs)
        ns = sum(p["run_time_ns"] for p in progs)
        out[hook] = {"runs": cnt, "ns_per_run": round(ns / cnt, 1) if cnt else None}
    cnt = sum(h["runs"] for h in out.values())
    ns = sum(h["runs"] * (h["ns_per_run"] or 0) for h in out.values())
    out["all five"] = {"runs": cnt, "ns_per_run": round(ns / cnt, 1) if cnt else None}
    return out


def summarise(host):
    runs = host["runs"]
    timed = [r for r in runs if not r["bpf_stats"]]
    configs = [NONE, TOP, PER_POLL, BPFTRACE]
    base = median(r["flood"]["pps"] for r in timed if r["config"] == NONE)
    table = {}
    for c in configs:
        mine = [r for r in timed if r["config"] == c]
        pps = median(r["flood"]["pps"] for r in mine)
        row = {"pps": pps, "ratio": round(pps / base, 4) if base and pps else None,
               "pps_runs": [r["flood"]["pps"] for r in mine],
               "socket_drops": sum(r["flood"]["socket_drops"] for r in mine)}
        if c != NONE:
            row["cpu_s"] = median(r["rusage"]["cpu_s"] for r in mine)
            row["wall_s"] = median(r["rusage"]["wall_s"] for r in mine)
            row["max_rss_kb"] = median(r["rusage"]["max_rss_kb"] for r in mine)
            first = median(r.get("first_output_s") for r in mine)
            if first is not None:
                row["first_output_ms"] = round(first * 1000, 1)
                row["startup_ms"] = round((first - host["interval_s"]) * 1000, 1)
            ready = median(r.get("ready_s") for r in mine)
            if ready is not None:
                row["ready_ms"] = round(ready * 1000, 1)
            attach = median(r.get("attaching_line_s") for r in mine)
            if attach is not None:
                row["attaching_line_ms"] = round(attach * 1000, 1)
            row["dropped"] = sum(r["losses"].get("dropped", 0) for r in mine if r["losses"])
        table[c] = row
    pp = [r for r in runs if r["config"] == PER_POLL]
    ring = {
        "records_per_s": median(r["losses"]["records"] / r["flood"]["send_s"] for r in pp),
        "dropped_per_run": [r["losses"]["dropped"] for r in pp],
        "records_per_run": [r["losses"]["records"] for r in pp],
        "drop_fraction": median(r["losses"]["dropped"] / max(r["losses"]["records"] + r["losses"]["dropped"], 1)
                                for r in pp),
    }
    stats_pp = next((r for r in pp if r.get("progs")), None)
    if stats_pp:
        polls = sum(p["run_cnt"] for p in stats_pp["progs"] if p["name"] == "napi_poll")
        seen = stats_pp["losses"]["records"] + stats_pp["losses"]["dropped"]
        # Polls after the stats were read and before the detach add records, never remove them.
        ring["accounting_check"] = {"napi_poll_runs": polls, "records_plus_dropped": seen,
                                    "every_poll_accounted": seen >= polls}
    cost = {"netpmu": bpf_cost(runs, TOP, 0), "bpftrace": bpf_cost(runs, BPFTRACE, 1),
            "netpmu_per_poll": bpf_cost(runs, PER_POLL, 0)}
    for hook in cost["netpmu"]:
        n, b = cost["netpmu"][hook]["ns_per_run"], cost["bpftrace"].get(hook, {}).get("ns_per_run")
        cost["netpmu"][hook]["vs_bpftrace"] = round(n / b, 3) if n and b else None
    return table, ring, cost


def targets(table, ring, cost):
    top, bt = table[TOP], table[BPFTRACE]
    hooks = {h: v["vs_bpftrace"] for h, v in cost["netpmu"].items() if v.get("vs_bpftrace") is not None}
    silent = ring.get("accounting_check", {}).get("every_poll_accounted")
    return {
        "bpf_cost_at_most_half": {"met": bool(hooks) and all(v <= 0.5 for v in hooks.values()),
                                  "ratios": hooks},
        "throughput_loss_under_3pct": {"met": top["ratio"] is not None and top["ratio"] > 0.97,
                                       "ratio": top["ratio"]},
        "startup_under_tenth": {"met": top.get("startup_ms") is not None and bt.get("startup_ms") and
                                top["startup_ms"] < bt["startup_ms"] / 10,
                                "netpmu_ms": top.get("startup_ms"), "bpftrace_ms": bt.get("startup_ms")},
        "rss_under_tenth": {"met": top["max_rss_kb"] < bt["max_rss_kb"] / 10,
                            "netpmu_kb": top["max_rss_kb"], "bpftrace_kb": bt["max_rss_kb"]},
        "no_silent_drop": {"met": bool(silent), "per_poll_dropped_counted": ring["dropped_per_run"]},
    }


def fmt(v, spec="%s", none="-"):
    return none if v is None else spec % v


def print_table(host, table, ring, cost, guest, verdict):
    p = print
    p("\nnetpmu bench on %s: %d x %d-byte UDP datagrams over veth (GRO), %d rounds, medians"
      % (host["kernel"], host["packets"], host["size"], host["rounds"]))
    p("%-18s %10s %7s %9s %9s %11s %12s" % ("configuration", "pkt/s", "vs 1", "CPU s", "peak RSS",
                                             "start-up", "drops"))
    for c, row in table.items():
        p("%-18s %10s %7s %9s %9s %11s %12s" % (
            c, fmt(row["pps"], "%d"), fmt(row["ratio"], "%.3f"), fmt(row.get("cpu_s"), "%.3f"),
            fmt(row.get("max_rss_kb") and row["max_rss_kb"] / 1024, "%.1f MiB"),
            fmt(row.get("startup_ms"), "%.0f ms"), fmt(row.get("dropped"), "%d")))
    p("start-up: start to first interval output (-I 1000 / interval:s:1) minus the 1 s interval;"
      " netpmu top %s ms, bpftrace %s ms" % (fmt(table[TOP].get("first_output_ms")),
                                            fmt(table[BPFTRACE].get("first_output_ms"))))
    p("\nBPF cost per program run (ns; kernel.bpf_stats_enabled, one flood)")
    p("%-18s %18s %18s %8s %20s" % ("hook", "netpmu top", "bpftrace", "ratio", "netpmu per-poll"))
    for hook in cost["netpmu"]:
        n, b, q = cost["netpmu"][hook], cost["bpftrace"].get(hook, {}), cost["netpmu_per_poll"].get(hook, {})
        p("%-18s %18s %18s %8s %20s" % (
            hook, "%s (%d)" % (fmt(n["ns_per_run"]), n["runs"]),
            "%s (%d)" % (fmt(b.get("ns_per_run")), b.get("runs", 0)), fmt(n.get("vs_bpftrace"), "%.2f"),
            "%s (%d)" % (fmt(q.get("ns_per_run")), q.get("runs", 0))))
    acc = ring.get("accounting_check", {})
    p("\nper-poll ring buffer: %s records/s, dropped per run %s (%.2f%%), every poll accounted: %s"
      % (fmt(ring["records_per_s"], "%.0f"), ring["dropped_per_run"], 100 * (ring["drop_fraction"] or 0),
         acc.get("every_poll_accounted")))
    if guest:
        p("guest (%s, TCG, relative only): one bpf_perf_event_read_value = %s ns = %.1f%% of a "
          "0-counter per-poll napi_poll run (%s ns)" % (
              guest["kernel"], guest["read_ns_tcg"], 100 * guest["read_vs_poll_run"],
              guest["runs"][0]["napi_poll_ns_per_run"]))
    p("\ntargets:")
    for name, v in verdict.items():
        p("  %-28s %s  %s" % (name, "met" if v["met"] else "MISSED",
                              json.dumps({k: x for k, x in v.items() if k != "met"})))


def main():
    host = json.load(open(sys.argv[1]))
    guest = None
    if sys.argv[2] != "-":
        try:
            guest = json.load(open(sys.argv[2]))
        except (OSError, ValueError):
            guest = None
    table, ring, cost = summarise(host)
    verdict = targets(table, ring, cost)
    print_table(host, table, ring, cost, guest, verdict)
    with open(sys.argv[3], "w") as f:
        json.dump({"host": {k: v for k, v in host.items() if k != "runs"}, "throughput": table,
                   "bpf_cost_ns_per_run": cost, "per_poll_ring_buffer": ring,
                   "guest_read_cost": guest, "targets": verdict, "runs": host["runs"]}, f, indent=1)


if __name__ == "__main__":
    main()
