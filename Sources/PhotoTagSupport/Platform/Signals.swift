// Signals: ignoring one, stopping in order on SIGINT and SIGTERM, and ending the process by
// one from its handler.

import Synchronization

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

/// From a signal's handler: puts back the default action of signal `number` and raises it
/// again, so that the process ends by the signal (exit status 128 + `number` in a shell) once
/// the handler returns (the signal is blocked while its handler runs). Async-signal-safe.
package func raiseWithDefaultAction(_ number: Int32) {
    signal(number, SIG_DFL)
    raise(number)
}

/// A stop asked for by `SIGINT` or `SIGTERM` (``install(beforeEnding:)``).
///
/// The first signal asks for an orderly stop: no new file or line is started, those under way
/// are finished and written whole, the output is closed as its format needs (a JSON array's
/// `]`, a summary, a map), and the process then ends by that signal. A second signal ends the
/// process at once, as the default action would, after `beforeEnding` (which erases a progress
/// bar on screen).
///
/// The handler is installed without `SA_RESTART`, so that a read blocked on a terminal or a pipe
/// (`geocode` waiting for a line, `--files-from -`) returns with `EINTR` and sees the request;
/// ``readRetrying(_:_:_:)`` then returns it instead of reading again.
package enum StopRequest {
    fileprivate static let number = Atomic<Int32>(0)
    fileprivate nonisolated(unsafe) static var beforeEnding: (@convention(c) () -> Void)?

    /// The signal that asked for a stop, 0 while none has.
    package static var signal: Int32 { number.load(ordering: .sequentiallyConsistent) }
    /// Whether a stop has been asked for.
    package static var isRequested: Bool { signal != 0 }

    /// Handles `SIGINT` and `SIGTERM` from now on, unless the process was started ignoring them
    /// (`nohup`, a background job): they then stay ignored. `beforeEnding` must be
    /// async-signal-safe.
    package static func install(beforeEnding: @escaping @convention(c) () -> Void) {
        self.beforeEnding = beforeEnding
        _ = number.load(ordering: .relaxed)  // made now, not first in the handler
        for kind in [ProcessSignal.interrupt, .terminate] {
            var previous = sigaction()
            guard sigaction(kind.number, nil, &previous) == 0, !Self.isIgnored(previous) else { continue }
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = handleStop
            #else
                action.__sigaction_u.__sa_handler = handleStop
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocked read returns
            sigaction(kind.number, &action, nil)
        }
    }

    /// Ends the process by the signal that asked for the stop, if one did; from normal code,
    /// once the output is written.
    package static func endIfRequested() {
        let number = signal
        guard number != 0 else { return }
        raiseWithDefaultAction(number)
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
            let handler = action.__sigaction_handler.sa_handler
        #else
            let handler = action.__sigaction_u.__sa_handler
        #endif
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// What `sigaction(2)` calls on `SIGINT` or `SIGTERM`: the first asks for a stop, the second
/// ends the process.
private func handleStop(_ number: Int32) {
    if StopRequest.number.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent).exchanged {
        return
    }
    StopRequest.beforeEnding?()
    raiseWithDefaultAction(number)
}
