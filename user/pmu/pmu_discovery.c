// SPDX-License-Identifier: GPL-2.0
/* Discovery of the HNS3 and PCIe PMUs under <sysfs root>/bus/event_source. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmu/pmu_discovery.h"
#include "sys/sysfs_read.h"

static int add_problem(struct pmu *pmu, const char *file, const char *content,
		       const char *fmt, ...)
{
	char **grown, *reason, *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&reason, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (content)
		n = asprintf(&line, "%s/%s: \"%s\": %s", pmu->dir, file, content, reason);
	else
		n = asprintf(&line, "%s/%s: %s", pmu->dir, file, reason);
	free(reason);
	if (n < 0)
		return -ENOMEM;
	grown = realloc(pmu->problems, (pmu->nr_problems + 1) * sizeof(*grown));
	if (!grown) {
		free(line);
		return -ENOMEM;
	}
	pmu->problems = grown;
	pmu->problems[pmu->nr_problems++] = line;
	return 0;
}

/*
 * Reads FILE of the PMU. Returns 0 with *content set (NULL if the file is
 * absent; a problem is recorded if REQUIRED), 0 with *content NULL and a
 * problem recorded if unreadable, or -ENOMEM.
 */
static int read_pmu_file(struct pmu *pmu, const char *file, bool required,
			 char **content)
{
	int err = sysfs_read_attr(pmu->dir, file, content);

	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT)
		return required ? add_problem(pmu, file, NULL, "missing") : 0;
	if (err == -EFBIG)
		return add_problem(pmu, file, NULL, "larger than %d bytes",
				   SYSFS_ATTR_MAX_BYTES);
	if (err == -EILSEQ)
		return add_problem(pmu, file, NULL, "binary data (control bytes)");
	if (err == -ESPIPE)
		return add_problem(pmu, file, NULL, "not a regular file");
	if (err)
		return add_problem(pmu, file, NULL, "%s", strerror(-err));
	return 0;
}

static int read_type(struct pmu *pmu)
{
	const char *why;
	uint64_t value;
	char *s;
	int err = read_pmu_file(pmu, "type", true, &s);

	if (err || !s)
		return err;
	if (parse_u64(s, &value, &why))
		err = add_problem(pmu, "type", s, "%s", why);
	else if (value > INT_MAX)
		err = add_problem(pmu, "type", s, "perf type above %d", INT_MAX);
	else
		pmu->type = value;
	free(s);
	return err;
}

static int read_cpumask(struct pmu *pmu)
{
	unsigned int nr_cpus;
	const char *why;
	int err = read_pmu_file(pmu, "cpumask", true, &pmu->cpumask);

	if (err || !pmu->cpumask)
		return err;
	if (parse_cpumask(pmu->cpumask, &pmu->cpu, &nr_cpus, &why))
		return add_problem(pmu, "cpumask", pmu->cpumask, "%s", why);
	return 0;
}

static int read_bdf(struct pmu *pmu, const char *file, char **spec, int *bdf)
{
	unsigned int value;
	const char *why;
	int err = read_pmu_file(pmu, file, false, spec);

	if (err || !*spec)
		return err;
	if (parse_pci_bdf(*spec, &value, NULL, &why))
		return add_problem(pmu, file, *spec, "%s", why);
	*bdf = value;
	return 0;
}

static int read_bus(struct pmu *pmu)
{
	const char *why;
	uint64_t value;
	char *s;
	int err = read_pmu_file(pmu, "bus", false, &s);

	if (err || !s)
		return err;
	if (parse_u64(s, &value, &why))
		err = add_problem(pmu, "bus", s, "%s", why);
	else if (value > 0xff)
		err = add_problem(pmu, "bus", s, "PCI bus above 0xff");
	else
		pmu->bus = value;
	free(s);
	return err;
}

static int read_hw_clk_freq(struct pmu *pmu)
{
	const char *why;
	char *s;
	int err = read_pmu_file(pmu, "hw_clk_freq", false, &s);

	if (err || !s)
		return err;
	if (parse_u64(s, &pmu->hw_clk_freq, &why))
		err = add_problem(pmu, "hw_clk_freq", s, "%s", why);
	else
		pmu->has_hw_clk_freq = true;
	free(s);
	return err;
}

static bool is_file_type(const char *dir, const char *name, mode_t type)
{
	char *path = sysfs_path_join(dir, name);
	struct stat st;
	bool result;

	if (!path)
		return false;
	result = !stat(path, &st) && (st.st_mode & S_IFMT) == type;	/* follows links */
	free(path);
	return result;
}

/*
 * Lists the regular files of SUBDIR, except hidden ones. An absent SUBDIR
 * gives an empty list.
 */
static int list_pmu_subdir(struct pmu *pmu, const char *subdir, char ***names,
			   size_t *nr_names)
{
	char *path = sysfs_path_join(pmu->dir, subdir);
	size_t kept = 0;
	int err;

	if (!path)
		return -ENOMEM;
	err = sysfs_list_dir(path, names, nr_names);
	if (err == -ENOENT) {
		err = 0;
	} else if (err && err != -ENOMEM) {
		err = add_problem(pmu, subdir, NULL, "%s", strerror(-err));
	} else if (!err) {
		for (size_t i = 0; i < *nr_names; i++) {
			char *name = (*names)[i];

			if (name[0] != '.' && is_file_type(path, name, S_IFREG))
				(*names)[kept++] = name;
			else
				free(name);
		}
		*nr_names = kept;
	}
	free(path);
	return err;
}

/* events/ also holds <event>.unit, .scale, .per-pkg and .snapshot files. */
static bool is_event_name(const char *name)
{
	return !strchr(name, '.');
}

static int read_event(struct pmu *pmu, const char *name, struct pmu_event *ev)
{
	char *file;
	const char *why;
	int err;

	if (asprintf(&file, "events/%s", name) < 0)
		return -ENOMEM;
	ev->name = strdup(name);
	err = ev->name ? read_pmu_file(pmu, file, true, &ev->spec) : -ENOMEM;
	if (!err && ev->spec) {
		err = parse_event_terms(ev->spec, &ev->terms, &ev->nr_terms, &why);
		if (err == -EINVAL)
			err = add_problem(pmu, file, ev->spec, "%s", why);
	}
	free(file);
	return err;
}

static int read_events(struct pmu *pmu)
{
	char **names;
	size_t nr_names;
	int err = list_pmu_subdir(pmu, "events", &names, &nr_names);

	if (err || !nr_names)
		return err;
	pmu->events = calloc(nr_names, sizeof(*pmu->events));
	if (!pmu->events)
		err = -ENOMEM;
	for (size_t i = 0; !err && i < nr_names; i++) {
		if (!is_event_name(names[i]))
			continue;
		err = read_event(pmu, names[i], &pmu->events[pmu->nr_events++]);
	}
	sysfs_free_names(names, nr_names);
	return err;
}

static int read_format_field(struct pmu *pmu, const char *name,
			     struct pmu_format_field *field)
{
	const char *why;
	char *file;
	int err;

	if (asprintf(&file, "format/%s", name) < 0)
		return -ENOMEM;
	field->name = strdup(name);
	err = field->name ? read_pmu_file(pmu, file, true, &field->spec) : -ENOMEM;
	if (!err && field->spec) {
		err = pmu_format_parse(field->spec, field, &why);
		if (err == -EINVAL)
			err = add_problem(pmu, file, field->spec, "%s", why);
	}
	free(file);
	return err;
}

static int read_formats(struct pmu *pmu)
{
	char **names;
	size_t nr_names;
	int err = list_pmu_subdir(pmu, "format", &names, &nr_names);

	if (err || !nr_names)
		return err;
	pmu->formats = calloc(nr_names, sizeof(*pmu->formats));
	if (!pmu->formats)
		err = -ENOMEM;
	for (size_t i = 0; !err && i < nr_names; i++)
		err = read_format_field(pmu, names[i],
					&pmu->formats[pmu->nr_formats++]);
	sysfs_free_names(names, nr_names);
	return err;
}

static int read_filtermode(struct pmu *pmu, const char *name)
{
	struct pmu_event *ev = (struct pmu_event *)pmu_find_event(pmu, name);
	const char *why;
	char *file;
	int err;

	if (asprintf(&file, "filtermode/%s", name) < 0)
		return -ENOMEM;
	if (!ev) {
		err = add_problem(pmu, file, NULL, "no event of that name in events/");
		goto out;
	}
	err = read_pmu_file(pmu, file, true, &ev->filtermode_spec);
	if (err || !ev->filtermode_spec)
		goto out;
	if (parse_hns3_filter_modes(ev->filtermode_spec, &ev->filter_modes, &why))
		err = add_problem(pmu, file, ev->filtermode_spec, "%s", why);
	else
		ev->filter_modes_valid = true;
out:
	free(file);
	return err;
}

static int read_filtermodes(struct pmu *pmu)
{
	char **names;
	size_t nr_names;
	int err = list_pmu_subdir(pmu, "filtermode", &names, &nr_names);

	for (size_t i = 0; !err && i < nr_names; i++)
		err = read_filtermode(pmu, names[i]);
	sysfs_free_names(names, nr_names);
	return err;
}

static int read_pmu(struct pmu *pmu)
{
	int err;

	err = read_type(pmu);
	if (!err)
		err = read_pmu_file(pmu, "identifier", false, &pmu->identifier);
	if (!err)
		err = read_cpumask(pmu);
	if (!err)
		err = read_bdf(pmu, "bdf_min", &pmu->bdf_min_spec, &pmu->bdf_min);
	if (!err)
		err = read_bdf(pmu, "bdf_max", &pmu->bdf_max_spec, &pmu->bdf_max);
	if (!err)
		err = read_bus(pmu);
	if (!err)
		err = read_hw_clk_freq(pmu);
	if (!err)
		err = read_events(pmu);
	if (!err)
		err = read_formats(pmu);
	if (!err)
		err = read_filtermodes(pmu);
	return err;
}

static void pmu_release(struct pmu *pmu)
{
	for (size_t i = 0; i < pmu->nr_events; i++) {
		struct pmu_event *ev = &pmu->events[i];

		free(ev->name);
		free(ev->spec);
		free_event_terms(ev->terms, ev->nr_terms);
		free(ev->filtermode_spec);
	}
	free(pmu->events);
	for (size_t i = 0; i < pmu->nr_formats; i++)
		pmu_format_field_release(&pmu->formats[i]);
	free(pmu->formats);
	for (size_t i = 0; i < pmu->nr_problems; i++)
		free(pmu->problems[i]);
	free(pmu->problems);
	free(pmu->name);
	free(pmu->dir);
	free(pmu->identifier);
	free(pmu->cpumask);
	free(pmu->bdf_min_spec);
	free(pmu->bdf_max_spec);
	memset(pmu, 0, sizeof(*pmu));
}

void pmu_set_release(struct pmu_set *set)
{
	for (size_t i = 0; i < set->nr_pmus; i++)
		pmu_release(&set->pmus[i]);
	free(set->pmus);
	free(set->devices_dir);
	memset(set, 0, sizeof(*set));
}

static int add_pmu(struct pmu_set *set, const char *name,
		   const struct pmu_name_info *info)
{
	struct pmu *pmu = &set->pmus[set->nr_pmus];

	memset(pmu, 0, sizeof(*pmu));
	pmu->name_info = *info;
	pmu->type = -1;
	pmu->cpu = -1;
	pmu->bdf_min = -1;
	pmu->bdf_max = -1;
	pmu->bus = -1;
	pmu->name = strdup(name);
	pmu->dir = sysfs_path_join(set->devices_dir, name);
	set->nr_pmus++;		/* counted now so that release frees it */
	if (!pmu->name || !pmu->dir)
		return -ENOMEM;
	return read_pmu(pmu);
}

static char *devices_dir_of(const char *sysfs_root)
{
	size_t len = strlen(sysfs_root);
	char *path;

	while (len > 1 && sysfs_root[len - 1] == '/')
		len--;
	if (len == 1 && sysfs_root[0] == '/')
		len = 0;
	if (asprintf(&path, "%.*s/%s", (int)len, sysfs_root, PMU_DEVICES_SUBDIR) < 0)
		return NULL;
	return path;
}

int pmu_discover(const char *sysfs_root, struct pmu_set *set,
		 char *err_msg, size_t err_len)
{
	char **names = NULL;
	size_t nr_names = 0;
	int err;

	memset(set, 0, sizeof(*set));
	set->devices_dir = devices_dir_of(sysfs_root ?: PMU_SYSFS_ROOT_DEFAULT);
	if (!set->devices_dir) {
		err = -ENOMEM;
		goto fail;
	}
	err = sysfs_list_dir(set->devices_dir, &names, &nr_names);
	if (err) {
		snprintf(err_msg, err_len, "%s: %s", set->devices_dir, strerror(-err));
		pmu_set_release(set);
		return err;
	}
	set->pmus = calloc(nr_names ?: 1, sizeof(*set->pmus));
	if (!set->pmus) {
		err = -ENOMEM;
		goto fail;
	}
	/* Two passes put HNS3 PMUs before PCIe PMUs, each in name order. */
	for (int pass = PMU_KIND_HNS3; pass <= PMU_KIND_PCIE; pass++) {
		for (size_t i = 0; i < nr_names; i++) {
			struct pmu_name_info info;

			if (!pmu_name_parse(names[i], &info) ||
			    info.kind != (enum pmu_kind)pass ||
			    !is_file_type(set->devices_dir, names[i], S_IFDIR))
				continue;
			err = add_pmu(set, names[i], &info);
			if (err)
				goto fail;
		}
	}
	sysfs_free_names(names, nr_names);
	return 0;

fail:
	snprintf(err_msg, err_len, "%s: %s",
		 set->devices_dir ?: PMU_DEVICES_SUBDIR, strerror(-err));
	sysfs_free_names(names, nr_names);
	pmu_set_release(set);
	return err;
}

const struct pmu *pmu_set_find(const struct pmu_set *set, const char *name)
{
	for (size_t i = 0; i < set->nr_pmus; i++) {
		if (!strcmp(set->pmus[i].name, name))
			return &set->pmus[i];
	}
	return NULL;
}

const struct pmu_event *pmu_find_event(const struct pmu *pmu, const char *name)
{
	for (size_t i = 0; i < pmu->nr_events; i++) {
		if (!strcmp(pmu->events[i].name, name))
			return &pmu->events[i];
	}
	return NULL;
}

const struct pmu_format_field *pmu_find_format(const struct pmu *pmu,
					       const char *name)
{
	for (size_t i = 0; i < pmu->nr_formats; i++) {
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	}
	return NULL;
}

bool pmu_event_term_value(const struct pmu_event *event, const char *name,
			  uint64_t *value)
{
	for (size_t i = 0; i < event->nr_terms; i++) {
		const struct pmu_event_term *t = &event->terms[i];

		if (!strcmp(t->name, name) && t->numeric) {
			*value = t->number;
			return true;
		}
	}
	return false;
}
