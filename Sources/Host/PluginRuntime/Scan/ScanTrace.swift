import Glibc

/// Where a scan child is in loading its plugin, in memory the scan supervisor shares with the
/// child: when the plugin crashes the child, the supervisor reads the last place noted and says
/// it with the fault ("in register_action, as the host read parameter 2 of action 'x', whose
/// param_count is 3"). Outside a scan child nothing is noted.
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

    /// Notes where the child is now: words that follow "while it was loaded and initialised, ".
    static func note(_ place: @autoclosure () -> String) {
        guard noting, let page else { return }
        var bytes = Array(place().utf8.prefix(size - 1))
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { page.update(from: $0.baseAddress!, count: $0.count) }
        }
    }

    /// Runs `body`, a host function the plugin called during init, noted as `call`; then notes
    /// that the child is back in the plugin's own code.
    static func within<T>(_ call: String, _ body: () -> T) -> T {
        guard noting else { return body() }
        note("in \(call), as the host read what the plugin passed to it")
        defer { note(ownCode) }
        return body()
    }

    /// The place of the plugin's own code during init.
    static let ownCode = "in its own code in init"

    /// The last place the child noted, or nil (the supervisor, after the child ended).
    static func lastPlace() -> String? {
        guard let page, page.pointee != 0 else { return nil }
        return String(cString: page)
    }
}
