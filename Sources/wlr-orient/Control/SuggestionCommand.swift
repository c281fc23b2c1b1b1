import ArgumentParser
import OrientCore

/// `suggestion accept` / `dismiss`: what a tap on the target does, for a key binding, a bar
/// button or a screen reader.
struct SuggestionCommand: ParsableCommand {
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case accept, dismiss
    }

    static let configuration = CommandConfiguration(
        commandName: "suggestion",
        abstract: "Take (accept) or dismiss the turn offered while the screen is locked.",
        discussion: """
            While the lock keeps the screen from the way the device is held, a turn to that way is \
            offered for a few seconds ([suggestion] in the config): `accept` turns the screen and \
            locks it there, as a tap on the target does; `dismiss` takes the offer away. \
            `status` and `watch` show the offer. Exits 1 when none is offered.
            """)

    @Argument(help: "accept or dismiss.")
    var action: Action

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        do {
            let client = try ControlClient.connect(connection).get()
            let before = try client.ask(.status).0
            guard let offer = before.suggestion else {
                printError("no turn is offered now" + (before.suggestionsEnabled ? "" : " ([suggestion] enabled = false)"))
                throw ExitCode(1)
            }
            let (status, _) = try client.ask(.command(action == .accept ? .acceptSuggestion : .dismissSuggestion))
            switch action {
            case .accept:
                // The offer may have ended between the two questions.
                guard status.lock == MaskSpec(exactly: offer.orientation) else {
                    printError("the turn to \(offer.orientation.rawValue) is no longer offered")
                    throw ExitCode(1)
                }
                print("Turned to \(offer.orientation.rawValue) and locked there.")
            case .dismiss:
                print("Dismissed the turn to \(offer.orientation.rawValue).")
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
