/// What the clients of our protocol are told: what their output shows, and (in front, in input
/// mode) how the device is held, each change once (the records keep what each was told). It
/// tracks what the clients were last told for and the toplevels touched since: while that holds,
/// only those can need telling, so an event costs the same with one toplevel as with thousands
/// (a client holding 8,000 objects must not slow every request).
struct ClientTelling: Sendable {
    /// What a client hears depends on these alone (besides its own record): while they stay the
    /// same, a client whose record did not change needs telling nothing. A client that is in
    /// front nowhere hears only about the first panel: a change of the fronts, the device's
    /// orientation or tablet mode concerns the apps in front alone.
    struct Context: Equatable, Sendable {
        struct Panel: Equatable, Sendable {
            let id: PanelID
            let shape: PanelShape
            let shown: Orientation
        }
        let fronts: [PanelID: ToplevelID]
        let inputFronts: Set<ToplevelID>
        let rotating: Bool
        let felt: Orientation?
        let panels: [Panel]
    }

    private var toldFor: Context?
    private var touched: Set<ToplevelID> = []

    /// A toplevel's record or declaration changed: it may need telling.
    mutating func touch(_ id: ToplevelID) {
        touched.insert(id)
    }

    /// After a decision in `context`: the clients that may hear something new are told.
    /// `everything`: every client is looked at, as if all had been touched.
    mutating func tell(_ context: Context, windows: inout Windows, everything: Bool = false,
                       into out: inout [ControllerCommand]) {
        var candidates = touched
        if everything || context.panels != toldFor?.panels {
            // A panel turned (or came or went): every client may hear something new.
            candidates = Set(windows.records.keys)
        } else if let before = toldFor, context != before {
            // Only the apps in front (before and now) hear what depends on being in front.
            candidates.formUnion(before.fronts.values)
            candidates.formUnion(context.fronts.values)
        }
        toldFor = context
        touched = []
        for id in candidates.sorted() { tell(id, context, windows: &windows, into: &out) }
    }

    /// After an event that decides nothing: the clients it touched hear what they must (in front
    /// nowhere, they hear about the first panel, which did not change).
    mutating func tellTouched(firstPanel first: Context.Panel?, windows: inout Windows, into out: inout [ControllerCommand]) {
        guard !touched.isEmpty else { return }
        let ids = touched.sorted()
        touched = []
        guard let first else { return }
        for id in ids { tellShown(id, on: first, windows: &windows, into: &out) }
    }

    /// Tells a client with a declaration what `panel` shows, where that differs from what it was
    /// last told; false when it has no declaration (nothing is told it).
    @discardableResult
    private func tellShown(_ id: ToplevelID, on panel: Context.Panel, windows: inout Windows,
                           into out: inout [ControllerCommand]) -> Bool {
        guard let t = windows.records[id], t.declaration != nil else { return false }
        let shown = ContentOrientations(panel.shown, on: panel.shape)
        if t.toldShown != shown {
            windows.records[id]?.toldShown = shown
            out.append(.tellShown(id, shown))
        }
        return true
    }

    /// Tells one client what its output shows, and (in front, in input mode) how the device is
    /// held, where that differs from what it was last told. Its output: the panel it is in front
    /// on, else the first.
    private func tell(_ id: ToplevelID, _ context: Context, windows: inout Windows, into out: inout [ControllerCommand]) {
        guard let panel = context.panels.first(where: { context.fronts[$0.id] == id }) ?? context.panels.first,
              tellShown(id, on: panel, windows: &windows, into: &out), let t = windows.records[id] else { return }
        guard context.rotating, context.inputFronts.contains(id) else {
            windows.records[id]?.toldFelt = nil   // so that it hears the device again when it returns
            return
        }
        if let felt = context.felt, t.toldFelt != ContentOrientations(felt, on: panel.shape) {
            let bits = ContentOrientations(felt, on: panel.shape)
            windows.records[id]?.toldFelt = bits
            out.append(.tellFelt(id, bits))
        }
    }
}
