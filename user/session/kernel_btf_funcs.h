/* SPDX-License-Identifier: GPL-2.0 */
/* Finding kernel functions in the kernel's BTF without parsing all of it. */
#ifndef NETPMU_KERNEL_BTF_FUNCS_H
#define NETPMU_KERNEL_BTF_FUNCS_H

#include <stddef.h>

/*
 * Sets ids[i] to the BTF id of the kernel function names[i] in
 * /sys/kernel/btf/vmlinux, or 0 if the kernel has no such function. One pass
 * over the types, one copy of the file: libbpf's full parse (indexes, a second
 * copy) is left for the object load. Returns 0, or -errno if the BTF could not
 * be read or has a kind this reader does not know.
 */
int kernel_btf_func_ids(const char *const *names, int *ids, size_t n);

#endif
