// SPDX-License-Identifier: GPL-2.0
/*
 * btf_funcs_dump FILE NAME...: "NAME ID" for each NAME, the id netpmu's BTF
 * reader (user/session/kernel_btf_funcs.c) gives the first function of that
 * name in the raw BTF file FILE, 0 for none (tests/unit/kernel-btf-funcs.sh).
 * Exit status 1 with one line if the reader refuses the file, 2 on usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/kernel_btf_funcs.h"

int main(int argc, char **argv)
{
	size_t i, n = argc > 2 ? argc - 2 : 0;
	int *ids, fd, err;

	if (argc < 3) {
		fprintf(stderr, "usage: btf_funcs_dump FILE NAME...\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "btf_funcs_dump: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	ids = calloc(n, sizeof(*ids));
	if (!ids) {
		fprintf(stderr, "btf_funcs_dump: out of memory\n");
		close(fd);
		return 1;
	}
	err = btf_func_ids(fd, (const char *const *)argv + 2, ids, n);
	close(fd);
	if (err) {
		fprintf(stderr, "btf_funcs_dump: %s: %s\n", argv[1], strerror(-err));
		free(ids);
		return 1;
	}
	for (i = 0; i < n; i++)
		printf("%s %d\n", argv[i + 2], ids[i]);
	free(ids);
	return 0;
}
