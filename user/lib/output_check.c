// SPDX-License-Identifier: GPL-2.0
#include "lib/output_check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct watched {
	int fd;
	int err;	/* the first failed write's errno, 0 if none */
};

static ssize_t watched_write(void *cookie, const char *buf, size_t size)
{
	struct watched *w = cookie;
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(w->fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!w->err)
				w->err = n < 0 ? errno : EIO;
			errno = w->err;
			return -1;
		}
		done += n;
	}
	return done;
}

/* fclose() fails with the first failed write's errno, else close()'s. */
static int watched_close(void *cookie)
{
	struct watched *w = cookie;
	int err = w->err;

	if (close(w->fd) && !err)
		err = errno;
	free(w);
	errno = err;
	return err ? -1 : 0;
}

static FILE *watch_fd(int fd)
{
	cookie_io_functions_t io = { .write = watched_write, .close = watched_close };
	struct watched *w = calloc(1, sizeof(*w));
	FILE *f;

	if (!w)
		return NULL;
	w->fd = fd;
	f = fopencookie(w, "w", io);
	if (!f) {
		free(w);
		return NULL;
	}
	/* As stdio buffers: by line on a terminal, in blocks elsewhere. */
	setvbuf(f, NULL, isatty(fd) ? _IOLBF : _IOFBF, BUFSIZ);
	return f;
}

int output_watch_stdout(void)
{
	FILE *f;

	fflush(stdout);
	f = watch_fd(STDOUT_FILENO);
	if (!f)
		return -errno;
	stdout = f;
	return 0;
}

FILE *output_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = watch_fd(fd);
	if (!f) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return f;
}

int output_close(FILE *out)
{
	int err = 0;

	if (fflush(out))
		err = errno;
	else if (ferror(out))
		err = EIO;
	if (fclose(out))
		err = errno;
	return err;
}
