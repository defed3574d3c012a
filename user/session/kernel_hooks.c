// SPDX-License-Identifier: GPL-2.0
#include "session/kernel_hooks.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <string.h>
#include <unistd.h>

#include "session/kernel_btf_funcs.h"
#include "netpmu_records.h"
#include "netpmu.skel.h"

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

/* Which of a hook's two programs loads: FENTRY, KPROBE, or neither (false). */
static bool choose_hook(bool use_fentry, bool use_kprobe, struct bpf_program *fentry,
			struct bpf_program *kprobe)
{
	use_kprobe = use_kprobe && !use_fentry;
	bpf_program__set_autoload(fentry, use_fentry);
	bpf_program__set_autoload(kprobe, use_kprobe);
	return use_fentry || use_kprobe;
}

/*
 * Loads only the programs whose hook this kernel has: feature probes, not
 * versions. The functions are looked up in one pass over the kernel's BTF
 * (kernel_btf_funcs.c): libbpf's full parse would double the start-up time.
 */
void kernel_hooks_choose(struct netpmu_bpf *skel)
{
	static const char *const funcs[] = { "__napi_poll", "__napi_schedule", "__napi_schedule_irqoff" };
	bool fentry[3], kprobe[3], kprobes = kprobes_attach();
	int ids[3], i;

	if (kernel_btf_func_ids(funcs, ids, 3))
		memset(ids, 0, sizeof(ids));
	for (i = 0; i < 3; i++) {
		fentry[i] = fentry_attaches(ids[i]);
		kprobe[i] = kprobes && ids[i] > 0;
	}
	choose_hook(fentry[0], kprobe[0], skel->progs.napi_poll_enter, skel->progs.napi_poll_enter_kprobe);
	choose_hook(fentry[0], kprobe[0], skel->progs.napi_poll_exit, skel->progs.napi_poll_exit_kprobe);
	choose_hook(fentry[1], kprobe[1], skel->progs.napi_schedule, skel->progs.napi_schedule_kprobe);
	choose_hook(fentry[2], kprobe[2], skel->progs.napi_schedule_irqoff,
		    skel->progs.napi_schedule_irqoff_kprobe);
}
