import PhotoTagCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

signal(SIGPIPE, SIG_IGN)
let status = PhotoTag.run(
    Array(CommandLine.arguments.dropFirst()),
    output: FileSink(descriptor: STDOUT_FILENO),
    errors: FileSink(descriptor: STDERR_FILENO))
exit(status)
