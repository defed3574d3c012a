// SPDX-License-Identifier: GPL-2.0
/* /proc/interrupts: each numbered line's IRQ, chip, hwirq and action names. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/parse_number.h"
#include "lib/why_line.h"
#include "queue/discovery.h"

/* A bound on what is read: a machine with thousands of IRQs and CPUs stays far below. */
#define PROC_INTERRUPTS_MAX	(64u << 20)

static int read_whole_file(const char *path, char **content)
{
	size_t cap = 65536, len = 0;
	char *buf = NULL;
	struct stat st;
	int fd, ret = 0;

	*content = NULL;
	/* As sysfs_read_attr(): a FIFO in its place would block. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ESPIPE;
	}
	for (;;) {
		ssize_t n;

		if (!buf || len + 1 >= cap) {
			char *p;

			if (buf)
				cap *= 2;
			if (cap > PROC_INTERRUPTS_MAX) {
				ret = -EFBIG;
				break;
			}
			p = realloc(buf, cap);
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	*content = buf;
	return 0;
}

void irq_lines_free(struct queue_discovery *c)
{
	for (size_t i = 0; i < c->nr_lines; i++) {
		struct irq_line *l = &c->lines[i];

		free(l->chip);
		free(l->hwirq);
		for (size_t j = 0; j < l->nr_names; j++)
			free(l->names[j]);
		free(l->names);
	}
	free(c->lines);
	c->lines = NULL;
	c->nr_lines = 0;
}

static char *next_token(char **p)
{
	char *s = *p, *start;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*p = s;
		return NULL;
	}
	start = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

/* Splits "a, b" (the kernel joins the actions of a shared IRQ with ", "). */
static int split_names(struct irq_line *l, const char *rest)
{
	const char *p = rest;

	while (*p) {
		const char *sep = strstr(p, ", ");
		size_t len = sep ? (size_t)(sep - p) : strlen(p);
		char **names;

		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len) {
			names = realloc(l->names, (l->nr_names + 1) * sizeof(*names));
			if (!names)
				return -ENOMEM;
			l->names = names;
			l->names[l->nr_names] = strndup(p, len);
			if (!l->names[l->nr_names])
				return -ENOMEM;
			l->nr_names++;
		}
		if (!sep)
			break;
		p = sep + 2;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/*
 * The kernel prints (show_interrupts): "%*d:", one count per online CPU (as
 * many as the header has CPU columns), the chip name, the hwirq glued to the
 * flow handler's name ("524289-edge") when the IRQ has a domain, then the
 * actions' names after two spaces.
 */
int irq_lines_read(struct queue_discovery *c, char *err, size_t err_len)
{
	char *path = path_fmt("%s/interrupts", c->proc), *text, *line, *save = NULL;
	size_t cap = 0, ncpus = 0;
	bool header = true;
	int ret;

	if (!path)
		return -ENOMEM;
	ret = read_whole_file(path, &text);
	if (ret) {
		why_fail(err, err_len, "%s: %s", path, strerror(-ret));
		free(path);
		return ret;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct irq_line *l;
		unsigned long long irq, v;
		char *p = line, *tok, *colon;

		if (header) {
			header = false;
			while ((tok = next_token(&p)))
				if (!strncmp(tok, "CPU", 3))
					ncpus++;
			continue;
		}
		tok = next_token(&p);
		if (!tok || !(colon = strchr(tok, ':')) || colon[1])
			continue;
		*colon = '\0';
		if (!parse_decimal(tok, &irq) || irq > UINT_MAX)
			continue;	/* NMI:, LOC:, ... */
		for (size_t i = 0; i < ncpus; i++) {
			char *save_p = p;

			tok = next_token(&p);
			if (!tok || !parse_decimal(tok, &v)) {
				p = save_p;
				break;
			}
		}
		if (c->nr_lines == cap) {
			size_t ncap = cap ? 2 * cap : 256;
			struct irq_line *nl = realloc(c->lines, ncap * sizeof(*nl));

			if (!nl) {
				ret = -ENOMEM;
				break;
			}
			c->lines = nl;
			cap = ncap;
		}
		l = &c->lines[c->nr_lines++];
		memset(l, 0, sizeof(*l));
		l->irq = (unsigned int)irq;
		tok = next_token(&p);
		if (tok && !(l->chip = strdup(tok))) {
			ret = -ENOMEM;
			break;
		}
		/*
		 * " %*lu" hwirq when the IRQ has a domain; " Level"/" Edge"
		 * with CONFIG_GENERIC_IRQ_SHOW_LEVEL (arm64); "-%-8s" the flow
		 * handler's name when set (x86: "524289-edge").
		 */
		while (*p == ' ' || *p == '\t')
			p++;
		if (isdigit((unsigned char)*p)) {
			char *q = p;

			while (isdigit((unsigned char)*q))
				q++;
			if (*q == '-' || *q == ' ' || *q == '\t' || !*q) {
				if (!(l->hwirq = strndup(p, q - p))) {
					ret = -ENOMEM;
					break;
				}
				p = q;
			}
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, "Edge", 4) || !strncmp(p, "Level", 5)) {
			char *q = p + (*p == 'E' ? 4 : 5);

			if (*q == ' ' || *q == '\t' || *q == '-' || !*q)
				p = q;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '-')
			next_token(&p);
		while (*p == ' ' || *p == '\t')
			p++;
		ret = split_names(l, p);
		if (ret)
			break;
	}
	free(text);
	if (ret == -ENOMEM)
		why_fail(err, err_len, "out of memory");
	free(path);
	return ret;
}

const struct irq_line *irq_lines_find(const struct queue_discovery *c, unsigned int irq)
{
	for (size_t i = 0; i < c->nr_lines; i++)
		if (c->lines[i].irq == irq)
			return &c->lines[i];
	return NULL;
}
