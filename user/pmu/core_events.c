// SPDX-License-Identifier: GPL-2.0
/* perf's legacy hardware event names and its u/k/h modifiers. */
#include "pmu/core_events.h"
#include "lib/why_line.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysfs_read.h"

/* perf's event_symbols_hw[]: each id with its name and alias. */
static const struct {
	const char *name;
	uint64_t id;
} hardware_names[] = {
	{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
};

#define NR_HARDWARE_NAMES (sizeof(hardware_names) / sizeof(hardware_names[0]))
#define SUPPORTED "u (user), k (kernel) and h (hypervisor), each at most once, e.g. cycles:uk"

/* The hardware event id of the LEN bytes at NAME; false if none has that name. */
static bool hardware_id(const char *name, size_t len, uint64_t *id)
{
	size_t i;

	for (i = 0; i < NR_HARDWARE_NAMES; i++) {
		if (strlen(hardware_names[i].name) == len && !strncmp(name, hardware_names[i].name, len)) {
			*id = hardware_names[i].id;
			return true;
		}
	}
	return false;
}

/*
 * perf's parse_events__modifier_list(): the first of u, k, h excludes user,
 * kernel and hypervisor, then each includes its own level. A letter twice is
 * an error in perf ("Duplicate modifier"); perf's other letters (G H I p P S
 * D W e b) are refused here: netpmu only counts, on every CPU.
 */
static int apply_modifiers(const char *text, const char *mods, uint32_t *exclude,
			   char *why, size_t why_len)
{
	bool seen[3] = { false, false, false };
	const char *letters = "ukh", *p, *at;
	int column;

	if (!*mods)
		return why_invalid(why, why_len, "'%s' has an empty modifier at column %d: give %s, or none",
				   text, (int)(mods - text) + 1, SUPPORTED);
	*exclude = 0;
	for (p = mods; *p; p++) {
		column = (int)(p - text) + 1;
		at = strchr(letters, *p);
		if (!at)
			return why_invalid(why, why_len, "%s: modifier '%c' at column %d is not supported: "
					   "netpmu trace takes %s", text, *p, column, SUPPORTED);
		if (seen[at - letters])
			return why_invalid(why, why_len, "%s: duplicate modifier '%c' at column %d "
					   "(perf refuses it too): give each of u, k, h at most once",
					   text, *p, column);
		seen[at - letters] = true;
		if (!*exclude)
			*exclude = PERF_COUNTER_EXCLUDE_USER | PERF_COUNTER_EXCLUDE_KERNEL |
				   PERF_COUNTER_EXCLUDE_HV;
	}
	if (seen[0])
		*exclude &= ~PERF_COUNTER_EXCLUDE_USER;
	if (seen[1])
		*exclude &= ~PERF_COUNTER_EXCLUDE_KERNEL;
	if (seen[2])
		*exclude &= ~PERF_COUNTER_EXCLUDE_HV;
	return 0;
}

/*
 * The type of core PMU NAME (LEN bytes) under SYSFS_ROOT: a PMU whose CPUs
 * are listed in a cpus file (arm64 PMUs, x86 hybrid) or x86's cpu. Returns
 * the type, or -1 if NAME is no core PMU there.
 */
static long core_pmu_type(const char *sysfs_root, const char *name, size_t len)
{
	char dir[512], *content = NULL, *end;
	long type = -1;

	if (len == 0 || memchr(name, '.', len) ||
	    snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%.*s",
		     sysfs_root ? sysfs_root : "/sys", (int)len, name) >= (int)sizeof(dir))
		return -1;
	if (strncmp(name, "cpu", len) || len != 3) {
		if (sysfs_read_attr(dir, "cpus", &content))
			return -1;
		free(content);
	}
	if (sysfs_read_attr(dir, "type", &content))
		return -1;
	type = strtol(content, &end, 10);
	if (end == content || *end || type < 0)
		type = -1;
	free(content);
	return type;
}

bool core_pmu_find(const char *sysfs_root, char *name, size_t name_len)
{
	char dir[512], **names = NULL;
	size_t nr = 0, i;
	bool found = false;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", sysfs_root ? sysfs_root : "/sys");
	if (sysfs_list_dir(dir, &names, &nr))
		return false;
	for (i = 0; i < nr && !found; i++) {
		found = core_pmu_type(sysfs_root, names[i], strlen(names[i])) >= 0;
		if (found)
			snprintf(name, name_len, "%s", names[i]);
	}
	sysfs_free_names(names, nr);
	return found;
}

int core_event_parse(const char *text, const char *sysfs_root, struct core_event *ev,
		     char *why, size_t why_len)
{
	const char *name = text, *mods = NULL, *slash = strchr(text, '/'), *close;
	size_t name_len;
	long pmu_type = -1;
	uint64_t id;
	int err;

	memset(ev, 0, sizeof(*ev));
	if (slash) {
		/* PMU/NAME/[MODIFIERS], NAME a hardware event name. */
		close = strchr(slash + 1, '/');
		if (!close)
			return 0;
		name = slash + 1;
		name_len = close - name;
		if (!hardware_id(name, name_len, &id))
			return 0;
		pmu_type = core_pmu_type(sysfs_root, text, slash - text);
		if (pmu_type < 0)
			return 0;
		if (close[1])
			mods = close + 1;
	} else {
		mods = strchr(text, ':');
		name_len = mods ? (size_t)(mods - text) : strlen(text);
		if (!hardware_id(name, name_len, &id))
			return 0;
		if (mods)
			mods++;
	}
	if (mods) {
		err = apply_modifiers(text, mods, &ev->spec.exclude, why, why_len);
		if (err)
			return err;
	}
	ev->spec.type = PERF_TYPE_HARDWARE;
	ev->spec.config[0] = id;
	if (pmu_type >= 0)
		ev->spec.config[0] |= (uint64_t)pmu_type << PERF_PMU_TYPE_SHIFT;
	ev->text = strdup(text);
	if (!ev->text) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	return 1;
}

void core_event_release(struct core_event *ev)
{
	free(ev->text);
	memset(ev, 0, sizeof(*ev));
}
