#include "output/sample-proc.h"

#include <inttypes.h>
#include <string.h>

#include "model/taskgroups.h"
#include "util/text.h"

/* Names from the machine or a file, escaped for a terminal (text_escape). */
#define ESC(buf, str)	text_esc(buf, sizeof(buf), str)

static void
print_buddyinfo(FILE *f, const struct buddyinfo *bi)
{
	char ez[TEXT_ESCAPED_SIZE(NAME_LEN)];

	for (int z = 0; z < bi->n_zones; z++) {
		fprintf(f, "Node %d, zone %8s ", bi->zones[z].node, ESC(ez, bi->zones[z].zone));
		for (int o = 0; o < bi->n_orders; o++)
			fprintf(f, "%6" PRIu64 " ", bi->zones[z].free[o]);
		fputc('\n', f);
	}
}

static void
print_blocks(FILE *f, const struct pagetypeinfo *pti, const char *title,
	     const struct pagetypeinfo_blocks *rows, int n, int node)
{
	char ez[TEXT_ESCAPED_SIZE(NAME_LEN)];

	fprintf(f, "\n%-23s", title);
	for (int t = 0; t < pti->n_types; t++)
		fprintf(f, "%12s ", ESC(ez, pti->types[t]));
	fputc('\n', f);
	for (int r = 0; r < n; r++) {
		if (rows[r].node != node)
			continue;
		fprintf(f, "Node %d, zone %8s ", rows[r].node, ESC(ez, rows[r].zone));
		for (int t = 0; t < pti->n_types; t++)
			fprintf(f, "%12" PRIu64 " ", rows[r].count[t]);
		fputc('\n', f);
	}
}

static bool
has_node(const struct pagetypeinfo_blocks *rows, int n, int node)
{
	for (int r = 0; r < n; r++)
		if (rows[r].node == node)
			return true;
	return false;
}

/*
 * The kernel prints the whole layout once per node with memory. A file
 * that parsed may also hold block rows of a node with no free rows (a
 * copy of the block table alone, a damaged node id): those print in a
 * group of their own rather than not at all.
 */
static void
print_pagetypeinfo(FILE *f, const struct pagetypeinfo *pti)
{
	char ez[TEXT_ESCAPED_SIZE(NAME_LEN)], et[TEXT_ESCAPED_SIZE(NAME_LEN)];
	int nodes[3 * MAX_ZONES], n_nodes = 0;

	for (int r = 0; r < pti->n_free + pti->n_blocks + pti->n_mixed; r++) {
		int node = r < pti->n_free ? pti->free[r].node :
			   r < pti->n_free + pti->n_blocks ? pti->blocks[r - pti->n_free].node :
			   pti->mixed[r - pti->n_free - pti->n_blocks].node;
		bool seen = false;

		for (int k = 0; k < n_nodes; k++)
			seen |= nodes[k] == node;
		if (!seen && n_nodes < (int)(sizeof(nodes) / sizeof(nodes[0])))
			nodes[n_nodes++] = node;
	}
	for (int k = 0; k < n_nodes; k++) {
		int node = nodes[k];
		bool has_free = false;

		for (int r = 0; r < pti->n_free; r++)
			has_free |= pti->free[r].node == node;
		if (pti->pageblock_order >= 0)
			fprintf(f, "Page block order: %d\n", pti->pageblock_order);
		if (pti->pages_per_block != 0)
			fprintf(f, "Pages per block:  %" PRIu64 "\n", pti->pages_per_block);
		if (pti->pageblock_order >= 0 || pti->pages_per_block != 0)
			fputc('\n', f);
		/* Without a free row the header still says how many orders;
		 * the block table's header follows it, rows or not, as the
		 * parser wants a free table closed by one. */
		bool free_header = has_free || (k == 0 && pti->n_free == 0 && pti->n_orders > 0);

		if (free_header) {
			fprintf(f, "%-43s ", "Free pages count per migrate type at order");
			for (int o = 0; o < pti->n_orders; o++)
				fprintf(f, "%6d ", o);
			fputc('\n', f);
		}
		for (int r = 0; r < pti->n_free; r++) {
			const struct pagetypeinfo_free *row = &pti->free[r];

			if (row->node != node)
				continue;
			fprintf(f, "Node %4d, zone %8s, type %12s ", row->node, ESC(ez, row->zone),
				ESC(et, pti->types[row->type]));
			for (int o = 0; o < pti->n_orders; o++) {
				char capped[16];

				if (!((row->capped >> o) & 1)) {
					fprintf(f, "%6u ", row->free[o]);
					continue;
				}
				/* The kernel caps at 100000 (">100000"); a lower
				 * bound read from elsewhere keeps its '>' on the
				 * number, where the parser looks for it. */
				snprintf(capped, sizeof(capped), ">%u", row->free[o]);
				fprintf(f, "%6s ", capped);
			}
			fputc('\n', f);
		}
		if (free_header || has_node(pti->blocks, pti->n_blocks, node))
			print_blocks(f, pti, "Number of blocks type ", pti->blocks, pti->n_blocks,
				     node);
		if (pti->n_mixed)
			print_blocks(f, pti, "Number of mixed blocks ", pti->mixed, pti->n_mixed,
				     node);
	}
}

static void
print_psi_line(FILE *f, const char *name, const struct psi_line *l)
{
	if (!l->present)
		return;
	fprintf(f, "%s avg10=%u.%02u avg60=%u.%02u avg300=%u.%02u total=%" PRIu64 "\n", name,
		l->avg10 / 100, l->avg10 % 100, l->avg60 / 100, l->avg60 % 100, l->avg300 / 100,
		l->avg300 % 100, l->total);
}

static void
print_tasks(FILE *f, const struct tasks *t, double now)
{
	char ec[TEXT_ESCAPED_SIZE(sizeof(t->b[0].comm))], ew[TEXT_ESCAPED_SIZE(sizeof(t->b[0].wchan))];
	char el[TEXT_ESCAPED_SIZE(sizeof(t->b[0].cmdline))];
	char efn[TEXT_ESCAPED_SIZE(STACK_FUNC_LEN)], em[TEXT_ESCAPED_SIZE(STACK_MODULE_LEN)];
	struct stack sc;

	if (t->n_blocked == 0)
		fprintf(f, "(no task in uninterruptible sleep; %u threads)\n", t->total);
	for (int i = 0; i < t->n_blocked; i++) {
		const struct blocked_task *b = &t->b[i];

		fprintf(f, "%s== %d (%s) %c, blocked %s%.0f s%s, wchan %s, %s\n", i ? "\n" : "",
			b->tid, ESC(ec, b->comm), b->state, b->since_start ? ">= " : "",
			now - b->since > 0 ? now - b->since : 0,
			b->since_from == SINCE_SCHED ? " (since it last ran)" : "",
			b->wchan[0] ? ESC(ew, b->wchan) : "0",
			b->cmdline[0] ? ESC(el, b->cmdline) : "(kernel thread)");
		if (b->stack < 0) {
			fprintf(f, "(no stack: %s)\n", task_stack_missing_text(b->stack_why));
			continue;
		}
		/* The kernel's offsets are not kept: a symbol alone is what matters. */
		const struct stack *st = tasks_stack(t, b->stack, &sc);

		for (int k = 0; st != NULL && k < st->n; k++) {
			const struct stack_frame *fr = &st->f[k];

			fprintf(f, "[<0>] %s%s%s%s\n", ESC(efn, fr->func), fr->module[0] ? " [" : "",
				ESC(em, fr->module), fr->module[0] ? "]" : "");
		}
	}
}

bool
sample_proc_print(FILE *f, const struct sample *s, enum source src)
{
	char ek[TEXT_ESCAPED_SIZE(VMSTAT_NAME_LEN > MEMINFO_NAME_LEN ? VMSTAT_NAME_LEN :
				  MEMINFO_NAME_LEN)];

	if (!sample_has(s, src))
		return false;
	switch (src) {
	case SRC_BUDDYINFO:
		print_buddyinfo(f, &s->buddy);
		break;
	case SRC_PAGETYPEINFO:
		print_pagetypeinfo(f, &s->pti);
		break;
	case SRC_VMSTAT:
		for (int i = 0; i < s->vm.n; i++)
			fprintf(f, "%s %" PRIu64 "\n", ESC(ek, s->vm.e[i].name), s->vm.e[i].value);
		break;
	case SRC_MEMINFO:
		for (int i = 0; i < s->mem.n; i++) {
			char key[TEXT_ESCAPED_SIZE(MEMINFO_NAME_LEN) + 2];

			snprintf(key, sizeof(key), "%s:", ESC(ek, s->mem.e[i].name));
			fprintf(f, "%-16s%8" PRIu64 "%s\n", key, s->mem.e[i].value,
				s->mem.e[i].kb ? " kB" : "");
		}
		break;
	case SRC_PSI_CPU:
	case SRC_PSI_MEMORY:
	case SRC_PSI_IO:
	case SRC_PSI_IRQ:
		print_psi_line(f, "some", &s->psi[src - SRC_PSI_CPU].some);
		print_psi_line(f, "full", &s->psi[src - SRC_PSI_CPU].full);
		break;
	case SRC_UPTIME:
		fprintf(f, "%.2f\n", s->uptime);
		break;
	case SRC_TASKS:
		print_tasks(f, &s->tasks, s->mono);
		break;
	default:
		return false;
	}
	return true;
}
