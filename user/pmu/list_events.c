// SPDX-License-Identifier: GPL-2.0
/* netpmu list --events: a PMU's metrics by kind, then its unpaired events. */
#include <string.h>

#include "lib/json_writer.h"
#include "pmu/list_events.h"
#include "pmu/pmu_attr_parse.h"

#define FILTERS_TEXT_LEN 96

/* What a PCIe event's filters may be, per the documentation: bdf and TLP filters for bandwidth. */
static const char *pcie_filters(enum metric_kind kind)
{
	return kind == METRIC_PCIE_LATENCY ? "port" : "port bdf trig_len thr_len len_mode";
}

static void filters_text(const struct metric *m, char *buf, size_t len)
{
	const struct pmu_event *ev = m->counter[0];
	size_t used = 0;

	buf[0] = '\0';
	if (m->pmu->name_info.kind != PMU_KIND_HNS3) {
		snprintf(buf, len, "%s", pcie_filters(m->kind));
		return;
	}
	if (!ev->filter_modes_valid) {
		snprintf(buf, len, "unknown");
		return;
	}
	for (enum hns3_filter_mode mode = 0; mode < HNS3_FILTER_NR_MODES && used + 1 < len; mode++) {
		if (ev->filter_modes & HNS3_FILTER_BIT(mode))
			used += snprintf(buf + used, len - used, "%s%s", used ? " " : "",
					 hns3_filter_mode_name(mode));
	}
}

static bool in_a_metric(const struct metric_set *metrics, const struct pmu *pmu,
			const struct pmu_event *ev)
{
	unsigned int counter;

	return metric_of_event(metrics, pmu, ev, &counter) != NULL;
}

static void print_heading(FILE *out, const struct pmu *pmu)
{
	char min[PCI_BDF_TEXT_LEN], max[PCI_BDF_TEXT_LEN];

	fprintf(out, "%s (%s, type %d, counting CPU %d", pmu->name,
		pmu_kind_name(pmu->name_info.kind), pmu->type, pmu->cpu);
	if (pmu->has_hw_clk_freq)
		fprintf(out, ", hw_clk_freq %llu Hz", (unsigned long long)pmu->hw_clk_freq);
	if (pmu->bdf_min >= 0 && pmu->bdf_max >= 0) {
		format_pci_bdf(pmu->bdf_min, min);
		format_pci_bdf(pmu->bdf_max, max);
		fprintf(out, ", %s %s-%s", pmu->name_info.kind == PMU_KIND_HNS3 ? "functions" :
			"Root Ports", min, max);
	}
	fprintf(out, ")\n");
}

/* Column widths of one kind's table. */
static void kind_widths(const struct pmu *pmu, const struct metric_set *metrics,
			enum metric_kind kind, int widths[3])
{
	const struct metric_kind_info *info = metric_kind_info(kind);

	widths[0] = strlen("METRIC");
	widths[1] = strlen("COUNTER 0 ()") + strlen(info->counts[0]);
	widths[2] = strlen("COUNTER 1 ()") + strlen(info->counts[1]);
	for (size_t i = 0; i < metrics->nr_metrics; i++) {
		const struct metric *m = &metrics->metrics[i];
		int w[3] = { strlen(m->name), strlen(m->counter[0]->name), strlen(m->counter[1]->name) };

		if (m->pmu != pmu || m->kind != kind)
			continue;
		for (int c = 0; c < 3; c++)
			if (w[c] > widths[c])
				widths[c] = w[c];
	}
}

static void print_kind(FILE *out, const struct pmu *pmu, const struct metric_set *metrics,
		       enum metric_kind kind)
{
	const struct metric_kind_info *info = metric_kind_info(kind);
	char head[2][64], filters[FILTERS_TEXT_LEN];
	const struct metric *first = NULL;
	int widths[3];

	for (size_t i = 0; i < metrics->nr_metrics && !first; i++) {
		if (metrics->metrics[i].pmu == pmu && metrics->metrics[i].kind == kind)
			first = &metrics->metrics[i];
	}
	if (!first)
		return;
	kind_widths(pmu, metrics, kind, widths);
	fprintf(out, "\n  %s in %s = %s", info->title, metric_unit(first), metric_formula(first));
	if (info->undocumented)
		fprintf(out, " (%s)", info->undocumented);
	fputc('\n', out);
	snprintf(head[0], sizeof(head[0]), "COUNTER 0 (%s)", info->counts[0]);
	snprintf(head[1], sizeof(head[1]), "COUNTER 1 (%s)", info->counts[1]);
	fprintf(out, "    %-*s  %-*s  %-*s  %s\n", widths[0], "METRIC", widths[1], head[0],
		widths[2], head[1], pmu->name_info.kind == PMU_KIND_HNS3 ? "FILTER MODES" : "FILTERS");
	for (size_t i = 0; i < metrics->nr_metrics; i++) {
		const struct metric *m = &metrics->metrics[i];

		if (m->pmu != pmu || m->kind != kind)
			continue;
		filters_text(m, filters, sizeof(filters));
		fprintf(out, "    %-*s  %-*s  %-*s  %s\n", widths[0], m->name, widths[1],
			m->counter[0]->name, widths[2], m->counter[1]->name, filters);
	}
}

void list_events_print(FILE *out, const struct pmu *pmu, const struct metric_set *metrics)
{
	bool heading = false;

	print_heading(out, pmu);
	for (enum metric_kind kind = 0; kind < METRIC_NR_KINDS; kind++)
		print_kind(out, pmu, metrics, kind);
	for (size_t i = 0; i < pmu->nr_events; i++) {
		const struct pmu_event *ev = &pmu->events[i];

		if (in_a_metric(metrics, pmu, ev))
			continue;
		if (!heading)
			fprintf(out, "\n  events without a pair\n");
		heading = true;
		fprintf(out, "    %-40s %s\n", ev->name, ev->spec ? ev->spec : "");
	}
}

static void json_filters(struct json_writer *w, const struct metric *m)
{
	char text[FILTERS_TEXT_LEN], *save = NULL, *word;

	filters_text(m, text, sizeof(text));
	json_begin_array(w, m->pmu->name_info.kind == PMU_KIND_HNS3 ? "filter_modes" : "filters");
	for (word = strtok_r(text, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
		if (strcmp(word, "unknown"))
			json_string(w, NULL, word);
	}
	json_end_array(w);
}

void list_events_print_json(struct json_writer *w, const struct pmu *pmu,
			    const struct metric_set *metrics)
{
	for (size_t k = 0; k < METRIC_NR_KINDS * metrics->nr_metrics; k++) {
		/* Kind by kind, as the text form. */
		const struct metric *m = &metrics->metrics[k % metrics->nr_metrics];
		const struct metric_kind_info *info = metric_kind_info(m->kind);

		if (m->pmu != pmu || m->kind != k / metrics->nr_metrics)
			continue;
		json_begin_object(w, NULL);
		json_string(w, "pmu", pmu->name);
		json_string(w, "kind", info->title);
		json_string(w, "metric", m->name);
		json_begin_array(w, "counters");
		for (unsigned int c = 0; c < 2; c++) {
			json_begin_object(w, NULL);
			json_string(w, "event", m->counter[c]->name);
			json_string(w, "spec", m->counter[c]->spec);
			json_string(w, "counts", info->counts[c]);
			json_end_object(w);
		}
		json_end_array(w);
		json_string(w, "unit", metric_unit(m));
		json_string(w, "formula", metric_formula(m));
		json_filters(w, m);
		json_string(w, "undocumented", info->undocumented);
		json_end_object(w);
	}
	for (size_t i = 0; i < pmu->nr_events; i++) {
		const struct pmu_event *ev = &pmu->events[i];

		if (in_a_metric(metrics, pmu, ev))
			continue;
		json_begin_object(w, NULL);
		json_string(w, "pmu", pmu->name);
		json_null(w, "kind");
		json_string(w, "event", ev->name);
		json_string(w, "spec", ev->spec);
		json_end_object(w);
	}
}
