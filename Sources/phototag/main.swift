import PhotoTagCLI
import PhotoTagSupport

// Writing to a closed pipe (phototag scan … | head) must end quietly: see the write error instead.
ignoreSignal(.brokenPipe)
// Control-C and SIGTERM stop in order (records whole, the JSON array closed); a second one at once.
PhotoTag.handleStopSignals()
let status = PhotoTag.run(
    rawArguments: commandLineArguments(), input: FileInput(descriptor: StandardDescriptor.input),
    output: FileSink(descriptor: StandardDescriptor.output), errors: FileSink(descriptor: StandardDescriptor.error),
    environment: .current)
PhotoTag.endIfStopped()
exitProcess(status)
