/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU format fields: the format/<field> files of a perf PMU, e.g.
 * "config1:8-23" or a split field "config:0-7,32-35", parsed in general form,
 * and the packing of a field value into perf_event_attr's config words.
 */
#ifndef NETPMU_PMU_FORMAT_H
#define NETPMU_PMU_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* perf_event_attr has config, config1, config2 and (since 6.3) config3. */
#define PMU_CONFIG_WORDS 4

struct pmu_bit_range {
	unsigned int lo;	/* lowest bit, 0..63 */
	unsigned int hi;	/* highest bit, lo..63 */
};

struct pmu_format_field {
	char *name;			/* file name in format/, e.g. "bdf" */
	char *spec;			/* file content without the newline */
	unsigned int word;		/* 0 = config, 1 = config1, ... */
	struct pmu_bit_range *ranges;	/* as written in the file */
	size_t nr_ranges;
	uint64_t mask;			/* bits the field occupies in its word */
	unsigned int width;		/* number of bits in mask */
};

/*
 * Parses SPEC ("configN:A-B,C,...") into FIELD (name left untouched).
 * Returns 0, -ENOMEM, or -EINVAL with *why set to a static reason.
 */
int pmu_format_parse(const char *spec, struct pmu_format_field *field,
		     const char **why);

/* Largest value the field can hold. */
uint64_t pmu_format_max_value(const struct pmu_format_field *field);

/*
 * Writes VALUE into CONFIG[field->word] the way perf does: bit i of VALUE goes
 * to the i-th lowest bit of the field's mask; the field's previous bits are
 * cleared. Returns 0, or -ERANGE (CONFIG unchanged) if VALUE is too wide.
 */
int pmu_format_pack(const struct pmu_format_field *field, uint64_t value,
		    uint64_t config[PMU_CONFIG_WORDS]);

/* Reads the field's value back from CONFIG. */
uint64_t pmu_format_unpack(const struct pmu_format_field *field,
			   const uint64_t config[PMU_CONFIG_WORDS]);

/* "config", "config1", ... for word 0, 1, ... */
const char *pmu_config_word_name(unsigned int word);

/* Frees what pmu_format_parse allocated and the name and spec strings. */
void pmu_format_field_release(struct pmu_format_field *field);

#endif
