/* SPDX-License-Identifier: GPL-2.0 */
/* PCI addresses as text: "BB:DD.F", "DDDD:BB:DD.F" and a bdf number. */
#ifndef NETPMU_PCI_ADDRESS_H
#define NETPMU_PCI_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A PCI bus/device/function as 16 bits (bus << 8 | dev << 3 | fn), from
 * "BB:DD.F" (hex; HNS3 sysfs form), "DDDD:BB:DD.F" (domain ignored but
 * returned in *domain, else -1), or a number ("0x3000", "13568").
 * DOMAIN may be NULL.
 */
int parse_pci_bdf(const char *s, unsigned int *bdf, int *domain,
		  const char **why);

/* Writes "BB:DD.F" for BDF into BUF (at least PCI_BDF_TEXT_LEN bytes). */
#define PCI_BDF_TEXT_LEN 8
void format_pci_bdf(unsigned int bdf, char *buf);

/* "DDDD:BB:DD.F" and a NUL. */
#define PCI_ADDR_TEXT_LEN 13

/*
 * Exactly "DDDD:BB:DD.F" in the LEN bytes at S (a sysfs path component, an
 * IRQ name's part): false unless it is one.
 */
bool parse_pci_address(const char *s, size_t len, unsigned int *domain, unsigned int *bdf);

/* Whether S is exactly "DDDD:BB:DD.F". */
bool is_pci_address(const char *s);

/* "DDDD:BB:DD.F" into BUF (PCI_ADDR_TEXT_LEN bytes). */
void format_pci_address(unsigned int domain, unsigned int bdf, char *buf);

#endif
