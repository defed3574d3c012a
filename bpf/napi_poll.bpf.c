// SPDX-License-Identifier: GPL-2.0
/*
 * NAPI polls: per-instance polls, packets, budget-exhausted polls, time in
 * polls and the core counters' changes over them; with --per-poll, one record
 * per poll with the PMU counters read then.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_state.bpf.h"
#include "core_pmu.bpf.h"

/*
 * Fills C from the counter if it is readable on this CPU, else from the last
 * tick's snapshot, marked as such.
 */
static __always_inline void read_counter_or_snapshot(__u32 i, __u32 cpu,
						     struct netpmu_counter_read *c)
{
	struct bpf_perf_event_value v = {};
	struct counter_state *snap;

	c->err = read_counter(i, cpu, &v);
	c->flags = 0;
	if (!c->err) {
		c->value = v.counter;
		c->enabled_ns = v.enabled;
		c->running_ns = v.running;
		return;
	}
	snap = bpf_map_lookup_elem(&counter_state, &i);
	if (snap && snap->valid) {
		c->value = snap->last.value;
		c->enabled_ns = snap->last.enabled_ns;
		c->running_ns = snap->last.running_ns;
		c->flags = NETPMU_READ_SNAPSHOT;
	} else {
		c->value = c->enabled_ns = c->running_ns = 0;
	}
}

/*
 * Waking the reader for each record costs an interrupt (irq_work) per poll
 * whenever it keeps up: more than everything else a poll costs. Wake it when
 * a quarter of the ring is waiting or WAKEUP_EVERY_NS after the last wakeup;
 * the interval tick wakes it for records left behind when polls stop.
 */
#define WAKEUP_EVERY_NS (10 * 1000 * 1000)

static __always_inline __u64 wakeup_flag(__u64 now)
{
	if (now - records_woken_ns < WAKEUP_EVERY_NS &&
	    bpf_ringbuf_query(&records, BPF_RB_AVAIL_DATA) <
	    bpf_ringbuf_query(&records, BPF_RB_RING_SIZE) / 4)
		return BPF_RB_NO_WAKEUP;
	records_woken_ns = now;
	return BPF_RB_FORCE_WAKEUP;
}

/*
 * The reserve size must be a constant to the verifier: it is, made of the
 * read-only counts the loader set before loading.
 */
static __always_inline void emit_poll_record(struct napi_activity *act, int work, int budget,
					     __u32 cpu, const struct netpmu_core_delta *core)
{
	struct netpmu_poll_record *rec;
	struct netpmu_counter_read *reads;
	struct netpmu_core_delta *core_out;
	__u64 now;
	__u32 i;

	rec = bpf_ringbuf_reserve(&records, netpmu_poll_record_size(nr_counters, nr_core_events), 0);
	if (!rec) {
		__sync_fetch_and_add(&losses.ringbuf_full, 1);
		return;
	}
	rec->kind = NETPMU_RECORD_POLL;
	rec->cpu = cpu;
	rec->ts_ns = now = bpf_ktime_get_ns();
	rec->napi_id = act->napi_id;
	rec->ifindex = act->ifindex;
	__builtin_memcpy(rec->ifname, act->ifname, sizeof(rec->ifname));
	rec->work = work;
	rec->budget = budget;
	rec->nr_counters = nr_counters;
	rec->irq = act->irq;
	rec->nr_core = nr_core_events;
	rec->reserved = 0;
	reads = (void *)(rec + 1);
	for (i = 0; i < NETPMU_MAX_COUNTERS && i < nr_counters; i++)
		read_counter_or_snapshot(i, cpu, &reads[i]);
	core_out = (void *)(reads + nr_counters);
	for (i = 0; i < NETPMU_MAX_CORE_EVENTS && i < nr_core_events; i++)
		core_out[i] = core[i];
	bpf_ringbuf_submit(rec, wakeup_flag(now));
}

static __always_inline __s64 poll_field(__u32 field, const struct napi_activity *act, int work, int budget,
					__u32 cpu, __s64 value)
{
	switch (field) {
	case NETPMU_POLL_CPU: return cpu;
	case NETPMU_POLL_IFINDEX: return act->ifindex;
	case NETPMU_POLL_NAPI_ID: return act->napi_id;
	case NETPMU_POLL_IRQ: return act->irq;
	case NETPMU_POLL_WORK: return work;
	case NETPMU_POLL_BUDGET: return budget;
	default: return value;
	}
}

/* The device name is 16 bytes: two 8-byte compares. */
static __always_inline bool same_dev(const char *ifname, const volatile char *dev)
{
	__u64 a0, a1, b0, b1;

	__builtin_memcpy(&a0, ifname, 8);
	__builtin_memcpy(&a1, ifname + 8, 8);
	b0 = *(const volatile __u64 *)dev;
	b1 = *(const volatile __u64 *)(dev + 8);
	return a0 == b0 && a1 == b1;
}

/* Whether the poll passes every comparison the loader put in the kernel. */
static __always_inline bool poll_wanted(const struct napi_activity *act, int work, int budget, __u32 cpu)
{
	__u32 i;

	for (i = 0; i < NETPMU_MAX_POLL_FILTERS && i < nr_poll_filters; i++) {
		const volatile struct netpmu_poll_filter *f = &poll_filters[i];
		__s64 l, r;
		bool ok;

		if (f->left == NETPMU_POLL_DEV) {
			ok = same_dev(act->ifname, f->dev) == (f->op == NETPMU_OP_EQ);
		} else {
			l = poll_field(f->left, act, work, budget, cpu, 0);
			r = poll_field(f->right, act, work, budget, cpu, f->value);
			switch (f->op) {
			case NETPMU_OP_EQ: ok = l == r; break;
			case NETPMU_OP_NE: ok = l != r; break;
			case NETPMU_OP_LT: ok = l < r; break;
			case NETPMU_OP_LE: ok = l <= r; break;
			case NETPMU_OP_GT: ok = l > r; break;
			default: ok = l >= r; break;
			}
		}
		if (!ok)
			return false;
	}
	return true;
}

/*
 * NAPI's entry, by way of this CPU's cache of the last NAPI polled here: a
 * CPU polls the same NAPI over and over, so the hot path is two array lookups
 * (inlined by the verifier) instead of hashing. Only this program, which does
 * not nest on one CPU, touches the cache; slots are never reused.
 */
static __always_inline struct napi_activity *polled_napi_activity(struct napi_struct *napi)
{
	struct netpmu_cpu_state *here = this_cpu_context();
	__u64 key = (__u64)napi;
	__u32 *slot;
	long got;

	if (!here)
		return napi_activity_get(napi);
	if (here->cached_napi != key) {
		slot = bpf_map_lookup_elem(&napi_slots, &key);
		if (slot) {
			here->cached_slot = *slot;
		} else {
			got = napi_activity_create(napi);
			if (got < 0)
				return NULL;
			here->cached_slot = got;
		}
		here->cached_napi = key;
	}
	return bpf_map_lookup_elem(&napi_activity, &here->cached_slot);
}

/*
 * The core counters' change since __napi_poll's entry, if this CPU saw the
 * entry of this NAPI's poll (busy polling and netpoll trace polls without it).
 */
static __always_inline void poll_core_change(struct napi_struct *napi, struct netpmu_core_delta *out)
{
	struct cpu_core *c = this_cpu_core();

	if (!c || c->poll_napi != (__u64)napi)
		return;
	core_change_since(c->poll_start, out);
	c->poll_napi = 0;
}

/* The poll's counts in its NAPI's entry; NULL if the NAPI table is full. */
static __always_inline struct napi_activity *account_poll(struct napi_struct *napi, int work,
							    int budget, __u32 cpu)
{
	struct napi_activity *act = polled_napi_activity(napi);

	if (!act)
		return NULL;
	/*
	 * Only the CPU that owns the NAPI (NAPI_STATE_SCHED, or netpoll's
	 * poll_owner) polls it: plain adds, no locked ones (far atomics on
	 * arm64 cost more).
	 */
	act->polls++;
	act->packets += work;
	if (work >= budget)
		act->budget_exhausted++;
	act->last_cpu = cpu;
	/* Since 6.10 the driver may tell the kernel its IRQ; learnt links win. */
	if (!act->irq && bpf_core_field_exists(napi->irq)) {
		/* A BTF-typed argument: a direct (CO-RE relocated) load, no helper call. */
		int irq = napi->irq;

		if (irq > 0) {
			act->irq = irq;
			mark_irq_serves_napi(irq);
		}
	}
	return act;
}

SEC("tp_btf/napi_poll")
int BPF_PROG(napi_poll, struct napi_struct *napi, int work, int budget)
{
	struct netpmu_core_delta core[NETPMU_MAX_CORE_EVENTS];
	__u32 cpu = bpf_get_smp_processor_id();
	struct napi_activity *act;

	/* top and serve without core events: the counts are all (no core[] to zero). */
	if (!nr_core_events && !per_poll_records) {
		account_poll(napi, work, budget, cpu);
		return 0;
	}
	/* First: the poll ends here, the program's own cost is not its. */
	if (nr_core_events) {
		__builtin_memset(core, 0, sizeof(core));
		poll_core_change(napi, core);
	}
	act = account_poll(napi, work, budget, cpu);
	if (!act)
		return 0;
	if (nr_core_events)
		core_add(act->core, core);
	if (!per_poll_records)
		return 0;
	if (nr_poll_filters && !poll_wanted(act, work, budget, cpu)) {
		__sync_fetch_and_add(&polls_filtered, 1);
		return 0;
	}
	emit_poll_record(act, work, budget, cpu, core);
	return 0;
}

/*
 * Time in polls: __napi_poll() wraps the driver's poll. fentry/fexit where the
 * kernel has BPF trampolines, kprobe/kretprobe elsewhere; the loader picks.
 * The entry also reads the core counters the napi_poll tracepoint ends with.
 */
static __always_inline void poll_enter(struct napi_struct *napi)
{
	struct netpmu_cpu_state *here = this_cpu_context();
	struct cpu_core *c;

	if (!here)
		return;
	here->poll_napi = (__u64)napi;
	here->poll_entry_ns = bpf_ktime_get_ns();
	/* Last: the poll starts here, the program's own cost is not its. */
	if (nr_core_events && (c = this_cpu_core())) {
		read_core_counters(c->poll_start);
		c->poll_napi = (__u64)napi;
	}
}

static __always_inline void poll_exit(void)
{
	struct netpmu_cpu_state *here = this_cpu_context();
	struct napi_activity *act;
	__u64 key;

	if (!here || !here->poll_entry_ns)
		return;
	key = here->poll_napi;
	act = napi_activity_find(key);
	/* The polling CPU owns the NAPI: a plain add, as in napi_poll. */
	if (act)
		act->poll_ns += bpf_ktime_get_ns() - here->poll_entry_ns;
	here->poll_entry_ns = 0;
}

NETPMU_NAPI_HOOK(napi_poll_enter, __napi_poll, poll_enter)

SEC("fexit/__napi_poll")
int BPF_PROG(napi_poll_exit)
{
	poll_exit();
	return 0;
}

SEC("kretprobe/__napi_poll")
int BPF_KRETPROBE(napi_poll_exit_kprobe)
{
	poll_exit();
	return 0;
}
