// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe model's TLP stream: the DMA a network function does for one
 * frame, as the TLPs its Root Port sees (kmod/hisi_pcie.md, "The PCIe device
 * model", has the formulas):
 *
 *   1. doorbell: the CPU writes the function's doorbell register (tx_mwr,
 *      4 bytes, Requester ID = the Root Port);
 *   2. descriptor fetch: the function reads one descriptor (rx_mrd) and gets
 *      it back in one completion (tx_cpl);
 *   3. data: a received frame is written to memory in writes of at most MPS
 *      bytes (rx_mwr); a transmitted frame is read with requests of at most
 *      MRRS bytes (rx_mrd) answered by completions of at most MPS (tx_cpl);
 *   4. descriptor write-back: the function writes the descriptor back
 *      (rx_mwr).
 */

#include <linux/kernel.h>
#include <linux/math64.h>

#include "sim.h"

static void tlp_add(struct hisi_pcie_tlp_stream *st, u8 cls, u8 port,
		    u16 requester, u32 count, u32 bytes, u32 hdr)
{
	struct hisi_pcie_tlp_run *run;

	if (!count || st->nr >= HISI_PCIE_SIM_MAX_RUNS)
		return;
	run = &st->run[st->nr++];
	run->cls = cls;
	run->port = port;
	run->requester = requester;
	run->count = count;
	run->len_dw = DIV_ROUND_UP(bytes, 4);
	run->payload = bytes;
	run->hdr = hdr;
}

/* len bytes in TLPs of at most chunk bytes: the full ones, then the rest. */
static void tlp_add_split(struct hisi_pcie_tlp_stream *st, u8 cls, u8 port,
			  u16 requester, u32 len, u32 chunk, u32 hdr)
{
	tlp_add(st, cls, port, requester, len / chunk, chunk, hdr);
	tlp_add(st, cls, port, requester, len % chunk ? 1 : 0, len % chunk,
		hdr);
}

void hisi_pcie_sim_frame_tlps(const struct hisi_pcie_sim_config *cfg,
			      const struct hisi_pcie_sim_ep *ep, bool tx,
			      u32 len, struct hisi_pcie_tlp_stream *st)
{
	u32 desc = cfg->desc_bytes;
	u8 port = ep->port;
	u16 bdf = ep->bdf;

	st->nr = 0;

	/* 1. The driver rings the doorbell: a posted write from the CPU. */
	tlp_add(st, HISI_PCIE_TLP_TX_MWR, port, ep->rp_bdf, 1,
		HISI_PCIE_SIM_DOORBELL, HISI_PCIE_SIM_MEM_HDR);

	/* 2. The function fetches the descriptor. */
	tlp_add(st, HISI_PCIE_TLP_RX_MRD, port, bdf, 1, desc,
		HISI_PCIE_SIM_MEM_HDR);
	tlp_add(st, HISI_PCIE_TLP_TX_CPL, port, bdf, 1, desc,
		HISI_PCIE_SIM_CPL_HDR);

	/* 3. The frame itself. */
	if (tx) {
		tlp_add_split(st, HISI_PCIE_TLP_RX_MRD, port, bdf, len,
			      cfg->mrrs, HISI_PCIE_SIM_MEM_HDR);
		tlp_add_split(st, HISI_PCIE_TLP_TX_CPL, port, bdf, len,
			      cfg->mps, HISI_PCIE_SIM_CPL_HDR);
	} else {
		tlp_add_split(st, HISI_PCIE_TLP_RX_MWR, port, bdf, len,
			      cfg->mps, HISI_PCIE_SIM_MEM_HDR);
	}

	/* 4. The function writes the descriptor back. */
	tlp_add(st, HISI_PCIE_TLP_RX_MWR, port, bdf, 1, desc,
		HISI_PCIE_SIM_MEM_HDR);
}

/*
 * Modelled latency of one TLP in clock cycles: a fixed part plus the time
 * its header and payload take on the link.
 */
u64 hisi_pcie_sim_tlp_latency(const struct hisi_pcie_sim_config *cfg,
			      const struct hisi_pcie_tlp_run *run)
{
	u64 base = mul_u64_u32_div(cfg->lat_base_ns, cfg->clk_freq,
				   NSEC_PER_SEC);
	u64 bits = (u64)(run->hdr + run->payload) * 8;

	return base + div64_u64(bits * cfg->clk_freq,
				(u64)cfg->link_mbps * 1000000);
}
