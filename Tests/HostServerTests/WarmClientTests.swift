import Foundation
import Glibc
import Testing
import TestSupport
import WarmWire

/// The client's side of the warm path without a server (docs/SERVER.md, "Faults" and "Who may
/// talk"): where the socket directory is, a stale socket, a server that does not accept in time,
/// and the accept timeout the environment sets.
@Suite("Warm client", .timeLimit(.minutes(10)))
struct WarmClientTests {
    static let request = WarmRequest(arguments: ["run", "viewstreak"], environment: [], workingDirectory: "/", umask: 0o022)

    /// A socket directory of the client's own (mode 700) for a place of build "test".
    static func place() throws -> WarmPlace {
        let directory = makeTemporaryDirectory("standfit-client").appendingPathComponent("standfit")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return WarmPlace(directory: directory.path, build: "test")
    }

    /// A Unix socket bound at `path`; listening (with a backlog, never accepting) when `listens`.
    static func socket(at path: String, listens: Bool) throws -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try #require(UnixAddress.make(path))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0, "bind: \(String(cString: strerror(errno)))")
        if listens { #expect(listen(descriptor, 8) == 0) }
        return descriptor
    }

    @Test("the socket directory: $XDG_RUNTIME_DIR/standfit when it is an absolute path (a trailing / or not), else /run/user/UID/standfit when that directory is the user's alone, else /tmp/standfit-UID")
    func runtimeDirectory() throws {
        #expect(WarmPlace.runtimeDirectory { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000" : nil } == "/run/user/1000/standfit")
        #expect(WarmPlace.runtimeDirectory { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000/" : nil } == "/run/user/1000/standfit")
        // Unset, empty or relative: the session's directory, when it is there and private.
        let session = "/run/user/\(getuid())"
        let attributes = try? FileManager.default.attributesOfItem(atPath: session)
        let isPrivate = attributes?[.type] as? FileAttributeType == .typeDirectory
            && (attributes?[.ownerAccountID] as? NSNumber)?.uint32Value == getuid()
            && ((attributes?[.posixPermissions] as? NSNumber)?.intValue ?? 0o777) & 0o077 == 0
        let fallback = isPrivate ? session + "/standfit" : "/tmp/standfit-\(getuid())"
        for value in [nil, "", "relative/dir"] {
            #expect(WarmPlace.runtimeDirectory { $0 == "XDG_RUNTIME_DIR" ? value : nil } == fallback, "XDG_RUNTIME_DIR=\(value ?? "(unset)")")
        }
    }

    @Test("a stale socket (a file nobody listens on) is no server: the command is unserved, 'no server of this build listens on' it")
    func staleSocket() throws {
        let place = try Self.place()
        let stale = try Self.socket(at: place.socketPath, listens: false)
        close(stale)
        #expect(FileManager.default.fileExists(atPath: place.socketPath))
        #expect(WarmClient.forward(Self.request, to: place) == .unavailable(.noServer(socket: place.socketPath)))
    }

    @Test("a server that takes the connection and never accepts the request: unserved after the accept timeout, which the call (STANDFIT_ACCEPT_TIMEOUT in the client) sets")
    func slowAccept() throws {
        let place = try Self.place()
        let listener = try Self.socket(at: place.socketPath, listens: true)
        defer { close(listener) }
        // The sentence names the timeout it was given, not the default second.
        #expect(WarmClient.forward(Self.request, to: place, acceptTimeout: 300) == .unavailable(.notAccepted(socket: place.socketPath, seconds: "0.3")))
    }

    @Test("the full host reads back only a notice a client could have made: the reason's own key, values and status; anything else on that hidden argument is no notice")
    func noticesReadBack() throws {
        let notice = ClientNotice(.noServer(socket: "/run/user/1000/standfit/host-b.sock"))
        let line = notice.arguments(for: ["run", "viewstreak", "--json"])
        #expect(line == ["---client-notice", "69", "client.unserved", "part.why=client.why.noServer", "socket=/run/user/1000/standfit/host-b.sock", "--",
                         "run", "viewstreak", "--json"])
        let read = try #require(ClientNotice.read(line))
        #expect(read.notice == notice && read.original == ["run", "viewstreak", "--json"])
        let lost = ClientNotice(.serverLost(pid: 42, command: "'plugins'"))
        #expect(ClientNotice.read(lost.arguments(for: ["plugins"]))?.notice == lost)
        let directory = ClientNotice(.unsafeDirectory("/tmp/standfit-0", .openMode("755")))
        #expect(ClientNotice.read(directory.arguments(for: []))?.notice == directory)
        // Forged: another status, a key of the tables no client says, a value it never sends.
        var forged = line
        forged[1] = "4"
        #expect(ClientNotice.read(forged) == nil)
        #expect(ClientNotice.read(["---client-notice", "69", "client.why.noServer", "socket=x", "--"]) == nil)
        #expect(ClientNotice.read(["---client-notice", "69", "client.unserved", "part.why=client.why.noServer", "socket=x", "note=hello", "--"]) == nil)
        #expect(ClientNotice.read(["---client-notice", "0", "client.unserved", "part.why=client.why.noServer", "socket=x", "--"]) == nil)
    }

    @Test("STANDFIT_ACCEPT_TIMEOUT: seconds from 0.1 to 600, as milliseconds; anything else is no setting (the full host warns of it)")
    func acceptTimeoutSetting() {
        #expect(WarmClient.acceptTimeout(from: "30") == 30_000)
        #expect(WarmClient.acceptTimeout(from: "0.5") == 500)
        #expect(WarmClient.acceptTimeout(from: "600") == 600_000)
        for value in [nil, "", "0", "0.05", "601", "-1", "abc", "nan", "inf"] {
            #expect(WarmClient.acceptTimeout(from: value) == nil, "\(value ?? "(unset)")")
        }
    }
}
