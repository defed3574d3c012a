/* SPDX-License-Identifier: GPL-2.0 */
/* Reading sysfs attribute files and directories. */
#ifndef NETPMU_SYSFS_READ_H
#define NETPMU_SYSFS_READ_H

#include <stddef.h>

/* sysfs attributes are at most one page; arm64 pages may be 64 KiB. */
#define SYSFS_ATTR_MAX_BYTES 65536

/*
 * Reads the file DIR/NAME into a new NUL-terminated string, with one trailing
 * newline removed (everything else, e.g. a trailing space, is kept).
 * Returns 0, -ENOENT if the file does not exist, -EFBIG if it is larger than
 * SYSFS_ATTR_MAX_BYTES, -EILSEQ if it contains a control byte other than tab
 * and newline (binary data), -ESPIPE if it is no regular file (a FIFO would
 * block), or another -errno.
 */
int sysfs_read_attr(const char *dir, const char *name, char **content);

/*
 * Lists the entries of DIR (without "." and ".."), sorted in version order
 * (strverscmp: "x_2" before "x_10"). Returns 0, -ENOENT if DIR does not
 * exist, -ENOTDIR if it is not a directory, or another -errno.
 */
int sysfs_list_dir(const char *dir, char ***names, size_t *nr_names);

void sysfs_free_names(char **names, size_t nr_names);

/* Returns a new string "DIR/NAME", or NULL when out of memory. */
char *sysfs_path_join(const char *dir, const char *name);

#endif
