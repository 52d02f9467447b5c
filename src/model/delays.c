#include "model/delays.h"

const char *
delays_state_name(enum delays_state s)
{
	static const char *const n[] = {
		[DELAYS_NONE] = "none",
		[DELAYS_ON] = "on",
		[DELAYS_OFF] = "off",
		[DELAYS_UNAVAILABLE] = "unavailable",
	};

	return (unsigned)s < sizeof(n) / sizeof(n[0]) ? n[s] : "?";
}

static const struct {
	const char *name, *title;
} kinds[DELAY_KIND_COUNT] = {
	[DELAY_BLKIO] = { "blkio", "block I/O" },
	[DELAY_SWAPIN] = { "swapin", "swap-in" },
	[DELAY_RECLAIM] = { "reclaim", "reclaim" },
	[DELAY_THRASHING] = { "thrashing", "thrashing" },
	[DELAY_COMPACT] = { "compact", "compaction" },
	[DELAY_CPU] = { "cpu", "CPU" },
};

const char *
delay_kind_name(enum delay_kind k)
{
	return (unsigned)k < DELAY_KIND_COUNT ? kinds[k].name : "?";
}

const char *
delay_kind_title(enum delay_kind k)
{
	return (unsigned)k < DELAY_KIND_COUNT ? kinds[k].title : "?";
}

uint64_t
delay_task_memory_ns(const struct delay_task *t)
{
	uint64_t sum = 0;
	int k;

	for (k = 0; k < DELAY_KIND_COUNT; k++)
		if (DELAYS_MEMORY_KINDS & (1u << k))
			sum += t->ns[k];
	return sum;
}
