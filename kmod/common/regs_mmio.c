// SPDX-License-Identifier: GPL-2.0
/* MMIO implementation of the register accessor, for real devices. */

#include <linux/io.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/kernel.h>

#include "regs.h"

static void __iomem *netpmu_mmio_addr(struct netpmu_regs *regs, u32 off)
{
	return container_of(regs, struct netpmu_mmio, regs)->base + off;
}

static u32 netpmu_mmio_read32(struct netpmu_regs *regs, u32 off)
{
	return readl(netpmu_mmio_addr(regs, off));
}

static void netpmu_mmio_write32(struct netpmu_regs *regs, u32 off, u32 val)
{
	writel(val, netpmu_mmio_addr(regs, off));
}

static u64 netpmu_mmio_read64(struct netpmu_regs *regs, u32 off)
{
	return readq(netpmu_mmio_addr(regs, off));
}

static void netpmu_mmio_write64(struct netpmu_regs *regs, u32 off, u64 val)
{
	writeq(val, netpmu_mmio_addr(regs, off));
}

static const struct netpmu_regs_ops netpmu_mmio_ops = {
	.read32 = netpmu_mmio_read32,
	.write32 = netpmu_mmio_write32,
	.read64 = netpmu_mmio_read64,
	.write64 = netpmu_mmio_write64,
};

void netpmu_mmio_init(struct netpmu_mmio *mmio, void __iomem *base)
{
	mmio->regs.ops = &netpmu_mmio_ops;
	mmio->base = base;
}
