import CJSONC
import OrientCore

/// Reads one line of JSON, with json-c (the core only writes JSON): a control client's request
/// in the plugin and the daemon, the compositor's answer in the CLI, the sensor helper's reports
/// in its host and the host's requests in the helper.
public enum JSONReader {
    /// Nesting deeper than this is refused (json-c's tokener stops there, so a hostile line
    /// cannot recurse deeply).
    static let maxDepth: Int32 = 16

    public static func parse(_ line: String) -> Result<JSON, ControlError> {
        Array(line.utf8).withUnsafeBytes { parse($0) }
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<JSON, ControlError> {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count > 0,
              !bytes.contains(0) else { return .failure(ControlError("not JSON: empty, or a NUL byte")) }
        guard let tokener = json_tokener_new_ex(maxDepth) else { return .failure(ControlError("out of memory")) }
        defer { json_tokener_free(tokener) }
        json_tokener_set_flags(tokener, JSON_TOKENER_STRICT)
        let object = json_tokener_parse_ex(tokener, base, Int32(bytes.count))
        let error = json_tokener_get_error(tokener)
        defer { if let object { json_object_put(object) } }
        guard error == json_tokener_success, json_tokener_get_parse_end(tokener) == bytes.count else {
            let why = error == json_tokener_continue ? "incomplete" : String(cString: json_tokener_error_desc(error))
            return .failure(ControlError("not JSON (\(why))"))
        }
        return .success(convert(object))
    }

    /// json-c's tree as the core's JSON.
    private static func convert(_ object: OpaquePointer?) -> JSON {
        guard let object else { return .null }
        switch json_object_get_type(object) {
        case json_type_boolean:
            return .bool(json_object_get_boolean(object) != 0)
        case json_type_int:
            return .int(Int(json_object_get_int64(object)))
        case json_type_double:
            return .double(json_object_get_double(object))
        case json_type_string:
            guard let text = json_object_get_string(object) else { return .null }
            let count = Int(json_object_get_string_len(object))
            return .string(String(decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self))
        case json_type_array:
            let count = json_object_array_length(object)
            return .array((0..<count).map { convert(json_object_array_get_idx(object, $0)) })
        case json_type_object:
            var fields: [(String, JSON)] = []
            var it = json_object_iter_begin(object)
            var end = json_object_iter_end(object)
            while json_object_iter_equal(&it, &end) == 0 {
                let name = json_object_iter_peek_name(&it).map { String(cString: $0) } ?? ""
                fields.append((name, convert(json_object_iter_peek_value(&it))))
                json_object_iter_next(&it)
            }
            return .object(fields)
        default:
            return .null
        }
    }
}
