// SPDX-License-Identifier: GPL-2.0
/* PCI addresses as text: the one parser and printer of bus/device/function. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/parse_number.h"
#include "sys/pci_address.h"

/* Parses exactly LEN hex digits at S; returns -1 if they are not hex. */
static long parse_hex_digits(const char *s, size_t len)
{
	long v = 0;

	for (size_t i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		v = v * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0'
				: tolower((unsigned char)s[i]) - 'a' + 10);
	}
	return v;
}

/* "BB:DD.F" with two hex digits of bus and device and one digit of function. */
static int parse_bus_dev_fn(const char *s, unsigned int *bdf, const char **why)
{
	long bus, dev, fn;

	if (strlen(s) != 7 || s[2] != ':' || s[5] != '.') {
		*why = "expected BB:DD.F or a number such as 0x3500";
		return -EINVAL;
	}
	bus = parse_hex_digits(s, 2);
	dev = parse_hex_digits(s + 3, 2);
	fn = parse_hex_digits(s + 6, 1);
	if (bus < 0 || dev < 0 || fn < 0) {
		*why = "expected hex digits in BB:DD.F";
		return -EINVAL;
	}
	if (dev > 0x1f || fn > 7) {
		*why = "PCI device above 1f or function above 7";
		return -EINVAL;
	}
	*bdf = bus << 8 | dev << 3 | fn;
	return 0;
}

int parse_pci_bdf(const char *s, unsigned int *bdf, int *domain,
		  const char **why)
{
	const char *colon = strchr(s, ':');
	uint64_t v;

	if (domain)
		*domain = -1;
	if (!colon) {
		if (parse_u64(s, &v, why))
			return -EINVAL;
		if (v > 0xffff) {
			*why = "BDF above 0xffff";
			return -EINVAL;
		}
		*bdf = v;
		return 0;
	}
	if (strchr(colon + 1, ':')) {
		long dom = colon - s == 4 ? parse_hex_digits(s, 4) : -1;

		if (dom < 0) {
			*why = "expected DDDD:BB:DD.F with a 4-digit hex domain";
			return -EINVAL;
		}
		if (domain)
			*domain = dom;
		s = colon + 1;
	}
	return parse_bus_dev_fn(s, bdf, why);
}

void format_pci_bdf(unsigned int bdf, char *buf)
{
	snprintf(buf, PCI_BDF_TEXT_LEN, "%02x:%02x.%x",
		 (bdf >> 8) & 0xff, (bdf >> 3) & 0x1f, bdf & 7);
}

void format_pci_address(unsigned int domain, unsigned int bdf, char *buf)
{
	snprintf(buf, PCI_ADDR_TEXT_LEN, "%04x:%02x:%02x.%x", domain & 0xffff,
		 (bdf >> 8) & 0xff, (bdf >> 3) & 0x1f, bdf & 7);
}

bool parse_pci_address(const char *s, size_t len, unsigned int *domain, unsigned int *bdf)
{
	char text[PCI_ADDR_TEXT_LEN];
	const char *why;
	int dom;

	if (len != PCI_ADDR_TEXT_LEN - 1)
		return false;
	memcpy(text, s, len);
	text[len] = '\0';
	if (parse_pci_bdf(text, bdf, &dom, &why) || dom < 0)
		return false;
	*domain = dom;
	return true;
}

bool is_pci_address(const char *s)
{
	unsigned int domain, bdf;

	return parse_pci_address(s, strlen(s), &domain, &bdf);
}
