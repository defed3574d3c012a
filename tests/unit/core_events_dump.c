// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for user/pmu/core_events.c: for each argument, the perf_event_attr
 * netpmu trace opens for it (perf_counter_attr(), the attr perf_counter_open()
 * passes to the kernel), "not a core event", or the one-line error.
 *
 *   core_events_dump [--sysfs-root DIR] EVENT...
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "pmu/core_events.h"

int main(int argc, char **argv)
{
	const char *sysfs_root = NULL;
	struct perf_event_attr attr;
	struct core_event ev;
	char why[512];
	int i = 1, got;

	if (argc > 2 && !strcmp(argv[1], "--sysfs-root")) {
		sysfs_root = argv[2];
		i = 3;
	}
	for (; i < argc; i++) {
		got = core_event_parse(argv[i], sysfs_root, &ev, why, sizeof(why));
		if (got < 0) {
			printf("%s\terror: %s\n", argv[i], why);
			continue;
		}
		if (!got) {
			printf("%s\tnot a core event\n", argv[i]);
			continue;
		}
		perf_counter_attr(&ev.spec, &attr);
		printf("%s\ttype=%u config=%#llx exclude_user=%u exclude_kernel=%u exclude_hv=%u "
		       "exclude_guest=%u exclude_host=%u read_format=%#llx sample_period=%llu\n",
		       ev.text, attr.type, (unsigned long long)attr.config, attr.exclude_user,
		       attr.exclude_kernel, attr.exclude_hv, attr.exclude_guest, attr.exclude_host,
		       (unsigned long long)attr.read_format, (unsigned long long)attr.sample_period);
		core_event_release(&ev);
	}
	return 0;
}
