// SPDX-License-Identifier: GPL-2.0
/* What sysfs and /proc/irq say about a vector: its PCI function, netdev, MSI-X entry and CPU. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/parse_number.h"
#include "queue/discovery.h"
#include "sys/pci_address.h"
#include "sys/sysfs_read.h"

void vector_note(struct queue_vector *v, const char *fmt, ...)
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

int msi_owners_scan(struct queue_discovery *c)
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

				if (!parse_decimal(irqs[j], &irq) || irq > UINT_MAX)
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

const char *msi_owner_of(const struct queue_discovery *c, unsigned int irq)
{
	for (size_t i = 0; i < c->nr_owners; i++)
		if (c->owners[i].irq == irq)
			return c->owners[i].bdf;
	return NULL;
}

/* <sys>/bus/pci/devices/BDF/ATTR, NULL if absent. */
static char *pci_attr(const struct queue_discovery *c, const char *bdf, const char *attr)
{
	char *path = path_fmt("%s/bus/pci/devices/%s/%s", c->sys, bdf, attr), *s = NULL;

	if (path)
		read_attr_path(path, &s);
	free(path);
	return s;
}

bool pci_function_is_network(const struct queue_discovery *c, const char *bdf)
{
	char *class = pci_attr(c, bdf, "class");
	bool net = class && !strncmp(class, "0x02", 4) && strlen(class) == 8;

	free(class);
	return net;
}

/* Basename of the link DIR/driver, into BUF; false if unbound. */
bool driver_of(const char *dir, char *buf, size_t size)
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

bool pci_function_driver(const struct queue_discovery *c, const char *bdf, char *buf, size_t size)
{
	char *dir = path_fmt("%s/bus/pci/devices/%s", c->sys, bdf);
	bool ok = dir && driver_of(dir, buf, size);

	free(dir);
	return ok;
}

bool netdev_in_namespace(const struct queue_discovery *c, const char *ifname)
{
	char *path = path_fmt("%s/class/net/%s", c->sys, ifname);
	bool ok = path && !access(path, F_OK);

	free(path);
	return ok;
}

int netdev_ifindex(const struct queue_discovery *c, const char *ifname)
{
	char *path = path_fmt("%s/class/net/%s/ifindex", c->sys, ifname), *s = NULL;
	unsigned long long v;
	int ifindex = -1;

	if (path && !read_attr_path(path, &s) && parse_decimal(s, &v) && v <= INT_MAX)
		ifindex = (int)v;
	free(s);
	free(path);
	return ifindex;
}

/*
 * The netdevs under DIR/net (the current network namespace's only). Sets
 * IFNAME when there is exactly one, or when WANT is one of them.
 */
int netdevs_under(const char *dir, const char *want, char *ifname, size_t size)
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

/*
 * See queue_map.h. CHIP and HWIRQ come from <sys>/kernel/irq/<irq>/ or, when
 * that is absent, from /proc/interrupts.
 */
void vector_derive_msix(const struct queue_discovery *c, struct queue_vector *v, const struct irq_line *l)
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
	if (!chip_s || !hw_s || !parse_decimal(hw_s, &hwirq) || !*v->pci_bdf ||
	    !parse_pci_address(v->pci_bdf, strlen(v->pci_bdf), &domain, &bdf16)) {
		vector_note(v, "MSI-X entry unknown: no hwirq");
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
			vector_note(v, "MSI-X entry unknown: hwirq %llu of chip %s does not encode %s",
				 hwirq, chip_s, v->pci_bdf);
		}
	} else {
		vector_note(v, "MSI-X entry unknown: chip %s is not PCI/MSI", chip_s);
	}
out:
	free(chip);
	free(hw);
}

void vector_derive_cpu(const struct queue_discovery *c, struct queue_vector *v)
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
