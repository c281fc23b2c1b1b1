import ArgumentParser
import FoundationEssentials
import OrientCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say what the screen shows and why: the lock, how the device is held, the app in front.",
        discussion: "Exits 1 when no compositor with wlr-orient is running.")

    @Flag(help: "One JSON object (the control socket's status; see docs/control-socket.md).")
    var json = false

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        do {
            let client = try ControlClient.connect(connection).get()
            let (status, raw) = try client.ask(.status)
            print(json ? raw : status.sentences.joined(separator: "\n"))
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the status now and again on every change, one line each.",
        discussion: "--waybar prints Waybar's custom-module JSON (text, alt, class, tooltip). Ends when the compositor does.")

    enum Format: String, EnumerableFlag {
        case text, json, waybar
        static func help(for value: Format) -> ArgumentHelp? {
            switch value {
            case .text: "One sentence-like line per change (default)."
            case .json: "The status as one JSON object per line."
            case .waybar: "Waybar custom-module JSON per line."
            }
        }
    }

    @Flag var format: Format = .text
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        do {
            let client = try ControlClient.connect(connection).get()
            try client.send(.watch)
            while let line = client.readLine() {
                let (status, raw) = try ControlClient.status(fromReply: line)
                printLine(render(status, raw))   // unbuffered: each change reaches a pipe (a bar) at once
            }
            printError("The compositor closed the connection.")
            throw ExitCode(1)
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }

    private func render(_ status: ControllerStatus, _ raw: String) -> String {
        switch format {
        case .text: return status.summary
        case .json: return raw
        case .waybar:
            let shown = status.panels.first?.shown.rawValue ?? "none"
            return JSON.object([
                ("text", .string(status.suggestion.map { "turn to \($0.orientation.rawValue)?" }
                                 ?? status.lock.map { "locked \($0)" } ?? "auto \(shown)")),
                ("alt", .string(status.lock == nil ? "unlocked" : "locked")),
                // A bar styles an offered turn (`suggested`) apart: the button to press is there.
                ("class", status.suggestion == nil ? .string(status.lock == nil ? "unlocked" : "locked")
                                                   : .array([.string("locked"), .string("suggested")])),
                ("tooltip", .string(status.sentences.joined(separator: "\n"))),
            ]).serialized
        }
    }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make the compositor read its config again.",
        discussion: "A config with errors is not applied: the compositor keeps the last good one and logs each error as FILE:LINE:COLUMN (check-config shows them too).")

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        do {
            let client = try ControlClient.connect(connection).get()
            _ = try client.ask(.command(.reload))
            print("Asked the compositor to read its config again; problems go to its log.")
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
