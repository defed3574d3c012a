/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of the function hooks (__napi_poll's entry and exit, __napi_schedule*)
 * this kernel lets BPF attach, by fentry or by kprobe: decided by probing the
 * kernel, never by its version.
 */
#ifndef NETPMU_KERNEL_HOOKS_H
#define NETPMU_KERNEL_HOOKS_H

struct netpmu_bpf;

/* Sets each hook's fentry or kprobe program, or neither, to load (before load). */
void kernel_hooks_choose(struct netpmu_bpf *skel);

#endif
