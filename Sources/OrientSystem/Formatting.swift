import Glibc

/// `v` as printf's "%WIDTH.DECIMALSf" prints it (the C library's own conversion: exact, ties to
/// even), without Foundation's String(format:), which brings ICU along.
public func formatDecimal(_ v: Double, decimals: Int, width: Int = 0) -> String {
    let arguments: [CVarArg] = [Int32(max(0, min(width, 64))), Int32(max(0, min(decimals, 17))), v]
    var buffer = [CChar](repeating: 0, count: 64)
    var written = withVaList(arguments) { vsnprintf(&buffer, buffer.count, "%*.*f", $0) }
    if written >= buffer.count {   // a huge value: 10^300 has 301 digits
        buffer = [CChar](repeating: 0, count: Int(written) + 1)
        written = withVaList(arguments) { vsnprintf(&buffer, buffer.count, "%*.*f", $0) }
    }
    guard written >= 0 else { return String(v) }
    return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
