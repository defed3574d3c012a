// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: the capabilities its BPF programs and perf counters need. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/why_line.h"
#include "serve/privileges.h"

/* linux/capability.h's numbers; CAP_BPF and CAP_PERFMON since Linux 5.8. */
#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT 39

static int effective_caps(uint64_t *caps)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %" SCNx64, caps) == 1) {
			found = 0;
			break;
		}
	fclose(f);
	return found;
}

/* kernel.perf_event_paranoid, or -1 if unreadable. */
static int perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &level) != 1)
		level = -1;
	fclose(f);
	return level;
}

int privileges_check(char *why, size_t why_len)
{
	uint64_t caps;
	bool bpf, perfmon;
	int paranoid;

	if (effective_caps(&caps))
		return 0;	/* no /proc: let the kernel say it */
	if (caps & (1ULL << CAP_SYS_ADMIN_BIT))
		return 0;
	bpf = caps & (1ULL << CAP_BPF_BIT);
	perfmon = caps & (1ULL << CAP_PERFMON_BIT);
	paranoid = perf_paranoid();
	/* Debian's level 3 lets only CAP_SYS_ADMIN open perf events, whatever else is held. */
	if (bpf && perfmon && paranoid > 2)
		return why_fail(why, why_len, "kernel.perf_event_paranoid is %d, which only CAP_SYS_ADMIN passes "
				"(set it to 2 for CAP_BPF and CAP_PERFMON to do, or run as root)", paranoid);
	if (bpf && perfmon)
		return 0;
	return why_fail(why, why_len, "missing capability %s (run as root, or grant CAP_BPF and "
			"CAP_PERFMON, e.g. setpriv --inh-caps +bpf,+perfmon --ambient-caps +bpf,+perfmon)",
			!bpf && !perfmon ? "CAP_BPF and CAP_PERFMON" : !bpf ? "CAP_BPF" : "CAP_PERFMON");
}
