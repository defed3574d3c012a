// SPDX-License-Identifier: GPL-2.0
#include "session/kernel_hooks.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "lib/why_line.h"
#include "session/kernel_btf_funcs.h"
#include "netpmu_records.h"
#include "netpmu.skel.h"

static const char *const hook_funcs[] = { "__napi_poll", "__napi_schedule", "__napi_schedule_irqoff" };
#define NR_FUNCS (sizeof(hook_funcs) / sizeof(hook_funcs[0]))

/* One hook: a function and the two programs that can hook it. */
struct hook {
	unsigned int func;		/* index into hook_funcs */
	struct bpf_program *fentry, *kprobe;
	struct bpf_link **fentry_link, **kprobe_link;
};

enum { HOOK_POLL_ENTRY, HOOK_POLL_EXIT, HOOK_SCHEDULE, HOOK_SCHEDULE_IRQOFF, NR_HOOKS };

static void hook_table(struct netpmu_bpf *s, struct hook hooks[NR_HOOKS])
{
	hooks[HOOK_POLL_ENTRY] = (struct hook){ 0, s->progs.napi_poll_enter, s->progs.napi_poll_enter_kprobe,
		&s->links.napi_poll_enter, &s->links.napi_poll_enter_kprobe };
	hooks[HOOK_POLL_EXIT] = (struct hook){ 0, s->progs.napi_poll_exit, s->progs.napi_poll_exit_kprobe,
		&s->links.napi_poll_exit, &s->links.napi_poll_exit_kprobe };
	hooks[HOOK_SCHEDULE] = (struct hook){ 1, s->progs.napi_schedule, s->progs.napi_schedule_kprobe,
		&s->links.napi_schedule, &s->links.napi_schedule_kprobe };
	hooks[HOOK_SCHEDULE_IRQOFF] = (struct hook){ 2, s->progs.napi_schedule_irqoff,
		s->progs.napi_schedule_irqoff_kprobe, &s->links.napi_schedule_irqoff,
		&s->links.napi_schedule_irqoff_kprobe };
}

static const char *const mode_names[] = {
	[KERNEL_HOOKS_AUTO] = "auto",
	[KERNEL_HOOKS_FENTRY] = "fentry",
	[KERNEL_HOOKS_KPROBE] = "kprobe",
	[KERNEL_HOOKS_TRACEPOINT] = "tracepoint",
};

int kernel_hooks_parse(const char *text, enum kernel_hooks_mode *mode)
{
	unsigned int i;

	for (i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++) {
		if (!strcmp(text, mode_names[i])) {
			*mode = i;
			return 0;
		}
	}
	return -1;
}

const char *kernel_hooks_mode_name(enum kernel_hooks_mode mode)
{
	return mode_names[mode];
}

/*
 * Whether the kernel loads and attaches an fentry program for the function
 * with BTF id ID: some kernels have BTF but no BPF trampolines and refuse to
 * load it (EPERM); arm64's 6.1 loads it but cannot attach it (ENOTSUPP).
 */
static bool fentry_attaches(int id)
{
	const struct bpf_insn return_zero[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY);
	int fd, link;

	if (id <= 0)
		return false;
	opts.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", return_zero, 2, &opts);
	if (fd < 0)
		return false;
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link >= 0)
		close(link);
	close(fd);
	return link >= 0;
}

/*
 * Whether kprobe programs can be attached at all: libbpf attaches them through
 * the kprobe PMU, or else through tracefs's kprobe_events; a kernel without
 * kprobe events has neither (and loading them would only cost time).
 */
static bool kprobes_attach(void)
{
	return !access("/sys/bus/event_source/devices/kprobe/type", F_OK) ||
	       !access("/sys/kernel/tracing/kprobe_events", F_OK) ||
	       !access("/sys/kernel/debug/tracing/kprobe_events", F_OK);
}

/*
 * A forced MODE this kernel cannot do, for the function FUNC: what is missing,
 * the most basic first (without kprobe events no function can be probed).
 */
static int cannot_force(enum kernel_hooks_mode mode, const char *func, bool in_btf, bool kprobes,
			char *why, size_t why_len)
{
	if (mode == KERNEL_HOOKS_KPROBE && !kprobes)
		return why_fail(why, why_len, "--hooks kprobe: this kernel has no kprobe events "
				"(CONFIG_KPROBE_EVENTS)");
	if (!in_btf)
		return why_fail(why, why_len, "--hooks %s: this kernel's BTF has no function %s",
				mode_names[mode], func);
	return why_fail(why, why_len, "--hooks fentry: this kernel cannot attach an fentry program "
			"to %s (no BPF trampoline for it); --hooks auto falls back to kprobes", func);
}

/*
 * Loads only the programs whose hook this kernel has: feature probes, not
 * versions. The functions are looked up in one pass over the kernel's BTF
 * (kernel_btf_funcs.c): libbpf's full parse would double the start-up time.
 */
int kernel_hooks_choose(struct netpmu_bpf *skel, enum kernel_hooks_mode mode, char *why, size_t why_len)
{
	bool fentry[NR_FUNCS] = { 0 }, kprobe[NR_FUNCS] = { 0 }, kprobes = false;
	struct hook hooks[NR_HOOKS];
	int ids[NR_FUNCS] = { 0 };
	unsigned int i;

	if (mode != KERNEL_HOOKS_TRACEPOINT) {
		if (kernel_btf_func_ids(hook_funcs, ids, NR_FUNCS))
			memset(ids, 0, sizeof(ids));
		kprobes = kprobes_attach();
	}
	for (i = 0; i < NR_FUNCS && mode != KERNEL_HOOKS_TRACEPOINT; i++) {
		fentry[i] = mode != KERNEL_HOOKS_KPROBE && fentry_attaches(ids[i]);
		kprobe[i] = mode != KERNEL_HOOKS_FENTRY && !fentry[i] && kprobes && ids[i] > 0;
		if ((mode == KERNEL_HOOKS_FENTRY && !fentry[i]) || (mode == KERNEL_HOOKS_KPROBE && !kprobe[i]))
			return cannot_force(mode, hook_funcs[i], ids[i] > 0, kprobes, why, why_len);
	}
	hook_table(skel, hooks);
	for (i = 0; i < NR_HOOKS; i++) {
		bpf_program__set_autoload(hooks[i].fentry, fentry[hooks[i].func]);
		bpf_program__set_autoload(hooks[i].kprobe, kprobe[hooks[i].func]);
	}
	return 0;
}

/* Attaches PROG if it was loaded; false if it was not or the kernel refused. */
static bool attach_one(struct bpf_program *prog, struct bpf_link **link)
{
	if (!bpf_program__autoload(prog))
		return false;
	*link = bpf_program__attach(prog);
	return *link != NULL;
}

int kernel_hooks_attach(struct netpmu_bpf *skel, enum kernel_hooks_mode mode, bool *poll_entry,
			bool *poll_exit, bool *schedule, char *why, size_t why_len)
{
	bool attached[NR_HOOKS];
	struct hook hooks[NR_HOOKS];
	unsigned int i;

	hook_table(skel, hooks);
	for (i = 0; i < NR_HOOKS; i++) {
		attached[i] = attach_one(hooks[i].fentry, hooks[i].fentry_link) ||
			      attach_one(hooks[i].kprobe, hooks[i].kprobe_link);
		if (!attached[i] && (mode == KERNEL_HOOKS_FENTRY || mode == KERNEL_HOOKS_KPROBE))
			return why_fail(why, why_len, "--hooks %s: cannot attach to %s: %s", mode_names[mode],
					hook_funcs[hooks[i].func], strerror(errno));
	}
	*poll_entry = attached[HOOK_POLL_ENTRY];
	*poll_exit = attached[HOOK_POLL_EXIT];
	*schedule = attached[HOOK_SCHEDULE] && attached[HOOK_SCHEDULE_IRQOFF];
	return 0;
}

const char *kernel_hooks_attached(struct netpmu_bpf *skel)
{
	bool fentry = false, kprobe = false;
	struct hook hooks[NR_HOOKS];
	unsigned int i;

	hook_table(skel, hooks);
	for (i = 0; i < NR_HOOKS; i++) {
		fentry |= *hooks[i].fentry_link != NULL;
		kprobe |= *hooks[i].kprobe_link != NULL;
	}
	if (fentry && kprobe)
		return "fentry and kprobe";
	return fentry ? "fentry" : kprobe ? "kprobe" : "tracepoints only";
}
