import ArgumentParser
import TradeportCore

#if canImport(Glibc)
import Glibc
#endif

// An interrupted run must not leave a temporary output file behind. The signals are also
// unblocked, since a parent may have started us with them blocked.
var handled = sigset_t()
sigemptyset(&handled)
for sig in [SIGINT, SIGTERM, SIGHUP] {
    sigaddset(&handled, sig)
    signal(sig) { number in
        PendingOutputs.shared.removeAllNow()
        _exit(128 + number)
    }
}

sigprocmask(SIG_UNBLOCK, &handled, nil)

#if canImport(Glibc)
// A push opens every input of a manifest before it sends anything (so that an unreadable one
// stops it with nothing sent), and a conversion holds its inputs open while it reads them: as
// many files as the hard limit allows, not the soft limit's 1,024 that many systems start with.
var files = rlimit()
if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files)
}

ProcessMemory.returnFreedHeapTop()
#endif

await TradeportCommand.runAndExit()
