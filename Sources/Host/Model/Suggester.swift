/// Did-you-mean: the known types nearest to what the user typed, by type and by title.
public struct Suggester: Sendable {
    /// A type and the title it is shown with.
    public struct Candidate: Hashable, Sendable {
        public var type: String
        public var title: String?
        public init(type: String, title: String?) {
            self.type = type
            self.title = title
        }
    }

    public var candidates: [Candidate]
    /// At most this many suggestions.
    public var limit = 3

    public init(candidates: [Candidate]) {
        self.candidates = candidates
    }

    /// The types nearest to `input`, nearest first; empty when none is near. Only the
    /// nearest ones are kept (within one edit of the best), so a near miss is not drowned.
    public func suggestions(for input: String) -> [String] {
        let needles = Set([input, Suggester.lastComponent(of: input)].map(Suggester.fold)).filter { !$0.isEmpty }
        guard !needles.isEmpty else { return [] }
        var scores: [String: Int] = [:]
        for candidate in candidates where !candidate.type.hasSuffix(".*") {
            let keys = [candidate.type, Suggester.lastComponent(of: candidate.type), candidate.title ?? ""]
                .map(Suggester.fold).filter { !$0.isEmpty }
            for needle in needles {
                let allowed = max(2, needle.count / 3)
                for key in keys {
                    let score = Suggester.distance(needle, key, containsBonus: true)
                    if score <= allowed { scores[candidate.type] = min(scores[candidate.type] ?? .max, score) }
                }
            }
        }
        guard let best = scores.values.min() else { return [] }
        return scores.filter { $0.value <= best + 1 }
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(limit).map(\.key)
    }

    package static func lastComponent(of type: String) -> String {
        type.split(separator: ".").last.map(String.init) ?? type
    }

    /// Lower-cased letters and digits only: "Log Exercise" and "log-exercise" fold alike.
    ///
    /// The same rule as the SDK's `EntityValue.matchKey`, scalar by scalar, so a name a plugin
    /// matches and a name the host matches are the same name (a test holds the two together).
    package static func fold(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        }))
    }

    /// Levenshtein distance; a key that contains the needle (or the reverse) counts as 1.
    package static func distance(_ a: String, _ b: String, containsBonus: Bool) -> Int {
        if a == b { return 0 }
        if containsBonus, a.count >= 3, b.count >= 3, a.contains(b) || b.contains(a) { return 1 }
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1,
                                 previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
