// SPDX-License-Identifier: GPL-2.0
/*
 * Topology and traffic of the PCIe model: the Root Ports are the machine's
 * real PCIe Root Ports; the endpoints are the network devices below them,
 * whose every frame (a packet tap per device) becomes the TLPs of its DMA.
 */

#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "sim.h"

/* Root Ports looked at, before the 16 lowest BDFs are kept. */
#define HISI_PCIE_SIM_SCAN_PORTS	256

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const u16 *)a - (int)*(const u16 *)b;
}

/*
 * The Root Ports of the lowest PCI domain that has any, in BDF order: port
 * bit i is the i-th. The BDF register spans the lowest and the highest.
 */
int hisi_pcie_sim_find_ports(struct hisi_pcie_sim *sim)
{
	struct pci_dev *pdev = NULL;
	unsigned int n = 0, seen = 0;
	int domain = -1;
	u16 *bdfs;

	bdfs = kcalloc(HISI_PCIE_SIM_SCAN_PORTS, sizeof(*bdfs), GFP_KERNEL);
	if (!bdfs)
		return -ENOMEM;

	for_each_pci_dev(pdev) {
		int d = pci_domain_nr(pdev->bus);

		if (!pci_is_pcie(pdev) ||
		    pci_pcie_type(pdev) != PCI_EXP_TYPE_ROOT_PORT)
			continue;
		if (domain >= 0 && d > domain)
			continue;
		if (d != domain) {
			domain = d;
			n = 0;
			seen = 0;
			sim->pmu.numa_node = dev_to_node(&pdev->dev);
		}
		seen++;
		if (n < HISI_PCIE_SIM_SCAN_PORTS)
			bdfs[n++] = pci_dev_id(pdev);
	}

	sort(bdfs, n, sizeof(*bdfs), cmp_u16, NULL);
	if (seen > HISI_PCIE_SIM_MAX_PORTS)
		pr_warn("PCIe PMU model: %u Root Ports in domain %04x, modelling the %u lowest\n",
			seen, domain, HISI_PCIE_SIM_MAX_PORTS);
	sim->nr_ports = min_t(unsigned int, n, HISI_PCIE_SIM_MAX_PORTS);
	memcpy(sim->port_bdf, bdfs, sim->nr_ports * sizeof(*bdfs));
	kfree(bdfs);

	sim->domain = domain < 0 ? 0 : domain;
	sim->pmu.uc.pci_domain = sim->domain;
	if (!sim->nr_ports) {
		sim->bdf_reg = 0;
		return -ENODEV;
	}
	sim->bdf_reg = (u32)sim->port_bdf[sim->nr_ports - 1] << 16 |
		       sim->port_bdf[0];
	return 0;
}

static struct pci_dev *netdev_pci_function(struct net_device *ndev)
{
	struct device *dev;

	for (dev = ndev->dev.parent; dev; dev = dev->parent)
		if (dev_is_pci(dev))
			return to_pci_dev(dev);
	return NULL;
}

/* The index of the Root Port above a PCI function, or -1. */
static int hisi_pcie_sim_port_of(struct hisi_pcie_sim *sim,
				 struct pci_dev *pdev, u16 *rp_bdf)
{
	struct pci_dev *rp;
	unsigned int i;

	if (pci_domain_nr(pdev->bus) != sim->domain)
		return -1;
	rp = pcie_find_root_port(pdev);
	if (!rp)
		return -1;
	for (i = 0; i < sim->nr_ports; i++) {
		if (sim->port_bdf[i] == pci_dev_id(rp)) {
			*rp_bdf = sim->port_bdf[i];
			return i;
		}
	}
	return -1;
}

/*
 * Header bytes every segment of a GRO train repeats: MAC to transport
 * header, plus the TCP or UDP header; 0 if unknown.
 */
static u32 hisi_pcie_sim_seg_hdr_len(const struct sk_buff *skb)
{
	int toff;
	u32 l4;

	if (!skb_mac_header_was_set(skb) || !skb_transport_header_was_set(skb))
		return 0;
	toff = skb_transport_offset(skb);

	if (skb_shinfo(skb)->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6)) {
		struct tcphdr _th;
		const struct tcphdr *th;

		th = skb_header_pointer(skb, toff, sizeof(_th), &_th);
		if (!th)
			return 0;
		l4 = th->doff * 4;
	} else if (skb_shinfo(skb)->gso_type & SKB_GSO_UDP_L4) {
		l4 = sizeof(struct udphdr);
	} else {
		return 0;
	}
	return toff - skb_mac_offset(skb) + l4;
}

static void hisi_pcie_sim_frame(struct hisi_pcie_sim_ep *ep, bool tx, u32 len)
{
	struct hisi_pcie_tlp_stream st;

	hisi_pcie_sim_frame_tlps(&ep->sim->cfg, ep, tx, len, &st);
	hisi_pcie_sim_count(ep->sim, &st);
}

/*
 * What the function moves by DMA: on transmit the frame as handed to the
 * driver (skb->len), on receive the frame as written to memory (skb->len
 * plus the MAC header the stack has pulled). A GRO train was received as
 * gso_segs frames, each with its own headers.
 */
static void hisi_pcie_sim_skb(struct hisi_pcie_sim_ep *ep,
			      const struct sk_buff *skb)
{
	bool tx = skb->pkt_type == PACKET_OUTGOING;
	u32 len = skb->len, segs, seg, hdr, i;

	if (!tx && skb_mac_header_was_set(skb) && skb_mac_offset(skb) < 0)
		len += -skb_mac_offset(skb);

	segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	hdr = !tx && segs > 1 ? hisi_pcie_sim_seg_hdr_len(skb) : 0;
	seg = skb_shinfo(skb)->gso_size;
	if (!hdr || !seg || (u64)hdr + (u64)(segs - 1) * seg >= len) {
		hisi_pcie_sim_frame(ep, tx, len);
		return;
	}

	for (i = 0; i < segs - 1; i++)
		hisi_pcie_sim_frame(ep, tx, hdr + seg);
	hisi_pcie_sim_frame(ep, tx, len - (segs - 1) * seg);
}

static int hisi_pcie_sim_tap_rcv(struct sk_buff *skb, struct net_device *dev,
				 struct packet_type *pt,
				 struct net_device *orig_dev)
{
	struct hisi_pcie_sim_ep *ep = container_of(pt, struct hisi_pcie_sim_ep,
						   tap);

	if (READ_ONCE(ep->sim->counting))
		hisi_pcie_sim_skb(ep, skb);
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct hisi_pcie_sim_ep *hisi_pcie_sim_find_ep(struct hisi_pcie_sim *sim,
						      struct net_device *ndev)
{
	struct hisi_pcie_sim_ep *ep;

	list_for_each_entry(ep, &sim->eps, node)
		if (ep->ndev == ndev)
			return ep;
	return NULL;
}

/* Called under rtnl. */
static void hisi_pcie_sim_bind(struct hisi_pcie_sim *sim,
			       struct net_device *ndev)
{
	struct hisi_pcie_sim_ep *ep;
	struct pci_dev *pdev;
	unsigned long flags;
	u16 rp_bdf = 0;
	int port;

	if (ndev->type != ARPHRD_ETHER || hisi_pcie_sim_find_ep(sim, ndev))
		return;
	pdev = netdev_pci_function(ndev);
	if (!pdev)
		return;
	port = hisi_pcie_sim_port_of(sim, pdev, &rp_bdf);
	if (port < 0)
		return;

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return;

	dev_hold(ndev);
	ep->sim = sim;
	ep->ndev = ndev;
	ep->bdf = pci_dev_id(pdev);
	ep->rp_bdf = rp_bdf;
	ep->port = port;
	ep->tap.type = htons(ETH_P_ALL);
	ep->tap.dev = ndev;
	ep->tap.func = hisi_pcie_sim_tap_rcv;

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	list_add_tail(&ep->node, &sim->eps);
	sim->nr_eps++;
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	dev_add_pack(&ep->tap);
}

/* Called under rtnl. */
static void hisi_pcie_sim_unbind(struct hisi_pcie_sim *sim,
				 struct hisi_pcie_sim_ep *ep)
{
	unsigned long flags;

	dev_remove_pack(&ep->tap);	/* waits for taps in flight */

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	list_del(&ep->node);
	sim->nr_eps--;
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	dev_put(ep->ndev);
	kfree(ep);
}

static int hisi_pcie_sim_netdev_event(struct notifier_block *nb,
				      unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct hisi_pcie_sim *sim = container_of(nb, struct hisi_pcie_sim,
						 netdev_nb);
	struct hisi_pcie_sim_ep *ep;

	switch (event) {
	case NETDEV_REGISTER:
		/* Also a device arriving from another namespace: bound once. */
		hisi_pcie_sim_bind(sim, ndev);
		break;
	case NETDEV_UNREGISTER:
		/* A move to another namespace unregisters too: keep it. */
		if (ndev->reg_state != NETREG_UNREGISTERING)
			break;
		ep = hisi_pcie_sim_find_ep(sim, ndev);
		if (ep)
			hisi_pcie_sim_unbind(sim, ep);
		break;
	}
	return NOTIFY_DONE;
}

int hisi_pcie_sim_net_bind(struct hisi_pcie_sim *sim)
{
	int ret;

	sim->netdev_nb.notifier_call = hisi_pcie_sim_netdev_event;
	/* Replays NETDEV_REGISTER for every device of every namespace. */
	ret = register_netdevice_notifier(&sim->netdev_nb);
	if (ret) {
		struct hisi_pcie_sim_ep *ep, *tmp;

		rtnl_lock();
		list_for_each_entry_safe(ep, tmp, &sim->eps, node)
			hisi_pcie_sim_unbind(sim, ep);
		rtnl_unlock();
	}
	return ret;
}

void hisi_pcie_sim_net_unbind(struct hisi_pcie_sim *sim)
{
	struct hisi_pcie_sim_ep *ep, *tmp;

	unregister_netdevice_notifier(&sim->netdev_nb);
	rtnl_lock();
	list_for_each_entry_safe(ep, tmp, &sim->eps, node)
		hisi_pcie_sim_unbind(sim, ep);
	rtnl_unlock();
}

/* Say which Root Ports and functions the model covers. */
void hisi_pcie_sim_report(struct hisi_pcie_sim *sim)
{
	struct hisi_pcie_sim_ep *ep;
	unsigned int i;

	for (i = 0; i < sim->nr_ports; i++)
		pr_info("%s: Root Port %04x:%02x:%02x.%x is port bit %u (port=%#x)\n",
			sim->pmu.uc.name, sim->domain, PCI_BUS_NUM(sim->port_bdf[i]),
			PCI_SLOT(sim->port_bdf[i]), PCI_FUNC(sim->port_bdf[i]),
			i, 1U << i);

	rtnl_lock();
	if (!sim->nr_eps)
		pr_warn("%s: no network device below its Root Ports, nothing counts traffic\n",
			sim->pmu.uc.name);
	list_for_each_entry(ep, &sim->eps, node)
		pr_info("%s: counting %s (%04x:%02x:%02x.%x, bdf=%#x) below port bit %u\n",
			sim->pmu.uc.name, ep->ndev->name, sim->domain,
			PCI_BUS_NUM(ep->bdf), PCI_SLOT(ep->bdf),
			PCI_FUNC(ep->bdf), ep->bdf, ep->port);
	rtnl_unlock();
}
