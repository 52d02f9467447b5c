#include "source/bpf-privilege.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CAP_PERFMON_BIT	38
#define CAP_BPF_BIT	39

bool
bpf_privileged(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &h, d) != 0)
		return false;
	return (d[1].effective & (1u << (CAP_BPF_BIT - 32))) &&
	    (d[1].effective & (1u << (CAP_PERFMON_BIT - 32)));
}
