// Signals through `signal(2)`: ignoring one, handling one, and ending the process by one from
// its handler.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals phototag ignores or handles.
package enum ProcessSignal: Sendable, CaseIterable {
    /// `SIGINT`: Control-C at the terminal.
    case interrupt
    /// `SIGTERM`: asked to end (`kill`).
    case terminate
    /// `SIGPIPE`: a write to a pipe whose reader has gone.
    case brokenPipe

    /// The signal's number.
    package var number: Int32 {
        switch self {
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .brokenPipe: SIGPIPE
        }
    }
}

/// Ignores `kind` from now on (`SIG_IGN`): with `.brokenPipe`, a write to a closed pipe fails
/// with `EPIPE` instead of ending the process.
package func ignoreSignal(_ kind: ProcessSignal) {
    signal(kind.number, SIG_IGN)
}

/// Has `handler` called with the signal's number when `kind` arrives, unless the process was
/// started ignoring it (`nohup`, a background job): then it stays ignored. The handler may only
/// do what is async-signal-safe (``writeOnce(_:_:)``, ``sleep(nanoseconds:)``,
/// ``raiseWithDefaultAction(_:)``, atomics).
package func handleSignal(_ kind: ProcessSignal, with handler: @convention(c) (Int32) -> Void) {
    let previous = signal(kind.number, handler)
    if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
        signal(kind.number, SIG_IGN)  // started to ignore it: keep ignoring it
    }
}

/// From a signal's handler: puts back the default action of signal `number` and raises it
/// again, so that the process ends by the signal (exit status 128 + `number` in a shell) once
/// the handler returns (the signal is blocked while its handler runs). Async-signal-safe.
package func raiseWithDefaultAction(_ number: Int32) {
    signal(number, SIG_DFL)
    raise(number)
}
