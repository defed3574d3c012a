// SPDX-License-Identifier: GPL-2.0
#include "output_check.h"

#include <errno.h>
#include <unistd.h>

static int stdout_errno;	/* the first failed write's, 0 if none */
static FILE *watched;

static ssize_t watched_write(void *cookie, const char *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(STDOUT_FILENO, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!stdout_errno)
				stdout_errno = n < 0 ? errno : EIO;
			return -1;
		}
		done += n;
	}
	return done;
}

int output_watch_stdout(void)
{
	cookie_io_functions_t io = { .write = watched_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return -errno;
	/* As stdio buffers stdout: by line on a terminal, in blocks elsewhere. */
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	fflush(stdout);
	stdout = f;
	watched = f;
	return 0;
}

int output_close(FILE *out)
{
	int err = 0;

	if (fflush(out))
		err = errno;
	else if (ferror(out))
		err = EIO;
	if (out == watched && stdout_errno)
		err = stdout_errno;
	if (fclose(out) && !err)
		err = errno;
	return err;
}
