// SPDX-License-Identifier: GPL-2.0
#include "event_parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_attr_parse.h"
#include "pmu_discovery.h"
#include "pmu_format.h"

static int reject(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Appends ", NAME" items to BUF: the valid choices for an error line. */
static void list_choices(char *buf, size_t len, const struct pmu *pmu)
{
	size_t used = strlen(buf), i;

	for (i = 0; i < pmu->nr_formats && used + 1 < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
				 pmu->formats[i].name);
	if (used + 1 < len)
		snprintf(buf + used, len - used, ", config, config1, config2, or one of its %zu event names",
			 pmu->nr_events);
}

static int raw_config_word(const char *name)
{
	if (!strcmp(name, "config"))
		return 0;
	if (!strcmp(name, "config1"))
		return 1;
	if (!strcmp(name, "config2"))
		return 2;
	return -1;
}

/* Applies TERM=VALUE (VALUE NULL: a bare term) to CONFIG. */
static int apply_term(const struct pmu *pmu, const char *term, const char *value,
		      uint64_t config[PMU_CONFIG_WORDS], bool allow_alias,
		      char *why, size_t why_len)
{
	const struct pmu_format_field *field;
	const struct pmu_event *alias;
	const char *reason;
	uint64_t number = 1;
	unsigned int bdf;
	int word;

	if (!value && allow_alias && (alias = pmu_find_event(pmu, term))) {
		size_t i;

		for (i = 0; i < alias->nr_terms; i++) {
			int err = apply_term(pmu, alias->terms[i].name, alias->terms[i].value,
					     config, false, why, why_len);
			if (err)
				return err;
		}
		return 0;
	}
	if (value && parse_u64(value, &number, &reason)) {
		if (strcmp(term, "bdf") || parse_pci_bdf(value, &bdf, NULL, &reason))
			return reject(why, why_len, "%s/%s=%s/: '%s' is not a number (decimal or 0x hex%s)",
				      pmu->name, term, value, value,
				      strcmp(term, "bdf") ? "" : ", or a PCI address like 35:00.0");
		number = bdf;
	}
	word = raw_config_word(term);
	if (word >= 0) {
		config[word] = number;
		return 0;
	}
	field = pmu_find_format(pmu, term);
	if (!field) {
		char choices[1024] = "";

		list_choices(choices, sizeof(choices), pmu);
		return reject(why, why_len, "%s: unknown term '%s' (valid: %s)", pmu->name, term, choices);
	}
	if (pmu_format_pack(field, number, config))
		return reject(why, why_len, "%s/%s=%s/: value wider than the field (%s, at most 0x%llx)",
			      pmu->name, term, value ? value : "1", field->spec,
			      (unsigned long long)pmu_format_max_value(field));
	return 0;
}

static int parse_terms(const struct pmu *pmu, char *terms, uint64_t config[PMU_CONFIG_WORDS],
		       char *why, size_t why_len)
{
	char *save = NULL, *term;

	for (term = strtok_r(terms, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *value = strchr(term, '=');
		int err;

		if (value)
			*value++ = '\0';
		if (!*term || (value && !*value))
			return reject(why, why_len, "%s: empty term in the event string (write TERM=VALUE)",
				      pmu->name);
		err = apply_term(pmu, term, value, config, true, why, why_len);
		if (err)
			return err;
	}
	return 0;
}

static void list_pmus(char *buf, size_t len, const struct pmu_set *set)
{
	size_t used = 0, i;

	buf[0] = '\0';
	for (i = 0; i < set->nr_pmus && used + 1 < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", set->pmus[i].name);
}

int event_parse(const char *text, const char *sysfs_root, struct parsed_event *ev,
		char *why, size_t why_len)
{
	struct pmu_set set;
	const struct pmu *pmu;
	char *copy, *slash, *terms, *end;
	int err;

	memset(ev, 0, sizeof(*ev));
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	slash = strchr(copy, '/');
	end = copy + strlen(copy);
	if (!slash || slash == copy || end[-1] != '/' || end - 1 == slash) {
		free(copy);
		return reject(why, why_len, "'%s' is not an event string: write PMU/TERM=VALUE,.../, "
			      "e.g. hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/", text);
	}
	*slash = '\0';
	end[-1] = '\0';
	terms = slash + 1;

	err = pmu_discover(sysfs_root, &set, why, why_len);
	if (err) {
		free(copy);
		return err;
	}
	pmu = pmu_set_find(&set, copy);
	if (!pmu) {
		char names[512];

		list_pmus(names, sizeof(names), &set);
		err = reject(why, why_len, "no PMU named '%s' (%s%s)", copy,
			     set.nr_pmus ? "present: " : "no HNS3 or PCIe PMU is present: load the module with "
			     "'insmod .output/kmod/netpmu.ko' or bind the hns3_pmu/hisi_pcie_pmu drivers",
			     names);
		goto out;
	}
	if (pmu->type < 0 || pmu->cpu < 0) {
		err = reject(why, why_len, "%s: sysfs has no usable type or cpumask (%s)", pmu->name,
			     pmu->nr_problems ? pmu->problems[0] : "files missing");
		goto out;
	}
	ev->spec.type = pmu->type;
	ev->spec.cpu = pmu->cpu;
	err = parse_terms(pmu, terms, ev->spec.config, why, why_len);
	if (err)
		goto out;
	ev->text = strdup(text);
	ev->pmu_name = strdup(pmu->name);
	if (!ev->text || !ev->pmu_name) {
		parsed_event_release(ev);
		err = -ENOMEM;
		snprintf(why, why_len, "out of memory");
	}
out:
	pmu_set_release(&set);
	free(copy);
	return err;
}

void parsed_event_release(struct parsed_event *ev)
{
	free(ev->text);
	free(ev->pmu_name);
	ev->text = ev->pmu_name = NULL;
}
