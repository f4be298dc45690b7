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

await TradeportCommand.runAndExit()
