// What Swift cannot call or cannot do early enough: `prctl` is variadic, and a closed standard
// descriptor must be filled before the Swift runtime and its libraries open their first file
// (which would otherwise be given descriptor 1, and a command's report written into it).
#include "CFetchShims.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

static int reopened = 0;

/// Runs before main and before any Swift static initializer: a closed standard input or error is
/// opened on /dev/null; a closed standard output is opened on /dev/null read-only, so that each
/// write to it fails (EBADF) and is reported rather than lost or sent into another file.
__attribute__((constructor)) static void fetch_shims_hold_standard_descriptors(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        int opened = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
        if (opened < 0) continue;
        if (opened != fd) {
            dup2(opened, fd);
            close(opened);
        }
        reopened |= 1 << fd;
    }
}

/// The least address space (`ulimit -v`) a run is started in: below it the runtime cannot make the
/// threads it needs, and libdispatch retries each thread it could not make once a second for ever
/// (a silent hang at 0% CPU). Measured: `check` needs about 150 MiB, `bench` about 200 MiB.
#define FETCH_SHIMS_MIN_ADDRESS_SPACE (256ULL << 20)

/// Runs before main: a run whose address space is limited below ``FETCH_SHIMS_MIN_ADDRESS_SPACE``
/// stops at once with a message and exit status 1, instead of hanging.
__attribute__((constructor)) static void fetch_shims_refuse_small_address_space(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
    if ((unsigned long long)limit.rlim_cur >= FETCH_SHIMS_MIN_ADDRESS_SPACE) return;
    char text[256];
    int n = snprintf(text, sizeof text,
                     "Error: the address space is limited to %llu KiB (ulimit -v), too little to start: "
                     "fetchsched needs at least %llu KiB (ulimit -v %llu)\n",
                     (unsigned long long)limit.rlim_cur / 1024, FETCH_SHIMS_MIN_ADDRESS_SPACE / 1024,
                     FETCH_SHIMS_MIN_ADDRESS_SPACE / 1024);
    if (n > 0) (void)!write(2, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
    _exit(1);
}

/// The fewest open files (`ulimit -n`) a run is started with: the runtime's own event queues,
/// a store's three files, an output's temporary file and the standard three need about a dozen,
/// and with fewer a library could fail where nothing can report it (a crash, not a message).
#define FETCH_SHIMS_MIN_OPEN_FILES 64

/// Runs before main: a soft limit on open files below ``FETCH_SHIMS_MIN_OPEN_FILES`` is raised to
/// it where the hard limit allows; where it does not, the run stops at once with a message.
__attribute__((constructor)) static void fetch_shims_refuse_too_few_files(void) {
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY) return;
    if (files.rlim_cur >= FETCH_SHIMS_MIN_OPEN_FILES) return;
    if (files.rlim_max == RLIM_INFINITY || files.rlim_max >= FETCH_SHIMS_MIN_OPEN_FILES) {
        files.rlim_cur = FETCH_SHIMS_MIN_OPEN_FILES;
        if (setrlimit(RLIMIT_NOFILE, &files) == 0) return;
    }
    char text[256];
    int n = snprintf(text, sizeof text,
                     "Error: too many open files: the limit is %llu (ulimit -n), too few to run: fetchsched needs at least %d "
                     "(raise ulimit -n)\n", (unsigned long long)files.rlim_cur, FETCH_SHIMS_MIN_OPEN_FILES);
    if (n > 0) (void)!write(2, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
    _exit(1);
}

int fetch_shims_become_subreaper(void) {
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int fetch_shims_reopened_standard_descriptors(void) { return reopened; }
