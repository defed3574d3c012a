// SPDX-License-Identifier: GPL-2.0
#include "sys/clock.h"
#include "session/core_counters.h"
#include "lib/why_line.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/cli_values.h"
#include "netpmu.skel.h"
#include "sys/perf_counter.h"

/* The perf event array of core event I (core_pmu.bpf.h reads the same four). */
static struct bpf_map *core_map(struct netpmu_bpf *skel, unsigned int i)
{
	struct bpf_map *maps[NETPMU_MAX_CORE_EVENTS] = {
		skel->maps.core_counters_0, skel->maps.core_counters_1,
		skel->maps.core_counters_2, skel->maps.core_counters_3,
	};

	return maps[i];
}

/* Errors that mean "this CPU cannot count this event", not "netpmu may not". */
static bool not_countable(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV;
}

/*
 * Opens EV on every CPU into FDS. Returns the number of CPUs it counts on (0:
 * none can, FIRST_ERR says why), or -1 with WHY and nothing left open.
 */
static int open_everywhere(struct core_event *ev, int nr_cpus, int *fds, int *first_err,
			   char *why, size_t why_len)
{
	char reason[256];
	int cpu, fd, opened = 0;

	*first_err = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		ev->spec.cpu = cpu;
		fd = perf_counter_open(&ev->spec, -1, reason, sizeof(reason));
		fds[cpu] = fd < 0 ? -1 : fd;
		if (fd >= 0) {
			opened++;
			continue;
		}
		/* ENODEV: an offline CPU; its slot stays empty and reads fail there. */
		if (fd != -ENODEV && !*first_err)
			*first_err = fd;
		if (!not_countable(fd)) {
			while (cpu-- > 0)
				if (fds[cpu] >= 0)
					close(fds[cpu]);
			return why_fail(why, why_len, "cannot open %s on CPU %d: %s", ev->text,
					ev->spec.cpu, reason);
		}
	}
	return opened;
}

/* The events no CPU could count, for one line saying why. */
struct dropped_events {
	char lacking[256];		/* by name: the PMU lacks the event */
	char qualified[256];		/* as PMU/NAME/: the kernel takes no PMU type in the config */
	int err;			/* the first of their errors */
	unsigned int nr;
};

static void note_dropped(struct dropped_events *d, const struct core_event *ev, int err)
{
	bool qualified = ev->spec.config[0] >> PERF_PMU_TYPE_SHIFT;
	char *list = qualified ? d->qualified : d->lacking;
	size_t used = strlen(list), len = sizeof(d->lacking);

	if (used < len)
		snprintf(list + used, len - used, "%s%s", used ? ", " : "", ev->text);
	if (!d->err)
		d->err = err;
	d->nr++;
}

/* "no core PMU ..." or "<pmu> cannot count ...": one line for the dropped events. */
static void explain_dropped(const char *sysfs_root, const struct dropped_events *d,
			    char *notice, size_t notice_len)
{
	const char *err = strerrorname_np(-d->err) ?: "an error";
	char pmu[128];
	size_t used = 0;

	if (!core_pmu_find(sysfs_root, pmu, sizeof(pmu))) {
		snprintf(notice, notice_len, "no core PMU on this machine (%s%s%s: perf_event_open gives "
			 "%s on every CPU and sysfs has no PMU with a cpus file, nor x86's cpu: the "
			 "kernel drives no CPU PMU here, as under QEMU TCG on x86_64 or in a VM "
			 "without a virtual PMU; on a machine with one, e.g. arm64's armv8_pmuv3, "
			 "they are counted per poll); going on without those columns", d->lacking,
			 *d->lacking && *d->qualified ? ", " : "", d->qualified, err);
		return;
	}
	if (*d->lacking)
		used += snprintf(notice, notice_len, "%s cannot count %s (perf_event_open gives %s on "
				 "every CPU: the PMU lacks the event; 'ls /sys/bus/event_source/"
				 "devices/%s/events' shows what it has); ", pmu, d->lacking, err, pmu);
	if (*d->qualified && used < notice_len)
		used += snprintf(notice + used, notice_len - used, "this kernel refuses %s (%s: it takes "
				 "no PMU type in a hardware event's config, which arm64's PMU driver "
				 "takes since Linux 6.6): write the event without its PMU, e.g. "
				 "cycles; ", d->qualified, err);
	if (used < notice_len)
		snprintf(notice + used, notice_len - used, "going on without %s",
			 d->nr > 1 ? "those columns" : "that column");
}

int core_counters_open(struct core_counters *cc, struct core_event *events, unsigned int nr,
		       const char *sysfs_root, char *notice, size_t notice_len,
		       char *why, size_t why_len)
{
	struct dropped_events dropped = { 0 };
	unsigned int i, kept = 0;
	int err, opened;

	memset(cc, 0, sizeof(*cc));
	notice[0] = '\0';
	cc->opened_ns = monotonic_ns();
	cc->nr_cpus = libbpf_num_possible_cpus();
	if (cc->nr_cpus <= 0) {
		why_fail(why, why_len, "cannot count the possible CPUs: %s", strerror(-cc->nr_cpus));
		goto fail;
	}
	cc->fds = calloc((size_t)nr * cc->nr_cpus, sizeof(*cc->fds));
	if (!cc->fds) {
		why_fail(why, why_len, "out of memory");
		goto fail;
	}
	for (i = 0; i < nr; i++) {
		opened = open_everywhere(&events[i], cc->nr_cpus, &cc->fds[kept * cc->nr_cpus], &err,
					 why, why_len);
		if (opened < 0)
			goto fail;
		if (opened) {
			/* The counters own the event from here on. */
			cc->events[kept++] = events[i];
			cc->nr_events = kept;
			events[i].text = NULL;
			continue;
		}
		note_dropped(&dropped, &events[i], err);
		core_event_release(&events[i]);
	}
	if (dropped.nr)
		explain_dropped(sysfs_root, &dropped, notice, notice_len);
	return 0;
fail:
	for (i = 0; i < nr; i++)
		core_event_release(&events[i]);
	core_counters_close(cc);
	return -1;
}

int core_counters_publish(const struct core_counters *cc, struct netpmu_bpf *skel,
			  char *why, size_t why_len)
{
	unsigned int e;
	int cpu, err;

	for (e = 0; e < cc->nr_events; e++) {
		for (cpu = 0; cpu < cc->nr_cpus; cpu++) {
			__u32 key = cpu;
			int fd = cc->fds[e * cc->nr_cpus + cpu];

			if (fd < 0)
				continue;
			err = bpf_map__update_elem(core_map(skel, e), &key, sizeof(key), &fd, sizeof(fd),
						   BPF_ANY);
			if (err)
				return why_fail(why, why_len, "cannot hand %s on CPU %d to the BPF programs: %s",
						cc->events[e].text, cpu, strerror(-err));
		}
	}
	return 0;
}

int core_counters_start_ticks(struct core_counters *cc, struct netpmu_bpf *skel,
			      unsigned int interval_ms, char *why, size_t why_len)
{
	struct perf_counter_spec tick = {
		.type = PERF_TYPE_SOFTWARE,
		.config = { PERF_COUNT_SW_CPU_CLOCK },
		.sample_period = (uint64_t)interval_ms * 1000000,
	};
	char reason[256];
	int cpu, fd;

	skel->bss->core_ticks_start_ns = cc->opened_ns;
	cc->tick_fds = malloc(cc->nr_cpus * sizeof(*cc->tick_fds));
	cc->tick_links = calloc(cc->nr_cpus, sizeof(*cc->tick_links));
	if (!cc->tick_fds || !cc->tick_links)
		return why_fail(why, why_len, "out of memory");
	for (cpu = 0; cpu < cc->nr_cpus; cpu++)
		cc->tick_fds[cpu] = -1;
	for (cpu = 0; cpu < cc->nr_cpus; cpu++) {
		tick.cpu = cpu;
		fd = perf_counter_open(&tick, -1, reason, sizeof(reason));
		if (fd == -ENODEV)
			continue;	/* offline */
		if (fd < 0)
			return why_fail(why, why_len, "cannot open the core tick on CPU %d: %s", cpu, reason);
		cc->tick_fds[cpu] = fd;
		cc->tick_links[cpu] = bpf_program__attach_perf_event(skel->progs.core_tick, fd);
		if (!cc->tick_links[cpu])
			return why_fail(why, why_len, "cannot attach the core tick on CPU %d: %s", cpu,
					strerror(errno));
	}
	return 0;
}

void core_counters_stop_ticks(struct core_counters *cc)
{
	int cpu;

	for (cpu = 0; cc->tick_links && cpu < cc->nr_cpus; cpu++)
		bpf_link__destroy(cc->tick_links[cpu]);
	for (cpu = 0; cc->tick_fds && cpu < cc->nr_cpus; cpu++)
		if (cc->tick_fds[cpu] >= 0)
			close(cc->tick_fds[cpu]);
	free(cc->tick_links);
	free(cc->tick_fds);
	cc->tick_links = NULL;
	cc->tick_fds = NULL;
}

void core_counters_close(struct core_counters *cc)
{
	unsigned int e;
	int cpu;

	core_counters_stop_ticks(cc);
	for (e = 0; cc->fds && e < cc->nr_events; e++)
		for (cpu = 0; cpu < cc->nr_cpus; cpu++)
			if (cc->fds[e * cc->nr_cpus + cpu] >= 0)
				close(cc->fds[e * cc->nr_cpus + cpu]);
	for (e = 0; e < cc->nr_events; e++)
		core_event_release(&cc->events[e]);
	free(cc->fds);
	memset(cc, 0, sizeof(*cc));
}

void core_counters_tick_soon(const struct core_counters *cc, uint64_t period_ns)
{
	for (int cpu = 0; cc->tick_fds && cpu < cc->nr_cpus; cpu++)
		if (cc->tick_fds[cpu] >= 0)
			ioctl(cc->tick_fds[cpu], PERF_EVENT_IOC_PERIOD, &period_ns);
}
