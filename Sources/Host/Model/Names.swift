/// What a shortcut type may look like: dot-separated parts of letters, digits, `-` and `_`,
/// optionally ending in `.*` for a namespace handler.
package enum TypeName {
    package static func isValid(_ type: String) -> Bool {
        var parts = type.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last == "*" { parts.removeLast() }
        return !parts.isEmpty && parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }
}

/// What a parameter name may look like: `[A-Za-z_][A-Za-z0-9_]*`, so `name=value` stays
/// unambiguous and Swift property names work as they are.
package enum ParameterName {
    package static func isValid(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
