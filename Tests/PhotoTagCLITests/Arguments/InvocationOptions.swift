@testable import PhotoTagCLI

/// The options of one kind of invocation, `nil` for any other kind: what a test unwraps with
/// `#require`, which cannot match an enum case itself (a `guard case … else { return }` passes
/// without checking anything when the case is another).
extension Invocation {
    var locateOptions: LocateOptions? { if case .locate(let options) = self { options } else { nil } }
    var scanOptions: ScanOptions? { if case .scan(let options) = self { options } else { nil } }
    var geocodeOptions: GeocodeOptions? { if case .geocode(let options) = self { options } else { nil } }
    var importOptions: ImportOptions? { if case .placesImport(let options) = self { options } else { nil } }
}
