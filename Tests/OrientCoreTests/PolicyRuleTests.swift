import Testing
@testable import OrientCore

/// The product's rules 1–6 (docs/DESIGN.md), one scenario (or more) per rule.
/// Panel: a native-landscape tablet unless a scenario says "phone" (native portrait).
struct PolicyScenario: Sendable, CustomTestStringConvertible {
    var name: String
    var input: PolicyInput
    var target: Orientation
    var dropped: [DroppedLevel] = []
    var frozen = false
    var testDescription: String { name }
}

private let tablet = PanelShape.landscape
private let phone = PanelShape.portrait
private func app(_ id: String, _ mask: OrientationMask, sensorInput: Bool = false) -> ClientLevel {
    ClientLevel(appID: id, mask: mask, sensorInput: sensorInput)
}

let policyScenarios: [PolicyScenario] = [
    // Rule 1: the three levels intersect.
    .init(name: "rule 1: phone without upside-down, turned upside down, stays",
          input: .init(felt: .bottomUp, current: .normal, device: .allButUpsideDown),
          target: .normal),
    .init(name: "rule 1: phone without upside-down, turned upside down from left-up, stays left-up",
          input: .init(felt: .bottomUp, current: .leftUp, device: .allButUpsideDown),
          target: .leftUp),
    .init(name: "rule 1: the user's landscape lock holds while the tablet is held portrait",
          input: .init(felt: .leftUp, current: .normal, global: .landscape(on: tablet)),
          target: .normal),
    .init(name: "rule 1: client mask disjoint from the user's lock: the client's level is dropped",
          input: .init(felt: .normal, current: .normal, global: .landscape(on: tablet),
                       client: app("portrait.App", .portrait(on: tablet))),
          target: .normal, dropped: [.client(appID: "portrait.App")]),
    .init(name: "rule 1: dropped client level, the lock still follows both landscape variants",
          input: .init(felt: .bottomUp, current: .normal, global: .landscape(on: tablet),
                       client: app("portrait.App", .portrait(on: tablet))),
          target: .bottomUp, dropped: [.client(appID: "portrait.App")]),
    .init(name: "rule 1: a lock the device cannot show is dropped, the hardware wins",
          input: .init(felt: .leftUp, current: .normal, device: .allButUpsideDown, global: .bottomUp),
          target: .leftUp, dropped: [.globalLock]),
    // Rule 2 is about *which* client is passed in (the bridge); the policy ignores others:
    .init(name: "rule 2: with no client in front, the sensor decides",
          input: .init(felt: .rightUp, current: .normal),
          target: .rightUp),
    // Rule 3: felt, else stay, else nearest.
    .init(name: "rule 3: felt allowed → felt",
          input: .init(felt: .leftUp, current: .normal, client: app("any", .all)),
          target: .leftUp),
    .init(name: "rule 3: felt not allowed, current allowed → stay",
          input: .init(felt: .leftUp, current: .bottomUp, client: app("land", .landscape(on: tablet))),
          target: .bottomUp),
    .init(name: "rule 3: nearest prefers 90° over 180°",
          input: .init(felt: .bottomUp, current: .leftUp, client: app("n+r", [.normal, .rightUp])),
          target: .rightUp),
    .init(name: "rule 3: tie between two 90° neighbours goes to the one the device leans toward",
          input: .init(felt: .leftUp, current: .rightUp, client: app("land", .landscape(on: tablet)), lean: 130),
          target: .bottomUp),
    .init(name: "rule 3: a lean within 5° of the middle is no lean: the fixed tie-break",
          input: .init(felt: .leftUp, current: .rightUp, client: app("land", .landscape(on: tablet)), lean: 93),
          target: .normal),
    .init(name: "rule 3: the lean does not overrule 90° before 180°",
          input: .init(felt: .bottomUp, current: .leftUp, client: app("n+r", [.normal, .rightUp]), lean: 10),
          target: .rightUp),
    .init(name: "rule 3: tie between two 90° neighbours broken the fixed way (normal first)",
          input: .init(felt: .leftUp, current: .rightUp, client: app("land", .landscape(on: tablet))),
          target: .normal),
    // Nothing felt yet (first start, no saved state, no decision from the sensor).
    .init(name: "rule 3: nothing felt yet, what the screen shows is allowed → it stays",
          input: .init(felt: nil, current: .leftUp),
          target: .leftUp),
    .init(name: "rule 3: nothing felt yet, the user's lock excludes what the screen shows → the nearest allowed",
          input: .init(felt: nil, current: .leftUp, global: .landscape(on: tablet)),
          target: .normal),
    // Rule 4: both variants.
    .init(name: "rule 4: landscape-only app, tablet turned to normal → follows",
          input: .init(felt: .normal, current: .bottomUp, client: app("land", .landscape(on: tablet))),
          target: .normal),
    .init(name: "rule 4: landscape-only app, tablet turned to bottom-up → follows (180° answered with 180°)",
          input: .init(felt: .bottomUp, current: .normal, client: app("land", .landscape(on: tablet))),
          target: .bottomUp),
    .init(name: "rule 4: landscape-only app on a phone follows left-up → right-up",
          input: .init(felt: .rightUp, current: .leftUp, client: app("land", .landscape(on: phone))),
          target: .rightUp),
    // Rule 5: launch in the supported orientation; return to felt when it leaves.
    .init(name: "rule 5: landscape-only app comes to front while the phone is held portrait → the nearer landscape variant",
          input: .init(felt: .normal, current: .normal, client: app("land", .landscape(on: phone))),
          target: .rightUp),
    .init(name: "rule 5: landscape-only app comes to front while the tablet is held portrait (left-up) → landscape",
          input: .init(felt: .leftUp, current: .leftUp, client: app("land", .landscape(on: tablet))),
          target: .normal),
    .init(name: "rule 5: portrait-only app on a tablet held upside down → a portrait variant 90° away",
          input: .init(felt: .bottomUp, current: .bottomUp, client: app("port", .portrait(on: tablet))),
          target: .rightUp),
    .init(name: "rule 5: the app leaves → back to the felt orientation",
          input: .init(felt: .leftUp, current: .normal, client: nil),
          target: .leftUp),
    // Rule 6: orientation as input freezes the screen.
    .init(name: "rule 6: sensor-input client in front: felt changes, the screen stays",
          input: .init(felt: .leftUp, current: .normal, client: app("game", .all, sensorInput: true)),
          target: .normal, frozen: true),
    .init(name: "rule 6: frozen screen still honours the client's mask",
          input: .init(felt: .normal, current: .leftUp, client: app("game", .landscape(on: tablet), sensorInput: true)),
          target: .normal, frozen: true),
]

@Suite struct PolicyRuleTests {
    @Test(arguments: policyScenarios)
    func scenario(_ s: PolicyScenario) {
        let d = Policy.decide(s.input)
        #expect(d.target == s.target)
        #expect(d.dropped == s.dropped)
        #expect(d.frozen == s.frozen)
        #expect(d.effective.contains(d.target))
    }

    @Test func theSensorMattersOnlyWhileMoreThanOneOrientationIsAllowed() {
        #expect(Policy.sensorMatters(device: .all, global: .all))
        #expect(Policy.sensorMatters(device: .all, global: .landscape(on: .landscape)))  // both variants
        #expect(!Policy.sensorMatters(device: .all, global: .normal))
        #expect(!Policy.sensorMatters(device: [.normal, .leftUp], global: .leftUp))
        #expect(Policy.sensorMatters(device: .allButUpsideDown, global: .bottomUp))  // lock dropped
    }

    @Test func emptyDeviceMaskNeverYieldsAnEmptyChoice() {
        let d = Policy.decide(PolicyInput(felt: .leftUp, current: .normal, device: []))
        #expect(d.target == .leftUp)
    }
}
