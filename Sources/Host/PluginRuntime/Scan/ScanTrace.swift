import Glibc
import HostModel

/// Where a scan child is in loading its plugin, in memory the scan supervisor shares with the
/// child: when the plugin crashes the child, the supervisor reads the last place noted and says
/// it with the fault ("in register_action, as the host read parameter 2 of action 'x', whose
/// param_count is 3"). Outside a scan child nothing is noted. A place is noted as its
/// `HostText` key and values, so that it is said in the language of the run that shows it.
///
/// Rationale: a crash in the child ends it at once, so the place must already be outside it; a
/// page both processes map is the one store a crashed process cannot leave half-written in a
/// way that matters (a NUL-terminated sentence, at most one being written at a time).
enum ScanTrace {
    private static let size = 1024
    /// The shared page, made by the supervisor before its first child; nil elsewhere.
    nonisolated(unsafe) private static var page: UnsafeMutablePointer<CChar>?
    /// Whether this process is a scan child, the only one that notes.
    nonisolated(unsafe) private static var noting = false

    /// Makes the shared page (the supervisor, once).
    static func share() {
        guard page == nil else { return }
        let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
        guard let memory, memory != MAP_FAILED else { return }
        page = memory.bindMemory(to: CChar.self, capacity: size)
        page?.pointee = 0
    }

    /// Forgets the last child's place (the supervisor, before each fork).
    static func clear() {
        page?.pointee = 0
    }

    /// Marks this process as a scan child (right after the fork).
    static func beginNoting() {
        noting = page != nil
    }

    /// Separates the key from each value's name, and a name from its value, in the page (no
    /// key, name or value the host notes holds them: a type is a reverse-DNS name).
    private static let field: Character = "\u{1}", equals: Character = "\u{2}"

    /// Notes where the child is now: the key and values of words that follow "while it was
    /// loaded and initialised, " (`plugin.place.…`).
    static func note(_ key: String, _ values: @autoclosure () -> [String: String] = [:]) {
        guard noting, let page else { return }
        let text = values().reduce(key) { $0 + String(field) + $1.key + String(equals) + $1.value }
        var bytes = Array(text.utf8.prefix(size - 1))
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { page.update(from: $0.baseAddress!, count: $0.count) }
        }
    }

    /// Runs `body`, a host function the plugin called during init, noted as `call`; then notes
    /// that the child is back in the plugin's own code.
    static func within<T>(_ call: String, _ body: () -> T) -> T {
        guard noting else { return body() }
        note("plugin.place.call", ["call": call])
        defer { noteOwnCode() }
        return body()
    }

    /// Notes that the child is in the plugin's own code during init.
    static func noteOwnCode() {
        note("plugin.place.init")
    }

    /// The last place the child noted, or nil (the supervisor, after the child ended).
    static func lastPlace() -> HostText.Phrase? {
        guard let page, page.pointee != 0 else { return nil }
        let fields = String(cString: page).split(separator: field, omittingEmptySubsequences: false)
        guard let key = fields.first, key.hasPrefix("plugin.place.") else { return nil }
        var values: [String: String] = [:]
        for pair in fields.dropFirst() {
            guard let split = pair.firstIndex(of: equals) else { continue }
            values[String(pair[..<split])] = String(pair[pair.index(after: split)...])
        }
        return HostText.Phrase(String(key), values)
    }
}
