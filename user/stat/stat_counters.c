// SPDX-License-Identifier: GPL-2.0
/* The perf events of netpmu stat: open, enable, read, scale. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "event/event_check.h"
#include "stat/stat_counters.h"

void stat_attr_init(const struct parsed_event *ev, struct perf_event_attr *attr)
{
	struct perf_counter_spec spec = ev->spec;

	/* Leaders start disabled so that every group starts when the command does. */
	spec.disabled = ev->group_leader;
	/* No exclude_* bit: these PMUs count everything and refuse them (NO_EXCLUDE). */
	perf_counter_attr(&spec, attr);
}

int stat_counters_open(struct stat_counters *sc, const struct event_list *list,
		       char *why, size_t why_len)
{
	int leader_fd = -1;

	memset(sc, 0, sizeof(*sc));
	sc->counters = calloc(list->nr_events ?: 1, sizeof(*sc->counters));
	if (!sc->counters) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < list->nr_events; i++) {
		const struct parsed_event *ev = &list->events[i];
		struct stat_counter *c = &sc->counters[i];
		struct perf_counter_spec spec = ev->spec;
		char reason[512];

		c->ev = ev;
		sc->nr_counters++;
		spec.disabled = ev->group_leader;
		c->fd = perf_counter_open(&spec, ev->group_leader ? -1 : leader_fd, reason, sizeof(reason));
		if (c->fd < 0) {
			int err = c->fd;

			c->fd = -1;
			snprintf(why, why_len, "cannot open %s: %s", ev->text, reason);
			return err;
		}
		if (ev->group_leader)
			leader_fd = c->fd;
	}
	return 0;
}

int stat_counters_enable(struct stat_counters *sc, bool enable, char *why, size_t why_len)
{
	unsigned long request = enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;

	for (size_t i = 0; i < sc->nr_counters; i++) {
		const struct stat_counter *c = &sc->counters[i];

		if (!c->ev->group_leader)
			continue;
		if (ioctl(c->fd, request, PERF_IOC_FLAG_GROUP)) {
			snprintf(why, why_len, "cannot %s %s: %s", enable ? "enable" : "disable",
				 c->ev->text, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

int stat_counters_read(struct stat_counters *sc, char *why, size_t why_len)
{
	for (size_t i = 0; i < sc->nr_counters; i++) {
		struct stat_counter *c = &sc->counters[i];
		uint64_t buf[3];
		ssize_t n = read(c->fd, buf, sizeof(buf));

		if (n != sizeof(buf)) {
			snprintf(why, why_len, "cannot read %s: %s", c->ev->text,
				 n < 0 ? strerror(errno) : "short read");
			return n < 0 ? -errno : -EIO;
		}
		c->before = c->now;
		c->now = (struct stat_count){ .value = buf[0], .enabled_ns = buf[1],
					      .running_ns = buf[2] };
	}
	return 0;
}

void stat_counters_close(struct stat_counters *sc)
{
	for (size_t i = 0; i < sc->nr_counters; i++) {
		if (sc->counters[i].fd >= 0)
			close(sc->counters[i].fd);
	}
	free(sc->counters);
	memset(sc, 0, sizeof(*sc));
}

struct stat_count stat_count_period(const struct stat_counter *c, bool delta)
{
	struct stat_count count = c->now;

	if (delta) {
		count.value -= c->before.value;
		count.enabled_ns -= c->before.enabled_ns;
		count.running_ns -= c->before.running_ns;
	}
	return count;
}

double stat_count_scale(const struct stat_count *count)
{
	if (!count->running_ns)
		return 0;
	/* perf truncates the scaled count to a whole u64 (libperf's scaling). */
	if (count->running_ns < count->enabled_ns)
		return (uint64_t)((double)count->value * count->enabled_ns / count->running_ns);
	return count->value;
}
