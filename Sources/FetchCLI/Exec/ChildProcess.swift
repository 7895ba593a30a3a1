import Foundation

/// A child started with `/bin/sh -c` in a process group of its own, with every signal at its
/// default action and none blocked, so that a timeout, a failure, the end of the run or a
/// user's `kill` can stop it and whatever it left running.
///
/// Written on `posix_spawn` rather than Foundation's `Process`, which hands the child the
/// caller's signal mask (SIGTERM blocked on a pool thread) and its ignored SIGPIPE, and has no
/// process groups; swift-subprocess has both but only an async API, and the engine asks its
/// policy synchronously, on the replay's own threads.
struct ChildProcess {
    let pid: pid_t
    /// The parent's ends: the child's standard input and standard output, non-blocking.
    let toChild: Int32
    let fromChild: Int32

    /// Starts `command`; its standard error is the caller's.
    init(shellCommand command: String) throws {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw Self.error("pipe") }
        guard pipe(&output) == 0 else {
            close(input[0]); close(input[1])
            throw Self.error("pipe")
        }
        // Close-on-exec, so no later child inherits them (dup2 clears it on the child's 0 and 1).
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { argv.forEach { free($0) } }
        // The group is registered before the child can run, so a signal to the run that lands
        // at once still reaches it.
        let status = RunStop.shared.whileStarting { () -> Int32 in
            let r = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
            return r == 0 ? child : -r
        }
        close(input[0])
        close(output[1])
        guard status > 0 else {
            close(input[1]); close(output[0])
            throw Self.error("posix_spawn", code: -status)
        }
        pid = child
        toChild = input[1]
        fromChild = output[0]
        _ = fcntl(toChild, F_SETFL, fcntl(toChild, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fromChild, F_SETFL, fcntl(fromChild, F_GETFL) | O_NONBLOCK)
    }

    /// How the child ended, once it has; nil while it runs. Reaps it.
    func reap() -> Exit? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid { return Exit(waitStatus: status) }
        if r < 0 && errno == ECHILD { return .unknown }
        return nil
    }

    /// Kills the child's whole group (the shell and anything it started) with SIGKILL.
    func killGroup() {
        kill(-pid, SIGKILL)
    }

    /// Forgets the group once the child is reaped and its group killed.
    func release() {
        RunStop.shared.remove(pid)
    }

    /// How a child ended.
    enum Exit: Equatable {
        case status(Int32)
        case signal(Int32)
        /// Reaped elsewhere: nothing is known.
        case unknown

        init(waitStatus s: Int32) {
            self = s & 0x7f == 0 ? .status((s >> 8) & 0xff) : .signal(s & 0x7f)
        }
    }

    private static func error(_ call: String, code: Int32 = errno) -> CLIError {
        CLIError("cannot start a policy process: \(call): \(String(cString: strerror(code)))")
    }
}
