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

static const char *open_error_hint(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "system-wide counters need CAP_PERFMON (or root), or kernel.perf_event_paranoid <= 0";
	case ENOENT:
		return "the PMU has no such event or rejects this filter combination";
	case EOPNOTSUPP:
		return "the PMU cannot sample or count per task: count system-wide";
	case EBUSY:
	case EAGAIN:
		return "the PMU's 8 hardware counters are in use: close other counters or use fewer events";
	case EINVAL:
		return "the PMU rejected a field value (check filter fields and the group)";
	case ENODEV:
		return "the CPU is offline or the PMU is gone";
	default:
		return strerror(err);
	}
}

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
}

bool perf_type_exists(uint32_t type)
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

int perf_counter_open(const struct perf_counter_spec *spec, int group_fd,
		      char *why, size_t why_len)
{
	struct perf_event_attr attr;
	int fd;

	perf_counter_attr(spec, &attr);
	fd = syscall(SYS_perf_event_open, &attr, -1, spec->cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		if ((err == ENOENT || err == EINVAL) && !perf_type_exists(spec->type))
			snprintf(why, why_len, "this kernel has no PMU of perf type %u (is its driver "
				 "or netpmu.ko loaded? 'netpmu list' shows the PMUs) (%s)", spec->type,
				 strerror(err));
		else
			snprintf(why, why_len, "%s (%s)", open_error_hint(err), strerror(err));
		return -err;
	}
	return fd;
}
