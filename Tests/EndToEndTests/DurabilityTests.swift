import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Durability of the built binary with the built StandFit plugin: many `run`s at once, and
/// `run`s killed with SIGKILL at random moments. The counts are small enough for CI by default;
/// `STANDFIT_TEST_HEAVY=1` runs the full ones (8 × 250 concurrent runs, 200 kills).
@Suite("Durability: concurrent runs and SIGKILL", .timeLimit(.minutes(10)), .needs(.sqlite3))
struct DurabilityTests {
    static let heavy = ProcessInfo.processInfo.environment["STANDFIT_TEST_HEAVY"] == "1"
    /// Workers running at once, each its runs one after the other.
    static let workers = 8
    static let runsPerWorker = heavy ? 250 : 25
    /// How many runs the crash test kills (runs that exit before their kill do not count).
    static let kills = heavy ? 200 : 25
    /// One exercise per worker, so that every entry says which worker logged it.
    static let exercises = ["squats", "pushups", "plank", "lunges", "calfraises", "stretching", "jumpingjacks", "wallsit"]

    // MARK: Concurrency

    @Test("8 workers log at once: every run exits 0 and every entry is stored exactly once",
          arguments: [Start.cold, .warm])
    func concurrentRuns(start: Start) throws {
        let sandbox = HostSandbox.standFit()
        var warmUpRuns = 0
        if start == .warm {
            // A registry cache and both databases exist before the workers start.
            #expect(sandbox.run("run", "logexercise", "exercise=burpees", "count=1").status == 0)
            warmUpRuns = 1
        }
        #expect(FileManager.default.fileExists(atPath: sandbox.registryCache.path) == (start == .warm))

        let runs = Self.runsPerWorker
        let results = Locked([ProcessResult?](repeating: nil, count: Self.workers * runs))
        let gate = StartGate(parties: Self.workers)
        let done = DispatchGroup()
        for worker in 0..<Self.workers {
            done.enter()
            // Threads of their own: Dispatch would run only as many workers as there are cores.
            Thread.detachNewThread {
                gate.arrive()  // every worker's first run starts at once, racing for the cache
                for count in 1...runs {
                    let result = sandbox.run("run", "logexercise", "exercise=\(Self.exercises[worker])", "count=\(count)")
                    results.update { $0[worker * runs + count - 1] = result }
                }
                done.leave()
            }
        }
        done.wait()
        // Nothing runs now: every connection is closed, and each removed its journal files.
        #expect(sandbox.leftoverJournals() == [])

        // Every run was handled, and said so on stdout only.
        var failures: [String] = []
        for (index, result) in results.value.enumerated() {
            let worker = index / runs, count = index % runs + 1
            if let result, result.status == 0, result.stderr.isEmpty, result.stdout.hasPrefix("Logged \(count) ") { continue }
            failures.append("\(Self.exercises[worker]) count=\(count): \(result.map(\.description) ?? "did not run")")
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.workers * runs) runs failed (\(start) start); first: \(failures.prefix(3).joined(separator: "\n"))")

        // The log holds exactly the entries logged: each (exercise, count) once.
        let rows = sandbox.query(.standFit, "SELECT exercise || ' ' || count FROM log WHERE exercise != 'burpees'")
        #expect(rows.count == Self.workers * runs)
        var expected: [String: Int] = [:]
        for worker in 0..<Self.workers { for count in 1...runs { expected["\(Self.exercises[worker]) \(count)"] = 0 } }
        var found = expected
        for row in rows { found[row, default: 0] += 1 }
        let wrong = found.filter { $0.value != 1 }.sorted { $0.key < $1.key }
        #expect(wrong.isEmpty, "entries missing (0), duplicated (>1) or never logged: \(wrong.prefix(10))")

        // Every handled run was donated (state.sqlite keeps the newest 5,000).
        let donations = sandbox.query(.state, "SELECT count(*) FROM donation WHERE type = 'com.standfit.logexercise'")
        #expect(donations == ["\(min(Self.workers * runs + warmUpRuns, 5_000))"])
        // One registry entry for the one plugin, whichever run built it.
        #expect(sandbox.query(.registry, "SELECT count(*) FROM plugin") == ["1"])
        #expect(sandbox.integrity() == [.standFit: "ok", .state: "ok", .registry: "ok"])
    }

    @Test("8 first runs at once on a fresh home: no database or cache is made twice")
    func firstRuns() {
        // The first runs race to make the registry cache, state.sqlite and standfit.sqlite;
        // a race lost shows only in some rounds, so there are several.
        for round in 1...(Self.heavy ? 30 : 6) {
            let sandbox = HostSandbox.standFit()
            let results = Locked([ProcessResult?](repeating: nil, count: Self.workers))
            let gate = StartGate(parties: Self.workers)
            let done = DispatchGroup()
            for worker in 0..<Self.workers {
                done.enter()
                Thread.detachNewThread {
                    gate.arrive()
                    let result = sandbox.run("run", "logexercise", "exercise=\(Self.exercises[worker])", "count=\(worker + 1)")
                    results.update { $0[worker] = result }
                    done.leave()
                }
            }
            done.wait()
            let failures = results.value.enumerated().filter { $0.element?.status != 0 || $0.element?.stderr != "" }
                .map { "\(Self.exercises[$0.offset]): \($0.element.map(\.description) ?? "did not run")" }
            #expect(failures.isEmpty, "round \(round): \(failures.joined(separator: "\n"))")
            #expect(sandbox.query(.standFit, "SELECT count(*) FROM log") == ["\(Self.workers)"], "round \(round)")
            #expect(sandbox.query(.state, "SELECT count(*) FROM donation") == ["\(Self.workers)"], "round \(round)")
            #expect(sandbox.query(.registry, "SELECT count(*) FROM plugin") == ["1"], "round \(round)")
            #expect(sandbox.integrity() == [.standFit: "ok", .state: "ok", .registry: "ok"], "round \(round)")
            guard failures.isEmpty else { break }
        }
    }

    // MARK: Crash safety

    @Test("runs killed with SIGKILL at random moments lose no completed log and corrupt nothing",
          arguments: [Start.cold, .warm])
    func killedRuns(start: Start) throws {
        let seed = ProcessInfo.processInfo.environment["STANDFIT_DURABILITY_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        var random = SplitMix64(seed: seed)
        let reproduce = "seed \(seed) (\(start) start): rerun with STANDFIT_DURABILITY_SEED=\(seed)"
        let sandbox = HostSandbox.standFit()
        if start == .warm {
            #expect(sandbox.run("run", "logexercise", "exercise=burpees", "count=1").status == 0, "\(reproduce)")
        }

        var started: Set<Int> = [], completed: Set<Int> = [], killed = 0
        // When each killed run was killed, for the messages: which moment a failure follows.
        var killedAfter: [Int: useconds_t] = [:]
        var failures: [String] = []
        var count = 0
        var runTime: useconds_t = 40_000
        let output = sandbox.root.appendingPathComponent("run-output")
        while killed < Self.kills && count < Self.kills * 4 {
            count += 1
            // One run in four is left alone, so completed runs come between killed ones; the
            // others are killed after 0 to 40 ms: while the host starts, scans the plugin in
            // its helper (the cache is removed before one run in eight), opens or migrates the
            // databases, logs, donates or stores the dynamic items.
            // The delay is drawn from the time a whole run took last (40 ms before one has
            // completed), so that a kill falls inside the run on a fast warm path as on a slow
            // cold one.
            let shouldKill = random.next() % 4 != 0
            let delay = useconds_t(random.next() % UInt64(max(2_000, runTime)))
            if start == .cold && count % 8 == 1 { sandbox.removeRegistryCache() }
            // Output goes to files, not pipes: a scan helper the kill orphaned may hold them a while.
            _ = FileManager.default.createFile(atPath: output.path + ".out", contents: nil)
            _ = FileManager.default.createFile(atPath: output.path + ".err", contents: nil)
            let (out, err) = (FileHandle(forWritingAtPath: output.path + ".out"), FileHandle(forWritingAtPath: output.path + ".err"))
            defer { try? out?.close(); try? err?.close() }
            let process = Process()
            process.executableURL = Fixtures.hostBinary
            process.arguments = ["run", "logexercise", "exercise=squats", "count=\(count)"]
            // Cold starts run cold on either pass; warm ones through the sandbox's server.
            process.environment = sandbox.environment.merging(start == .cold ? ["STANDFIT_SERVER": "off"] : [:]) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = out
            process.standardError = err
            let began = Date()
            try process.run()
            started.insert(count)
            if shouldKill {
                usleep(delay)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            let stdout = (try? String(contentsOfFile: output.path + ".out", encoding: .utf8)) ?? ""
            let stderr = (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? ""
            switch (process.terminationReason, process.terminationStatus) {
            case (.uncaughtSignal, SIGKILL):
                killed += 1
                killedAfter[count] = delay
            case (.exit, 0) where stdout.hasPrefix("Logged \(count) squat") && stderr.isEmpty:
                completed.insert(count)
                if !shouldKill { runTime = useconds_t(Date().timeIntervalSince(began) * 1_000_000) }
            default:
                failures.append("count=\(count) (\(shouldKill ? "killed after \(delay) µs" : "not killed")): \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)\n--- stdout\n\(stdout)--- stderr\n\(stderr)")
            }
        }
        #expect(killed == Self.kills, "only \(killed) of \(count) runs were killed before they exited; \(reproduce)")
        #expect(failures.isEmpty, "runs that were neither killed nor handled cleanly: \(failures.prefix(3).joined(separator: "\n")); \(reproduce)")

        // Every run that exited 0 is in the log once; nothing is there that was never started.
        let logged = sandbox.query(.standFit, "SELECT count FROM log WHERE exercise = 'squats'").compactMap(Int.init)
        #expect(completed.subtracting(logged).isEmpty,
                "runs that exited 0 but are not in the log: \(completed.subtracting(logged).sorted()); \(reproduce)")
        #expect(Set(logged).subtracting(started).isEmpty, "entries no run logged: \(Set(logged).subtracting(started).sorted()); \(reproduce)")
        #expect(logged.count == Set(logged).count, "an entry is in the log twice: \(logged.sorted()); \(reproduce)")
        // A donation is written after the plugin handled the run: every completed run has one,
        // and none is for an entry that is not in the log.
        let donated = sandbox.query(.state, """
            SELECT json_extract(parameters, '$.count') FROM donation
            WHERE type = 'com.standfit.logexercise' AND json_extract(parameters, '$.exercise') = 'squats'
            """).compactMap(Int.init)
        #expect(completed.subtracting(donated).isEmpty,
                "runs that exited 0 without a donation: \(completed.subtracting(donated).sorted()); \(reproduce)")
        #expect(Set(donated).subtracting(logged).isEmpty,
                "donations of runs whose entry is not in the log: \(Set(donated).subtracting(logged).sorted().map { "\($0) (killed after \(killedAfter[$0].map { "\($0) µs" } ?? "—"))" }); \(reproduce)")

        // The host still works, and leaves sound databases and no journal behind.
        let after = sandbox.run("run", "logexercise", "exercise=squats", "count=3600")
        // (Which achievements and level it reaches depends on how many runs completed before.)
        #expect(after.status == 0 && after.stderr.isEmpty && after.stdout.hasPrefix("Logged 3600 squats · +3600 XP\n"), "\(after); \(reproduce)")
        #expect(sandbox.query(.standFit, "SELECT count(*) FROM log WHERE count = 3600") == ["1"], "\(reproduce)")
        #expect(sandbox.leftoverJournals() == [], "\(reproduce)")
        #expect(sandbox.integrity() == [.standFit: "ok", .state: "ok", .registry: "ok"], "\(reproduce)")
    }

    @Test("an upgrade's fold of 30,000 logs killed with SIGKILL leaves the database as it was, and the next run folds it as an unbroken one would")
    func killedFold() throws {
        // Two homes with the same year of logs, as a StandFit from before the day states left
        // them (no progressRules): the first change folds the whole log in its transaction.
        func upgradedHome() -> HostSandbox {
            var sandbox = HostSandbox.standFit()
            sandbox.extraEnvironment["STANDFIT_SERVER"] = "off"
            #expect(sandbox.run("run", "logexercise", "exercise=burpees", "count=1").status == 0)
            _ = sandbox.query(.standFit, """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
                INSERT INTO log (exercise, count, loggedAt)
                SELECT 'pushups', 10 + i % 7, strftime('%Y-%m-%d %H:%M:%f', 1795300000 - i * 1050, 'unixepoch') FROM n;
                DELETE FROM progressRules;
                """)
            return sandbox
        }
        let control = upgradedHome(), sandbox = upgradedHome()
        let before = sandbox.query(.standFit, "SELECT count(*), (SELECT count(*) FROM progressDay), (SELECT count(*) FROM progressRules) FROM log")
        #expect(before == ["30001|1|0"])
        // Kills after 25 ms, 37 ms, 56 ms, … (half as long again each time) until a run
        // completes: from the start-up through the fold, which takes most of the run.
        var delay: useconds_t = 25_000, kills = 0
        var completed: ProcessResult?, tookEffect = false
        while !tookEffect && delay < 60_000_000 {
            let process = Process()
            process.executableURL = Fixtures.hostBinary
            process.arguments = ["run", "logexercise", "exercise=squats", "count=5"]
            process.environment = sandbox.environment
            process.standardInput = FileHandle.nullDevice
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(delay)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(sandbox.integrity()[.standFit] == "ok", "killed after \(delay) µs")
            if process.terminationReason == .uncaughtSignal,
               sandbox.query(.standFit, "SELECT count(*), (SELECT count(*) FROM progressDay), (SELECT count(*) FROM progressRules) FROM log") == before {
                // Nothing of the killed run's transaction is left: not its log, not a day state.
                kills += 1
                delay = delay * 3 / 2
                continue
            }
            // It completed, or was killed after its transaction committed (while the host
            // donated): either way the run took effect whole.
            tookEffect = true
            if process.terminationReason == .exit { completed = ProcessResult(status: process.terminationStatus, stdout: stdout, stderr: "") }
        }
        #expect(kills >= 5, "only \(kills) runs were killed before one completed")
        let unbroken = control.run("run", "logexercise", "exercise=squats", "count=5")
        #expect(unbroken.status == 0 && unbroken.stdout == "Logged 5 squats · +5 XP\n", "\(unbroken)")
        if let completed { #expect(completed == ProcessResult(status: 0, stdout: unbroken.stdout, stderr: "")) }
        for home in [sandbox, control] {
            #expect(home.query(.standFit, "SELECT count(*), (SELECT count(*) FROM progressRules) FROM log") == ["30002|1"])
        }
        #expect(sandbox.query(.standFit, "SELECT day, state FROM progressDay ORDER BY day")
            == control.query(.standFit, "SELECT day, state FROM progressDay ORDER BY day"))
        #expect(sandbox.run("run", "viewprogress") == control.run("run", "viewprogress"))
    }

    @Test("a scan helper or handler worker dies with a host killed by SIGKILL, even while its plugin hangs",
          arguments: [("hang-init.so", ["list"]), ("hang-handler.so", ["run", "com.zoo.hang-handler.run"])])
    func helpersDieWithTheHost(plugin: String, arguments: [String]) throws {
        let sandbox = try HostSandbox(pluginPath: [FixturePlugins.zoo(plugin)])
        sandbox.writeConfig(#"{"scanTimeout": 30, "handlerTimeout": 30}"#)
        #expect(sandbox.serveWarmPath() == nil)
        if plugin == "hang-handler.so" { #expect(sandbox.run("list").status == 0) }  // scanned, cached
        try sandbox.checkingHandBacks(arguments.joined(separator: " ")) {
            let process = Process()
            process.executableURL = Fixtures.hostBinary
            process.arguments = arguments
            process.environment = sandbox.environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let host = process.processIdentifier
            // On the warm path the helpers are the server's; killing the client cancels the request.
            let parent = sandbox.server.pid ?? host
            var helpers: [pid_t] = []
            let deadline = Date().addingTimeInterval(20)
            while helpers.isEmpty && Date() < deadline && process.isRunning {
                usleep(20_000)
                helpers = ProcessTable.children(of: parent)
            }
            #expect(!helpers.isEmpty, "\(arguments) started no helper process")
            kill(host, SIGKILL)
            // The helper hangs in the plugin: only the kernel ends it, as its parent died. (Not
            // waitUntilExit first: Foundation sees the host end only once the helper, which
            // inherited a descriptor of its, ends too.)
            let gone = Date().addingTimeInterval(5)
            while helpers.contains(where: ProcessTable.isAlive) && Date() < gone { usleep(20_000) }
            let survivors = helpers.filter(ProcessTable.isAlive)
            #expect(survivors.isEmpty, "\(arguments): helper \(survivors) outlived its killed host")
            for survivor in survivors { kill(survivor, SIGKILL) }
            process.waitUntilExit()
        }
    }

    enum Start: String, Sendable, CustomTestStringConvertible {
        /// No registry cache and no databases: the first runs race to make them.
        case cold
        /// After one run made them.
        case warm
        var testDescription: String { rawValue }
    }
}

// MARK: - Helpers

extension HostSandbox {
    enum Database: String, CaseIterable, CustomStringConvertible {
        case standFit = "data/standfit/data/com.standfit/standfit.sqlite"
        case state = "data/standfit/state.sqlite"
        case registry = "cache/standfit/registry.sqlite"
        var description: String { URL(fileURLWithPath: rawValue).lastPathComponent }
    }

    func url(of database: Database) -> URL { root.appendingPathComponent(database.rawValue) }

    /// The rows `sql` answers in `database`, through the sqlite3 shell, one line each.
    func query(_ database: Database, _ sql: String) -> [String] {
        runProcess(ExternalTool.sqlite3.url, arguments: [url(of: database).path, sql])
            .stdout.split(separator: "\n").map(String.init)
    }

    /// `PRAGMA integrity_check` of every database.
    func integrity() -> [Database: String] {
        Dictionary(uniqueKeysWithValues: Database.allCases.map { database in
            (database, query(database, "PRAGMA integrity_check").joined(separator: "\n"))
        })
    }

    /// Rollback journals, WAL and shared-memory files still beside the databases once no
    /// command runs: each connection that closes last removes them. On the warm path the
    /// server's workers keep StandFit's database open (that is what warm means), so the server
    /// is stopped first: it ends its workers as a cold run's process ends, closing it.
    func leftoverJournals() -> [String] {
        server.stopAll()
        return Database.allCases.flatMap { database in
            ["-journal", "-wal", "-shm"].map { url(of: database).path + $0 }
        }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Removes the registry cache, as a user may ("safe to delete: it is rebuilt").
    func removeRegistryCache() {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: registryCache.path + suffix)
        }
    }
}

/// Processes as /proc shows them.
enum ProcessTable {
    /// The state letter and parent of `pid` from /proc/PID/stat; nil when it is gone.
    static func stat(_ pid: pid_t) -> (state: Character, parent: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        return (state, parent)
    }

    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { stat($0)?.parent == parent }
    }

    /// Running or sleeping: not gone and not a zombie waiting to be reaped.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let state = stat(pid)?.state else { return false }
        return state != "Z" && state != "X"
    }
}

/// A value shared between threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// Lets `parties` threads go on together once all of them arrived.
final class StartGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int
    init(parties: Int) { waiting = parties }
    func arrive() {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        if waiting == 0 { condition.broadcast() }
        while waiting > 0 { condition.wait() }
    }
}
