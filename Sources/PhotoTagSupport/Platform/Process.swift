// The process itself: its arguments, its environment, its standard descriptors, and its end.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The descriptors every process starts with.
package enum StandardDescriptor {
    /// Standard input (`STDIN_FILENO`).
    package static let input: Int32 = STDIN_FILENO
    /// Standard output (`STDOUT_FILENO`).
    package static let output: Int32 = STDOUT_FILENO
    /// Standard error (`STDERR_FILENO`).
    package static let error: Int32 = STDERR_FILENO
}

/// The process's arguments (`argv`, without the program's name), as bytes: an argument need not
/// be UTF-8.
package func commandLineArguments() -> [[UInt8]] {
    (1..<Int(CommandLine.argc)).map { index in
        Array(UnsafeBufferPointer(start: CommandLine.unsafeArgv[index], count: strlen(CommandLine.unsafeArgv[index]!)))
            .map { UInt8(bitPattern: $0) }
    }
}

/// The process's environment variables (`environ`), by name; of a name given twice, the last.
package func environmentVariables() -> [String: String] {
    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "=") {
            variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        entry += 1
    }
    return variables
}

/// Ends the process with `status` (`exit(3)`).
package func exitProcess(_ status: Int32) -> Never { exit(status) }

/// The most memory the process has had resident so far, in bytes (`getrusage`'s `ru_maxrss`:
/// kilobytes on Linux, bytes on macOS).
package func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
        let who = RUSAGE_SELF
    #else
        let who = RUSAGE_SELF.rawValue
    #endif
    guard getrusage(Int32(who), &usage) == 0 else { return 0 }
    #if canImport(Darwin)
        return Int(usage.ru_maxrss)
    #else
        return Int(usage.ru_maxrss) * 1024
    #endif
}
