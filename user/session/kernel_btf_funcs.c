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

/*
 * The file is read through one window, never copied whole: under a hypervisor
 * the first touch of each page of a 5 MiB copy cost more than the whole scan
 * (25 ms against 3 ms per read of the kernel's BTF on the test machine).
 */
#define WINDOW_BYTES 65536

struct btf_window {
	int fd;
	uint64_t start;		/* file offset of buf[0] */
	size_t len;		/* bytes of buf read */
	unsigned char buf[WINDOW_BYTES];
};

/*
 * The bytes the window holds from file offset OFF on, *P pointing at them;
 * refilled from OFF first when it holds fewer than MIN of them. 0 at the end
 * of the file or on a read error.
 */
static size_t window_at(struct btf_window *w, uint64_t off, size_t min, const unsigned char **p)
{
	ssize_t r;

	if (off < w->start || off - w->start + min > w->len) {
		w->start = off;
		w->len = 0;
		while (w->len < sizeof(w->buf)) {
			r = pread(w->fd, w->buf + w->len, sizeof(w->buf) - w->len, off + w->len);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			w->len += r;
		}
	}
	if (off - w->start >= w->len)
		return 0;
	*p = w->buf + (off - w->start);
	return w->len - (off - w->start);
}

/* The string at file offset OFF, ending within MAX bytes and within one window; NULL if it does not. */
static const char *string_at(struct btf_window *w, uint64_t off, size_t max)
{
	const unsigned char *p;
	size_t avail = window_at(w, off, 1, &p);

	if (avail > max)
		avail = max;
	if (avail && !memchr(p, '\0', avail)) {
		if (avail == max || w->start == off)
			return NULL;
		/* It goes on past the window's end: read again from its start. */
		avail = window_at(w, off, avail + 1, &p);
		if (avail > max)
			avail = max;
	}
	return avail && memchr(p, '\0', avail) ? (const char *)p : NULL;
}

/*
 * offs[i]: the offset of names[i] in the string section, 0 if it is not
 * there (offset 0 is the empty string). Returns how many were found, or -1.
 */
static long find_names(struct btf_window *w, uint64_t strs, uint32_t str_len, const char *const *names,
		       uint32_t *offs, size_t n)
{
	size_t i, found = 0;
	uint32_t pos;
	const char *s;

	for (pos = 0; pos < str_len && found < n; pos += strlen(s) + 1) {
		s = string_at(w, strs + pos, str_len - pos);
		if (!s)
			return -1;
		for (i = 0; i < n; i++) {
			if (!offs[i] && pos && !strcmp(s, names[i])) {
				offs[i] = pos;
				found++;
			}
		}
	}
	return found;
}

/* ids[i]: the id of the first function named at offs[i], in one pass over the types. */
static int find_funcs(struct btf_window *w, uint64_t types, uint32_t type_len, const uint32_t *offs,
		      int *ids, size_t n, size_t wanted)
{
	const unsigned char *p;
	struct btf_type t;
	size_t i, found = 0;
	uint32_t pos = 0;
	long more;
	int id;

	for (id = 1; type_len - pos >= sizeof(t) && found < wanted; id++) {
		if (window_at(w, types + pos, sizeof(t), &p) < sizeof(t))
			return -EPROTO;
		memcpy(&t, p, sizeof(t));
		more = trailer_bytes(BTF_INFO_KIND(t.info), BTF_INFO_VLEN(t.info));
		if (more < 0 || more > (long)(type_len - pos - sizeof(t)))
			return -EPROTO;
		if (BTF_INFO_KIND(t.info) == BTF_KIND_FUNC && t.name_off) {
			for (i = 0; i < n; i++) {
				if (!ids[i] && t.name_off == offs[i]) {
					ids[i] = id;
					found++;
				}
			}
		}
		pos += sizeof(t) + more;
	}
	return 0;
}

int btf_func_ids(int fd, const char *const *names, int *ids, size_t n)
{
	struct btf_header hdr;
	const unsigned char *p;
	struct btf_window *w;
	uint32_t *offs;
	struct stat st;
	long found;
	int err;

	memset(ids, 0, n * sizeof(*ids));
	if (fstat(fd, &st))
		return -errno;
	w = calloc(1, sizeof(*w));
	offs = calloc(n ? n : 1, sizeof(*offs));
	if (!w || !offs) {
		err = -ENOMEM;
		goto free_window;
	}
	w->fd = fd;
	err = -EINVAL;
	if (window_at(w, 0, sizeof(hdr), &p) < sizeof(hdr))
		goto free_window;
	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.magic != BTF_MAGIC || hdr.hdr_len < sizeof(hdr) ||
	    (uint64_t)hdr.hdr_len + hdr.type_off + hdr.type_len > (uint64_t)st.st_size ||
	    (uint64_t)hdr.hdr_len + hdr.str_off + hdr.str_len > (uint64_t)st.st_size)
		goto free_window;
	found = find_names(w, (uint64_t)hdr.hdr_len + hdr.str_off, hdr.str_len, names, offs, n);
	err = found < 0 ? -EPROTO :
	      find_funcs(w, (uint64_t)hdr.hdr_len + hdr.type_off, hdr.type_len, offs, ids, n, found);
free_window:
	if (err)
		memset(ids, 0, n * sizeof(*ids));
	free(offs);
	free(w);
	return err;
}

int kernel_btf_func_ids(const char *const *names, int *ids, size_t n)
{
	int fd = open(VMLINUX_BTF, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0) {
		memset(ids, 0, n * sizeof(*ids));
		return -errno;
	}
	err = btf_func_ids(fd, names, ids, n);
	close(fd);
	return err;
}
