import OrientSystem

/// Where the plugin finds a program of ours that it runs (`wlr-orient` for its config, the sensor
/// helper): `$VARIABLE` when set (and then only that), else beside this library (a build
/// directory), else in `directory` of the prefix it was installed into (PREFIX/lib or
/// PREFIX/lib/TRIPLET; so a copy staged under a DESTDIR finds its own), or in its `wlr-orient`
/// (from PREFIX/lib[64][/TRIPLET]/wlr-orient/RELEASE, a package's layout), else the bare name,
/// searched on `$PATH` when it runs.
func companionProgram(_ name: String, variable: String, prefixDirectory directory: String) -> String {
    if let program = environmentValue(variable), !program.isEmpty { return program }
    if let library = loadedFromPath(), let slash = library.lastIndex(of: "/") {
        let here = String(library[..<slash])
        // A distribution's package keeps the plugin in PREFIX/lib/TRIPLET/wlr-orient/RELEASE
        // (Debian) or PREFIX/lib64/wlr-orient/RELEASE, and the helpers in PREFIX/libexec/wlr-orient.
        let prefixes = [here + "/..", here + "/../..", here + "/../../..", here + "/../../../.."]
        let candidates = [here + "/" + name] + prefixes.flatMap { ["\($0)/\(directory)/\(name)", "\($0)/\(directory)/wlr-orient/\(name)"] }
        for candidate in candidates where isExecutable(candidate) {
            return candidate
        }
    }
    return name
}
