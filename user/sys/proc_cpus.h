/* SPDX-License-Identifier: GPL-2.0 */
/* Which CPUs an interrupt may run on, and which CPU a task last ran on (procfs). */
#ifndef NETPMU_PROC_CPUS_H
#define NETPMU_PROC_CPUS_H

#include <stddef.h>

/* /proc/irq/IRQ/smp_affinity_list ("0-3,8") into LIST. 0 or -errno. */
int proc_irq_affinity(unsigned int irq, char *list, size_t len);

/*
 * The CPU task PID last ran on and its name (/proc/PID/stat). 0 or -errno
 * (-ESRCH: gone).
 */
int proc_task_cpu(int pid, unsigned int *cpu, char *comm, size_t comm_len);

/*
 * The time task PID has run on CPUs, ns (/proc/PID/schedstat): what tells a
 * task that ran since the last look from one asleep, whose last CPU is old
 * news. 0 or -errno (-ENOENT: no schedstat in this kernel).
 */
int proc_task_run_ns(int pid, unsigned long long *run_ns);

#endif
