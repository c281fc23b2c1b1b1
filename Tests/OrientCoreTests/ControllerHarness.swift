@testable import OrientCore

/// Drives a `Controller` as a host would: feeds events, carries out `.show` on its model of the
/// panels, and keeps every command for the test to inspect.
struct ControllerHarness {
    var controller: Controller
    /// What each panel shows, as the commands left it.
    var shown: [PanelID: Orientation] = [:]
    /// Every command so far, and the ones from the last event.
    var all: [ControllerCommand] = []
    var last: [ControllerCommand] = []
    var sensorRunning = false

    static let tablet = PanelID(1)

    /// A config that offers no turns under a lock (so a lock that leaves one orientation
    /// releases the sensor, as it did before suggestions).
    static var offersNothing: Config {
        var config = Config()
        config.suggestion.enabled = false
        return config
    }
    static let external = PanelID(2)

    init(config: Config = Config(), state: PersistentState = PersistentState(lastFelt: .normal),
         desktop: DesktopIndex = DesktopIndex(), panel: PanelShape? = .landscape, showing: Orientation = .normal,
         coverEvidence: Controller.CoverEvidence = .reported) {
        var config = config
        config.device.outputs = ["eDP-*"]
        controller = Controller(config: config, state: state, desktop: desktop, coverEvidence: coverEvidence)
        record(controller.start())
        if let panel {
            shown[Self.tablet] = showing
            send(.panelAdded(Self.tablet, name: "eDP-1", shape: panel, showing: showing))
        }
    }

    mutating func record(_ commands: [ControllerCommand]) {
        last = commands
        all += commands
        for c in commands {
            switch c {
            case .host(.show(let p, let o, _)): shown[p] = o
            case .startSensor: sensorRunning = true
            case .stopSensor: sensorRunning = false
            default: break
            }
        }
    }

    @discardableResult
    mutating func send(_ event: ControllerEvent) -> [ControllerCommand] {
        switch event {   // what the host reports it shows
        case .panelShowing(let p, let o), .panelSetElsewhere(let p, let o, _, _, _): shown[p] = o
        default: break
        }
        record(controller.handle(event))
        return last
    }

    /// Sends several events; returns the commands of all of them.
    @discardableResult
    mutating func send(_ events: [ControllerEvent]) -> [ControllerCommand] {
        var out: [ControllerCommand] = []
        for e in events { out += send(e) }
        last = out
        return out
    }

    var panel: Orientation? { shown[Self.tablet] }

    /// The `.tellShown` / `.tellFelt` commands of the last event, for one toplevel.
    func told(_ id: ToplevelID) -> [ControllerCommand] {
        last.filter {
            switch $0 {
            case .host(.tellShown(let t, _)), .host(.tellFelt(let t, _)): t == id
            default: false
            }
        }
    }

    var saved: PersistentState? {
        last.compactMap { if case .runner(.save(let s)) = $0 { s } else { nil } }.last
    }

    var logs: [String] {
        last.compactMap { if case .runner(.log(_, let line)) = $0 { line } else { nil } }
    }

    var lastStatus: ControllerStatus? {
        all.compactMap { if case .runner(.notify(let s)) = $0 { s } else { nil } }.last
    }
}

extension Config {
    /// A config with these `[[app]]` rules.
    static func with(_ rules: AppRule..., scope: Scope = .fullscreen, rotateWhen: RotateWhen = .always) -> Config {
        var c = Config()
        c.apps = rules
        c.scope = scope
        c.rotateWhen = rotateWhen
        return c
    }
}

extension AppRule {
    static func rule(_ match: String, _ words: String, input: Bool? = nil) -> AppRule {
        AppRule(match: match, orientations: MaskSpec(parsing: words), sensorInput: input)
    }
}
