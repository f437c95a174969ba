import Foundation

/// The calling thread's CPU time, for tests that bound the work of a single-threaded step: unlike the wall clock, it
/// does not grow when other processes load the machine (a sanitizer run beside a build tripled a 1 s step's wall time).
public enum CPUTime {
    /// The CPU time the calling thread has used, in seconds.
    public static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
