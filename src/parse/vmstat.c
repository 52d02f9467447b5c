#include "parse/vmstat.h"
#include "parse/keyval.h"

#include <string.h>

/*
 * /proc/vmstat is one "name value" line per counter. The set of names
 * changes with every release and config, so every well-formed line is kept
 * and anything else is counted and passed over.
 */

/* Counter names are C identifiers; a damaged byte must not become a name. */
static bool
vmstat_name_ok(struct span name)
{
	for (size_t i = 0; i < name.len; i++) {
		char c = name.s[i];

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '_')
			return false;
	}
	return name.len > 0;
}

/* NULL when the line is stored, else why it was passed over. */
static const char *
vmstat_parse_line(struct span line, void *arg)
{
	struct vmstat *out = arg;
	struct span rest = line, name, value, extra;
	struct vmstat_entry *e;
	uint64_t v;

	if (line.s[0] == ' ' || line.s[0] == '\t')
		return "line does not start with a counter name";
	if (!span_next_word(&rest, &name) || !span_next_word(&rest, &value))
		return "no value after the counter name";
	if (span_next_word(&rest, &extra))
		return "more than one value";
	if (!vmstat_name_ok(name))
		return "counter name is not an identifier";
	if (name.len >= VMSTAT_NAME_LEN)
		return "counter name too long";
	if (span_to_u64(value, &v) != 0)
		return "value is not an unsigned 64-bit number";
	if (out->n >= MAX_VMSTAT)
		return "too many counters";

	e = &out->e[out->n++];
	span_copy(name, e->name, sizeof(e->name));
	e->value = v;
	return NULL;
}

int
vmstat_parse(const char *buf, size_t len, struct vmstat *out,
	     struct parse_error *err)
{
	out->n = 0;
	return keyval_parse(buf, len, vmstat_parse_line, out, &out->skipped, err,
	    "no counter");
}

bool
vmstat_get(const struct vmstat *vm, const char *name, uint64_t *value)
{
	for (int i = 0; i < vm->n; i++) {
		if (strcmp(vm->e[i].name, name) == 0) {
			*value = vm->e[i].value;
			return true;
		}
	}
	return false;
}
