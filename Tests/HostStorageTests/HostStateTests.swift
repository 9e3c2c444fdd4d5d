import Foundation
import Testing
import TestSupport
import HostModel
@testable import HostStorage
import GRDB

@Suite("Host state", .timeLimit(.minutes(10)), .needs(.sqlite3))
struct HostStateTests {
    @Test("at most 5,000 donations are kept: the oldest go first")
    func donationCap() throws {
        let state = try HostState(directory: makeTemporaryDirectory())
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        for index in 1...(HostState.donationLimit + 3) {
            try state.donate(Donation(type: "com.example.a", parameters: ["n": "\(index)"], date: start.addingTimeInterval(Double(index))), minute: 0)
        }
        let kept = try state.donations()
        #expect(HostState.donationLimit == 5_000)
        #expect(kept.count == 5_000)
        #expect(kept.first?.parameters == ["n": "4"])
        #expect(kept.last?.parameters == ["n": "5003"])
    }

    @Test("times are stored as Unix seconds; migration v4 turns the text times of older states into numbers")
    func timesMigrate() throws {
        let directory = makeTemporaryDirectory()
        let when = Date(timeIntervalSince1970: 1_795_000_000.25)
        do {
            let state = try HostState(directory: directory)
            try state.donate(Donation(type: "com.example.a", parameters: ["n": "1"], date: when), minute: 0)
        }
        let database = directory.appendingPathComponent("state.sqlite").path
        func sql(_ statement: String) -> String {
            runProcess(ExternalTool.sqlite3.url, arguments: [database, statement]).stdout
        }
        #expect(sql("SELECT typeof(donatedAt) FROM donation") == "real\n")
        // As a state written before v4 had it: GRDB's text form, and v4 not yet applied.
        _ = sql("UPDATE donation SET donatedAt = '2026-11-18 11:06:40.250'; DELETE FROM grdb_migrations WHERE identifier = 'v4'")
        #expect(sql("SELECT typeof(donatedAt) FROM donation") == "text\n")
        let reopened = try HostState(directory: directory)
        #expect(sql("SELECT typeof(donatedAt) FROM donation") == "real\n")
        let donations = try reopened.donations()
        #expect(donations.count == 1)
        #expect(abs((donations.first?.date.timeIntervalSince1970 ?? 0) - when.timeIntervalSince1970) < 0.001)
    }

    /// One run as the test remembers it: what the state's groups must sum.
    struct Run {
        var id: Int64
        var donation: Donation
        var minute: Int
    }

    /// The groups a fold of `runs` (oldest first) makes: the oracle of the stored sums.
    static func groups(of runs: [Run]) -> [DonationGroup] {
        var groups: [String: DonationGroup] = [:]
        for run in runs {
            let key = run.donation.type + "\u{0}" + run.donation.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{1}")
            var group = groups[key] ?? DonationGroup(type: run.donation.type, parameters: run.donation.parameters, titles: [:], runs: 0,
                                                     lastRun: run.donation.date, weight: 0, cosSum: 0, sinSum: 0)
            group.add(date: run.donation.date, minute: run.minute, titles: run.donation.titles)
            groups[key] = group
        }
        return groups.values.sorted { ($0.type, $0.parameters.description) < ($1.type, $1.parameters.description) }
    }

    static func same(_ stored: [DonationGroup], _ expected: [DonationGroup]) -> Bool {
        let key = { (group: DonationGroup) in group.type + group.parameters.sorted { $0.key < $1.key }.description }
        let stored = stored.sorted { key($0) < key($1) }, expected = expected.sorted { key($0) < key($1) }
        guard stored.count == expected.count else { return false }
        return zip(stored, expected).allSatisfy { stored, expected in
            stored.type == expected.type && stored.parameters == expected.parameters && stored.titles == expected.titles
                && stored.runs == expected.runs && stored.lastRun == expected.lastRun
                && abs(stored.weight - expected.weight) < 1e-9 && abs(stored.cosSum - expected.cosSum) < 1e-9
                && abs(stored.sinSum - expected.sinSum) < 1e-9 && stored.firstRun == expected.firstRun && stored.slots == expected.slots
        }
    }

    @Test("the runs summed per action and values stay what a fold of the kept runs makes, through runs out of order, withdrawals, the limit and clears", arguments: [1, 2, 3] as [UInt64])
    func donationGroups(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let state = try HostState(directory: makeTemporaryDirectory(), keptDonations: 60)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        var runs: [Run] = []
        var nextID: Int64 = 1
        for step in 0..<400 {
            switch random.below(20) {
            case 0:
                // A run undone: its plugin withdraws what it named the run.
                let effect = "log/\(random.below(40))"
                let removed = try state.withdrawDonations(of: "com.example", effects: [effect])
                #expect(removed == runs.filter { $0.donation.effect == effect }.count, "seed \(seed), step \(step)")
                runs.removeAll { $0.donation.effect == effect }
            case 1 where step % 7 == 0:
                let type = ["com.example.a", "com.example.b"][random.below(2)]
                _ = try state.clearDonations(type: type)
                runs.removeAll { $0.donation.type == type }
            default:
                // Mostly forward in time, sometimes an older run (a clock set back), sometimes a tie.
                let offset = Double(step * 3_600) + Double(random.below(5) == 0 ? -random.below(200_000) : random.below(600))
                let values = ["n": "\(random.below(6))"]
                let donation = Donation(type: ["com.example.a", "com.example.b"][random.below(2)], parameters: values,
                                        titles: ["n": "N\(random.below(4))"], date: start.addingTimeInterval(offset),
                                        plugin: "com.example", effect: "log/\(random.below(40))")
                let minute = random.below(1_440)
                try state.donate(donation, minute: minute)
                runs.append(Run(id: nextID, donation: donation, minute: minute))
                nextID += 1
                if runs.count > 60 { runs.removeFirst(runs.count - 60) }
            }
            let stored = try state.donationGroups()
            #expect(Self.same(stored, Self.groups(of: runs)), "seed \(seed), step \(step): \(stored) != \(Self.groups(of: runs))")
        }
        #expect(try state.donations().count == runs.count)
    }

    @Test("runs decades apart (a clock once set to 1970): taking out the latest leaves a finite weight, and the group stays usable")
    func decadesApart() throws {
        let state = try HostState(directory: makeTemporaryDirectory(), keptDonations: 2)
        let values = ["n": "1"]
        try state.donate(Donation(type: "com.example.a", parameters: values, date: Date(timeIntervalSince1970: 60), plugin: "p", effect: "old"), minute: 1)
        try state.donate(Donation(type: "com.example.a", parameters: values, date: Date(timeIntervalSince1970: 1_795_000_000), plugin: "p", effect: "new"), minute: 2)
        #expect(try state.withdrawDonations(of: "p", effects: ["new"]) == 1)
        let group = try #require(try state.donationGroups().first)
        #expect(group.runs == 1 && group.weight == 1 && group.lastRun == Date(timeIntervalSince1970: 60))
        // Donating again (and so pruning past the limit) goes on working.
        for day in 1...3 {
            try state.donate(Donation(type: "com.example.a", parameters: values, date: Date(timeIntervalSince1970: Double(day) * 86_400)), minute: 3)
        }
        #expect(try state.donationGroups().map(\.runs) == [2])
    }

    @Test("migrations v7 and v10 sum the runs of an older state, each at its local minute in the zone of the upgrade, with their first runs and half hours")
    func groupsMigrate() throws {
        let directory = makeTemporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        var runs: [Run] = []
        do {
            let state = try HostState(directory: directory)
            for index in 0..<300 {
                let donation = Donation(type: "com.example.a", parameters: ["n": "\(index % 4)"], titles: ["n": "N\(index % 4)"],
                                        date: start.addingTimeInterval(Double(index * 4_000)))
                let minute = LocalMinute.of(donation.date, in: TimeZone.current)
                try state.donate(donation, minute: minute)
                runs.append(Run(id: Int64(index + 1), donation: donation, minute: minute))
            }
        }
        let database = directory.appendingPathComponent("state.sqlite").path
        // As a state written before v7 had it.
        let downgrade = runProcess(ExternalTool.sqlite3.url, arguments: [database, """
            DROP TABLE donationGroup; DROP INDEX donation_on_type_parameters; ALTER TABLE donation DROP COLUMN minute;
            DELETE FROM grdb_migrations WHERE identifier IN ('v7', 'v10')
            """])
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let reopened = try HostState(directory: directory)
        #expect(Self.same(try reopened.donationGroups(), Self.groups(of: runs)))
        #expect(try reopened.donationGroups().map(\.runs).reduce(0, +) == 300)
    }

    @Test("dynamic items are stored by language alone (issue 33): nl_NL and nl are one; migration v8 merges an older state's regional rows, the newest answer kept")
    func languagesMerge() throws {
        let directory = makeTemporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let item = { (title: String) in ShortcutItem(type: "com.example.a", title: title, source: .dynamic, origin: "p") }
        do {
            let state = try HostState(directory: directory)
            try state.replaceItems(source: "p", language: "nl_NL", pluginVersion: "1", items: [item("Dutch")], at: start)
            #expect(try state.languages(of: "p") == ["nl"])
            #expect(try state.dynamicSources(language: "nl-BE").map { $0.items.map(\.title) } == [["Dutch"]])
            try state.replaceItems(source: "p", language: "en", pluginVersion: "1", items: [item("English")], at: start)
            #expect(try state.dynamicSources(language: "en_US").map { $0.items.map(\.title) } == [["English"]])
        }
        let database = directory.appendingPathComponent("state.sqlite").path
        // As a state written before v8 had it: the raw tags, an older "nl" beside a newer "nl_NL".
        let downgrade = runProcess(ExternalTool.sqlite3.url, arguments: [database, """
            PRAGMA foreign_keys = ON;
            INSERT INTO dynamicSource (source, language, pluginVersion, updatedAt) VALUES ('p', 'nl_NL', '2', \(start.timeIntervalSince1970 + 60));
            INSERT INTO dynamicItem (source, language, rank, type, title, userInfo) VALUES ('p', 'nl_NL', 1, 'com.example.a', 'Nederlands', '{}');
            INSERT INTO dynamicSource (source, language, pluginVersion, updatedAt) VALUES ('p', 'en_US', '2', \(start.timeIntervalSince1970 - 60));
            INSERT INTO dynamicItem (source, language, rank, type, title, userInfo) VALUES ('p', 'en_US', 1, 'com.example.a', 'Older English', '{}');
            DELETE FROM grdb_migrations WHERE identifier = 'v8'
            """])
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let reopened = try HostState(directory: directory)
        #expect(try reopened.languages(of: "p") == ["en", "nl"])
        #expect(try reopened.dynamicSources(language: "nl").map { $0.items.map(\.title) } == [["Nederlands"]])
        #expect(try reopened.dynamicSources(language: "en").map { $0.items.map(\.title) } == [["English"]])
        #expect(runProcess(ExternalTool.sqlite3.url, arguments: [database, "SELECT count(*) FROM dynamicItem"]).stdout == "2\n")
    }
}

@Suite("State durability", .timeLimit(.minutes(10)))
struct StateDurabilityTests {
    @Test("the state runs in WAL mode with synchronous=NORMAL (crash-safe, no fsync for the host's bookkeeping); a durable write leaves the level NORMAL again")
    func levels() throws {
        let state = try HostState(directory: makeTemporaryDirectory())
        func pragma(_ name: String) throws -> String {
            try state.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") ?? "" }
        }
        #expect(try pragma("journal_mode") == "wal")
        #expect(try pragma("synchronous") == "1")
        try state.pin("/p/libx.so", sha256: String(repeating: "a", count: 64), at: Date())
        #expect(try state.pins() == ["/p/libx.so": String(repeating: "a", count: 64)])
        // The writer's own level, after the durable write: back to NORMAL for the next bookkeeping.
        var level = ""
        try state.write(HostText.Phrase("state.saveSetting", ["key": "level"])) { db in level = try String.fetchOne(db, sql: "PRAGMA synchronous") ?? "" }
        #expect(level == "1")
    }
}

@Suite("Stored items kept between commands", .timeLimit(.minutes(10)))
struct StoredItemsMemoTests {
    @Test("a state that keeps its stored items answers from memory only while nothing was written, by it or by another connection")
    func keptWhileUnchanged() throws {
        let directory = makeTemporaryDirectory()
        let warm = try HostState(directory: directory, keepsStoredItems: true)
        let other = try HostState(directory: directory)
        func titles(_ state: HostState) throws -> [String] {
            try state.dynamicSources(language: "en").flatMap { $0.items.map(\.title) }
        }
        try warm.replaceItems(source: "p", language: "en", pluginVersion: "1", items: [ShortcutItem(type: "p.a", title: "A")], at: Date())
        #expect(try titles(warm) == ["A"])
        let version = try #require(warm.storedItems?.version())
        #expect(warm.storedItems?.sources(language: "en", version: version)?.flatMap { $0.items.map(\.title) } == ["A"])
        #expect(try titles(warm) == ["A"])
        // Another connection (another process's command) writes: the next read sees it.
        try other.replaceItems(source: "p", language: "en", pluginVersion: "1", items: [ShortcutItem(type: "p.b", title: "B")], at: Date())
        #expect(try titles(warm) == ["B"])
        // Its own write too.
        try warm.replaceItems(source: HostState.scriptSource, language: "", pluginVersion: nil,
                              items: [ShortcutItem(type: "s.c", title: "C")], at: Date())
        #expect(Set(try titles(warm)) == ["B", "C"])
        try other.removeSource(HostState.scriptSource)
        #expect(try titles(warm) == ["B"])
    }
}
