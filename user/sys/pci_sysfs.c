// SPDX-License-Identifier: GPL-2.0
/* PCI functions and netdevs in sysfs, for bdf checks and dev=IFNAME. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/pci_sysfs.h"
#include "sys/pci_address.h"
#include "sys/sysfs_read.h"

#define SYSFS_ROOT(root) ((root) ? (root) : "/sys")

static char *function_path(const char *sysfs_root, unsigned int domain, unsigned int bdf)
{
	char addr[PCI_ADDR_TEXT_LEN];
	char *path;

	format_pci_address(domain, bdf, addr);
	if (asprintf(&path, "%s/bus/pci/devices/%s", SYSFS_ROOT(sysfs_root), addr) < 0)
		return NULL;
	return path;
}

bool pci_sysfs_present(const char *sysfs_root)
{
	struct stat st;
	char *path;
	bool present;

	if (asprintf(&path, "%s/bus/pci/devices", SYSFS_ROOT(sysfs_root)) < 0)
		return false;
	present = !stat(path, &st) && S_ISDIR(st.st_mode);
	free(path);
	return present;
}

bool pci_function_exists(const char *sysfs_root, unsigned int domain, unsigned int bdf)
{
	char *path = function_path(sysfs_root, domain, bdf);
	struct stat st;
	bool exists;

	if (!path)
		return false;
	exists = !stat(path, &st) && S_ISDIR(st.st_mode);
	free(path);
	return exists;
}

/* A bridge's class code is 0x0604xx; sysfs writes it as "0x060400". */
static bool is_bridge(const char *device_dir)
{
	char *class;
	bool bridge;

	if (sysfs_read_attr(device_dir, "class", &class))
		return false;
	bridge = !strncmp(class, "0x0604", 6);
	free(class);
	return bridge;
}

/* The "/pciDDDD:BB" component of a resolved sysfs path, or NULL. */
static const char *host_bridge_component(const char *path)
{
	const char *p;
	unsigned int dom, bus;
	int end;

	for (p = strstr(path, "/pci"); p; p = strstr(p + 1, "/pci")) {
		end = 0;
		if (sscanf(p, "/pci%4x:%2x%n", &dom, &bus, &end) == 2 && end == 11 &&
		    (p[end] == '/' || !p[end]))
			return p;
	}
	return NULL;
}

int pci_root_port_of(const char *sysfs_root, unsigned int domain, unsigned int bdf,
		     unsigned int *root_port_bdf)
{
	char *path = function_path(sysfs_root, domain, bdf), *real = NULL;
	const char *p, *component;
	unsigned int dom, top_bdf;
	int err = -ENOENT;

	if (!path)
		return -ENOMEM;
	real = realpath(path, NULL);
	free(path);
	if (!real)
		return -ENODEV;
	/*
	 * .../pciDDDD:BB/<the top function>/...: the top function, if a bridge,
	 * is the Root Port. The host bridge sits at /sys/devices/pciDDDD:BB with
	 * ACPI (x86, Hip09) and below its platform device with a device tree
	 * (/sys/devices/platform/<addr>.pcie/pciDDDD:BB on arm64 virt).
	 */
	p = host_bridge_component(real);
	component = p ? strchr(p + 1, '/') : NULL;
	if (component) {
		size_t len;

		component++;
		len = strcspn(component, "/");
		if (parse_pci_address(component, len, &dom, &top_bdf)) {
			char *top_dir = strndup(real, component + len - real);

			if (!top_dir) {
				err = -ENOMEM;
			} else if (is_bridge(top_dir)) {
				*root_port_bdf = top_bdf;
				err = 0;
			}
			free(top_dir);
		}
	}
	free(real);
	return err;
}

int netdev_pci_function(const char *sysfs_root, const char *ifname,
			unsigned int *domain, unsigned int *bdf)
{
	char *path, *real;
	const char *p;
	bool found = false;

	if (!*ifname || strchr(ifname, '/'))
		return -ENODEV;
	if (asprintf(&path, "%s/class/net/%s", SYSFS_ROOT(sysfs_root), ifname) < 0)
		return -ENOMEM;
	real = realpath(path, NULL);
	free(path);
	if (!real)
		return -ENODEV;
	/* The last PCI function on the path: virtio-net sits on virtioN under it. */
	for (p = real; (p = strchr(p, '/')); ) {
		size_t len;

		p++;
		len = strcspn(p, "/");
		if (parse_pci_address(p, len, domain, bdf))
			found = true;
	}
	free(real);
	return found ? 0 : -ENXIO;
}

/* Copies the first entry of DIR into IFNAME; -ENOENT if DIR is absent or empty. */
static int first_entry(const char *dir, char *ifname, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int err = -ENOENT;

	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(ifname, len, "%s", de->d_name);
		err = 0;
		break;
	}
	closedir(d);
	return err;
}

int pci_function_netdev(const char *sysfs_root, unsigned int domain, unsigned int bdf,
			char *ifname, size_t len)
{
	char *path = function_path(sysfs_root, domain, bdf), *net;
	struct dirent *de;
	DIR *d;
	int err;

	if (!path)
		return -ENOMEM;
	if (asprintf(&net, "%s/net", path) < 0) {
		free(path);
		return -ENOMEM;
	}
	err = first_entry(net, ifname, len);
	free(net);
	/* virtio-net: the netdev is one level down, under virtioN/net. */
	d = err ? opendir(path) : NULL;
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "virtio", 6))
			continue;
		if (asprintf(&net, "%s/%s/net", path, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		err = first_entry(net, ifname, len);
		free(net);
		if (!err)
			break;
	}
	if (d)
		closedir(d);
	free(path);
	return err;
}

void describe_pci_function(const char *sysfs_root, unsigned int domain, unsigned int bdf,
			   char *buf, size_t len)
{
	char addr[PCI_ADDR_TEXT_LEN], ifname[NETDEV_NAME_LEN];

	format_pci_address(domain, bdf, addr);
	if (!pci_function_netdev(sysfs_root, domain, bdf, ifname, sizeof(ifname)))
		snprintf(buf, len, "%s (%s)", addr, ifname);
	else
		snprintf(buf, len, "%s", addr);
}

int netdev_queue_count(const char *sysfs_root, const char *ifname,
		       unsigned int *nr_rx, unsigned int *nr_tx)
{
	struct dirent *de;
	char *path;
	DIR *d;

	if (asprintf(&path, "%s/class/net/%s/queues", SYSFS_ROOT(sysfs_root), ifname) < 0)
		return -ENOMEM;
	d = opendir(path);
	free(path);
	if (!d)
		return -ENOENT;
	*nr_rx = *nr_tx = 0;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "rx-", 3))
			(*nr_rx)++;
		else if (!strncmp(de->d_name, "tx-", 3))
			(*nr_tx)++;
	}
	closedir(d);
	return *nr_rx || *nr_tx ? 0 : -ENOENT;
}

unsigned int pmu_dir_pci_domain(const char *pmu_dir)
{
	char *real = realpath(pmu_dir, NULL);
	unsigned int domain = 0, dom, bdf;
	char *slash;

	if (!real)
		return 0;
	slash = strrchr(real, '/');
	if (slash) {
		*slash = '\0';
		slash = strrchr(real, '/');
		if (slash && parse_pci_address(slash + 1, strlen(slash + 1), &dom, &bdf))
			domain = dom;
	}
	free(real);
	return domain;
}
