import Foundation
import Glibc
import HostModel
@testable import HostServer
import Logging
import PluginRuntime
import StandFitHost
import Synchronization
import Testing
import TestSupport
import WarmWire

/// The warm server as a library: a request driven through it with a fake set of commands, over
/// its real socket, with no command-line parser and no session.
@Suite("Warm server library", .timeLimit(.minutes(10)))
struct WarmServerTests {
    /// Commands for the tests: what each request comes to is `answer`'s.
    struct FakeCommands: ServedCommands {
        let answer: @Sendable ([String], RequestScope, WarmServer) -> Admission

        func admit(_ arguments: [String], in scope: RequestScope, by server: WarmServer) -> Admission {
            answer(arguments, scope, server)
        }
    }

    /// A server on a socket directory of its own, serving on a thread until `stop`.
    final class Running: Sendable {
        let server: WarmServer
        let place: WarmPlace
        private let done = DispatchSemaphore(value: 0)

        init(_ answer: @escaping @Sendable ([String], RequestScope, WarmServer) -> Admission) throws {
            let executable = CommandLine.arguments[0]
            let build = try #require(WarmPlace.buildIdentity(of: executable))
            place = WarmPlace(directory: makeTemporaryDirectory().path + "/run", build: build)
            server = WarmServer(place: place, executable: executable, idleTimeout: 600,
                                warm: WarmResources(workers: WarmWorkers(limit: 1, idleTimeout: 60)), startedByBus: false,
                                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                                commands: FakeCommands(answer: answer), desktop: nil)
            guard case .success(let listener) = server.listen() else {
                Issue.record("the server could not listen on \(place.socketPath)")
                throw CancellationError()
            }
            let (server, done) = (server, done)
            Thread.detachNewThread {
                server.serve(listener: listener, activation: nil)
                done.signal()
            }
        }

        /// Stops the server and waits for it to end.
        func stop() {
            server.stop()
            #expect(done.wait(timeout: .now() + 15) == .success, "the server did not end")
        }
    }

    /// What a client got: the frames the server answered with, and what the request wrote.
    struct Reply {
        var frames: [Frame] = []
        var output = ""
        var errors = ""
    }

    /// Sends `arguments` as a client would, with its own pipes as descriptors 1 and 2, and
    /// `environment` and `directory`; says go once accepted, and, `cancelling`, sends that
    /// cancel 0.2 s later.
    static func request(_ arguments: [String], to place: WarmPlace, build: String? = nil, environment: [String] = [],
                        directory: String = "/", cancelling signal: Int32? = nil) throws -> Reply {
        let connection = try #require(WarmClient.connect(to: place.socketPath))
        var output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        #expect(pipe(&output) == 0 && pipe(&errors) == 0)
        let input = open("/dev/null", O_RDONLY)
        var request = WarmRequest(arguments: arguments, environment: environment, workingDirectory: directory, umask: 0o022)
        request.build = build ?? place.build
        #expect(connection.send(.request(request), descriptors: [input, output[1], errors[1]]) == 0)
        [input, output[1], errors[1]].forEach { close($0) }
        var reply = Reply()
        loop: while true {
            switch connection.receive(timeout: 10_000) {
            case .frame(let frame):
                reply.frames.append(frame)
                switch frame {
                case .accepted:
                    if let signal {
                        _ = connection.send(.go)
                        usleep(200_000)
                        _ = connection.send(.cancel(signal: signal))
                    } else {
                        _ = connection.send(.go)
                    }
                case .runCold, .exit:
                    break loop
                default:
                    continue
                }
            default:
                break loop
            }
        }
        reply.output = readAll(output[0])
        reply.errors = readAll(errors[0])
        return reply
    }

    private static func readAll(_ descriptor: Int32) -> String {
        defer { close(descriptor) }
        var data = [UInt8](), chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            data += chunk[..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a request runs in its own scope: the client's arguments, environment and directory, its exit status answered")
    func oneRequest() throws {
        let running = try Running { arguments, _, _ in
            .serve {
                let request = HostRequest.current
                Console.current.print("\(arguments.joined(separator: " ")) \(request.environment["GREETING"] ?? "-") \(request.workingDirectory.path)")
                Console.current.error("to stderr\n")
                return 7
            }
        }
        defer { running.stop() }
        let reply = try Self.request(["say", "hello"], to: running.place, environment: ["GREETING=hoi"], directory: "/tmp")
        #expect(reply.frames == [.accepted, .exit(status: 7)])
        #expect(reply.output == "say hello hoi /tmp\n")
        #expect(reply.errors == "to stderr\n")
        #expect(running.server.requestsServed == 1)
    }

    @Test("inside a request the server is WarmServer.current; outside, there is none")
    func currentServer() throws {
        let seen = Mutex<Bool>(false)
        let running = try Running { _, _, server in
            .serve {
                seen.withLock { $0 = WarmServer.current === server }
                return 0
            }
        }
        defer { running.stop() }
        #expect(try Self.request([], to: running.place).frames == [.accepted, .exit(status: 0)])
        #expect(seen.withLock { $0 })
        #expect(WarmServer.current == nil)
    }

    @Test("two requests side by side each see their own facts")
    func sideBySide() throws {
        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let running = try Running { _, _, _ in
            .serve {
                // Both are in flight before either answers.
                arrived.signal()
                release.wait()
                Console.current.print("\(HostRequest.current.environment["WHO"] ?? "-") \(FileManager.default.currentDirectoryPath)")
                return 0
            }
        }
        defer { running.stop() }
        let replies = Mutex<[String: Reply]>([:])
        let group = DispatchGroup()
        for (who, directory) in [("first", "/tmp"), ("second", "/usr")] {
            DispatchQueue.global().async(group: group) {
                let reply = try? Self.request([], to: running.place, environment: ["WHO=\(who)"], directory: directory)
                replies.withLock { $0[who] = reply }
            }
        }
        for _ in 0..<2 { #expect(arrived.wait(timeout: .now() + 10) == .success) }
        release.signal()
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(replies.withLock { $0["first"]?.output } == "first /tmp\n")
        #expect(replies.withLock { $0["second"]?.output } == "second /usr\n")
    }

    @Test("a request the commands hand back, and one from another build, are answered RunCold and nothing runs")
    func runCold() throws {
        let ran = Mutex<Int>(0)
        let running = try Running { arguments, _, _ in
            guard arguments != ["help"] else { return .runCold(reason: "help", asDesigned: true) }
            return .serve {
                ran.withLock { $0 += 1 }
                return 0
            }
        }
        defer { running.stop() }
        #expect(try Self.request(["help"], to: running.place).frames == [.runCold])
        #expect(try Self.request(["list"], to: running.place, build: "another-build").frames == [.runCold])
        #expect(ran.withLock { $0 } == 0)
        #expect(running.server.requestsServed == 0)
    }

    @Test("a cancel from the client wakes a prompt, silences the request and answers 128 + the signal")
    func cancel() throws {
        let woke = Mutex<String?>("not yet")
        let running = try Running { _, _, _ in
            .serve {
                // Standard input is /dev/null here: a prompt would read its end at once, so the
                // request waits for the cancel on its link instead.
                var ready = pollfd(fd: RequestLink.current.cancelDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 10_000)
                woke.withLock { $0 = RequestLink.current.isCancelled ? "cancelled" : "timed out" }
                Console.current.print("never seen")
                return 0
            }
        }
        defer { running.stop() }
        let reply = try Self.request([], to: running.place, cancelling: SIGINT)
        #expect(reply.frames == [.accepted, .exit(status: 128 + SIGINT)])
        #expect(reply.output == "")
        // The request itself ends soon after the answer.
        for _ in 0..<100 where woke.withLock({ $0 }) == "not yet" { usleep(20_000) }
        #expect(woke.withLock { $0 } == "cancelled")
    }

    @Test("requests are served on kept threads: sequential requests reuse one, side by side ones start no more than they need")
    func keptThreads() throws {
        let release = DispatchSemaphore(value: 0), arrived = DispatchSemaphore(value: 0)
        let running = try Running { arguments, _, _ in
            .serve {
                if arguments == ["wait"] {
                    arrived.signal()
                    release.wait()
                }
                return 0
            }
        }
        defer { running.stop() }
        let threads = running.server.requestThreads
        /// Until every kept thread has finished its request (its bookkeeping after the answer too).
        func settle() {
            for _ in 0..<500 where threads.waiting < threads.count { usleep(10_000) }
            #expect(threads.waiting == threads.count)
        }
        for _ in 0..<10 {
            #expect(try Self.request([], to: running.place).frames == [.accepted, .exit(status: 0)])
            settle()
        }
        #expect(threads.count == 1)
        let group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) { _ = try? Self.request(["wait"], to: running.place) }
        }
        for _ in 0..<3 { #expect(arrived.wait(timeout: .now() + 10) == .success) }
        #expect(threads.count == 3)
        for _ in 0..<3 { release.signal() }
        #expect(group.wait(timeout: .now() + 10) == .success)
        settle()
        // Kept, and enough: more requests start no thread.
        for _ in 0..<5 {
            #expect(try Self.request([], to: running.place).frames == [.accepted, .exit(status: 0)])
            settle()
        }
        #expect(threads.count == 3)
    }

    @Test("one watcher for every running request: a cancel ends the request it came for and no other")
    func cancelOnlyItsOwn() throws {
        let cancelled = Mutex<[String: Bool]>([:]), arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let running = try Running { arguments, _, _ in
            .serve {
                arrived.signal()
                let link = RequestLink.current
                if arguments == ["cancelled"] {
                    var ready = pollfd(fd: link.cancelDescriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&ready, 1, 10_000)
                } else {
                    _ = release.wait(timeout: .now() + 10)
                }
                cancelled.withLock { $0[arguments.first ?? ""] = link.isCancelled }
                return 0
            }
        }
        defer { running.stop() }
        let group = DispatchGroup()
        let kept = Mutex<Reply?>(nil)
        DispatchQueue.global().async(group: group) {
            let reply = try? Self.request(["kept"], to: running.place)
            kept.withLock { $0 = reply }
        }
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        let reply = try Self.request(["cancelled"], to: running.place, cancelling: SIGINT)
        #expect(reply.frames == [.accepted, .exit(status: 128 + SIGINT)])
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(kept.withLock { $0?.frames } == [.accepted, .exit(status: 0)])
        for _ in 0..<100 where cancelled.withLock({ $0.count }) < 2 { usleep(20_000) }
        #expect(cancelled.withLock { $0 } == ["cancelled": true, "kept": false])
    }

    @Test("a cancel that arrives with the go, in the same read, still cancels the request")
    func cancelWithTheGo() throws {
        let woke = Mutex<String?>(nil)
        let running = try Running { _, _, _ in
            .serve {
                var ready = pollfd(fd: RequestLink.current.cancelDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 10_000)
                woke.withLock { $0 = RequestLink.current.isCancelled ? "cancelled" : "timed out" }
                return 0
            }
        }
        defer { running.stop() }
        let connection = try #require(WarmClient.connect(to: running.place.socketPath))
        let null = open("/dev/null", O_RDWR)
        defer { close(null) }
        var request = WarmRequest(arguments: [], environment: [], workingDirectory: "/", umask: 0o022)
        request.build = running.place.build
        #expect(connection.send(.request(request), descriptors: [null, null, null]) == 0)
        #expect(connection.receive(timeout: 10_000) == .frame(.accepted))
        // Both frames in one write: the server reads them together.
        let bytes = Frame.go.bytes + Frame.cancel(signal: SIGINT).bytes
        #expect(bytes.withUnsafeBytes { write(connection.descriptor, $0.baseAddress, $0.count) } == bytes.count)
        #expect(connection.receive(timeout: 10_000) == .frame(.exit(status: 128 + SIGINT)))
        for _ in 0..<100 where woke.withLock({ $0 }) == nil { usleep(20_000) }
        #expect(woke.withLock { $0 } == "cancelled")
    }

    @Test("stop ends the server once it is idle, and removes its socket")
    func stop() throws {
        let running = try Running { _, _, _ in .serve { 0 } }
        #expect(FileManager.default.fileExists(atPath: running.place.socketPath))
        running.stop()
        #expect(!FileManager.default.fileExists(atPath: running.place.socketPath))
    }
}

@Suite("The request's session bus", .timeLimit(.minutes(10)))
struct SessionAddressTests {
    @Test("DBUS_SESSION_BUS_ADDRESS when it names Unix sockets only; else $XDG_RUNTIME_DIR/bus when that is a socket; else none")
    func addresses() throws {
        #expect(DesktopBus.sessionAddress(in: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]) == "unix:path=/run/user/1000/bus")
        #expect(DesktopBus.sessionAddress(in: ["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=/tmp/dbus-x,guid=1;unix:path=/b"])
            == "unix:abstract=/tmp/dbus-x,guid=1;unix:path=/b")
        // Never a program to execute, nor another machine, from a request's environment.
        #expect(DesktopBus.sessionAddress(in: ["DBUS_SESSION_BUS_ADDRESS": "unixexec:path=/bin/sh,argv1=-c,argv2=touch%20/tmp/x"]) == nil)
        #expect(DesktopBus.sessionAddress(in: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/b;tcp:host=example.org,port=1"]) == nil)
        #expect(DesktopBus.sessionAddress(in: [:]) == nil)
        // $XDG_RUNTIME_DIR/bus: a socket only, its path escaped as an address value.
        let runtime = makeTemporaryDirectory().appendingPathComponent("a b")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        #expect(DesktopBus.sessionAddress(in: ["XDG_RUNTIME_DIR": runtime.path]) == nil)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = try #require(UnixAddress.make(runtime.appendingPathComponent("bus").path))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(DesktopBus.sessionAddress(in: ["XDG_RUNTIME_DIR": runtime.path])
            == "unix:path=" + runtime.path.replacingOccurrences(of: " ", with: "%20") + "/bus")
    }
}
