// SPDX-License-Identifier: GPL-2.0
/* Queue <-> NAPI <-> IRQ <-> CPU <-> netdev <-> PCI function; see queue_map.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/types.h>

#include "sys/netdev_netlink.h"
#include "netpmu_records.h"
#include "queue/queue_map.h"
#include "sys/sysfs_read.h"

_Static_assert((int)QUEUE_RXTX == (int)NETPMU_QUEUE_RXTX && (int)QUEUE_RX == (int)NETPMU_QUEUE_RX &&
	       (int)QUEUE_TX == (int)NETPMU_QUEUE_TX,
	       "enum queue_dir must equal enum netpmu_queue_dir");

#define PROC_ROOT_DEFAULT	"/proc"
#define SYS_ROOT_DEFAULT	"/sys"
#define PROC_INTERRUPTS_MAX	(64u << 20)

/* One numbered line of /proc/interrupts. */
struct irq_line {
	unsigned int irq;
	char *chip;		/* NULL if the line has none */
	char *hwirq;		/* decimal, NULL if not shown */
	char **names;		/* the actions' names */
	size_t nr_names;
};

/* An IRQ that <sys>/bus/pci/devices/<bdf>/msi_irqs/ lists. */
struct msi_owner {
	unsigned int irq;
	char bdf[16];
};

struct ctx {
	const char *proc, *sys;
	struct irq_line *lines;
	size_t nr_lines;
	struct msi_owner *owners;
	size_t nr_owners, owners_cap;
	struct queue_map *map;
	size_t vectors_cap;
	/* per vector, during discovery: what the name said */
	struct name_info *info;
	bool real_roots;	/* netlink's ifindexes are this netns's: if_indextoname() */
};

enum name_kind { KIND_TXRX, KIND_RX, KIND_TX };

/* What an IRQ name says, before sysfs is consulted. */
struct name_info {
	const char *pattern;
	enum name_kind kind;
	int index;		/* the number in the name */
	char bdf[16];		/* from the name, "" if none */
	char prefix[32];	/* ifname (pattern "ifname") */
	int virtio;		/* virtio<N>, -1 if not virtio */
	bool ranked;		/* queue = rank of index among the function's vectors (hns3) */
};

static void set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

static void add_note(struct queue_vector *v, const char *fmt, ...)
{
	size_t len = strlen(v->note);
	va_list ap;

	if (len && len + 2 < sizeof(v->note)) {
		strcpy(v->note + len, "; ");
		len += 2;
	}
	if (len >= sizeof(v->note) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(v->note + len, sizeof(v->note) - len, fmt, ap);
	va_end(ap);
}

/* Copies SRC into DST of SIZE bytes, truncating. */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* --- small file helpers --- */

static char *path_fmt(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : p;
}

/* Reads a small attribute at PATH (one trailing newline removed). */
static int read_attr_path(const char *path, char **content)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int ret;

	*content = NULL;
	if (!slash)
		return -EINVAL;
	dir = strndup(path, slash - path);
	if (!dir)
		return -ENOMEM;
	ret = sysfs_read_attr(dir, slash + 1, content);
	free(dir);
	return ret;
}

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

/* Parses a decimal int covering all of S. */
static bool parse_uint(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* First CPU of a cpulist ("3", "0-1,4"), -1 if empty or malformed. */
static int first_cpu(const char *list)
{
	char *end;
	long cpu;

	while (isspace((unsigned char)*list))
		list++;
	if (!isdigit((unsigned char)*list))
		return -1;
	cpu = strtol(list, &end, 10);
	return cpu > INT_MAX ? -1 : (int)cpu;
}

static bool cpulist_is_single(const char *list)
{
	return first_cpu(list) >= 0 && !strpbrk(list, ",-");
}

/* PCI bdf "dddd:bb:dd.f": checks the form, and returns bus << 8 | devfn and the domain. */
static bool parse_bdf(const char *s, unsigned int *domain, unsigned int *bdf16)
{
	unsigned int dom, bus, dev, fn;
	int n = -1;

	if (sscanf(s, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &n) != 4 || n != 12 ||
	    s[n] || dev > 31 || fn > 7)
		return false;
	for (int i = 0; i < 12; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != ':')
				return false;
		} else if (i == 10) {
			if (s[i] != '.')
				return false;
		} else if (!isxdigit((unsigned char)s[i])) {
			return false;
		}
	}
	if (domain)
		*domain = dom;
	if (bdf16)
		*bdf16 = bus << 8 | dev << 3 | fn;
	return true;
}

/* --- /proc/interrupts --- */

static void free_lines(struct ctx *c)
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
static int parse_interrupts(struct ctx *c, char *err, size_t err_len)
{
	char *path = path_fmt("%s/interrupts", c->proc), *text, *line, *save = NULL;
	size_t cap = 0, ncpus = 0;
	bool header = true;
	int ret;

	if (!path)
		return -ENOMEM;
	ret = read_whole_file(path, &text);
	if (ret) {
		set_err(err, err_len, "%s: %s", path, strerror(-ret));
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
		if (!parse_uint(tok, &irq) || irq > UINT_MAX)
			continue;	/* NMI:, LOC:, ... */
		for (size_t i = 0; i < ncpus; i++) {
			char *save_p = p;

			tok = next_token(&p);
			if (!tok || !parse_uint(tok, &v)) {
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
		set_err(err, err_len, "out of memory");
	free(path);
	return ret;
}

static const struct irq_line *find_line(const struct ctx *c, unsigned int irq)
{
	for (size_t i = 0; i < c->nr_lines; i++)
		if (c->lines[i].irq == irq)
			return &c->lines[i];
	return NULL;
}

/* --- PCI functions --- */

static int scan_msi_owners(struct ctx *c)
{
	char *devdir = path_fmt("%s/bus/pci/devices", c->sys), **devs = NULL;
	size_t nr_devs = 0;
	int ret;

	if (!devdir)
		return -ENOMEM;
	ret = sysfs_list_dir(devdir, &devs, &nr_devs);
	if (ret) {
		free(devdir);
		return ret == -ENOMEM ? ret : 0;	/* no PCI: nothing owned */
	}
	for (size_t i = 0; i < nr_devs && !ret; i++) {
		char *msidir = path_fmt("%s/%s/msi_irqs", devdir, devs[i]), **irqs = NULL;
		size_t nr_irqs = 0;

		if (!msidir) {
			ret = -ENOMEM;
			break;
		}
		if (!sysfs_list_dir(msidir, &irqs, &nr_irqs)) {
			for (size_t j = 0; j < nr_irqs; j++) {
				unsigned long long irq;

				if (!parse_uint(irqs[j], &irq) || irq > UINT_MAX)
					continue;
				if (c->nr_owners == c->owners_cap) {
					size_t cap = c->owners_cap ? 2 * c->owners_cap : 256;
					struct msi_owner *o = realloc(c->owners, cap * sizeof(*o));

					if (!o) {
						ret = -ENOMEM;
						break;
					}
					c->owners = o;
					c->owners_cap = cap;
				}
				c->owners[c->nr_owners].irq = (unsigned int)irq;
				copy_str(c->owners[c->nr_owners].bdf,
					 sizeof(c->owners[c->nr_owners].bdf), devs[i]);
				c->nr_owners++;
			}
			sysfs_free_names(irqs, nr_irqs);
		}
		free(msidir);
	}
	sysfs_free_names(devs, nr_devs);
	free(devdir);
	return ret;
}

static const char *msi_owner(const struct ctx *c, unsigned int irq)
{
	for (size_t i = 0; i < c->nr_owners; i++)
		if (c->owners[i].irq == irq)
			return c->owners[i].bdf;
	return NULL;
}

/* <sys>/bus/pci/devices/BDF/ATTR, NULL if absent. */
static char *pci_attr(const struct ctx *c, const char *bdf, const char *attr)
{
	char *path = path_fmt("%s/bus/pci/devices/%s/%s", c->sys, bdf, attr), *s = NULL;

	if (path)
		read_attr_path(path, &s);
	free(path);
	return s;
}

static bool pci_is_network(const struct ctx *c, const char *bdf)
{
	char *class = pci_attr(c, bdf, "class");
	bool net = class && !strncmp(class, "0x02", 4) && strlen(class) == 8;

	free(class);
	return net;
}

/* Basename of the link DIR/driver, into BUF; false if unbound. */
static bool driver_of(const char *dir, char *buf, size_t size)
{
	char *link = path_fmt("%s/driver", dir), target[PATH_MAX];
	ssize_t n;

	if (!link)
		return false;
	n = readlink(link, target, sizeof(target) - 1);
	free(link);
	if (n <= 0)
		return false;
	target[n] = '\0';
	copy_str(buf, size, strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	return true;
}

static bool pci_driver(const struct ctx *c, const char *bdf, char *buf, size_t size)
{
	char *dir = path_fmt("%s/bus/pci/devices/%s", c->sys, bdf);
	bool ok = dir && driver_of(dir, buf, size);

	free(dir);
	return ok;
}

/* --- interrupt names --- */

static bool all_digits(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int small_int(const char *s, size_t len)
{
	long v = 0;

	for (size_t i = 0; i < len && v <= INT_MAX / 10; i++)
		v = v * 10 + (s[i] - '0');
	return v > INT_MAX / 10 ? -1 : (int)v;
}

/* virtio<N>-input.<Q> / virtio<N>-output.<Q> */
static bool match_virtio(const char *name, struct name_info *ni)
{
	const char *p = name + 6, *dash, *dot, *q;
	enum name_kind kind;

	if (strncmp(name, "virtio", 6))
		return false;
	dash = strchr(p, '-');
	if (!dash || !all_digits(p, dash - p))
		return false;
	if (!strncmp(dash + 1, "input.", 6))
		kind = KIND_RX;
	else if (!strncmp(dash + 1, "output.", 7))
		kind = KIND_TX;
	else
		return false;
	dot = strchr(dash, '.');
	q = dot + 1;
	if (!all_digits(q, strlen(q)))
		return false;
	ni->pattern = "virtio-net";
	ni->kind = kind;
	ni->virtio = small_int(p, dash - p);
	ni->index = small_int(q, strlen(q));
	return ni->virtio >= 0 && ni->index >= 0;
}

/* mlx5_comp<Q>@pci:<bdf> */
static bool match_mlx5(const char *name, struct name_info *ni)
{
	const char *p = name + 9, *at;

	if (strncmp(name, "mlx5_comp", 9))
		return false;
	at = strchr(p, '@');
	if (!at || !all_digits(p, at - p) || strncmp(at, "@pci:", 5) || !parse_bdf(at + 5, NULL, NULL))
		return false;
	ni->pattern = "mlx5";
	ni->kind = KIND_TXRX;
	ni->index = small_int(p, at - p);
	copy_str(ni->bdf, sizeof(ni->bdf), at + 5);
	return ni->index >= 0;
}

/*
 * <prefix>-<kind>-<K> with kind TxRx, rx or tx (any case); prefix either
 * <driver>-<bdf> (hns3, i40e, ice) or an interface name (igb, ixgbe, ...).
 */
static bool match_kind_suffix(const char *name, struct name_info *ni)
{
	const char *last = strrchr(name, '-'), *kind_start;
	size_t kind_len, prefix_len;

	if (!last || last == name || !all_digits(last + 1, strlen(last + 1)))
		return false;
	kind_start = last - 1;
	while (kind_start > name && *kind_start != '-')
		kind_start--;
	if (kind_start == name)
		return false;
	kind_start++;
	kind_len = last - kind_start;
	if (kind_len == 4 && !strncasecmp(kind_start, "txrx", 4))
		ni->kind = KIND_TXRX;
	else if (kind_len == 2 && !strncasecmp(kind_start, "rx", 2))
		ni->kind = KIND_RX;
	else if (kind_len == 2 && !strncasecmp(kind_start, "tx", 2))
		ni->kind = KIND_TX;
	else
		return false;
	ni->index = small_int(last + 1, strlen(last + 1));
	if (ni->index < 0)
		return false;
	prefix_len = kind_start - 1 - name;
	if (!prefix_len)
		return false;
	/* <driver>-<bdf>: the bdf is the prefix's last 12 characters. */
	if (prefix_len > 13 && name[prefix_len - 13] == '-') {
		char bdf[16];

		memcpy(bdf, name + prefix_len - 12, 12);
		bdf[12] = '\0';
		if (parse_bdf(bdf, NULL, NULL)) {
			copy_str(ni->bdf, sizeof(ni->bdf), bdf);
			if (prefix_len - 13 == 4 && !strncmp(name, "hns3", 4)) {
				ni->pattern = "hns3";
				ni->ranked = true;
			} else {
				ni->pattern = "drv-bdf";
			}
			return true;
		}
	}
	if (prefix_len >= IFNAMSIZ || memchr(name, '/', prefix_len) || memchr(name, ' ', prefix_len))
		return false;
	memcpy(ni->prefix, name, prefix_len);
	ni->prefix[prefix_len] = '\0';
	ni->pattern = "ifname";
	return true;
}

static bool match_name(const char *name, struct name_info *ni)
{
	memset(ni, 0, sizeof(*ni));
	ni->virtio = -1;
	return match_virtio(name, ni) || match_mlx5(name, ni) || match_kind_suffix(name, ni);
}

/* --- netdevs --- */

static bool netdev_exists(const struct ctx *c, const char *ifname)
{
	char *path = path_fmt("%s/class/net/%s", c->sys, ifname);
	bool ok = path && !access(path, F_OK);

	free(path);
	return ok;
}

static int netdev_ifindex(const struct ctx *c, const char *ifname)
{
	char *path = path_fmt("%s/class/net/%s/ifindex", c->sys, ifname), *s = NULL;
	unsigned long long v;
	int ifindex = -1;

	if (path && !read_attr_path(path, &s) && parse_uint(s, &v) && v <= INT_MAX)
		ifindex = (int)v;
	free(s);
	free(path);
	return ifindex;
}

/* Number of RX queues of IFNAME (<sys>/class/net/IF/queues/rx-*), -1 if unknown. */
static int netdev_rx_queues(const struct ctx *c, const char *ifname)
{
	char *dir = path_fmt("%s/class/net/%s/queues", c->sys, ifname), **names = NULL;
	size_t nr = 0;
	int count = 0;

	if (!dir || sysfs_list_dir(dir, &names, &nr)) {
		free(dir);
		return -1;
	}
	for (size_t i = 0; i < nr; i++)
		if (!strncmp(names[i], "rx-", 3))
			count++;
	sysfs_free_names(names, nr);
	free(dir);
	return count;
}

/*
 * The netdevs under DIR/net (the current network namespace's only). Sets
 * IFNAME when there is exactly one, or when WANT is one of them.
 */
static int netdevs_under(const char *dir, const char *want, char *ifname, size_t size)
{
	char *netdir = path_fmt("%s/net", dir), **names = NULL;
	size_t nr = 0;
	int count;

	if (!netdir)
		return -ENOMEM;
	if (sysfs_list_dir(netdir, &names, &nr)) {
		free(netdir);
		return 0;
	}
	count = (int)nr;
	for (size_t i = 0; i < nr; i++)
		if (want && !strcmp(names[i], want))
			copy_str(ifname, size, names[i]);
	if (nr == 1 && !*ifname)
		copy_str(ifname, size, names[0]);
	sysfs_free_names(names, nr);
	free(netdir);
	return count;
}

/* --- MSI-X entry --- */

/*
 * See queue_map.h. CHIP and HWIRQ come from <sys>/kernel/irq/<irq>/ or, when
 * that is absent, from /proc/interrupts.
 */
static void derive_msix(const struct ctx *c, struct queue_vector *v, const struct irq_line *l)
{
	char *dir = path_fmt("%s/kernel/irq/%u", c->sys, v->irq), *chip = NULL, *hw = NULL;
	unsigned int domain, bdf16;
	unsigned long long hwirq;
	const char *chip_s, *hw_s;
	size_t chip_len;

	if (!dir)
		return;
	sysfs_read_attr(dir, "chip_name", &chip);
	sysfs_read_attr(dir, "hwirq", &hw);
	free(dir);
	chip_s = chip ? chip : l ? l->chip : NULL;
	hw_s = hw ? hw : l ? l->hwirq : NULL;
	if (!chip_s || !hw_s || !parse_uint(hw_s, &hwirq) || !*v->pci_bdf ||
	    !parse_bdf(v->pci_bdf, &domain, &bdf16)) {
		add_note(v, "MSI-X entry unknown: no hwirq");
		goto out;
	}
	chip_len = strlen(chip_s);
	if (strstr(chip_s, "MSI") && chip_len > 13 && chip_s[chip_len - 13] == '-' &&
	    !strcmp(chip_s + chip_len - 12, v->pci_bdf)) {
		/* per-device MSI domain: hwirq is the MSI index */
		if (hwirq <= INT_MAX) {
			v->msix_index = (int)hwirq;
			v->msix_source = "hwirq";
		}
	} else if (strstr(chip_s, "MSI")) {
		/* global PCI/MSI domain: pci_msi_domain_calc_hwirq() */
		if (((hwirq >> 11) & 0xffff) == bdf16 && (hwirq >> 27) == domain) {
			v->msix_index = (int)(hwirq & 0x7ff);
			v->msix_source = "hwirq-pci-msi";
		} else {
			add_note(v, "MSI-X entry unknown: hwirq %llu of chip %s does not encode %s",
				 hwirq, chip_s, v->pci_bdf);
		}
	} else {
		add_note(v, "MSI-X entry unknown: chip %s is not PCI/MSI", chip_s);
	}
out:
	free(chip);
	free(hw);
}

static void derive_cpu(const struct ctx *c, struct queue_vector *v)
{
	char *dir = path_fmt("%s/irq/%u", c->proc, v->irq), *s = NULL;

	if (!dir)
		return;
	if (!sysfs_read_attr(dir, "effective_affinity_list", &s) && first_cpu(s) >= 0) {
		v->cpu = first_cpu(s);
	} else {
		free(s);
		s = NULL;
		if (!sysfs_read_attr(dir, "smp_affinity_list", &s) && cpulist_is_single(s))
			v->cpu = first_cpu(s);
	}
	free(s);
	free(dir);
}

/* --- building the map --- */

static struct queue_vector *new_vector(struct ctx *c, unsigned int irq, const char *name)
{
	struct queue_map *m = c->map;
	struct queue_vector *v;

	if (m->nr_vectors == c->vectors_cap) {
		size_t cap = c->vectors_cap ? 2 * c->vectors_cap : 64;
		void *p = realloc(m->vectors, cap * sizeof(*m->vectors));
		void *q = realloc(c->info, cap * sizeof(*c->info));

		if (p)
			m->vectors = p;
		if (q)
			c->info = q;
		if (!p || !q)
			return NULL;
		c->vectors_cap = cap;
	}
	v = &m->vectors[m->nr_vectors];
	memset(v, 0, sizeof(*v));
	memset(&c->info[m->nr_vectors], 0, sizeof(c->info[0]));
	c->info[m->nr_vectors].virtio = -1;
	m->nr_vectors++;
	v->irq = irq;
	copy_str(v->irq_name, sizeof(v->irq_name), name ? name : "");
	v->ifindex = -1;
	v->queue = -1;
	v->dir = QUEUE_RXTX;
	v->msix_index = -1;
	v->napi_id = -1;
	v->cpu = -1;
	return v;
}

static void set_single_queue(struct queue_vector *v, int queue)
{
	v->queue = queue;
	v->queues[0] = queue;
	v->nr_queues = queue >= 0 ? 1 : 0;
}

static enum queue_dir kind_dir(enum name_kind k)
{
	return k == KIND_RX ? QUEUE_RX : k == KIND_TX ? QUEUE_TX : QUEUE_RXTX;
}

/* The vectors from interrupt names, with their function and netdev. */
static int vectors_from_names(struct ctx *c)
{
	for (size_t i = 0; i < c->nr_lines; i++) {
		const struct irq_line *l = &c->lines[i];
		const char *owner = msi_owner(c, l->irq);

		for (size_t j = 0; j < l->nr_names; j++) {
			struct name_info ni;
			struct queue_vector *v;

			if (!match_name(l->names[j], &ni))
				continue;
			/* An ifname-style name counts only for a NIC. */
			if (!strcmp(ni.pattern, "ifname") && !netdev_exists(c, ni.prefix) &&
			    !(owner && pci_is_network(c, owner)))
				continue;
			v = new_vector(c, l->irq, l->names[j]);
			if (!v)
				return -ENOMEM;
			c->info[c->map->nr_vectors - 1] = ni;
			v->pattern = ni.pattern;
			v->source = "irq-name";
			v->dir = kind_dir(ni.kind);
			break;
		}
	}
	return 0;
}

/* Function and netdev of virtio vector V (virtio<N>). */
static void resolve_virtio(struct ctx *c, struct queue_vector *v, const struct name_info *ni,
			   const char *owner)
{
	char *vdir = path_fmt("%s/bus/virtio/devices/virtio%d", c->sys, ni->virtio);
	char real[PATH_MAX], drv[64] = "";
	int n;

	if (!vdir)
		return;
	if (realpath(vdir, real)) {
		char *slash = strrchr(real, '/');

		if (slash) {
			*slash = '\0';
			slash = strrchr(real, '/');
			if (slash && parse_bdf(slash + 1, NULL, NULL))
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), slash + 1);
		}
	}
	if (owner && *v->pci_bdf && strcmp(owner, v->pci_bdf))
		add_note(v, "virtio%d is under %s but msi_irqs of %s lists IRQ %u",
			 ni->virtio, v->pci_bdf, owner, v->irq);
	if (!*v->pci_bdf && owner)
		copy_str(v->pci_bdf, sizeof(v->pci_bdf), owner);
	n = netdevs_under(vdir, NULL, v->ifname, sizeof(v->ifname));
	if (n == 0) {
		if (driver_of(vdir, drv, sizeof(drv)))
			add_note(v, "virtio%d (driver %s) has no netdev in this network namespace",
				 ni->virtio, drv);
		else
			add_note(v, "virtio%d has no driver bound", ni->virtio);
	} else if (n > 1 && !*v->ifname) {
		add_note(v, "virtio%d has %d netdevs", ni->virtio, n);
	}
	free(vdir);
}

static void resolve_pci_netdev(struct ctx *c, struct queue_vector *v, const char *want)
{
	char *dir = path_fmt("%s/bus/pci/devices/%s", c->sys, v->pci_bdf), drv[64] = "";
	int n;

	if (!dir)
		return;
	n = netdevs_under(dir, want, v->ifname, sizeof(v->ifname));
	if (n == 0) {
		if (driver_of(dir, drv, sizeof(drv)))
			add_note(v, "%s (driver %s) has no netdev in this network namespace",
				 v->pci_bdf, drv);
		else
			add_note(v, "%s has no netdev", v->pci_bdf);
	} else if (n > 1 && !*v->ifname) {
		add_note(v, "%s has %d netdevs: which one is unknown", v->pci_bdf, n);
	}
	free(dir);
}

/* qsort(), which must not be given the NULL of an empty array (its nonnull attribute). */
static void sort_array(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * hns3: the vector's queue is its rank among the function's vectors of the
 * same kind (by the name's number), and it serves rank + k * V.
 */
static void rank_hns3(struct ctx *c, struct queue_vector *v, const struct name_info *ni)
{
	struct queue_map *m = c->map;
	int rank = 0, nvec = 0, nqueues = -1;

	for (size_t k = 0; k < m->nr_vectors; k++) {
		const struct name_info *o = &c->info[k];

		if (!o->ranked || o->kind != ni->kind || strcmp(m->vectors[k].pci_bdf, v->pci_bdf) ||
		    strcmp(o->prefix, ni->prefix))
			continue;
		nvec++;
		if (o->index < ni->index)
			rank++;
	}
	set_single_queue(v, rank);
	if (*v->ifname)
		nqueues = netdev_rx_queues(c, v->ifname);
	if (nqueues > 0) {
		v->nr_queues = 0;
		for (int q = rank; q < nqueues && v->nr_queues < QUEUE_VECTOR_MAX_QUEUES; q += nvec)
			v->queues[v->nr_queues++] = q;
		if (!v->nr_queues)
			set_single_queue(v, rank);
	} else if (nvec) {
		add_note(v, "netdev queue count unknown: queues %d+%dk beyond %d not listed",
			 rank, nvec, rank);
	}
}

static void resolve_vectors(struct ctx *c)
{
	struct queue_map *m = c->map;

	/* Function and netdev first: ranking groups vectors by function. */
	for (size_t i = 0; i < m->nr_vectors; i++) {
		struct queue_vector *v = &m->vectors[i];
		struct name_info *ni = &c->info[i];
		const char *owner = msi_owner(c, v->irq);
		char drv[64];

		if (ni->virtio >= 0) {
			resolve_virtio(c, v, ni, owner);
		} else {
			if (owner)
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), owner);
			else if (*ni->bdf)
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), ni->bdf);
			if (owner && *ni->bdf && strcmp(owner, ni->bdf))
				add_note(v, "name says %s but msi_irqs of %s lists IRQ %u",
					 ni->bdf, owner, v->irq);
			if (!strcmp(ni->pattern, "ifname")) {
				if (netdev_exists(c, ni->prefix))
					copy_str(v->ifname, sizeof(v->ifname), ni->prefix);
				else
					add_note(v, "IRQ name says netdev %s, not in this network namespace",
						 ni->prefix);
				/* hns3 before its hns3-<bdf> names: <ifname>-TxRx-<K> */
				if (*v->pci_bdf && pci_driver(c, v->pci_bdf, drv, sizeof(drv)) &&
				    !strcmp(drv, "hns3")) {
					ni->ranked = true;
					v->pattern = "hns3";
				}
			} else if (*v->pci_bdf) {
				resolve_pci_netdev(c, v, NULL);
			}
		}
		if (*v->ifname)
			v->ifindex = netdev_ifindex(c, v->ifname);
		if (!*v->pci_bdf)
			add_note(v, "PCI function unknown");
	}
	for (size_t i = 0; i < m->nr_vectors; i++) {
		struct queue_vector *v = &m->vectors[i];
		const struct name_info *ni = &c->info[i];

		if (ni->ranked)
			rank_hns3(c, v, ni);
		else
			set_single_queue(v, ni->index);
		derive_msix(c, v, find_line(c, v->irq));
		derive_cpu(c, v);
	}
}

/* --- netlink --- */

/*
 * The name of IFINDEX: if_indextoname() (the caller's network namespace, the
 * one netlink answered for) with the real roots, else <sys>/class/net/<name>/ifindex.
 */
static bool ifindex_name(const struct ctx *c, int ifindex, char *name, size_t size)
{
	char *dir, **names = NULL, buf[IF_NAMESIZE];
	size_t nr = 0;
	bool found = false;

	*name = '\0';
	if (ifindex < 0)
		return false;
	if (c->real_roots) {
		if (!if_indextoname((unsigned int)ifindex, buf))
			return false;
		copy_str(name, size, buf);
		return true;
	}
	dir = path_fmt("%s/class/net", c->sys);
	if (!dir || sysfs_list_dir(dir, &names, &nr)) {
		free(dir);
		return false;
	}
	for (size_t i = 0; i < nr && !found; i++) {
		if (netdev_ifindex(c, names[i]) == ifindex) {
			copy_str(name, size, names[i]);
			found = true;
		}
	}
	sysfs_free_names(names, nr);
	free(dir);
	return found;
}

static int cmp_nl_queue(const void *a, const void *b)
{
	const struct queue_nl_queue *x = a, *y = b;

	if (x->ifindex != y->ifindex)
		return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
	if (x->dir != y->dir)
		return (x->dir > y->dir) - (x->dir < y->dir);
	return (x->queue > y->queue) - (x->queue < y->queue);
}

static int cmp_nl_napi(const void *a, const void *b)
{
	const struct queue_nl_napi *x = a, *y = b;

	return (x->napi_id > y->napi_id) - (x->napi_id < y->napi_id);
}

static int merge_netlink(struct ctx *c, const struct netdev_nl_info *nl)
{
	struct queue_map *m = c->map;

	if (nl->nr_queues) {
		m->nl_queues = calloc(nl->nr_queues, sizeof(*m->nl_queues));
		if (!m->nl_queues)
			return -ENOMEM;
	}
	for (size_t i = 0; i < nl->nr_queues; i++) {
		const struct netdev_nl_queue *q = &nl->queues[i];
		struct queue_nl_queue *o = &m->nl_queues[m->nr_nl_queues++];

		o->ifindex = q->ifindex;
		ifindex_name(c, q->ifindex, o->ifname, sizeof(o->ifname));
		o->queue = q->id;
		o->dir = q->type == NETDEV_NL_QUEUE_TYPE_TX ? QUEUE_TX : QUEUE_RX;
		o->napi_id = q->napi_id;
		o->irq = -1;
		for (size_t j = 0; j < nl->nr_napis; j++)
			if (q->napi_id >= 0 && nl->napis[j].id == q->napi_id)
				o->irq = nl->napis[j].irq;
	}
	sort_array(m->nl_queues, m->nr_nl_queues, sizeof(*m->nl_queues), cmp_nl_queue);

	if (nl->nr_napis) {
		m->nl_napis = calloc(nl->nr_napis, sizeof(*m->nl_napis));
		if (!m->nl_napis)
			return -ENOMEM;
	}
	for (size_t j = 0; j < nl->nr_napis; j++) {
		struct queue_nl_napi *o = &m->nl_napis[m->nr_nl_napis++];

		o->napi_id = nl->napis[j].id;
		o->ifindex = nl->napis[j].ifindex;
		o->irq = nl->napis[j].irq;
		ifindex_name(c, o->ifindex, o->ifname, sizeof(o->ifname));
	}
	sort_array(m->nl_napis, m->nr_nl_napis, sizeof(*m->nl_napis), cmp_nl_napi);

	for (size_t j = 0; j < nl->nr_napis; j++) {
		const struct netdev_nl_napi *n = &nl->napis[j];
		struct queue_vector *v = NULL;
		char name[IF_NAMESIZE] = "";
		int queues[QUEUE_VECTOR_MAX_QUEUES], nq = 0;
		bool rx = false, tx = false;

		if (n->irq < 0)
			continue;
		for (size_t k = 0; k < m->nr_vectors; k++)
			if (m->vectors[k].irq == (unsigned int)n->irq)
				v = &m->vectors[k];
		if (!v) {
			const struct irq_line *l = find_line(c, (unsigned int)n->irq);
			const char *owner = msi_owner(c, (unsigned int)n->irq);

			v = new_vector(c, (unsigned int)n->irq,
				       l && l->nr_names ? l->names[0] : "");
			if (!v)
				return -ENOMEM;
			if (owner)
				copy_str(v->pci_bdf, sizeof(v->pci_bdf), owner);
			else
				add_note(v, "PCI function unknown");
			derive_msix(c, v, l);
			derive_cpu(c, v);
		}
		v->napi_id = n->id;
		if (ifindex_name(c, n->ifindex, name, sizeof(name))) {
			if (*v->ifname && strcmp(v->ifname, name))
				add_note(v, "sysfs says netdev %s, netlink %s", v->ifname, name);
			copy_str(v->ifname, sizeof(v->ifname), name);
			v->ifindex = n->ifindex;
		}
		for (size_t i = 0; i < nl->nr_queues; i++) {
			const struct netdev_nl_queue *q = &nl->queues[i];
			bool dup = false;

			if (q->napi_id != n->id)
				continue;
			if (q->type == NETDEV_NL_QUEUE_TYPE_TX)
				tx = true;
			else
				rx = true;
			for (int k = 0; k < nq; k++)
				dup |= queues[k] == q->id;
			if (!dup && nq < QUEUE_VECTOR_MAX_QUEUES)
				queues[nq++] = q->id;
		}
		if (!nq)
			continue;	/* NAPI known, its queues not: keep the name's */
		qsort(queues, nq, sizeof(queues[0]), cmp_int);
		if (v->source && v->queue >= 0 && (v->queue != queues[0] ||
		    v->dir != (rx && tx ? QUEUE_RXTX : rx ? QUEUE_RX : QUEUE_TX)))
			add_note(v, "IRQ name said %s queue %d", queue_dir_name(v->dir), v->queue);
		memcpy(v->queues, queues, nq * sizeof(queues[0]));
		v->nr_queues = nq;
		v->queue = queues[0];
		v->dir = rx && tx ? QUEUE_RXTX : rx ? QUEUE_RX : QUEUE_TX;
		v->source = "netlink";
	}

	/*
	 * Vectors named after a queue whose NAPI netlink knows, though the
	 * driver did not tell the NAPI's IRQ (virtio-net, veth): the NAPI of
	 * that queue (of its RX queue for a pair).
	 */
	for (size_t k = 0; k < m->nr_vectors; k++) {
		struct queue_vector *v = &m->vectors[k];
		enum queue_dir want = v->dir == QUEUE_TX ? QUEUE_TX : QUEUE_RX;

		if (v->napi_id >= 0 || v->ifindex < 0 || v->queue < 0)
			continue;
		for (size_t i = 0; i < m->nr_nl_queues; i++) {
			const struct queue_nl_queue *q = &m->nl_queues[i];

			if (q->ifindex != v->ifindex || q->dir != want || q->queue != v->queue)
				continue;
			if (q->irq >= 0 && q->irq != (int)v->irq)
				add_note(v, "netlink: %s queue %d is served by IRQ %d",
					 queue_dir_name(q->dir), q->queue, q->irq);
			else
				v->napi_id = q->napi_id;
		}
	}
	return 0;
}

/* --- functions, order --- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_vector(const void *a, const void *b)
{
	const struct queue_vector *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

static int number_functions(struct queue_map *m)
{
	for (size_t i = 0; i < m->nr_vectors; i++) {
		const char *bdf = m->vectors[i].pci_bdf;
		bool seen = false;
		char **f;

		if (!*bdf)
			continue;
		for (size_t j = 0; j < m->nr_functions && !seen; j++)
			seen = !strcmp(m->functions[j], bdf);
		if (seen)
			continue;
		f = realloc(m->functions, (m->nr_functions + 1) * sizeof(*f));
		if (!f)
			return -ENOMEM;
		m->functions = f;
		if (!(m->functions[m->nr_functions] = strdup(bdf)))
			return -ENOMEM;
		m->nr_functions++;
	}
	sort_array(m->functions, m->nr_functions, sizeof(*m->functions), cmp_str);
	for (size_t i = 0; i < m->nr_vectors; i++) {
		struct queue_vector *v = &m->vectors[i];

		v->func_id = 0;
		for (size_t j = 0; j < m->nr_functions; j++)
			if (*v->pci_bdf && !strcmp(m->functions[j], v->pci_bdf))
				v->func_id = (unsigned int)j + 1;
	}
	return 0;
}

static bool is_root(const char *root, const char *real)
{
	return !root || !strcmp(root, real);
}

/* NL_GIVEN: netlink answers to merge instead of asking the kernel, or NULL. */
static int discover(const char *proc_root, const char *sys_root, unsigned int flags,
		    const struct netdev_nl_info *nl_given, struct queue_map *map,
		    char *err, size_t err_len)
{
	struct ctx c = {
		.proc = proc_root ? proc_root : PROC_ROOT_DEFAULT,
		.sys = sys_root ? sys_root : SYS_ROOT_DEFAULT,
		.map = map,
	};
	int ret;

	memset(map, 0, sizeof(*map));
	c.real_roots = is_root(proc_root, PROC_ROOT_DEFAULT) && is_root(sys_root, SYS_ROOT_DEFAULT);
	ret = parse_interrupts(&c, err, err_len);
	if (ret)
		goto out;
	ret = scan_msi_owners(&c);
	if (!ret)
		ret = vectors_from_names(&c);
	if (ret)
		goto oom;
	resolve_vectors(&c);

	if (nl_given) {
		ret = merge_netlink(&c, nl_given);
		if (ret)
			goto oom;
		map->netlink_used = true;
		copy_str(map->netlink_status, sizeof(map->netlink_status), "ok (answers given)");
	} else if (flags & QUEUE_MAP_NO_NETLINK) {
		copy_str(map->netlink_status, sizeof(map->netlink_status), "not asked");
	} else if (!c.real_roots) {
		copy_str(map->netlink_status, sizeof(map->netlink_status),
			 "not used: /proc or /sys is not the real one");
	} else {
		struct netdev_nl_info nl;
		char nl_err[160] = "";

		ret = netdev_nl_dump(&nl, nl_err, sizeof(nl_err));
		if (ret == -ENOMEM)
			goto oom;
		if (ret) {
			copy_str(map->netlink_status, sizeof(map->netlink_status), nl_err);
			ret = 0;
		} else {
			ret = merge_netlink(&c, &nl);
			netdev_nl_info_release(&nl);
			if (ret)
				goto oom;
			map->netlink_used = true;
			copy_str(map->netlink_status, sizeof(map->netlink_status), "ok");
		}
	}
	sort_array(map->vectors, map->nr_vectors, sizeof(*map->vectors), cmp_vector);
	ret = number_functions(map);
	if (ret)
		goto oom;
	goto out;
oom:
	set_err(err, err_len, "out of memory");
	ret = -ENOMEM;
out:
	free_lines(&c);
	free(c.owners);
	free(c.info);
	return ret;
}

int queue_map_discover_flags(const char *proc_root, const char *sys_root,
			     unsigned int flags, struct queue_map *map,
			     char *err, size_t err_len)
{
	return discover(proc_root, sys_root, flags, NULL, map, err, err_len);
}

int queue_map_discover_nl(const char *proc_root, const char *sys_root,
			  const struct netdev_nl_info *nl, struct queue_map *map,
			  char *err, size_t err_len)
{
	return discover(proc_root, sys_root, 0, nl, map, err, err_len);
}

int queue_map_discover(const char *proc_root, const char *sys_root,
		       struct queue_map *map, char *err, size_t err_len)
{
	return queue_map_discover_flags(proc_root, sys_root, 0, map, err, err_len);
}

void queue_map_release(struct queue_map *map)
{
	free(map->vectors);
	for (size_t i = 0; i < map->nr_functions; i++)
		free(map->functions[i]);
	free(map->functions);
	free(map->nl_queues);
	free(map->nl_napis);
	memset(map, 0, sizeof(*map));
}

const struct queue_vector *queue_map_find_irq(const struct queue_map *map, unsigned int irq)
{
	for (size_t i = 0; i < map->nr_vectors; i++)
		if (map->vectors[i].irq == irq)
			return &map->vectors[i];
	return NULL;
}

const struct queue_vector *queue_map_find_napi(const struct queue_map *map, int napi_id)
{
	if (napi_id < 0)
		return NULL;
	for (size_t i = 0; i < map->nr_vectors; i++)
		if (map->vectors[i].napi_id == napi_id)
			return &map->vectors[i];
	return NULL;
}

int queue_map_func_id(const struct queue_map *map, const char *key)
{
	char full[16];

	if (!key || !*key)
		return 0;
	/* "01:00.0" means domain 0000 */
	if (strlen(key) == 7 && key[2] == ':' && key[5] == '.')
		snprintf(full, sizeof(full), "0000:%s", key);
	else
		copy_str(full, sizeof(full), key);
	for (size_t i = 0; i < map->nr_functions; i++)
		if (!strcasecmp(map->functions[i], full))
			return (int)i + 1;
	for (size_t i = 0; i < map->nr_vectors; i++)
		if (map->vectors[i].func_id && !strcmp(map->vectors[i].ifname, key))
			return (int)map->vectors[i].func_id;
	return 0;
}

const char *queue_dir_name(enum queue_dir dir)
{
	switch (dir) {
	case QUEUE_RX:
		return "rx";
	case QUEUE_TX:
		return "tx";
	default:
		return "rxtx";
	}
}
