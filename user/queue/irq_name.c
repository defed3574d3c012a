// SPDX-License-Identifier: GPL-2.0
/* What an interrupt's name says about its queue, by the drivers' naming rules (queue_map.h). */
#include <ctype.h>
#include <limits.h>
#include <net/if.h>
#include <string.h>
#include <strings.h>

#include "queue/discovery.h"
#include "sys/pci_address.h"

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
	if (!at || !all_digits(p, at - p) || strncmp(at, "@pci:", 5) || !is_pci_address(at + 5))
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
		if (is_pci_address(bdf)) {
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

bool irq_name_match(const char *name, struct name_info *ni)
{
	memset(ni, 0, sizeof(*ni));
	ni->virtio = -1;
	return match_virtio(name, ni) || match_mlx5(name, ni) || match_kind_suffix(name, ni);
}
