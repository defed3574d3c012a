// SPDX-License-Identifier: GPL-2.0
#include "session/kernel_btf_funcs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/* Kinds newer than some UAPI headers. */
#ifndef BTF_KIND_DECL_TAG
#define BTF_KIND_DECL_TAG	17
#define BTF_KIND_TYPE_TAG	18
#endif
#ifndef BTF_KIND_ENUM64
#define BTF_KIND_ENUM64		19
#endif

/* Bytes that follow a type of KIND with VLEN entries, or -1 for an unknown kind. */
static long trailer_bytes(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return (long)vlen * 12;
	default:
		return -1;
	}
}

static int read_all(const char *path, unsigned char **data, size_t *size)
{
	struct stat st;
	size_t got = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -EINVAL;
	}
	*data = malloc(st.st_size);
	if (!*data) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size && (r = read(fd, *data + got, st.st_size - got)) > 0)
		got += r;
	close(fd);
	*size = got;
	return 0;
}

static int scan(const unsigned char *data, size_t size, const char *const *names, int *ids, size_t n)
{
	const struct btf_header *hdr = (const void *)data;
	const unsigned char *types, *end;
	const char *strs;
	int id = 1;
	size_t i;

	if (size < sizeof(*hdr) || hdr->magic != BTF_MAGIC ||
	    (size_t)hdr->hdr_len + hdr->type_off + hdr->type_len > size ||
	    (size_t)hdr->hdr_len + hdr->str_off + hdr->str_len > size)
		return -EINVAL;
	types = data + hdr->hdr_len + hdr->type_off;
	end = types + hdr->type_len;
	strs = (const char *)data + hdr->hdr_len + hdr->str_off;
	while (types + sizeof(struct btf_type) <= end) {
		const struct btf_type *t = (const void *)types;
		long more = trailer_bytes(BTF_INFO_KIND(t->info), BTF_INFO_VLEN(t->info));

		if (more < 0)
			return -EPROTO;
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && t->name_off < hdr->str_len)
			for (i = 0; i < n; i++)
				if (!ids[i] && !strcmp(strs + t->name_off, names[i]))
					ids[i] = id;
		types += sizeof(*t) + more;
		id++;
	}
	return 0;
}

int kernel_btf_func_ids(const char *const *names, int *ids, size_t n)
{
	unsigned char *data = NULL;
	size_t size = 0;
	int err;

	memset(ids, 0, n * sizeof(*ids));
	err = read_all(VMLINUX_BTF, &data, &size);
	if (err)
		return err;
	err = scan(data, size, names, ids, n);
	free(data);
	return err;
}
