#ifndef CFETCHSHIMS_H
#define CFETCHSHIMS_H

/// Makes the calling process a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`): a process its
/// children leave behind is handed to it, not to init, so that it can end it. 0 on success, -1
/// with errno set (and on systems without the call).
int fetch_shims_become_subreaper(void);

/// Whether descriptors 0, 1 and 2 were found closed at start-up and opened on /dev/null: a bit
/// per descriptor (1 for 0, 2 for 1, 4 for 2).
int fetch_shims_reopened_standard_descriptors(void);

#endif
