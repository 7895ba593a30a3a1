/* LD_PRELOAD shim for tests: the process sees one processor, so Swift's cooperative pool (which
 * libdispatch sizes from sysconf) has a single thread. A blocking wait on that thread for work
 * that needs the pool then never ends: PostgresCommandTests runs a replay of a PostgreSQL store
 * under it to show the command line does not do that. Built by the test with `cc -shared`. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

long sysconf(int name) {
    static long (*real)(int) = 0;
    if (!real) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
    if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) return 1;
    return real(name);
}
