// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic source of the HNS3 device model: binds PCI network devices (one
 * PCI function and one port each), taps every frame they send or receive,
 * and reads the interrupt counts of their functions' vectors.
 */

#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/list_sort.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "sim.h"

static struct pci_dev *hns3_sim_netdev_pci(struct net_device *ndev)
{
	struct device *dev;

	for (dev = ndev->dev.parent; dev; dev = dev->parent)
		if (dev_is_pci(dev))
			return to_pci_dev(dev);
	return NULL;
}

/* Is name an entry of the comma-separated list? */
static bool hns3_sim_listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list, *end;

	while (*p) {
		end = strchrnul(p, ',');
		if (end - p == len && !strncmp(p, name, len))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static bool hns3_sim_wants(struct hns3_sim *sim, struct net_device *ndev)
{
	if (sim->netdevs && *sim->netdevs &&
	    !hns3_sim_listed(sim->netdevs, ndev->name))
		return false;
	return ndev->type == ARPHRD_ETHER && hns3_sim_netdev_pci(ndev);
}

/* Ethernet frame length without FCS, as on the wire. */
static u64 hns3_sim_frame_len(const struct sk_buff *skb)
{
	u64 len = skb->len;

	/* On receive the MAC header has been pulled already. */
	if (skb_mac_header_was_set(skb) && skb_mac_offset(skb) < 0)
		len += -skb_mac_offset(skb);
	if (skb_vlan_tag_present(skb))
		len += VLAN_HLEN;
	return len;
}

/* Header bytes that every segment of a GSO/GRO train repeats. */
static u32 hns3_sim_gso_hdr_len(const struct sk_buff *skb)
{
	int noff = skb_network_offset(skb);
	int moff = skb_mac_header_was_set(skb) ? skb_mac_offset(skb) : 0;
	u32 l3, l4;
	u8 proto;

	switch (skb->protocol) {
	case htons(ETH_P_IP): {
		struct iphdr _iph;
		const struct iphdr *iph;

		iph = skb_header_pointer(skb, noff, sizeof(_iph), &_iph);
		if (!iph)
			return 0;
		l3 = iph->ihl * 4;
		proto = iph->protocol;
		break;
	}
	case htons(ETH_P_IPV6): {
		struct ipv6hdr _ip6h;
		const struct ipv6hdr *ip6h;

		ip6h = skb_header_pointer(skb, noff, sizeof(_ip6h), &_ip6h);
		if (!ip6h)
			return 0;
		l3 = sizeof(*ip6h);
		proto = ip6h->nexthdr;
		break;
	}
	default:
		return 0;
	}

	if (proto == IPPROTO_TCP) {
		struct tcphdr _th;
		const struct tcphdr *th;

		th = skb_header_pointer(skb, noff + l3, sizeof(_th), &_th);
		if (!th)
			return 0;
		l4 = th->doff * 4;
	} else if (proto == IPPROTO_UDP) {
		l4 = sizeof(struct udphdr);
	} else {
		return 0;
	}

	return (noff - min(moff, 0)) + l3 + l4 +
	       (skb_vlan_tag_present(skb) ? VLAN_HLEN : 0);
}

static void hns3_sim_pkt_fill(const struct hns3_sim_fn *fn,
			      const struct sk_buff *skb,
			      struct hns3_sim_pkt *pkt)
{
	struct net_device *ndev = fn->ndev;
	u64 len = hns3_sim_frame_len(skb);

	pkt->devfn = fn->bdf & 0xff;
	pkt->port = fn->port;
	pkt->tc = netdev_get_num_tc(ndev) ?
		  netdev_get_prio_tc_map(ndev, skb->priority) : 0;

	if (skb->pkt_type == PACKET_OUTGOING) {
		pkt->dir = HNS3_SIM_TX;
		pkt->queue = skb_get_queue_mapping(skb);
	} else {
		pkt->dir = HNS3_SIM_RX;
		pkt->queue = skb_rx_queue_recorded(skb) ?
			     skb_get_rx_queue(skb) : 0;
	}

	if (skb_is_gso(skb) && skb_shinfo(skb)->gso_segs > 1) {
		pkt->packets = skb_shinfo(skb)->gso_segs;
		pkt->bytes = len + (u64)(pkt->packets - 1) *
			     hns3_sim_gso_hdr_len(skb);
	} else {
		pkt->packets = 1;
		pkt->bytes = max_t(u64, len, ETH_ZLEN);
	}
}

static int hns3_sim_tap_rcv(struct sk_buff *skb, struct net_device *dev,
			    struct packet_type *pt,
			    struct net_device *orig_dev)
{
	struct hns3_sim_fn *fn = container_of(pt, struct hns3_sim_fn, tap);
	struct hns3_sim_pkt pkt;

	if (READ_ONCE(fn->sim->counting)) {
		hns3_sim_pkt_fill(fn, skb, &pkt);
		hns3_sim_count(fn->sim, &pkt);
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

/*
 * Resolve the function's vectors again (drivers allocate them at probe or
 * open). Called under rtnl; interrupt slots restart from the new vectors.
 */
static void hns3_sim_fn_refresh_vectors(struct hns3_sim_fn *fn)
{
	struct pci_dev *pdev = hns3_sim_netdev_pci(fn->ndev);
	struct hns3_sim *sim = fn->sim;
	unsigned int *irqs, *old, nr;
	unsigned long flags;

	if (!pdev || hns3_sim_fn_vectors(pdev, &irqs, &nr))
		return;

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	if (nr == fn->nr_irqs && (!nr || !memcmp(irqs, fn->irqs, nr * sizeof(*irqs)))) {
		raw_spin_unlock_irqrestore(&sim->model.lock, flags);
		kfree(irqs);
		return;
	}
	hns3_sim_intr_fold_locked(sim);
	old = fn->irqs;
	fn->irqs = irqs;
	fn->nr_irqs = nr;
	hns3_sim_intr_rebase_locked(sim);
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);
	kfree(old);
}

/* Called under rtnl. */
static void hns3_sim_bind(struct hns3_sim *sim, struct net_device *ndev)
{
	struct pci_dev *pdev = hns3_sim_netdev_pci(ndev);
	struct hns3_sim_fn *fn;
	unsigned long flags;

	if (sim->nr_fns >= HNS3_SIM_MAX_FUNCS) {
		netdev_warn(ndev, "%s: all %d ports in use, not counted\n",
			    sim->pmu.uc.name, HNS3_SIM_MAX_FUNCS);
		return;
	}

	fn = kzalloc(sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return;

	dev_hold(ndev);
	fn->sim = sim;
	fn->ndev = ndev;
	fn->domain = pci_domain_nr(pdev->bus);
	fn->bdf = PCI_DEVID(pdev->bus->number, pdev->devfn);
	fn->port = sim->nr_fns;	/* provisional: see hns3_sim_number_ports() */
	fn->tap.type = htons(ETH_P_ALL);
	fn->tap.dev = ndev;
	fn->tap.func = hns3_sim_tap_rcv;
	if (hns3_sim_fn_vectors(pdev, &fn->irqs, &fn->nr_irqs))
		netdev_warn(ndev, "%s: vectors unknown, its interrupts are not counted\n",
			    sim->pmu.uc.name);

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	hns3_sim_intr_fold_locked(sim);
	list_add_tail(&fn->node, &sim->fns);
	sim->nr_fns++;
	hns3_sim_intr_rebase_locked(sim);
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	dev_add_pack(&fn->tap);
}

/* Called under rtnl. */
static void hns3_sim_unbind(struct hns3_sim *sim, struct hns3_sim_fn *fn)
{
	unsigned long flags;

	dev_remove_pack(&fn->tap);	/* waits for taps in flight */

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	hns3_sim_intr_fold_locked(sim);
	list_del(&fn->node);
	sim->nr_fns--;
	hns3_sim_intr_rebase_locked(sim);
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	dev_put(fn->ndev);
	kfree(fn->irqs);
	kfree(fn);
}

static struct hns3_sim_fn *hns3_sim_find_fn(struct hns3_sim *sim,
					    struct net_device *ndev)
{
	struct hns3_sim_fn *fn;

	list_for_each_entry(fn, &sim->fns, node)
		if (fn->ndev == ndev)
			return fn;
	return NULL;
}

static int hns3_sim_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct hns3_sim *sim = container_of(nb, struct hns3_sim, netdev_nb);
	struct hns3_sim_fn *fn;

	switch (event) {
	case NETDEV_REGISTER:
		/* Only the replay of devices present at load binds. */
		if (sim->binding && hns3_sim_wants(sim, ndev))
			hns3_sim_bind(sim, ndev);
		break;
	case NETDEV_UNREGISTER:
		/* A move to another namespace unregisters too: keep it. */
		if (ndev->reg_state != NETREG_UNREGISTERING)
			break;
		fn = hns3_sim_find_fn(sim, ndev);
		if (fn)
			hns3_sim_unbind(sim, fn);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		fn = hns3_sim_find_fn(sim, ndev);
		if (fn)
			hns3_sim_fn_refresh_vectors(fn);
		break;
	}
	return NOTIFY_DONE;
}

/* PCI order: domain, bus, devfn; netdevs of one function by ifindex. */
static int hns3_sim_fn_cmp(void *priv, const struct list_head *a,
			   const struct list_head *b)
{
	const struct hns3_sim_fn *x = list_entry(a, struct hns3_sim_fn, node);
	const struct hns3_sim_fn *y = list_entry(b, struct hns3_sim_fn, node);

	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->bdf != y->bdf)
		return x->bdf < y->bdf ? -1 : 1;
	return x->ndev->ifindex < y->ndev->ifindex ? -1 : 1;
}

/*
 * Ports are numbered in PCI order of the bound functions, like MAC ids
 * follow the functions of a real device, whatever the order the netdevs
 * registered in or the namespaces they live in. Fixed at creation.
 */
static void hns3_sim_number_ports(struct hns3_sim *sim)
{
	struct hns3_sim_fn *fn;
	unsigned long flags;
	u8 port = 0;

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	list_sort(NULL, &sim->fns, hns3_sim_fn_cmp);
	list_for_each_entry(fn, &sim->fns, node)
		fn->port = port++;
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);
}

/* Fixed at load, like the hardware's BDF register. */
static void hns3_sim_set_bdf_range(struct hns3_sim *sim)
{
	struct hns3_sim_fn *fn;
	u16 lo = U16_MAX, hi = 0;

	sim->pmu.uc.pci_domain = 0;
	list_for_each_entry(fn, &sim->fns, node) {
		if (fn == list_first_entry(&sim->fns, struct hns3_sim_fn, node))
			sim->pmu.uc.pci_domain = fn->domain;
		lo = min(lo, fn->bdf);
		hi = max(hi, fn->bdf);
	}
	if (!sim->nr_fns)
		lo = 0;
	sim->bdf = (u32)hi << 16 | lo;
}

int hns3_sim_net_bind(struct hns3_sim *sim)
{
	int ret;

	sim->netdev_nb.notifier_call = hns3_sim_netdev_event;
	sim->binding = true;
	/* Replays NETDEV_REGISTER for every device of every namespace. */
	ret = register_netdevice_notifier(&sim->netdev_nb);
	rtnl_lock();
	sim->binding = false;
	if (ret) {
		struct hns3_sim_fn *fn, *tmp;

		list_for_each_entry_safe(fn, tmp, &sim->fns, node)
			hns3_sim_unbind(sim, fn);
	}
	hns3_sim_number_ports(sim);
	hns3_sim_set_bdf_range(sim);
	rtnl_unlock();
	return ret;
}

void hns3_sim_net_unbind(struct hns3_sim *sim)
{
	struct hns3_sim_fn *fn, *tmp;

	unregister_netdevice_notifier(&sim->netdev_nb);
	rtnl_lock();
	list_for_each_entry_safe(fn, tmp, &sim->fns, node)
		hns3_sim_unbind(sim, fn);
	rtnl_unlock();
}

/* Say what is counted, and what the model cannot tell apart. */
void hns3_sim_net_report(struct hns3_sim *sim)
{
	struct hns3_sim_fn *fn, *other;

	rtnl_lock();
	if (!sim->nr_fns)
		pr_warn("%s: no PCI network device bound, nothing counts traffic\n",
			sim->pmu.uc.name);
	list_for_each_entry(fn, &sim->fns, node) {
		pr_info("%s: counting %s (%04x:%02x:%02x.%x) as port %u\n",
			sim->pmu.uc.name, fn->ndev->name, fn->domain,
			fn->bdf >> 8, PCI_SLOT(fn->bdf & 0xff),
			PCI_FUNC(fn->bdf & 0xff), fn->port);
		list_for_each_entry(other, &sim->fns, node) {
			if (other != fn && (other->bdf & 0xff) == (fn->bdf & 0xff) &&
			    other->port > fn->port)
				pr_warn("%s: %s and %s share devfn %02x.%x: func filters match both\n",
					sim->pmu.uc.name, fn->ndev->name,
					other->ndev->name,
					PCI_SLOT(fn->bdf & 0xff),
					PCI_FUNC(fn->bdf & 0xff));
		}
	}
	rtnl_unlock();
}
