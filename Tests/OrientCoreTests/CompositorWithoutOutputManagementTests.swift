import Testing
@testable import OrientCore

/// Beside a compositor that no client can turn: the daemon names the one it found and says how
/// that one turns its screen, not a list of every compositor it might be.
@Suite struct CompositorWithoutOutputManagementTests {
    @Test func theCompositorFoundIsNamedWithHowItTurnsItsScreen() {
        let weston = CompositorWithoutOutputManagement.line(process: "weston\n", pid: 4242)
        #expect(weston.hasPrefix("weston (process 4242) offers no wlr-output-management"))
        #expect(weston.contains("weston.ini"))
        #expect(!weston.contains("KWin") && !weston.contains("Mir"), "only the one found")
        let kwin = CompositorWithoutOutputManagement.line(process: "kwin_wayland", pid: 7)
        #expect(kwin.contains("KWin turns the built-in screen with the device itself"))
        #expect(CompositorWithoutOutputManagement.line(process: "gnome-shell", pid: 8).contains("Auto Rotate"))
    }

    @Test func oneNotKnownOrNotReadableIsNamedAsFarAsItCanBe() {
        #expect(CompositorWithoutOutputManagement.line(process: "somecomp", pid: 9)
            .hasSuffix("the daemon stops. somecomp turns its screen itself, if at all."))
        #expect(CompositorWithoutOutputManagement.line(process: nil, pid: 9).hasPrefix("process 9 offers"))
        #expect(CompositorWithoutOutputManagement.line(process: nil, pid: nil)
            .hasPrefix("the compositor offers no wlr-output-management"))
        #expect(CompositorWithoutOutputManagement.line(process: " ", pid: nil).hasSuffix("it turns its screen itself, if at all."))
    }
}
