/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PCI functions and network devices as sysfs shows them, for the checks the
 * PMU drivers make on a bdf filter (does the function exist, which Root Port
 * is above it) and for dev=IFNAME (which PCI function a netdev sits on).
 * SYSFS_ROOT NULL means /sys.
 */
#ifndef NETPMU_PCI_SYSFS_H
#define NETPMU_PCI_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/pci_address.h"

/* A netdev name and its NUL (IFNAMSIZ). */
#define NETDEV_NAME_LEN 16
/* "DDDD:BB:DD.F (IFNAME)" and a NUL. */
#define PCI_DEVICE_TEXT_LEN (PCI_ADDR_TEXT_LEN + NETDEV_NAME_LEN + 3)

/* Whether SYSFS_ROOT has bus/pci/devices: without it no function can be checked. */
bool pci_sysfs_present(const char *sysfs_root);

bool pci_function_exists(const char *sysfs_root, unsigned int domain, unsigned int bdf);

/*
 * The Root Port at the top of the function's path (the function itself if it
 * is one): 0 with *root_port_bdf, -ENODEV if the function does not exist,
 * -ENOENT if it has no Root Port above it (an integrated endpoint).
 */
int pci_root_port_of(const char *sysfs_root, unsigned int domain, unsigned int bdf,
		     unsigned int *root_port_bdf);

/*
 * The PCI function the netdev IFNAME sits on: 0, -ENODEV if there is no
 * such netdev, -ENXIO if it is not on a PCI function (lo, veth, ...).
 */
int netdev_pci_function(const char *sysfs_root, const char *ifname,
			unsigned int *domain, unsigned int *bdf);

/* The first netdev on the function into IFNAME; -ENOENT if none. */
int pci_function_netdev(const char *sysfs_root, unsigned int domain, unsigned int bdf,
			char *ifname, size_t len);

/* "DDDD:BB:DD.F (IFNAME)" with the function's first netdev, or "DDDD:BB:DD.F" (PCI_DEVICE_TEXT_LEN). */
void describe_pci_function(const char *sysfs_root, unsigned int domain, unsigned int bdf,
			   char *buf, size_t len);

/* Number of queues/rx-N and queues/tx-N of IFNAME; -ENOENT if it has none. */
int netdev_queue_count(const char *sysfs_root, const char *ifname,
		       unsigned int *nr_rx, unsigned int *nr_tx);

/* PCI domain of the device a PMU directory (a sysfs link) sits under; 0 if none. */
unsigned int pmu_dir_pci_domain(const char *pmu_dir);

#endif
