// SPDX-License-Identifier: GPL-2.0
#include "sys/perf_counter.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/sysfs_read.h"

void perf_counter_attr(const struct perf_counter_spec *spec, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = spec->type;
	attr->config = spec->config[0];
	attr->config1 = spec->config[1];
	attr->config2 = spec->config[2];
	attr->sample_period = spec->sample_period;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->exclude_user = !!(spec->exclude & PERF_COUNTER_EXCLUDE_USER);
	attr->exclude_kernel = !!(spec->exclude & PERF_COUNTER_EXCLUDE_KERNEL);
	attr->exclude_hv = !!(spec->exclude & PERF_COUNTER_EXCLUDE_HV);
	attr->disabled = spec->disabled;
}

/*
 * Whether this kernel has a PMU of perf type TYPE: an unknown type is
 * answered with ENOENT or EINVAL, which must not be blamed on the filter.
 * The generic types (hardware ... breakpoint) always exist.
 */
static bool perf_type_exists(uint32_t type)
{
	static const char devices[] = "/sys/bus/event_source/devices";
	char **names, *dir, *value;
	bool found = false;
	size_t nr;

	if (type < PERF_TYPE_MAX || sysfs_list_dir(devices, &names, &nr))
		return true;
	for (size_t i = 0; i < nr && !found; i++) {
		if (asprintf(&dir, "%s/%s", devices, names[i]) < 0)
			break;
		if (!sysfs_read_attr(dir, "type", &value)) {
			found = strtoul(value, NULL, 10) == type;
			free(value);
		}
		free(dir);
	}
	sysfs_free_names(names, nr);
	return found;
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

/* What ERR from perf_event_open means for SPEC, and what to do about it. */
static void explain_open_error(const struct perf_counter_spec *spec, int err,
			       char *why, size_t why_len)
{
	const char *pmu = spec->pmu_name ?: "the PMU";

	if ((err == ENOENT || err == EINVAL) && !perf_type_exists(spec->type)) {
		char whose[96] = "";

		if (spec->pmu_name)
			snprintf(whose, sizeof(whose), ", %s's type in sysfs", spec->pmu_name);
		snprintf(why, why_len, "this kernel has no PMU of perf type %u%s (is its driver or "
			 "netpmu.ko loaded? 'netpmu list' shows the PMUs)", spec->type, whose);
		return;
	}
	switch (err) {
	case EACCES:
	case EPERM:
		snprintf(why, why_len, "no permission to count system-wide: run as root or with "
			 "CAP_PERFMON, or set kernel.perf_event_paranoid to 0 or less (it is %d)",
			 paranoid_level());
		break;
	case EBUSY:
	case EAGAIN:
		if (spec->type < PERF_TYPE_MAX)
			snprintf(why, why_len, "counters exhausted: the CPU's hardware counters are taken "
				 "(by other perf users); close other counters or count fewer events");
		else
			snprintf(why, why_len, "counters exhausted: %s's %d hardware counters are taken "
				 "(by other perf users or this command's events); close other counters "
				 "or count fewer events", pmu, PMU_HW_COUNTERS);
		break;
	case ENOENT:
		snprintf(why, why_len, "%s refused the event or its filter (ENOENT): for func-queue "
			 "the queue must exist on the function; 'netpmu stat --explain' shows what "
			 "was asked", pmu);
		break;
	case EINVAL:
		snprintf(why, why_len, "%s refused a field value or the group (EINVAL)", pmu);
		break;
	case ENODEV:
		snprintf(why, why_len, "CPU %d is offline or %s is gone (ENODEV): run 'netpmu list' "
			 "again", spec->cpu, pmu);
		break;
	case EOPNOTSUPP:
		snprintf(why, why_len, "%s cannot sample or count per task (EOPNOTSUPP): count "
			 "system-wide", pmu);
		break;
	default:
		snprintf(why, why_len, "%s", strerror(err));
	}
}

int perf_counter_open(const struct perf_counter_spec *spec, int group_fd,
		      char *why, size_t why_len)
{
	struct perf_event_attr attr;
	int fd;

	perf_counter_attr(spec, &attr);
	fd = syscall(SYS_perf_event_open, &attr, -1, spec->cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		explain_open_error(spec, err, why, why_len);
		return -err;
	}
	return fd;
}
