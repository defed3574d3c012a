# SPDX-License-Identifier: GPL-2.0
"""One tracing tool's run for the bench: started, its output lines timed from
the start, stopped with SIGINT, reaped with its own rusage (CPU time, peak RSS),
and the BPF programs it holds found through its file descriptors."""
import json
import os
import re
import signal
import subprocess
import threading
import time


class ToolRun:
    def __init__(self, argv, stdout=subprocess.PIPE):
        """STDOUT: PIPE (its lines are timed), DEVNULL or an open file."""
        self.argv = argv
        self.lines = []  # (seconds since start, stream, text)
        self.lock = threading.Lock()
        self.start = time.monotonic()
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout,
                                     stderr=subprocess.PIPE, text=True, errors="replace")
        self.readers = [threading.Thread(target=self._read, args=(self.proc.stderr, "err"))]
        if stdout == subprocess.PIPE:
            self.readers.append(threading.Thread(target=self._read, args=(self.proc.stdout, "out")))
        for r in self.readers:
            r.daemon = True
            r.start()
        self.rusage = None
        self.status = None

    def _read(self, stream, name):
        for line in stream:
            with self.lock:
                self.lines.append((time.monotonic() - self.start, name, line.rstrip("\n")))

    def first(self, pattern, stream=None):
        """Seconds from start to the first line matching PATTERN, or None."""
        rx = re.compile(pattern)
        with self.lock:
            for t, s, text in self.lines:
                if (stream is None or s == stream) and rx.search(text):
                    return t
        return None

    def wait_for(self, pattern, stream=None, timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            t = self.first(pattern, stream)
            if t is not None:
                return t
            if self.proc.poll() is not None:
                break
            time.sleep(0.01)
        raise RuntimeError("%s: no line matching %r within %.0f s; output:\n%s" % (
            " ".join(self.argv), pattern, timeout, self.text()))

    def text(self, stream=None):
        with self.lock:
            return "\n".join(l for _, s, l in self.lines if stream is None or s == stream)

    def prog_ids(self):
        """IDs of the BPF programs whose file descriptors the tool holds."""
        ids = []
        fd_dir = "/proc/%d/fd" % self.proc.pid
        for fd in os.listdir(fd_dir):
            try:
                if "bpf-prog" not in os.readlink(os.path.join(fd_dir, fd)):
                    continue
                with open("/proc/%d/fdinfo/%s" % (self.proc.pid, fd)) as f:
                    for line in f:
                        if line.startswith("prog_id:"):
                            ids.append(int(line.split()[1]))
            except OSError:
                continue
        return sorted(set(ids))

    def stop(self, timeout=60.0):
        """SIGINT, then reap: returns the tool's own exit status and rusage."""
        self.wall_s = time.monotonic() - self.start
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, rusage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                self.proc.kill()
                pid, status, rusage = os.wait4(self.proc.pid, 0)
                break
            time.sleep(0.01)
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        for r in self.readers:
            r.join(5)
        self.status = self.proc.returncode
        self.rusage = {
            "cpu_s": round(rusage.ru_utime + rusage.ru_stime, 4),
            "user_s": round(rusage.ru_utime, 4),
            "sys_s": round(rusage.ru_stime, 4),
            "max_rss_kb": rusage.ru_maxrss,
            "wall_s": round(self.wall_s, 3),
        }
        return self.status


def bpf_prog_stats(ids):
    """The kernel's accounting (kernel.bpf_stats_enabled) of programs IDS, by bpftool."""
    out = subprocess.run(["bpftool", "prog", "show", "--json"], check=True,
                         capture_output=True, text=True).stdout
    wanted = set(ids)
    progs = []
    for p in json.loads(out):
        if p["id"] in wanted:
            progs.append({"id": p["id"], "type": p["type"], "name": p.get("name", ""),
                          "run_cnt": p.get("run_cnt", 0), "run_time_ns": p.get("run_time_ns", 0)})
    return progs
