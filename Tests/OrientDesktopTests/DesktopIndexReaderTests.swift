import Foundation
import TestSupport
import Testing
@testable import OrientCore
@testable import OrientDesktop

/// `.desktop` files as the Desktop Entry spec finds them, read with GLib's key-file parser.
@Suite struct DesktopIndexReaderTests {
    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func filesAreFoundByDesktopIDFirstDirectoryFirstAndReadForTheirOrientationKeys() throws {
        let root = try makeTemporaryDirectory()
        let home = root + "/home/applications", system = root + "/usr/applications"
        try write(home + "/org.example.Reader.desktop",
                  "[Desktop Entry]\nType=Application\nName=Reader\nX-Lomiri-Supported-Orientations=portrait;invertedPortrait\n")
        try write(system + "/org.example.Reader.desktop",   // shadowed by the one in the first directory
                  "[Desktop Entry]\nName=Reader\nX-Lomiri-Supported-Orientations=landscape\n")
        try write(system + "/games/racer.desktop",          // desktop ID games-racer
                  "[Desktop Entry]\nName=Racer\nX-Ubuntu-Supported-Orientations=landscape;invertedLandscape\nX-Ubuntu-Rotates-Window-Contents=true\n")
        try write(system + "/old.desktop",                   // the Lomiri key wins over the Ubuntu one
                  "[Desktop Entry]\nX-Ubuntu-Supported-Orientations=portrait\nX-Lomiri-Supported-Orientations=primary\n")
        try write(system + "/plain.desktop", "[Desktop Entry]\nName=Plain\nExec=plain\n")
        try write(system + "/other-group.desktop", "[Other]\nX-Lomiri-Supported-Orientations=portrait\n")
        let (index, problems) = DesktopIndexReader.read(directories: [home, system, root + "/missing"])
        #expect(problems.isEmpty, "\(problems)")
        #expect(Set(index.entries.keys) == ["org.example.Reader", "games-racer", "old"])
        #expect(index.entries["org.example.Reader"] == DesktopOrientation(orientations: [.portrait, .invertedPortrait], path: home + "/org.example.Reader.desktop"))
        #expect(index.entries["games-racer"] == DesktopOrientation(orientations: [.landscape, .invertedLandscape], rotatesContents: true, path: system + "/games/racer.desktop"))
        #expect(index.entries["old"]?.orientations == .primary)
    }

    @Test func badValuesAndBrokenFilesAreReportedNotFatal() throws {
        let dir = try makeTemporaryDirectory() + "/applications"
        try write(dir + "/a.desktop", "[Desktop Entry]\nX-Lomiri-Supported-Orientations=portrait;sideways\nX-Lomiri-Rotates-Window-Contents=perhaps\n")
        try write(dir + "/broken.desktop", "this is not a key file\nX-Lomiri-Supported-Orientations=portrait\n")
        try write(dir + "/binary.desktop", "[Desktop Entry]\nX-Lomiri-Supported-Orientations=\u{0}\u{1}portrait\n")
        let (index, problems) = DesktopIndexReader.read(directories: [dir])
        #expect(index.entries["a"] == DesktopOrientation(orientations: .portrait, path: dir + "/a.desktop"))
        #expect(problems.contains { $0.contains("a.desktop: X-Lomiri-Supported-Orientations: unknown orientation sideways") }, "\(problems)")
        #expect(problems.contains { $0.contains("a.desktop: X-Lomiri-Rotates-Window-Contents") }, "\(problems)")
        #expect(problems.contains { $0.contains("broken.desktop") && $0.hasSuffix("ignored") }, "\(problems)")
    }

    @Test func theSearchPathFollowsTheXDGBaseDirectorySpec() {
        #expect(DesktopIndexReader.directories(environment: ["HOME": "/home/u"])
                == ["/home/u/.local/share/applications", "/usr/local/share/applications", "/usr/share/applications"])
        #expect(DesktopIndexReader.directories(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/x:relative:/y"])
                == ["/d/applications", "/x/applications", "/y/applications"])
    }
}
