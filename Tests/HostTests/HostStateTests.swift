import Foundation
import StandFitHost
import Testing
import TestSupport
import HostModel
import HostStorage

@Suite("Host state", .needs(.sqlite3))
struct HostStateTests {
    @Test("at most 5,000 donations are kept: the oldest go first")
    func donationCap() throws {
        let state = try HostState(directory: makeTemporaryDirectory())
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        for index in 1...(HostState.donationLimit + 3) {
            try state.donate(Donation(type: "com.example.a", parameters: ["n": "\(index)"], date: start.addingTimeInterval(Double(index))))
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
            try state.donate(Donation(type: "com.example.a", parameters: ["n": "1"], date: when))
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
}
