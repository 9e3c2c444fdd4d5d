/// What a shortcut type may look like: dot-separated parts of letters, digits, `-` and `_`,
/// optionally ending in `.*` for a namespace handler.
package enum TypeName {
    package static func isValid(_ type: String) -> Bool {
        // Checked on UTF-8 bytes: every allowed character is ASCII, and a scan registers
        // thousands of types (Character's Unicode properties cost ten times as much).
        var bytes = Array(type.utf8)
        if bytes.count > 2, bytes.suffix(2) == [UInt8(ascii: "."), UInt8(ascii: "*")] { bytes.removeLast(2) }
        var partLength = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard partLength > 0 else { return false }
                partLength = 0
            } else {
                guard ASCIIName.isWordByte(byte) || byte == UInt8(ascii: "-") else { return false }
                partLength += 1
            }
        }
        return partLength > 0
    }
}

/// What a parameter name may look like: `[A-Za-z_][A-Za-z0-9_]*`, so `name=value` stays
/// unambiguous and Swift property names work as they are.
package enum ParameterName {
    package static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, ASCIIName.isWordByte(first), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return bytes.allSatisfy(ASCIIName.isWordByte)
    }
}

/// The bytes names are made of.
enum ASCIIName {
    /// An ASCII letter, digit or underscore.
    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
