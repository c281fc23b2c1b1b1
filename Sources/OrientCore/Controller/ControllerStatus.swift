/// What `wlr-orient status` reports and `watch` prints on each change.
public struct ControllerStatus: Sendable, Hashable {
    public struct Panel: Sendable, Hashable {
        public var name: String
        public var shape: PanelShape
        public var shown: Orientation
        /// What device ∩ lock ∩ the app in front allow on it now.
        public var allowed: OrientationMask
        /// Who else set what it shows, while that is kept (nil: it follows the device).
        public var setBy: PanelSetter?
        /// Where the daemon turns it from outside: what a configuration on its way to the
        /// compositor will show (nil: the compositor shows `shown`, or the host turns the panel
        /// itself, as the plugin does).
        public var turning: Orientation?
        /// Another program turns it with the device as well, and since when (monotonic seconds):
        /// it is left to that one (nil: nobody else does).
        public var otherRotator: OtherRotator?

        public init(name: String, shape: PanelShape, shown: Orientation, allowed: OrientationMask, setBy: PanelSetter? = nil,
                    turning: Orientation? = nil, otherRotator: OtherRotator? = nil) {
            (self.name, self.shape, self.shown, self.allowed, self.setBy, self.turning) = (name, shape, shown, allowed, setBy, turning)
            self.otherRotator = otherRotator
        }
    }

    /// Who else turns a panel with the device, and since when (monotonic seconds).
    public struct OtherRotator: Sendable, Hashable {
        public var by: PanelSetter
        /// Its program, where the host could tell (the plugin, for a client through output management).
        public var process: String?
        public var since: Double

        public init(by: PanelSetter, process: String? = nil, since: Double) {
            (self.by, self.process, self.since) = (by, process, since)
        }

        /// In words: its program where known, and what it is.
        public var named: String { process.map { "\($0) (\(by.who))" } ?? by.who }
    }

    /// The app in front and what it asks, with where each part came from.
    public struct Front: Sendable, Hashable {
        public var appID: String
        /// Its orientations as resolved on the first panel.
        public var orientations: OrientationMask
        /// As they were given: mask words, or the Qt/Lomiri words.
        public var givenAs: String
        public var orientationsSource: WishSource
        public var input: Bool
        public var inputSource: WishSource
        /// The host cannot tell which output its window is on: it is taken to be on every panel.
        public var outputUnknown = false
    }

    public var lock: MaskSpec?
    public var felt: Orientation?
    public var rotateWhen: Config.RotateWhen
    /// nil until a tablet-mode switch said anything.
    public var tabletMode: Bool?
    /// Whether the panels follow the device now (false outside tablet mode when gated by it).
    public var rotating: Bool
    public var sensorRunning: Bool
    /// What the sensor is doing, in detail.
    public var sensor: SensorStatus
    public var panels: [Panel]
    public var front: Front?

    /// The turn offered on a panel (`Suggestion`): until when (monotonic seconds).
    public struct Offer: Sendable, Hashable {
        public var panel: String
        public var orientation: Orientation
        public var until: Double
        public var hovered: Bool
    }
    public var suggestion: Offer? = nil
    /// Whether turns are offered at all (`[suggestion] enabled`).
    public var suggestionsEnabled = true
    /// Why the host cannot see touches, so that turns are not held under a finger (nil: it can).
    public var touchesUnseen: String? = nil

    /// A turn of the device that waits for a touch to end (no turn under a finger): the way it
    /// is held, whether a finger is still down, and else when the wait ends (monotonic seconds).
    public struct TouchWait: Sendable, Hashable {
        public var felt: Orientation
        public var touching: Bool
        public var until: Double?
    }
    public var waiting: TouchWait? = nil

    /// As JSON (one line), the form the control socket sends.
    public var json: JSON {
        func milliseconds(_ t: Double) -> JSON { .int(Int((t * 1000).rounded())) }
        func source(_ s: WishSource) -> JSON { .string(s.kind) }
        func words(_ mask: OrientationMask) -> JSON { .array(mask.orientations.map { .string($0.rawValue) }) }
        var fields: [(String, JSON)] = [
            ("lock", lock.map { .string($0.description) } ?? .null),
            ("felt", felt.map { .string($0.rawValue) } ?? .null),
            ("rotate_when", .string(rotateWhen.rawValue)),
            ("tablet_mode", tabletMode.map(JSON.bool) ?? .null),
            ("rotating", .bool(rotating)),
            // "running" only while a device is read: wanted but lost (or not found yet) is "looking".
            ("sensor", .string(!sensorRunning ? "released" : sensor.state == .reading ? "running" : "looking")),
            ("sensor_state", sensor.json),
            ("panels", .array(panels.map { p in
                .object([("name", .string(p.name)), ("shape", .string(p.shape.rawValue)),
                         ("shown", .string(p.shown.rawValue)),
                         ("transform", .int(Int(p.shown.outputTransform.rawValue))),
                         ("allowed", words(p.allowed)),
                         ("set_by", p.setBy.map { .string($0.rawValue) } ?? .null),
                         ("turning", p.turning.map { .string($0.rawValue) } ?? .null),
                         ("other_rotator", p.otherRotator.map { r in
                             .object([("by", .string(r.by.rawValue)), ("process", r.process.map(JSON.string) ?? .null),
                                      ("since_ms", milliseconds(r.since))])
                         } ?? .null)])
            })),
        ]
        fields.append(("suggestion", suggestion.map { o in
            .object([("panel", .string(o.panel)), ("orientation", .string(o.orientation.rawValue)),
                     ("until_ms", milliseconds(o.until)), ("hovered", .bool(o.hovered))])
        } ?? .null))
        fields.append(("suggestions", .string(suggestionsEnabled ? "enabled" : "disabled")))
        fields.append(("touches_unseen", touchesUnseen.map(JSON.string) ?? .null))
        fields.append(("waiting", waiting.map { w in
            .object([("for", .string("touch")), ("felt", .string(w.felt.rawValue)), ("touching", .bool(w.touching)),
                     ("until_ms", w.until.map(milliseconds) ?? .null)])
        } ?? .null))
        if let f = front {
            var app: [(String, JSON)] = [
                ("app_id", .string(f.appID)),
                ("orientations", words(f.orientations)),
                ("given_as", .string(f.givenAs)),
                ("source", source(f.orientationsSource)),
            ]
            if let d = f.orientationsSource.detail { app.append((f.orientationsSource.kind == "rule" ? "rule" : "file", .string(d))) }
            app += [("input", .bool(f.input)), ("input_source", source(f.inputSource))]
            if let d = f.inputSource.detail { app.append((f.inputSource.kind == "rule" ? "input_rule" : "input_file", .string(d))) }
            if f.outputUnknown { app.append(("output", .string("unknown"))) }
            fields.append(("front", .object(app)))
        } else {
            fields.append(("front", .null))
        }
        return .object(fields)
    }
}
