// SPDX-License-Identifier: GPL-2.0
#include "sys/clock.h"
#include "session/bpf_session.h"
#include "lib/why_line.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "session/core_counters.h"
#include "session/irq_queues.h"
#include "session/kernel_hooks.h"
#include "pmu/pmu_attr_parse.h"
#include "netpmu.skel.h"
#include "queue/queue_map.h"
#include "sys/sysfs_read.h"

static int handle_sample(void *ctx, void *data, size_t size)
{
	struct bpf_session *s = ctx;

	s->on_record(s->ctx, data, size);
	return 0;
}

/* libbpf's own messages only with NETPMU_DEBUG set: netpmu says one line itself. */
static int libbpf_messages(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (!getenv("NETPMU_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, args);
}

/* Per-CPU core records come with the interval records, when core events are open. */
static bool core_ticks_wanted(const struct bpf_session_options *opts)
{
	return opts->core && opts->core->nr_events && opts->interval_records && opts->interval_ms;
}

/* The ticks' programs load when they will run; the hooks' where the kernel has them. */
static int choose_programs(struct bpf_session *s, const struct bpf_session_options *opts,
			   char *why, size_t why_len)
{
	bpf_program__set_autoload(s->skel->progs.interval_tick, opts->interval_ms > 0);
	bpf_program__set_autoload(s->skel->progs.core_tick, core_ticks_wanted(opts));
	return kernel_hooks_choose(s->skel, opts->hooks, why, why_len);
}

static int configure(struct bpf_session *s, const struct bpf_session_options *opts,
		     char *why, size_t why_len)
{
	struct netpmu_bpf *skel = s->skel;
	int err;

	skel->rodata->nr_cpus = s->nr_cpus;
	skel->rodata->nr_counters = opts->nr_counters;
	skel->rodata->nr_core_events = opts->core ? opts->core->nr_events : 0;
	skel->rodata->per_poll_records = opts->per_poll;
	skel->rodata->interval_records = opts->interval_records;
	if (opts->nr_poll_filters > NETPMU_MAX_POLL_FILTERS)
		return why_fail(why, why_len, "at most %d comparisons in the kernel", NETPMU_MAX_POLL_FILTERS);
	skel->rodata->nr_poll_filters = opts->nr_poll_filters;
	for (unsigned int i = 0; i < opts->nr_poll_filters; i++)
		skel->rodata->poll_filters[i] = opts->poll_filters[i];
	if (choose_programs(s, opts, why, why_len))
		return -1;
	err = bpf_map__set_max_entries(skel->maps.pmu_counters, NETPMU_MAX_COUNTERS * s->nr_cpus);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.cpu_softirq, s->nr_cpus);
	if (!err && opts->ringbuf_kb)
		err = bpf_map__set_max_entries(skel->maps.records, opts->ringbuf_kb * 1024);
	if (err)
		return why_fail(why, why_len, "cannot size the BPF maps: %s%s", strerror(-err),
			    opts->ringbuf_kb ? " (--ringbuf-kb must be a power of 2, at least the page size in KiB)" : "");
	return 0;
}

static int load(struct bpf_session *s, char *why, size_t why_len)
{
	int err = netpmu_bpf__load(s->skel);

	if (!err)
		return 0;
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return why_fail(why, why_len, "cannot load the BPF programs: this kernel has no BTF "
			    "(/sys/kernel/btf/vmlinux): netpmu needs CONFIG_DEBUG_INFO_BTF=y");
	/* For root, EACCES is the verifier refusing a program: the generic line below. */
	if ((err == -EPERM || err == -EACCES) && geteuid())
		return why_fail(why, why_len, "cannot load the BPF programs: permission denied "
			    "(run as root, or with CAP_BPF and CAP_PERFMON)");
	return why_fail(why, why_len, "cannot load the BPF programs: %s (NETPMU_DEBUG=1 shows the verifier log)",
		    strerror(-err));
}

/*
 * Every counter is stored at every CPU's index: where the PMU is readable from
 * any CPU the programs read it directly at poll time; elsewhere the read fails
 * with -EINVAL and they use the tick's snapshot. The kernel decides, per read.
 */
static int publish_counter(struct bpf_session *s, unsigned int i,
			   const struct session_counter *c, char *why, size_t why_len)
{
	struct bpf_map *map = s->skel->maps.pmu_counters;
	int cpu, err;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		__u32 key = i * s->nr_cpus + cpu;

		err = bpf_map__update_elem(map, &key, sizeof(key), &s->counter_fds[i],
					   sizeof(s->counter_fds[i]), BPF_ANY);
		if (err)
			return why_fail(why, why_len, "cannot hand %s to the BPF programs: %s",
				    c->name, strerror(-err));
	}
	err = bpf_map__update_elem(s->skel->maps.counter_bindings, &i, sizeof(i), &c->binding,
				   sizeof(c->binding), BPF_ANY);
	if (err)
		return why_fail(why, why_len, "cannot bind %s: %s", c->name, strerror(-err));
	return 0;
}

/* Whether the last failed perf_event_open found the PMU's counters all taken. */
static bool last_open_was_busy;

static void unpublish_counter(struct bpf_session *s, unsigned int i)
{
	int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		__u32 key = i * s->nr_cpus + cpu;

		bpf_map__delete_elem(s->skel->maps.pmu_counters, &key, sizeof(key), 0);
	}
}

static int open_counter(struct bpf_session *s, unsigned int i, const struct session_counter *c,
			char *why, size_t why_len)
{
	char reason[256];
	int leader = -1;

	if (c->group_with >= 0 && (unsigned int)c->group_with < i)
		leader = s->counter_fds[c->group_with];
	s->counter_fds[i] = perf_counter_open(&c->spec, leader, reason, sizeof(reason));
	if (s->counter_fds[i] < 0) {
		last_open_was_busy = s->counter_fds[i] == -EBUSY || s->counter_fds[i] == -EAGAIN;
		s->counter_fds[i] = -1;
		return why_fail(why, why_len, "cannot open %s: %s", c->name, reason);
	}
	return publish_counter(s, i, c, why, why_len);
}

static int open_counters(struct bpf_session *s, const struct bpf_session_options *opts,
			 char *why, size_t why_len)
{
	unsigned int i;

	for (i = 0; i < opts->nr_counters; i++) {
		if (opts->counters[i].spec.cpu != opts->counters[0].spec.cpu)
			return why_fail(why, why_len, "%s counts on CPU %d but %s on CPU %d: "
				    "one run reads counters of one counting CPU",
				    opts->counters[0].name, opts->counters[0].spec.cpu,
				    opts->counters[i].name, opts->counters[i].spec.cpu);
		if (open_counter(s, i, &opts->counters[i], why, why_len))
			return -1;
		s->nr_counters = i + 1;
	}
	return 0;
}

/*
 * The tracepoints are required. The function hooks are optional: a kernel
 * may lack both BPF trampolines and kprobe events, and then netpmu runs
 * without poll time and learns IRQ -> NAPI links only from napi->irq.
 */
static int attach(struct bpf_session *s, char *why, size_t why_len)
{
	struct netpmu_bpf *skel = s->skel;
	struct {
		struct bpf_program *prog;
		struct bpf_link **link;
		const char *hook;
	} required[] = {
		{ skel->progs.napi_poll, &skel->links.napi_poll, "the napi_poll tracepoint" },
		{ skel->progs.irq_entry, &skel->links.irq_entry, "the irq_handler_entry tracepoint" },
		{ skel->progs.irq_exit, &skel->links.irq_exit, "the irq_handler_exit tracepoint" },
		{ skel->progs.softirq_entry, &skel->links.softirq_entry, "the softirq_entry tracepoint" },
		{ skel->progs.softirq_exit, &skel->links.softirq_exit, "the softirq_exit tracepoint" },
	};
	bool entry, exit;
	size_t i;

	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		*required[i].link = bpf_program__attach(required[i].prog);
		if (!*required[i].link)
			return why_fail(why, why_len, "cannot attach to %s: %s", required[i].hook,
				    strerror(errno));
	}
	if (kernel_hooks_attach(skel, s->hooks_mode, &entry, &exit, &s->learns_irqs, why, why_len))
		return -1;
	s->poll_time = entry && exit;
	s->poll_entry = entry;
	s->hooks = kernel_hooks_attached(skel);
	skel->bss->poll_time_enabled = s->poll_time;
	return 0;
}

/* A periodic cpu-clock event on the counting CPU drives the interval tick. */
static int open_tick(struct bpf_session *s, char *why, size_t why_len)
{
	struct perf_counter_spec tick = {
		.type = PERF_TYPE_SOFTWARE,
		.config = { PERF_COUNT_SW_CPU_CLOCK },
		.cpu = s->tick_cpu,
		.sample_period = (uint64_t)s->tick_interval_ms * 1000000,
	};
	char reason[256];
	int err;

	s->tick_fd = perf_counter_open(&tick, -1, reason, sizeof(reason));
	if (s->tick_fd < 0) {
		s->tick_fd = -1;
		return why_fail(why, why_len, "cannot open the interval timer on CPU %d: %s", s->tick_cpu,
			    reason);
	}
	s->tick_link = bpf_program__attach_perf_event(s->skel->progs.interval_tick, s->tick_fd);
	if (!s->tick_link) {
		err = -errno;
		return why_fail(why, why_len, "cannot attach the interval tick: %s", strerror(-err));
	}
	return 0;
}

static void close_tick(struct bpf_session *s)
{
	bpf_link__destroy(s->tick_link);
	s->tick_link = NULL;
	if (s->tick_fd >= 0)
		close(s->tick_fd);
	s->tick_fd = -1;
}

/* A CPU without an "online" file (x86's CPU 0) cannot go offline. */
static bool cpu_online(int cpu)
{
	char dir[64], *online = NULL;
	bool up;

	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d", cpu);
	if (sysfs_read_attr(dir, "online", &online))
		return true;
	up = strcmp(online, "0") != 0;
	free(online);
	return up;
}

/*
 * When the counting CPU goes offline, the PMU's events move to another CPU
 * (the driver's or the perf core's hotplug callback) and go on counting, but
 * the tick's cpu-clock event on the old CPU is gone for good: open it again
 * where the PMU counts now. tick_last_ns is kept, so the next interval
 * record spans the gap and no count is lost.
 */
static void follow_counting_cpu(struct bpf_session *s)
{
	char *mask = NULL, why[256];
	const char *bad;
	unsigned int nr;
	int cpu = -1;

	if (s->tick_fd < 0 || !s->tick_pmu_dir || cpu_online(s->tick_cpu))
		return;
	if (!sysfs_read_attr(s->tick_pmu_dir, "cpumask", &mask))
		parse_cpumask(mask, &cpu, &nr, &bad);
	free(mask);
	/* Not moved yet: the hotplug callbacks are still running. */
	if (cpu < 0 || cpu == s->tick_cpu || !cpu_online(cpu))
		return;
	close_tick(s);
	s->tick_cpu = cpu;
	if (open_tick(s, why, sizeof(why))) {
		close_tick(s);
		fprintf(stderr, "netpmu: the counting CPU went offline and %s: no more interval records\n",
			why);
	}
}

static int start_tick(struct bpf_session *s, unsigned int interval_ms, char *why, size_t why_len)
{
	s->tick_interval_ms = interval_ms;
	s->skel->bss->tick_last_ns = monotonic_ns();
	return open_tick(s, why, why_len);
}

int bpf_session_start(struct bpf_session *s, const struct bpf_session_options *opts,
		      char *why, size_t why_len)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->tick_fd = -1;
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++)
		s->counter_fds[i] = -1;
	s->on_record = opts->on_record;
	s->ctx = opts->ctx;
	if (opts->nr_counters > NETPMU_MAX_COUNTERS)
		return why_fail(why, why_len, "%u counters asked for, a PMU has %d", opts->nr_counters,
			    NETPMU_MAX_COUNTERS);
	libbpf_set_print(libbpf_messages);
	s->nr_cpus = libbpf_num_possible_cpus();
	if (s->nr_cpus <= 0)
		return why_fail(why, why_len, "cannot count the possible CPUs: %s", strerror(-s->nr_cpus));
	s->tick_cpu = opts->nr_counters ? opts->counters[0].spec.cpu : 0;
	s->tick_pmu_dir = opts->tick_pmu_dir;
	s->hooks_mode = opts->hooks;

	s->skel = netpmu_bpf__open();
	if (!s->skel)
		return why_fail(why, why_len, "cannot open the BPF object: %s", strerror(errno));
	s->core = opts->core;
	if (configure(s, opts, why, why_len) || load(s, why, why_len) ||
	    open_counters(s, opts, why, why_len) || irq_queues_publish(s, opts->queues, why, why_len) ||
	    (s->core && core_counters_publish(s->core, s->skel, why, why_len)))
		goto err_stop;
	if (attach(s, why, why_len))
		goto err_stop;
	if (opts->interval_ms && start_tick(s, opts->interval_ms, why, why_len))
		goto err_stop;
	if (core_ticks_wanted(opts) &&
	    core_counters_start_ticks(s->core, s->skel, opts->interval_ms, why, why_len))
		goto err_stop;
	s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.records), handle_sample, s, NULL);
	if (!s->rb) {
		why_fail(why, why_len, "cannot open the ring buffer: %s", strerror(errno));
		goto err_stop;
	}
	return 0;

err_stop:
	bpf_session_stop(s);
	return -1;
}

int bpf_session_poll(struct bpf_session *s, int timeout_ms)
{
	int err;

	follow_counting_cpu(s);
	err = ring_buffer__poll(s->rb, timeout_ms);

	return err == -EINTR ? 0 : err;
}

void bpf_session_stop_tick(struct bpf_session *s)
{
	close_tick(s);
}

void bpf_session_drain(struct bpf_session *s)
{
	ring_buffer__consume(s->rb);
}

int bpf_session_tick_soon(struct bpf_session *s)
{
	uint64_t period_ns = TICK_SOON_NS;

	if (s->tick_fd < 0)
		return -ENOENT;
	return ioctl(s->tick_fd, PERF_EVENT_IOC_PERIOD, &period_ns) ? -errno : 0;
}

/*
 * A counter another user is giving back (its event dropped from a perf event
 * array is freed after an RCU grace period and a deferred fput: over 200 ms
 * in a loaded TCG guest) may still be taken: retry a busy PMU, waiting twice
 * as long each time, up to REOPEN_WAIT_MAX_US in all.
 */
#define REOPEN_WAIT_FIRST_US 1000
#define REOPEN_WAIT_MAX_US 2000000

static int reopen_counter(struct bpf_session *s, unsigned int i, const struct session_counter *c,
			  char *why, size_t why_len)
{
	unsigned int wait_us = REOPEN_WAIT_FIRST_US, waited_us = 0;

	for (;;) {
		if (!open_counter(s, i, c, why, why_len))
			return 0;
		if (s->counter_fds[i] >= 0 || waited_us >= REOPEN_WAIT_MAX_US || !last_open_was_busy)
			return -1;
		usleep(wait_us);
		waited_us += wait_us;
		wait_us *= 2;
	}
}

int bpf_session_replace_group(struct bpf_session *s, unsigned int first, unsigned int n,
			      const struct session_counter *counters, char *why, size_t why_len)
{
	unsigned int i;

	if (first + n > s->nr_counters)
		return why_fail(why, why_len, "counters %u..%u are not open", first, first + n - 1);
	/*
	 * The map's entries hold the events too, and the kernel drops them only
	 * after an RCU grace period: disabled first, the events give their
	 * hardware counters back at once, so that the new ones do not
	 * oversubscribe the PMU and have the perf core multiplex every event on
	 * it, another user's too. Members first: closing a leader would leave
	 * them running alone.
	 */
	for (i = first + n; i-- > first;) {
		if (s->counter_fds[i] >= 0)
			ioctl(s->counter_fds[i], PERF_EVENT_IOC_DISABLE, 0);
		unpublish_counter(s, i);
		close(s->counter_fds[i]);
		s->counter_fds[i] = -1;
	}
	for (i = 0; i < n; i++)
		if (reopen_counter(s, first + i, &counters[i], why, why_len))
			return -1;
	return 0;
}

void bpf_session_losses(const struct bpf_session *s, struct netpmu_loss_counts *out)
{
	*out = s->skel->bss->losses;
}

unsigned long long bpf_session_polls_filtered(const struct bpf_session *s)
{
	return s->skel->bss->polls_filtered;
}

void bpf_session_stop(struct bpf_session *s)
{
	unsigned int i;

	ring_buffer__free(s->rb);
	s->rb = NULL;
	close_tick(s);
	if (s->core)
		core_counters_stop_ticks(s->core);
	netpmu_bpf__destroy(s->skel);
	s->skel = NULL;
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		if (s->counter_fds[i] >= 0)
			close(s->counter_fds[i]);
		s->counter_fds[i] = -1;
	}
}
