/// Where the controller turns the compositor's heads itself (the daemon): what it decides goes
/// straight to the heads reconciler, so that a decision's way to the compositor passes through
/// the core once.
extension Controller {
    /// Each `.show` in `commands` becomes the reconciler's `.want`, its steps in the show's place;
    /// what the reconciler tells the controller (a panel found, one showing something else) is
    /// handled after what came before it, as a host's queue would. `event`: one from the heads,
    /// handled first. A controller that does not turn heads (the plugin's) passes `commands` on.
    mutating func throughHeads(_ commands: [ControllerCommand], after event: HeadsReconciler.Event? = nil) -> [ControllerCommand] {
        guard heads != nil else { return commands }
        var out: [ControllerCommand] = []
        var told: [ControllerEvent] = []
        if let event { reconcile(event, into: &out, telling: &told) }
        route(commands, into: &out, telling: &told)
        while !told.isEmpty {
            route(handleOwn(told.removeFirst()), into: &out, telling: &told)
        }
        return out
    }

    private mutating func route(_ commands: [ControllerCommand], into out: inout [ControllerCommand],
                                telling told: inout [ControllerEvent]) {
        for command in commands {
            if case .show(let panel, let orientation, let transition) = command {
                reconcile(.want(panel, orientation, transition: transition), into: &out, telling: &told)
            } else {
                out.append(command)
            }
        }
    }

    private mutating func reconcile(_ event: HeadsReconciler.Event, into out: inout [ControllerCommand],
                                    telling told: inout [ControllerEvent]) {
        for command in heads?.handle(event) ?? [] {
            if case .controller(let event) = command { told.append(event) } else { out.append(.heads(command)) }
        }
    }
}
