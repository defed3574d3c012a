// SPDX-License-Identifier: GPL-2.0
/* PMU format fields: parsing "configN:A-B,C" and packing values. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_format.h"

static const char *const config_word_names[PMU_CONFIG_WORDS] = {
	"config", "config1", "config2", "config3",
};

const char *pmu_config_word_name(unsigned int word)
{
	return word < PMU_CONFIG_WORDS ? config_word_names[word] : "config?";
}

static uint64_t range_mask(const struct pmu_bit_range *r)
{
	unsigned int width = r->hi - r->lo + 1;

	return (width == 64 ? ~0ULL : (1ULL << width) - 1) << r->lo;
}

/* Parses a decimal bit number 0..63 at *p and advances *p past it. */
static int parse_bit_number(const char **p, unsigned int *bit)
{
	unsigned int value = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		value = value * 10 + (*s - '0');
		if (value > 63)
			return -ERANGE;
		s++;
	}
	*bit = value;
	*p = s;
	return 0;
}

static int parse_config_word(const char **p, unsigned int *word)
{
	const char *s = *p;

	if (strncmp(s, "config", 6))
		return -EINVAL;
	s += 6;
	if (*s == ':') {
		*word = 0;
	} else if (s[0] >= '1' && s[0] <= '9' && s[1] == ':') {
		*word = s[0] - '0';
		if (*word >= PMU_CONFIG_WORDS)
			return -ERANGE;
		s++;
	} else {
		return -EINVAL;
	}
	*p = s + 1;
	return 0;
}

int pmu_format_parse(const char *spec, struct pmu_format_field *field,
		     const char **why)
{
	struct pmu_bit_range *ranges = NULL;
	size_t nr = 0;
	uint64_t mask = 0;
	const char *p = spec;
	int err;

	err = parse_config_word(&p, &field->word);
	if (err) {
		*why = err == -ERANGE ? "config word above config3"
				      : "expected configN:BITS, e.g. config1:8-23";
		return -EINVAL;
	}

	for (;;) {
		struct pmu_bit_range r;
		struct pmu_bit_range *grown;

		err = parse_bit_number(&p, &r.lo);
		if (!err) {
			r.hi = r.lo;
			if (*p == '-') {
				p++;
				err = parse_bit_number(&p, &r.hi);
			}
		}
		if (err) {
			*why = err == -ERANGE ? "bit number above 63"
					      : "expected a bit or a range A-B";
			goto invalid;
		}
		if (r.hi < r.lo) {
			*why = "range ends below its start";
			goto invalid;
		}
		if (mask & range_mask(&r)) {
			*why = "bit ranges overlap";
			goto invalid;
		}
		mask |= range_mask(&r);
		grown = realloc(ranges, (nr + 1) * sizeof(*ranges));
		if (!grown) {
			free(ranges);
			return -ENOMEM;
		}
		ranges = grown;
		ranges[nr++] = r;

		if (*p == '\0')
			break;
		if (*p != ',') {
			*why = "unexpected character after a bit range";
			goto invalid;
		}
		p++;
	}

	field->ranges = ranges;
	field->nr_ranges = nr;
	field->mask = mask;
	field->width = __builtin_popcountll(mask);
	return 0;

invalid:
	free(ranges);
	return -EINVAL;
}

uint64_t pmu_format_max_value(const struct pmu_format_field *field)
{
	return field->width >= 64 ? ~0ULL : (1ULL << field->width) - 1;
}

int pmu_format_pack(const struct pmu_format_field *field, uint64_t value,
		    uint64_t config[PMU_CONFIG_WORDS])
{
	uint64_t word = config[field->word] & ~field->mask;
	unsigned int bit;

	if (value > pmu_format_max_value(field))
		return -ERANGE;
	for (bit = 0; bit < 64 && value; bit++) {
		if (!(field->mask & (1ULL << bit)))
			continue;
		if (value & 1)
			word |= 1ULL << bit;
		value >>= 1;
	}
	config[field->word] = word;
	return 0;
}

uint64_t pmu_format_unpack(const struct pmu_format_field *field,
			   const uint64_t config[PMU_CONFIG_WORDS])
{
	uint64_t word = config[field->word], value = 0;
	unsigned int bit, out = 0;

	for (bit = 0; bit < 64; bit++) {
		if (!(field->mask & (1ULL << bit)))
			continue;
		if (word & (1ULL << bit))
			value |= 1ULL << out;
		out++;
	}
	return value;
}

void pmu_format_field_release(struct pmu_format_field *field)
{
	free(field->name);
	free(field->spec);
	free(field->ranges);
	memset(field, 0, sizeof(*field));
}
