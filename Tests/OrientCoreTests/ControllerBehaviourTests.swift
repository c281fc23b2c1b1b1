import Foundation
import Testing
@testable import OrientCore

private let game = ToplevelID(1)
private let other = ToplevelID(2)
private let landscapeBits = ContentOrientations([.landscape, .invertedLandscape])

/// What the controller says besides `.show`: to clients, to disk, to watchers, to the log.
@Suite struct ControllerBehaviourTests {
    @Test func aClientHearsWhatItsOutputWillShowBeforeTheOutputTurns() throws {
        var h = ControllerHarness()
        h.send(.felt(.leftUp))
        // Its object exists before its initial commit (the usual order for a client).
        h.send(.declaration(game, ClientDeclaration(orientations: landscapeBits)))
        #expect(h.told(game) == [.tellShown(game, .portrait)], "told what is shown now (left-up is Qt portrait here)")
        let commands = h.send(.toplevelAdded(game, appID: "org.example.Game", covers: true))
        let tell = try #require(commands.firstIndex(of: .tellShown(game, .landscape)))
        let show = try #require(commands.firstIndex(of: .show(ControllerHarness.tablet, .normal, transition: TransitionPlan(kind: .rotate))))
        #expect(tell < show, "\(commands)")
        // Told once per change, not again when nothing changed for it.
        h.send(.toplevelMapped(game, true))
        #expect(h.told(game).isEmpty)
        h.send(.felt(.bottomUp))
        #expect(h.told(game) == [.tellShown(game, .invertedLandscape)])
    }

    @Test func anInputModeClientInFrontHearsEveryFeltChangeAndNothingOnceItLeaves() {
        var h = ControllerHarness()
        h.send(.declaration(game, ClientDeclaration(input: true)))
        h.send([.toplevelAdded(game, appID: "org.example.Game", covers: true), .toplevelMapped(game, true), .focus(game)])
        #expect(h.last.contains(.tellFelt(game, .landscape)), "told how the device is held on coming to front: \(h.last)")
        for (felt, bits) in [(Orientation.leftUp, ContentOrientations.portrait), (.bottomUp, .invertedLandscape),
                             (.rightUp, .invertedPortrait), (.normal, .landscape)] {
            h.send(.felt(felt))
            #expect(h.told(game) == [.tellFelt(game, bits)], "\(felt)")
            #expect(h.panel == .normal, "the screen stays")
        }
        h.send([.toplevelAdded(other, appID: "foot", covers: true), .toplevelMapped(other, true), .focus(other)])
        h.send(.felt(.leftUp))
        #expect(h.told(game) == [.tellShown(game, .portrait)], "a client no longer in front hears what is shown, not the device")
        #expect(h.panel == .leftUp)
        // Back in front: it hears the device again, even though it was held this way before.
        h.send(.focus(game))
        #expect(h.told(game) == [.tellFelt(game, .portrait)])
    }

    @Test func anInputModeClientKeepsTheSensorRunningEvenWhenTheLockAllowsOneOrientation() {
        var h = ControllerHarness(config: ControllerHarness.offersNothing, state: PersistentState(lock: MaskSpec(parsing: "normal"), lastFelt: .normal))
        #expect(!h.sensorRunning)
        h.send(.declaration(game, ClientDeclaration(input: true)))
        h.send([.toplevelAdded(game, appID: "g", covers: true), .toplevelMapped(game, true), .focus(game)])
        #expect(h.sensorRunning)
        h.send(.toplevelRemoved(game))
        #expect(!h.sensorRunning)
    }

    @Test func theStateIsSavedWhenTheFeltOrientationOrTheLockChangesAndOnlyThen() {
        var h = ControllerHarness()
        h.send(.felt(.normal))
        #expect(h.saved == nil)
        h.send(.felt(.leftUp))
        #expect(h.saved == PersistentState(lastFelt: .leftUp))
        h.send(.control(.lock(MaskSpec(parsing: "landscape")!)))
        #expect(h.saved == PersistentState(lock: MaskSpec(parsing: "landscape"), lastFelt: .leftUp))
        h.send(.control(.lock(MaskSpec(parsing: "landscape")!)))
        #expect(h.saved == nil, "the same lock again changes nothing")
        h.send(.control(.unlock))
        #expect(h.saved == PersistentState(lastFelt: .leftUp))
    }

    @Test func watchersHearOfEachChangeOnceWithLockFeltPanelsAndTheAppInFront() throws {
        var h = ControllerHarness(config: Config.with(.rule("foot", "landscape")))
        h.send(.felt(.leftUp))
        #expect(h.lastStatus?.felt == .leftUp)
        let before = h.all.count
        h.send(.felt(.leftUp))
        #expect(h.all.count == before, "no change, no notification")
        h.send([.toplevelAdded(game, appID: "foot", covers: true), .toplevelMapped(game, true), .focus(game)])
        let status = try #require(h.lastStatus)
        let json = status.json.serialized
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["felt"] as? String == "left-up")
        #expect(object["lock"] is NSNull)
        let panels = try #require(object["panels"] as? [[String: Any]])
        #expect(panels.first?["shown"] as? String == "normal")
        #expect(panels.first?["name"] as? String == "eDP-1")
        let front = try #require(object["front"] as? [String: Any])
        #expect(front["app_id"] as? String == "foot")
        #expect(front["orientations"] as? [String] == ["normal", "bottom-up"])
        #expect(front["given_as"] as? String == "landscape")
        #expect(front["source"] as? String == "rule")
        #expect(front["rule"] as? String == "foot")
        #expect(front["input"] as? Bool == false)
    }

    /// One status type: what the server writes, the CLI reads back as it was (#27).
    @Test func theStatusReadsBackFromItsJSONAsItWasWritten() throws {
        var h = ControllerHarness(config: Config.with(.rule("foot", "landscape")))
        h.send(.felt(.leftUp))
        h.send(.control(.lock(MaskSpec(parsing: "portrait,normal")!)))
        h.send([.toplevelAdded(game, appID: "foot", covers: true), .toplevelMapped(game, true), .focus(game)])
        var statuses = [try #require(h.lastStatus)]
        var desktop = statuses[0]
        desktop.front?.orientationsSource = .desktopFile("/usr/share/applications/foot.desktop")
        desktop.front?.inputSource = .rule("foot")
        desktop.tabletMode = false
        desktop.front?.input = true
        statuses.append(desktop)
        var bare = statuses[0]
        bare.front = nil
        bare.lock = nil
        bare.felt = nil
        bare.panels = []
        statuses.append(bare)
        for status in statuses {
            let read = try JSONDecoder().decode(ControllerStatus.self, from: Data(status.json.serialized.utf8))
            #expect(read == status)
        }
        let unknown = statuses[0].json.serialized.replacingOccurrences(of: "\"left-up\"", with: "\"sideways\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ControllerStatus.self, from: Data(unknown.utf8)) }
    }

    @Test func aClientWhoseMaskLeavesNothingIsIgnoredAndLoggedOnceByName() {
        var h = ControllerHarness(config: Config.with(.rule("org.example.Reader", "portrait")),
                                  state: PersistentState(lock: MaskSpec(parsing: "landscape"), lastFelt: .normal))
        h.send([.toplevelAdded(game, appID: "org.example.Reader", covers: true), .toplevelMapped(game, true), .focus(game)])
        #expect(h.logs.contains { $0.contains("org.example.Reader supports nothing") }, "\(h.logs)")
        #expect(h.panel == .normal)
        h.send(.felt(.bottomUp))
        #expect(!h.logs.contains { $0.contains("supports nothing") }, "logged once")
        #expect(h.panel == .bottomUp)
    }

    @Test func toplevelsThatGoLeaveNoRecordWhateverTheOrderOfTheirObjectsEnds() {
        var h = ControllerHarness()
        // Object gone after its toplevel (destroy listeners in the order they were added).
        h.send([.toplevelAdded(game, appID: "a", covers: true), .declaration(game, ClientDeclaration(orientations: .portrait)),
                .toplevelRemoved(game), .declaration(game, nil)])
        // A client that made its object and went before its initial commit.
        h.send([.declaration(other, ClientDeclaration(orientations: .portrait)), .declaration(other, nil)])
        // An object that goes while its toplevel stays keeps the toplevel, of course.
        h.send([.toplevelAdded(game, appID: "b", covers: true), .declaration(game, ClientDeclaration()), .declaration(game, nil)])
        #expect(h.controller.toplevelCount == 1)
        h.send(.toplevelRemoved(game))
        #expect(h.controller.toplevelCount == 0)
    }

    @Test func aReloadedConfigWithErrorsKeepsTheOneInUseAndLogsEachError() {
        var h = ControllerHarness(config: Config.with(.rule("foot", "landscape")))
        h.send(.configLoaded(Config(), DesktopIndex(), errors: ["/c.toml:2:1: one", "/c.toml:5:3: two"]))
        #expect(h.logs == ["config: /c.toml:2:1: one; keeping the config in use", "config: /c.toml:5:3: two; keeping the config in use"])
        #expect(h.controller.config.apps.count == 1)
    }

    @Test func aReloadedConfigThatChangesTheSensorAsksForANewSensorAndOnlyThen() {
        var h = ControllerHarness()
        var config = h.controller.config
        config.apps = [.rule("foot", "landscape")]
        #expect(!h.send(.configLoaded(config, DesktopIndex(), errors: [])).contains { if case .runner(.replaceSensor) = $0 { true } else { false } })
        // The touch hold is the controller's own: a new one needs no new sensor or detector.
        config.detection.touchHoldMs = 900
        #expect(!h.send(.configLoaded(config, DesktopIndex(), errors: [])).contains { if case .runner(.replaceSensor) = $0 { true } else { false } })
        #expect(h.controller.config.detection.touchHoldMs == 900)
        config.detection.settleMs = 80
        #expect(h.send(.configLoaded(config, DesktopIndex(), errors: [])).contains(.replaceSensor(config.device, config.detection)))
    }

    @Test func whatEachLockCommandDoesToTheLock() {
        let landscape = MaskSpec(parsing: "landscape")!
        #expect(ControlCommand.lock(landscape).lockChange(from: nil, shown: .leftUp) == .set(landscape))
        #expect(ControlCommand.lockCurrent.lockChange(from: landscape, shown: .leftUp) == .set(MaskSpec(exactly: .leftUp)))
        #expect(ControlCommand.unlock.lockChange(from: landscape, shown: nil) == .set(nil))
        #expect(ControlCommand.toggle.lockChange(from: landscape, shown: .normal) == .set(nil))
        #expect(ControlCommand.toggle.lockChange(from: nil, shown: .bottomUp) == .set(MaskSpec(exactly: .bottomUp)))
        // Nothing known to be shown (the CLI with no compositor and no saved orientation).
        #expect(ControlCommand.toggle.lockChange(from: nil, shown: nil) == .nothingShown)
        #expect(ControlCommand.lockCurrent.lockChange(from: nil, shown: nil) == .nothingShown)
        #expect(ControlCommand.reload.lockChange(from: nil, shown: .normal) == ControlCommand.LockChange.none)
    }

    @Test func reloadAsksTheHostToReadTheConfig() {
        var h = ControllerHarness()
        #expect(h.send(.control(.reload)).contains(.reloadConfig))
    }

    @Test func aPanelThatAppearsLaterGetsTheDecisionAtOnce() {
        var h = ControllerHarness(state: PersistentState(lock: MaskSpec(parsing: "portrait")), panel: nil)
        h.send(.panelAdded(ControllerHarness.tablet, name: "eDP-1", shape: .landscape, showing: .normal))
        #expect(h.panel == .rightUp)
    }
}

/// The protocol's and `.desktop` files' orientation words, mapped to ours (the table in
/// ContentOrientations and in protocol/wlr-orient-unstable-v1.xml).
@Suite struct ContentOrientationsTests {
    static let table: [(ContentOrientations, tablet: Orientation, phone: Orientation)] = [
        (.portrait, .leftUp, .normal),
        (.landscape, .normal, .rightUp),
        (.invertedPortrait, .rightUp, .bottomUp),
        (.invertedLandscape, .bottomUp, .leftUp),
    ]

    @Test func eachBitNamesOneOrientationPerPanelShapeAndBack() {
        for (bit, tablet, phone) in Self.table {
            #expect(bit.resolve(on: .landscape) == OrientationMask(tablet), "\(bit) on a tablet")
            #expect(bit.resolve(on: .portrait) == OrientationMask(phone), "\(bit) on a phone")
            #expect(ContentOrientations(tablet, on: .landscape) == bit)
            #expect(ContentOrientations(phone, on: .portrait) == bit)
        }
    }

    @Test func qtsPortraitIsLandscapeTurnedAQuarterClockwise() {
        // On either panel, the device turned 90° clockwise from landscape shows portrait.
        for shape in PanelShape.allCases {
            let landscape = ContentOrientations.landscape.resolve(on: shape).orientations[0]
            let portrait = ContentOrientations.portrait.resolve(on: shape).orientations[0]
            #expect(portrait.clockwiseQuarterTurns == (landscape.clockwiseQuarterTurns + 1) % 4, "\(shape)")
        }
    }

    @Test func theWordsPortraitAndLandscapeAgreeWithOurMaskWords() {
        for shape in PanelShape.allCases {
            #expect(ContentOrientations([.portrait, .invertedPortrait]).resolve(on: shape) == .portrait(on: shape))
            #expect(ContentOrientations([.landscape, .invertedLandscape]).resolve(on: shape) == .landscape(on: shape))
            #expect(ContentOrientations.primary.resolve(on: shape) == .normal)
        }
    }

    @Test func aProtocolMaskWithUnknownBitsIsRefused() {
        #expect(ContentOrientations(protocolMask: 15) == [.portrait, .landscape, .invertedPortrait, .invertedLandscape])
        #expect(ContentOrientations(protocolMask: 0) == [])
        #expect(ContentOrientations(protocolMask: 16) == nil)
        #expect(ContentOrientations(protocolMask: 0x8000_0001) == nil)
    }

    @Test func desktopListsParseAsLomiriWritesThem() {
        let (bits, unknown) = ContentOrientations.parseDesktopList(["portrait", " landscape", "invertedPortrait", "", "upside", "Primary"])
        #expect(bits == [.portrait, .landscape, .invertedPortrait, .primary])
        #expect(unknown == ["upside"])
    }
}

@Suite struct AppWishTests {
    let desktop = DesktopIndex(["org.example.App": DesktopOrientation(orientations: .landscape, rotatesContents: true, path: "/a.desktop")])

    @Test func eachPartComesFromTheFirstSourceThatSaysAnything() {
        let ruleMaskOnly = Config.with(.rule("org.example.*", "portrait"))
        var w = AppWish.resolve(appID: "org.example.App", declaration: nil, config: ruleMaskOnly, desktop: desktop)
        #expect(w.orientationsSource == .rule("org.example.*"))
        #expect(w.input && w.inputSource == .desktopFile("/a.desktop"), "the rule says nothing about input")
        w = AppWish.resolve(appID: "org.example.App", declaration: ClientDeclaration(orientations: .portrait, input: false),
                            config: ruleMaskOnly, desktop: desktop)
        #expect(w.orientationsSource == .client && !w.input && w.inputSource == .client)
        w = AppWish.resolve(appID: "org.example.App", declaration: ClientDeclaration(), config: Config(), desktop: desktop)
        #expect(w.orientationsSource == .desktopFile("/a.desktop"), "an empty declaration is no preference")
        w = AppWish.resolve(appID: "org.example.App.desktop", declaration: nil, config: Config(), desktop: desktop)
        #expect(w.orientationsSource == .desktopFile("/a.desktop"), "an app_id with .desktop finds its file")
        w = AppWish.resolve(appID: "unknown", declaration: nil, config: ruleMaskOnly, desktop: desktop)
        #expect(w.orientations == .all && w.orientationsSource == .none && !w.input)
    }

    @Test func theLastMatchingRuleWins() {
        let config = Config.with(.rule("*", "portrait"), .rule("foot", "landscape"), .rule("f*", "normal"))
        #expect(AppWish.resolve(appID: "foot", declaration: nil, config: config, desktop: DesktopIndex()).orientationsSource == .rule("f*"))
    }
}

@Suite struct JSONTests {
    @Test func writtenJSONIsReadBackByFoundationUnchanged() throws {
        let value = JSON.object([
            ("s", .string("quote \" backslash \\ newline \n tab \t bell \u{7} é 😀")),
            ("n", .null), ("b", .bool(true)), ("i", .int(-42)), ("a", .array([.int(1), .string("x")])),
        ])
        let text = value.serialized
        #expect(!text.contains("\n"), "one line")
        let back = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(back["s"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7} é 😀")
        #expect(back["n"] is NSNull)
        #expect(back["b"] as? Bool == true)
        #expect(back["i"] as? Int == -42)
        #expect((back["a"] as? [Any])?.count == 2)
    }
}

@Suite struct PersistentStateMergeTests {
    let portrait = MaskSpec(parsing: "portrait"), landscape = MaskSpec(parsing: "landscape")

    @Test func whatThisSessionChangedWinsAndTheRestIsTheFiles() {
        let known = PersistentState(lock: nil, lastFelt: .normal)
        let onDisk = PersistentState(lock: portrait, lastFelt: .bottomUp)
        // Only the felt orientation changed here: the other session's lock and nothing else of ours.
        #expect(PersistentState(lock: nil, lastFelt: .leftUp).merged(known: known, onDisk: onDisk)
                == PersistentState(lock: portrait, lastFelt: .leftUp))
        // This session locked: its lock, the file's felt orientation.
        #expect(PersistentState(lock: landscape, lastFelt: .normal).merged(known: known, onDisk: onDisk)
                == PersistentState(lock: landscape, lastFelt: .bottomUp))
        // This session unlocked: unlocked, whatever the file says.
        #expect(PersistentState(lock: nil, lastFelt: .normal).merged(known: PersistentState(lock: portrait, lastFelt: .normal), onDisk: onDisk)
                == PersistentState(lock: nil, lastFelt: .bottomUp))
    }
}
