import Dispatch
import Synchronization
import Testing

@testable import PhotoTagSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Platform/Threads.swift, Signals.swift, Process.swift and the clocks of Clock.swift.
@Suite struct ThreadTests {
    @Test func aSpawnedThreadRunsItsBodyOnAnotherThread() {
        let done = DispatchSemaphore(value: 0)
        let ran = Locked<UInt>(0)
        #expect(
            spawnDetachedThread {
                ran.withLock { $0 = currentThreadID() }
                done.signal()
            })
        done.wait()
        let other = ran.withLock { $0 }
        #expect(other != 0 && other != currentThreadID())
        #expect(currentThreadID() == currentThreadID())
    }

    @Test func thereIsAProcessorAtLeast() {
        #expect(processorCount() >= 1)
        #expect(processorCount() == max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }

    @Test func theClocksGoForwardAndASleepTakesItsTime() {
        let start = monotonicNanoseconds(), seconds = monotonicSeconds()
        sleep(nanoseconds: 2_000_000)
        #expect(monotonicNanoseconds() - start >= 2_000_000)
        #expect(monotonicSeconds() - seconds >= 0.002)
    }

    @Test func theArgumentsAndTheEnvironmentAreTheProcesss() {
        #expect(
            commandLineArguments().map { String(decoding: $0, as: UTF8.self) }
                == Array(CommandLine.arguments.dropFirst()))
        let path = getenv("PATH").map { String(cString: $0) }
        #expect(environmentVariables()["PATH"] == path)
        #expect(StandardDescriptor.input == 0 && StandardDescriptor.output == 1 && StandardDescriptor.error == 2)
    }
}

/// How many times ``countSignal(_:)`` ran.
private let signalCount = Atomic<Int>(0)

/// A test's handler: counts (an atomic, as a signal handler may).
private func countSignal(_ number: Int32) { signalCount.add(1, ordering: .relaxed) }

/// A handler that does nothing.
private func ignore(_ number: Int32) {}

@Suite(.serialized) struct SignalTests {
    @Test func theSignalsHaveTheirNumbers() {
        #expect(ProcessSignal.allCases.map(\.number) == [SIGINT, SIGTERM, SIGPIPE])
    }
}
