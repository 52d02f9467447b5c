/* The screens in tab order; help comes last. */
#include "views/view.h"

const struct view *const view_table[VIEW_COUNT] = {
	&view_overview,
	&view_fragmentation,
	&view_reclaim,
	&view_tasks,
	&view_events,
	&view_sensors,
	&view_help,
};
