/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register accessor: the only way PMU drivers touch their device. A backend
 * (real MMIO or the device model) supplies the four operations; offsets are
 * those of the device's register map.
 */
#ifndef NETPMU_COMMON_REGS_H
#define NETPMU_COMMON_REGS_H

#include <linux/types.h>
#include <linux/compiler.h>

struct netpmu_regs;

struct netpmu_regs_ops {
	u32 (*read32)(struct netpmu_regs *regs, u32 off);
	void (*write32)(struct netpmu_regs *regs, u32 off, u32 val);
	u64 (*read64)(struct netpmu_regs *regs, u32 off);
	void (*write64)(struct netpmu_regs *regs, u32 off, u64 val);
};

struct netpmu_regs {
	const struct netpmu_regs_ops *ops;
};

static inline u32 netpmu_read32(struct netpmu_regs *regs, u32 off)
{
	return regs->ops->read32(regs, off);
}

static inline void netpmu_write32(struct netpmu_regs *regs, u32 off, u32 val)
{
	regs->ops->write32(regs, off, val);
}

static inline u64 netpmu_read64(struct netpmu_regs *regs, u32 off)
{
	return regs->ops->read64(regs, off);
}

static inline void netpmu_write64(struct netpmu_regs *regs, u32 off, u64 val)
{
	regs->ops->write64(regs, off, val);
}

/* Memory-mapped backend: non-relaxed readl/writel and readq/writeq. */
struct netpmu_mmio {
	struct netpmu_regs regs;
	void __iomem *base;
};

void netpmu_mmio_init(struct netpmu_mmio *mmio, void __iomem *base);

#endif /* NETPMU_COMMON_REGS_H */
