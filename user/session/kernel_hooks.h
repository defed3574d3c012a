/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of the function hooks (__napi_poll's entry and exit, __napi_schedule*)
 * this kernel lets BPF attach, by fentry or by kprobe: decided by probing the
 * kernel, never by its version; or forced (--hooks), for tests and for
 * comparing the modes.
 */
#ifndef NETPMU_KERNEL_HOOKS_H
#define NETPMU_KERNEL_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

struct netpmu_bpf;

enum kernel_hooks_mode {
	KERNEL_HOOKS_AUTO,		/* fentry where it attaches, else kprobe, else none */
	KERNEL_HOOKS_FENTRY,		/* fentry on every hook, or fail */
	KERNEL_HOOKS_KPROBE,		/* kprobe on every hook, or fail */
	KERNEL_HOOKS_TRACEPOINT,	/* no function hook: tracepoints only */
};

/* "auto", "fentry", "kprobe", "tracepoint" -> MODE; -1 for anything else. */
int kernel_hooks_parse(const char *text, enum kernel_hooks_mode *mode);

const char *kernel_hooks_mode_name(enum kernel_hooks_mode mode);

/*
 * Sets each hook's fentry or kprobe program, or neither, to load (before
 * load). Returns 0, or -1 with one line in WHY when a forced MODE is one this
 * kernel cannot do, naming what is missing.
 */
int kernel_hooks_choose(struct netpmu_bpf *skel, enum kernel_hooks_mode mode,
			char *why, size_t why_len);

/*
 * Attaches the hooks chosen. A forced fentry or kprobe mode fails (-1 with
 * WHY) if the kernel refuses one; otherwise a refused hook is left out.
 * Sets what attached: POLL_ENTRY, POLL_EXIT, SCHEDULE (both __napi_schedule
 * variants).
 */
int kernel_hooks_attach(struct netpmu_bpf *skel, enum kernel_hooks_mode mode, bool *poll_entry,
			bool *poll_exit, bool *schedule, char *why, size_t why_len);

/*
 * What attached, in words: "fentry", "kprobe", "fentry and kprobe" (auto on
 * a kernel with trampolines for some hooks only) or "tracepoints only".
 */
const char *kernel_hooks_attached(struct netpmu_bpf *skel);

#endif
