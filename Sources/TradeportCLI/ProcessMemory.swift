#if canImport(Glibc)
import Glibc
#endif

/// How glibc's allocator serves this process: set by the CLI, which owns the process (the
/// library sets nothing process-wide). `mallopt` is looked up, since the Glibc module leaves
/// <malloc.h> out.
enum ProcessMemory {
    #if canImport(Glibc)
    private static let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
    private static let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD

    private static func set(_ option: Int32, _ value: Int32) {
        guard let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(mallopt, to: (@convention(c) (Int32, Int32) -> Int32).self)(option, value)
    }
    #endif

    /// Memory freed at the top of the heap goes back to the system once more than 1 MiB of it is
    /// free. glibc's default raises that threshold as large blocks are freed (to twice the
    /// largest, up to 64 MiB), and a conversion frees many of 1 MiB (spooled chunks, read
    /// buffers): a Tinkoff report of 400,000 trades peaked at 134-149 MB with the default,
    /// 122-125 MB with this (4 runs each), in the same time. Every command.
    ///
    /// Setting one threshold also stops glibc moving the other: every block of 128 KiB or more is
    /// then mapped on its own and given back when freed.
    static func returnFreedHeapTop() {
        #if canImport(Glibc)
        set(trimThreshold, 1 << 20)
        #endif
    }

    /// Blocks under 1 MiB from the heap rather than each mapped anew, for the commands that move
    /// batches over HTTP (`push`, `serve`): a batch of 1,000 operations is about 250 KB of JSON on
    /// both sides, and with the 128 KiB threshold each was mapped, its pages faulted in and
    /// unmapped again. For 100,000 trades pushed into a fresh serve (alternated, 4 runs each):
    /// the server's CPU 500-510 ms -> 450-470 ms, the client's system time 0.08-0.10 s -> 0.03-0.04
    /// s, the first push 0.62-0.67 s -> 0.58-0.63 s. Not for `convert`: a Tinkoff report of
    /// 400,000 trades then peaked at 134-146 MB instead of 121-123 MB.
    static func keepMidsizeBlocksOnHeap() {
        #if canImport(Glibc)
        set(mmapThreshold, 1 << 20)
        #endif
    }
}
