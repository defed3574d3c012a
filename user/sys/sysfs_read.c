// SPDX-License-Identifier: GPL-2.0
/* Reading sysfs attribute files and directories. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/sysfs_read.h"

char *sysfs_path_join(const char *dir, const char *name)
{
	char *path;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	return path;
}

static int read_fd_fully(int fd, char *buf, size_t cap, size_t *len)
{
	size_t used = 0;

	for (;;) {
		ssize_t n = read(fd, buf + used, cap - used);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		used += n;
		if (used == cap)
			return -EFBIG;
	}
	*len = used;
	return 0;
}

/* Binary data, which would end up in messages: any control byte but tab and newline. */
static bool has_control_bytes(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			return true;
	}
	return false;
}

int sysfs_read_attr(const char *dir, const char *name, char **content)
{
	char *path, *buf;
	struct stat st;
	size_t len = 0;
	int fd, err;

	*content = NULL;
	path = sysfs_path_join(dir, name);
	if (!path)
		return -ENOMEM;
	/* A FIFO (in a tree passed as --sysfs-root) would block open() and read(). */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	free(path);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ESPIPE;
	}

	/* One byte more than the limit tells "exactly at the limit" from "larger". */
	buf = malloc(SYSFS_ATTR_MAX_BYTES + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	err = read_fd_fully(fd, buf, SYSFS_ATTR_MAX_BYTES + 1, &len);
	close(fd);
	if (!err && has_control_bytes(buf, len))
		err = -EILSEQ;
	if (err) {
		free(buf);
		return err;
	}
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	*content = realloc(buf, len + 1) ?: buf;
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

void sysfs_free_names(char **names, size_t nr_names)
{
	for (size_t i = 0; i < nr_names; i++)
		free(names[i]);
	free(names);
}

int sysfs_list_dir(const char *dir, char ***names, size_t *nr_names)
{
	char **list = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int err = 0;

	*names = NULL;
	*nr_names = 0;
	d = opendir(dir);
	if (!d)
		return -errno;

	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			err = -errno;
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (nr == cap) {
			size_t new_cap = cap ? cap * 2 : 32;
			char **grown = realloc(list, new_cap * sizeof(*list));

			if (!grown) {
				err = -ENOMEM;
				break;
			}
			list = grown;
			cap = new_cap;
		}
		list[nr] = strdup(de->d_name);
		if (!list[nr]) {
			err = -ENOMEM;
			break;
		}
		nr++;
	}
	closedir(d);
	if (err) {
		sysfs_free_names(list, nr);
		return err;
	}
	if (nr)		/* an empty folder leaves LIST NULL, which qsort() must not get */
		qsort(list, nr, sizeof(*list), compare_names);
	*names = list;
	*nr_names = nr;
	return 0;
}
