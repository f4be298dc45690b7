import ArgumentParser
import TradeportCore
#if canImport(Glibc)
import Glibc
#endif

// An interrupted run must not leave a temporary output file behind.
for sig in [SIGINT, SIGTERM, SIGHUP] {
    signal(sig) { number in
        PendingOutputs.shared.removeAllNow()
        _exit(128 + number)
    }
}

TradeportCommand.runAndExit()
