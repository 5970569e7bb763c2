import Foundation
import TestSupport

/// The outside programs the map tests use as a reader would: xmllint, rsvg-convert, Chromium.
enum Tools {
    /// The first of `names` found on `PATH`, as a full path.
    static func find(_ names: String...) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    static let xmllint = find("xmllint")
    static let rsvgConvert = find("rsvg-convert")
    static let chromium = find("chromium", "chromium-browser", "google-chrome")

    /// What a program printed and how it ended.
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs a program to its end (standard input empty).
    static func run(_ program: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data().write(to: URL(fileURLWithPath: folder + "/out"))  // throws where createFile returned false
        try Data().write(to: URL(fileURLWithPath: folder + "/err"))
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/out"))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/err"))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            output: (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "")
    }

    /// Writes bytes to a file.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// `xmllint --noout`: `nil` when well-formed, else what it said.
    static func wellFormedProblems(_ path: String) throws -> String? {
        guard let xmllint else { return "xmllint is not installed" }
        let result = try run(xmllint, ["--noout", path])
        return result.status == 0 && result.errors.isEmpty ? nil : result.errors
    }

    /// The SVG file at `path` rendered by rsvg-convert at its own size.
    static func render(svg path: String) throws -> PNGImage {
        guard let rsvgConvert else { throw PNGError(description: "rsvg-convert is not installed") }
        let png = path + ".png"
        let result = try run(rsvgConvert, ["-f", "png", "-o", png, path])
        guard result.status == 0 else { throw PNGError(description: "rsvg-convert: \(result.errors)") }
        return try PNGImage(readWholeFile(png))
    }
}

/// Headless Chromium looking at a page as a reader would, offline.
enum Browser {
    /// What loading a page showed.
    struct Visit {
        /// The DOM after the load (`--dump-dom`).
        var dom: String
        /// Messages the page wrote to the console (errors included).
        var console: [String]
        /// The URLs the page asked for (not the browser's own background requests).
        var requests: [String]
        /// A screenshot of the window.
        var screenshot: PNGImage
    }

    /// Opens a page twice (once for the DOM and the log, once for a screenshot), with every
    /// network connection sent to a proxy that refuses, so that nothing leaves the machine.
    static func visit(_ path: String, width: Int = 1400, height: Int = 1000) throws -> Visit {
        guard let chromium = Tools.chromium else { throw PNGError(description: "Chromium is not installed") }
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
            "--proxy-server=http://127.0.0.1:9", "--user-data-dir=\(folder)/profile", "--enable-logging=stderr",
            "--v=0", "--window-size=\(width),\(height)",
        ]
        let url = "file://" + path
        let dump = try Tools.run(chromium, common + ["--log-net-log=\(folder)/net.json", "--dump-dom", url])
        let console = dump.errors.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        let requests = try pageRequests(netLog: folder + "/net.json")
        _ = try Tools.run(chromium, common + ["--screenshot=\(folder)/shot.png", url])
        let screenshot = try PNGImage(readWholeFile(folder + "/shot.png"))
        return Visit(dom: dump.output, console: console, requests: requests, screenshot: screenshot)
    }

    /// The URLs of the requests in a Chromium net log that a page started: the browser's own
    /// background requests (update checks, clock) have no initiating origin and are left out;
    /// `file:` pages do not appear in the net log at all, so a page that needs nothing shows
    /// none.
    static func pageRequests(netLog: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: netLog)))
        guard let log = object as? [String: Any], let constants = log["constants"] as? [String: Any],
            let types = constants["logEventTypes"] as? [String: Int], let start = types["URL_REQUEST_START_JOB"],
            let events = log["events"] as? [[String: Any]]
        else { throw PNGError(description: "unexpected net log") }
        var urls: [String] = []
        for event in events where event["type"] as? Int == start {
            guard let parameters = event["params"] as? [String: Any], let url = parameters["url"] as? String else {
                continue
            }
            if parameters["initiator"] as? String == "not an origin" { continue }
            urls.append(url)
        }
        return urls
    }
}
