// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's lookup of kernel functions in raw BTF
 * (user/session/kernel_btf_funcs.c): the input is the BTF file. Every id is 0
 * when the reader refuses a file. Where libbpf parses the input as well, the
 * reader must not refuse it, and each id must be libbpf's first FUNC type
 * named by the first whole string equal to the name (the kernel's strings
 * are deduplicated, so that is where a kernel function's name is).
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>
#include <sys/mman.h>
#include <unistd.h>

#include "session/kernel_btf_funcs.h"
#include "fuzz_common.h"

/* The hooks' functions, and names short enough for the fuzzer to make. */
static const char *const names[] = { "__napi_poll", "__napi_schedule", "f", "g", "" };
#define NR_NAMES (sizeof(names) / sizeof(names[0]))

static int fd = -1;

static int quiet(enum libbpf_print_level level, const char *format, va_list args)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	libbpf_set_print(quiet);
	fd = memfd_create("fuzz_kernel_btf", MFD_CLOEXEC);
	if (fd < 0) {
		perror("fuzz_kernel_btf: memfd_create");
		exit(1);
	}
	return 0;
}

/* The first offset in the string section where a whole string is NAME, 0 if none. */
static __u32 first_string(const char *strs, __u32 len, const char *name)
{
	__u32 pos;

	for (pos = 0; pos < len; pos += strlen(strs + pos) + 1)
		if (pos && !strcmp(strs + pos, name))
			return pos;
	return 0;
}

static int expected_id(const struct btf *btf, const char *strs, __u32 str_len, const char *name)
{
	__u32 off = first_string(strs, str_len, name), i, n = btf__type_cnt(btf);
	struct btf_type t;

	for (i = 1; off && i < n; i++) {
		/* Copied: a header of odd length leaves libbpf's types unaligned. */
		memcpy(&t, btf__type_by_id(btf, i), sizeof(t));
		if (BTF_INFO_KIND(t.info) == BTF_KIND_FUNC && t.name_off == off)
			return i;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct btf_header *hdr = (const void *)data;
	int ids[NR_NAMES], err;
	struct btf *btf;
	size_t i;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	err = btf_func_ids(fd, names, ids, NR_NAMES);
	for (i = 0; err && i < NR_NAMES; i++)
		if (ids[i])
			abort();
	/*
	 * libbpf also reads BTF of the other byte order, and a header shorter
	 * than struct btf_header, neither of which the kernel gives or accepts.
	 */
	btf = size >= sizeof(*hdr) && hdr->magic == BTF_MAGIC && hdr->hdr_len >= sizeof(*hdr) ?
	      btf__new(data, size) : NULL;
	if (!btf)
		return 0;
	if (err)
		abort();
	for (i = 0; i < NR_NAMES; i++)
		if (ids[i] != expected_id(btf, (const char *)data + hdr->hdr_len + hdr->str_off,
					  hdr->str_len, names[i]))
			abort();
	btf__free(btf);
	return 0;
}
