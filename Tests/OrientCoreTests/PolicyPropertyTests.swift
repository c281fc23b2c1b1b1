import PropertyBased
import Testing
@testable import OrientCore

/// Invariants of the policy over generated situations.
@Suite struct PolicyPropertyTests {
    static let cases = 2000

    /// A generated situation: felt (4 = nothing felt yet), current, three masks (client 16 = no
    /// client), sensor input.
    static let situations = zip(
        Gen.int(in: 0...4), Gen<Orientation>.case,
        Gen.int(in: 1...15), Gen.int(in: 0...15), Gen.int(in: 0...16), Gen.bool
    ).map { felt, current, device, global, client, sensorInput in
        PolicyInput(
            felt: felt == 4 ? nil : Orientation(clockwiseQuarterTurns: felt), current: current,
            device: OrientationMask(rawValue: UInt8(device)),
            global: OrientationMask(rawValue: UInt8(global)),
            client: client == 16 ? nil : ClientLevel(appID: "gen", mask: OrientationMask(rawValue: UInt8(client)),
                                                     sensorInput: sensorInput))
    }

    @Test func resultIsAlwaysInsideTheDeviceMask() async {
        await propertyCheck(count: Self.cases, input: Self.situations) { input in
            let d = Policy.decide(input)
            #expect(input.device.contains(d.target), "\(input) → \(d.target)")
            #expect(d.effective.contains(d.target))
            #expect(!d.effective.isEmpty)
        }
    }

    @Test func feltIsChosenWheneverItIsAllowed() async {
        await propertyCheck(count: Self.cases, input: Self.situations) { input in
            guard let felt = input.felt else { return }
            let d = Policy.decide(input)
            if !d.frozen, d.effective.contains(felt) {
                #expect(d.target == felt, "\(input)")
            }
            // With every level satisfied and felt in all of them, nothing is dropped.
            let all = input.device.intersection(input.global).intersection(input.client?.mask ?? .all)
            if all.contains(felt) { #expect(d.dropped.isEmpty) }
        }
    }

    @Test func withNothingFeltTheScreenStaysWhereverItIsAllowed() async {
        await propertyCheck(count: Self.cases, input: Self.situations) { input in
            guard input.felt == nil else { return }
            let d = Policy.decide(input)
            if d.effective.contains(input.current) { #expect(d.target == input.current, "\(input)") }
        }
    }

    @Test func theSameInputsGiveTheSameResult() async {
        await propertyCheck(count: Self.cases, input: Self.situations) { input in
            #expect(Policy.decide(input) == Policy.decide(input))
        }
    }

    @Test func aFrozenScreenStaysWhereverItIsAllowed() async {
        await propertyCheck(count: Self.cases, input: Self.situations) { input in
            let d = Policy.decide(input)
            if d.frozen, d.effective.contains(input.current) { #expect(d.target == input.current) }
        }
    }
}
