// What Swift cannot call or cannot do early enough: `prctl` is variadic, and a closed standard
// descriptor must be filled before the Swift runtime and its libraries open their first file
// (which would otherwise be given descriptor 1, and a command's report written into it).
#include "CFetchShims.h"

#include <errno.h>
#include <fcntl.h>
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

int fetch_shims_become_subreaper(void) {
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int fetch_shims_reopened_standard_descriptors(void) { return reopened; }
