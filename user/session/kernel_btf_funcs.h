/* SPDX-License-Identifier: GPL-2.0 */
/* Finding kernel functions in the kernel's BTF without parsing all of it. */
#ifndef NETPMU_KERNEL_BTF_FUNCS_H
#define NETPMU_KERNEL_BTF_FUNCS_H

#include <stddef.h>

/*
 * Sets ids[i] to the BTF id of the first function named names[i] in the raw
 * BTF file FD, or 0 if it has none. Two passes through one 64 KiB window (the
 * strings for the names, then the types for the functions), no copy of the
 * file: libbpf's full parse is left for the object load. Returns 0, or
 * (every id then 0) -errno from fstat(), -ENOMEM, -EINVAL for a file that is
 * not raw BTF or is shorter than its header says, -EPROTO for a string or a
 * type that runs past its section (a read error ends the file there) or a
 * kind this reader does not know.
 */
int btf_func_ids(int fd, const char *const *names, int *ids, size_t n);

/* btf_func_ids() over the running kernel's BTF, /sys/kernel/btf/vmlinux. */
int kernel_btf_func_ids(const char *const *names, int *ids, size_t n);

#endif
