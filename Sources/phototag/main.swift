import PhotoTagCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Writing to a closed pipe (phototag scan … | head) must end quietly: see the write error instead.
signal(SIGPIPE, SIG_IGN)
let arguments = (1..<Int(CommandLine.argc)).map { index in
    Array(UnsafeBufferPointer(start: CommandLine.unsafeArgv[index], count: strlen(CommandLine.unsafeArgv[index]!)))
        .map { UInt8(bitPattern: $0) }
}
let status = PhotoTag.run(
    rawArguments: arguments, input: FileInput(descriptor: STDIN_FILENO),
    output: FileSink(descriptor: STDOUT_FILENO), errors: FileSink(descriptor: STDERR_FILENO),
    environment: .current)
exit(status)
