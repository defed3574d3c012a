// SPDX-License-Identifier: GPL-2.0
/*
 * The values netpmu reads from a PMU's sysfs files, each parser fed the same
 * input: format ranges (and the packing of values into them), cpumasks,
 * bdfs, numbers, HNS3 filtermode lines, events/ file terms, PMU names.
 */
#include <stdint.h>

#include "pmu/pmu_attr_parse.h"
#include "pmu/pmu_format.h"
#include "pmu/pmu_name.h"
#include "pmu/pmu_name_match.h"
#include "fuzz_common.h"

static void fuzz_format(const char *s, uint64_t value)
{
	struct pmu_format_field f = { 0 };
	uint64_t config[PMU_CONFIG_WORDS] = { 0 };
	const char *why;

	if (pmu_format_parse(s, &f, &why))
		return;
	value &= pmu_format_max_value(&f);
	if (pmu_format_pack(&f, value, config) || pmu_format_unpack(&f, config) != value)
		abort();	/* a value that fits must come back as it went in */
	pmu_format_field_release(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct pmu_event_term *terms;
	struct pmu_name_info info;
	unsigned int nr_cpus, bdf, modes;
	int first_cpu, domain;
	uint64_t value = 0;
	const char *why;
	size_t nr_terms;

	memcpy(&value, data, size < sizeof(value) ? size : sizeof(value));
	fuzz_format(s, value);
	parse_cpumask(s, &first_cpu, &nr_cpus, &why);
	parse_pci_bdf(s, &bdf, &domain, &why);
	parse_u64(s, &value, &why);
	parse_hns3_filter_modes(s, &modes, &why);
	if (!parse_event_terms(s, &terms, &nr_terms, &why))
		free_event_terms(terms, nr_terms);
	pmu_name_parse(s, &info);
	pmu_name_matches("hns3_pmu_sicl_0", s);
	pmu_name_matches("hisi_pcie0_core1", s);
	pmu_name_matches(s, "hisi_pcie0_core");
	free(s);
	return 0;
}
