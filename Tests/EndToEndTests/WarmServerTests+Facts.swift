import Foundation
import Testing
import TestSupport

extension WarmServerTests {
    /// One request's facts: its clock, its time zone and its language.
    struct Facts: Sendable {
        var now: String
        var zone: String
        var language: String
    }

    static let facts = [
        Facts(now: "2026-01-05T07:00:00Z", zone: "Asia/Tokyo", language: "en_US.UTF-8"),
        Facts(now: "2026-06-15T20:30:00Z", zone: "America/New_York", language: "nl_NL.UTF-8"),
        Facts(now: "2026-03-29T01:30:00Z", zone: "Europe/Amsterdam", language: "nl_BE.UTF-8"),
    ]

    /// `instant` (ISO 8601) as `donations` shows it in `zone`.
    static func local(_ instant: String, in zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: ISO8601DateFormatter().date(from: instant)!)
    }

    @Test("requests side by side in one server each run with their own facts: the clock the plugin logs with, the language it answers in, and the time zone local times are shown in",
          .needs(.sqlite3))
    func factsSideBySide() throws {
        let sandbox = HostSandbox.standFit()
        let manual = Self.serving(sandbox)
        defer { sandbox.server.stopAll() }
        let base = manual.environment
        @Sendable func environment(_ facts: Facts) -> [String: String] {
            var environment = base
            environment["STANDFIT_SERVER"] = "required"
            environment["STANDFIT_NOW"] = facts.now
            environment["TZ"] = facts.zone
            environment["LANG"] = facts.language
            return environment
        }
        // Six runs at once, two with each request's facts, each count its own.
        let runs = Locked<[Int: ProcessResult]>([:])
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            let result = runProcess(Fixtures.hostBinary, arguments: ["run", "logexercise", "exercise=squats", "count=\(index + 10)"],
                                    environment: environment(Self.facts[index % 3]))
            runs.update { $0[index] = result }
        }
        for index in 0..<6 {
            let result = try #require(runs.value[index])
            #expect(result.status == 0, "\(result)")
            // Each answers in its own language. (Which run comes first, and so unlocks the first
            // log's achievement on the line after, is the scheduler's: the first line is the run's.)
            let count = index + 10
            let words = Self.facts[index % 3].language.hasPrefix("nl") ? "\(count) squats gelogd · +\(count) XP" : "Logged \(count) squats · +\(count) XP"
            #expect(result.stdout.split(separator: "\n").first.map(String.init) == words, "run \(index): \(result)")
        }
        // The plugin logged each with its request's clock (its worker took on each call's).
        let logged = sandbox.query(.standFit, "SELECT count, loggedAt FROM log ORDER BY count")
        #expect(logged == (0..<6).map { index in
            "\(index + 10)|\(Self.facts[index % 3].now.replacingOccurrences(of: "T", with: " ").dropLast()).000"
        })
        // Three listings at once, each in its own time zone.
        let listings = Locked<[Int: ProcessResult]>([:])
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            let result = runProcess(Fixtures.hostBinary, arguments: ["donations"], environment: environment(Self.facts[index]))
            listings.update { $0[index] = result }
        }
        for (index, facts) in Self.facts.enumerated() {
            let listing = try #require(listings.value[index])
            #expect(listing.status == 0, "\(listing)")
            let times = Set(listing.stdout.split(separator: "\n").map { String($0.prefix(19)) })
            #expect(times == Set(Self.facts.map { Self.local($0.now, in: facts.zone) }), "in \(facts.zone): \(listing.stdout)")
        }
    }
}
