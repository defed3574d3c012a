// SPDX-License-Identifier: GPL-2.0
/* The perf events of netpmu stat: open, enable, read, scale. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "event/event_check.h"
#include "stat/stat_counters.h"

void stat_attr_init(const struct parsed_event *ev, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = ev->spec.type;
	attr->config = ev->spec.config[0];
	attr->config1 = ev->spec.config[1];
	attr->config2 = ev->spec.config[2];
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Leaders start disabled so that every group starts when the command does. */
	attr->disabled = ev->group_leader;
	/* No exclude_* bit: these PMUs count everything and refuse them (NO_EXCLUDE). */
}

static int paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 99;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 99;
		fclose(f);
	}
	return level;
}

static void explain_open_error(const struct parsed_event *ev, int err, char *why, size_t why_len)
{
	const char *pmu = ev->pmu_name;

	if ((err == ENOENT || err == EINVAL) && !perf_type_exists(ev->spec.type)) {
		snprintf(why, why_len, "cannot open %s: this kernel has no PMU of perf type %u, "
			 "%s's type in sysfs (is its driver or netpmu.ko loaded? 'netpmu list' shows "
			 "the PMUs)", ev->text, ev->spec.type, pmu);
		return;
	}
	switch (err) {
	case EACCES:
	case EPERM:
		snprintf(why, why_len, "cannot open %s: no permission to count system-wide: run as "
			 "root or with CAP_PERFMON, or set kernel.perf_event_paranoid to 0 or less "
			 "(it is %d)", ev->text, paranoid_level());
		break;
	case EBUSY:
	case EAGAIN:
		snprintf(why, why_len, "cannot open %s: counters exhausted: %s's %d hardware counters "
			 "are taken (by other perf users or this command's events); close other "
			 "counters or count fewer events", ev->text, pmu, PMU_HW_COUNTERS);
		break;
	case ENOENT:
		snprintf(why, why_len, "cannot open %s: %s refused the event or its filter (ENOENT): "
			 "for func-queue the queue must exist on the function; 'netpmu stat --explain' "
			 "shows what was asked", ev->text, pmu);
		break;
	case EINVAL:
		snprintf(why, why_len, "cannot open %s: %s refused a field value or the group (EINVAL)",
			 ev->text, pmu);
		break;
	case ENODEV:
		snprintf(why, why_len, "cannot open %s: CPU %d is offline or %s is gone (ENODEV): "
			 "run 'netpmu list' again", ev->text, ev->spec.cpu, pmu);
		break;
	default:
		snprintf(why, why_len, "cannot open %s: %s", ev->text, strerror(err));
	}
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
		struct perf_event_attr attr;

		c->ev = ev;
		c->fd = -1;
		sc->nr_counters++;
		stat_attr_init(ev, &attr);
		c->fd = syscall(SYS_perf_event_open, &attr, -1, ev->spec.cpu,
				ev->group_leader ? -1 : leader_fd, PERF_FLAG_FD_CLOEXEC);
		if (c->fd < 0) {
			int err = errno;

			explain_open_error(ev, err, why, why_len);
			return -err;
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
