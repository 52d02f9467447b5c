#include "parse/meminfo.h"
#include "parse/keyval.h"

#include <string.h>

/*
 * /proc/meminfo is "Key:   value kB" per line; HugePages_* counts and the
 * 2.6.27 DirectMap bug have no unit. Some vendor kernels put the Linux 2.4
 * table ("total: used: ...", "Mem: n n n", "Swap: n n n") in front: those
 * lines have key syntax too, so a line is only taken when its value part is
 * exactly one number and an optional "kB".
 */

/* Key characters seen in any kernel: "Active(anon)", "Committed_AS". */
static bool
meminfo_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '(' || c == ')';
}

/* NULL when the line is stored, else why it was passed over. */
static const char *
meminfo_parse_line(struct span line, void *arg)
{
	struct meminfo *out = arg;
	struct span key, rest, value, unit, extra;
	struct meminfo_entry *e;
	size_t i;
	uint64_t v;
	bool kb = false;

	i = 0;
	while (i < line.len && meminfo_key_char(line.s[i]))
		i++;
	if (i == 0 || i == line.len || line.s[i] != ':')
		return "no \"Key:\" at the start of the line";
	key = (struct span){ line.s, i };
	rest = (struct span){ line.s + i + 1, line.len - i - 1 };

	if (!span_next_word(&rest, &value))
		return "no value after the key";
	if (span_next_word(&rest, &unit)) {
		if (!span_eq(unit, "kB"))
			return "value is not one number with an optional kB";
		kb = true;
	}
	if (span_next_word(&rest, &extra))
		return "value is not one number with an optional kB";
	if (span_to_u64(value, &v) != 0)
		return "value is not an unsigned 64-bit number";
	if (key.len >= MEMINFO_NAME_LEN)
		return "key too long";
	if (out->n >= MAX_MEMINFO)
		return "too many keys";

	e = &out->e[out->n++];
	span_copy(key, e->name, sizeof(e->name));
	e->value = v;
	e->kb = kb;
	return NULL;
}

int
meminfo_parse(const char *buf, size_t len, struct meminfo *out,
	      struct parse_error *err)
{
	out->n = 0;
	return keyval_parse(buf, len, meminfo_parse_line, out, &out->skipped, err,
	    "no \"Key: value\" line");
}

bool
meminfo_get(const struct meminfo *mi, const char *name, uint64_t *value)
{
	for (int i = 0; i < mi->n; i++) {
		if (strcmp(mi->e[i].name, name) == 0) {
			*value = mi->e[i].value;
			return true;
		}
	}
	return false;
}
