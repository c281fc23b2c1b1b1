import Foundation

// What the test targets share: where the repository is, scratch directories, running a program.

/// The repository's root, found from this file's location.
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh empty directory under the system's temporary directory.
public func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "wlr-orient-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs a program to completion and returns its exit status, standard output and standard error.
public func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
    -> (status: Int32, stdout: String, stderr: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes to the end before waiting, so a chatty child cannot block on a full pipe.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// The `wlr-orient` executable built beside the test bundle.
public var wlrOrientExecutable: String {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [dir, dir.deletingLastPathComponent()].map { $0.appendingPathComponent("wlr-orient").path }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
}
