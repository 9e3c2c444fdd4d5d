import Foundation
import Testing
import TestSupport

/// View Progress over any period (issue 52): a week, month or year, `ago` of them back; a month per
/// week and a year per month, each exercise's reps or seconds against the period before.
@Suite("StandFit progress by week, month and year", .timeLimit(.minutes(10)))
struct ProgressPeriodTests {
    static func home() throws -> HostSandbox {
        let home = HostSandbox.standFit()
        let file = home.root.appendingPathComponent("year.csv")
        try Data("""
            2026-10-05,squats,20
            2026-10-20,squats,30
            2026-11-02 08:00,squats,25
            2026-11-10,squats,40
            2026-11-21,plank,60
            2026-11-22 09:00,pushups,12
            2025-06-01,squats,100

            """.utf8).write(to: file)
        #expect(home.run("run", "import", "file=\(file.path)").status == 0)
        return home
    }

    @Test("a month by week and a year by month, each exercise against the period before; a past month and week; Dutch; an unknown period refused")
    func periods() throws {
        let home = try Self.home()
        #expect(home.run("run", "viewprogress", "period=month") == ProcessResult(status: 0, stdout: """
            November 2026, by week
            1 Nov – 7 Nov    █ 1
            8 Nov – 14 Nov   █ 1
            15 Nov – 21 Nov  █ 1
            22 Nov – 28 Nov  █ 1
            29 Nov – 30 Nov  · 0

            By exercise, against October 2026
            Squats    ██ 2 logs, 65 reps · +30 %
            Push-Ups  █ 1 log, 12 reps · new
            Plank     █ 1 log, 60 seconds · new

            █ = 1 log

            """, stderr: ""))
        #expect(home.run("run", "viewprogress", "period=year").stdout == """
            2026, by month
            Jan  · 0
            Feb  · 0
            Mar  · 0
            Apr  · 0
            May  · 0
            Jun  · 0
            Jul  · 0
            Aug  · 0
            Sep  · 0
            Oct  ██ 2
            Nov  ████ 4
            Dec  · 0

            By exercise, against 2025
            Squats    ████ 4 logs, 115 reps · +15 %
            Push-Ups  █ 1 log, 12 reps · new
            Plank     █ 1 log, 60 seconds · new

            █ = 1 log

            """)
        #expect(home.run("run", "viewprogress", "period=month", "ago=1").stdout == """
            October 2026, by week
            1 Oct – 3 Oct    · 0
            4 Oct – 10 Oct   █ 1
            11 Oct – 17 Oct  · 0
            18 Oct – 24 Oct  █ 1
            25 Oct – 31 Oct  · 0

            By exercise, against September 2026
            Squats  ██ 2 logs, 50 reps · new

            █ = 1 log

            """)
        #expect(home.run("run", "viewprogress", "period=week", "ago=1").stdout == """
            The week of 15 Nov – 21 Nov 2026
            Sun 15  · 0
            Mon 16  · 0
            Tue 17  · 0
            Wed 18  · 0
            Thu 19  · 0
            Fri 20  · 0
            Sat 21  █ 1

            By exercise
            Plank  █ 1 log, 60 seconds

            █ = 1 log

            """)
        // Said: the period is a word of the sentence.
        #expect(home.run("say", "how was my year") == home.run("run", "viewprogress", "period=year"))
        // Without a period, this week, as always.
        #expect(home.run("run", "viewprogress").stdout.hasPrefix("This week, 22 Nov – 28 Nov 2026\nSun 22  █ 1\n"))
        #expect(home.run("run", "viewprogress", "--locale", "nl", "period=year").stdout == """
            2026, per maand
            jan  · 0
            feb  · 0
            mrt  · 0
            apr  · 0
            mei  · 0
            jun  · 0
            jul  · 0
            aug  · 0
            sep  · 0
            okt  ██ 2
            nov  ████ 4
            dec  · 0

            Per oefening, tegenover 2025
            Squats    ████ 4 logs, 115 herhalingen · +15 %
            Push-ups  █ 1 log, 12 herhalingen · nieuw
            Plank     █ 1 log, 60 seconden · nieuw

            █ = 1 log

            """)
        #expect(home.run("run", "viewprogress", "period=decade")
            == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: period: no value is called 'decade'; choose one of week, month, year.\n"))
    }

    @Test("an empty month or year says so, 'yet' for this one and naming a past one, in English and Dutch; a month's last week cut to one day is that day alone")
    func emptyAndOneDay() throws {
        var home = HostSandbox.standFit()
        #expect(home.run("run", "viewprogress", "period=month") == ProcessResult(status: 0, stdout: """
            November 2026, by week
            1 Nov – 7 Nov    · 0
            8 Nov – 14 Nov   · 0
            15 Nov – 21 Nov  · 0
            22 Nov – 28 Nov  · 0
            29 Nov – 30 Nov  · 0
            Nothing logged this month yet.

            """, stderr: ""))
        #expect(home.run("run", "viewprogress", "period=year").stdout.hasSuffix("Dec  · 0\nNothing logged this year yet.\n"))
        #expect(home.run("run", "viewprogress", "period=month", "ago=1").stdout.hasSuffix("· 0\nNothing logged in October 2026.\n"))
        #expect(home.run("run", "viewprogress", "period=year", "ago=1", "--locale", "nl").stdout.hasSuffix("· 0\nIn 2025 is niets gelogd.\n"))
        #expect(home.run("run", "viewprogress", "period=month", "ago=1", "--locale", "nl").stdout.hasSuffix("· 0\nIn oktober 2026 is niets gelogd.\n"))
        #expect(home.run("run", "viewprogress", "period=month", "--locale", "nl").stdout.hasSuffix("· 0\nDeze maand is er nog niets gelogd.\n"))
        // May 2026 ends on a Sunday, the first day of an English week.
        home.extraEnvironment["STANDFIT_NOW"] = "2026-05-15T10:00:00Z"
        #expect(home.run("run", "viewprogress", "period=month").stdout == """
            May 2026, by week
            1 May – 2 May    · 0
            3 May – 9 May    · 0
            10 May – 16 May  · 0
            17 May – 23 May  · 0
            24 May – 30 May  · 0
            31 May           · 0
            Nothing logged this month yet.

            """)
    }

    @Test("--json: the period's parts, and each exercise's logs and total now and in the period before")
    func json() throws {
        let home = try Self.home()
        let shown = home.run("run", "viewprogress", "period=month", "--json")
        let data = try #require((try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["data"] as? [String: Any])
        #expect(data["period"] as? String == "month" && data["start"] as? String == "2026-11-01" && data["end"] as? String == "2026-11-30")
        #expect(data["totalLogs"] as? Int == 4 && data["previousTotalLogs"] as? Int == 2)
        let parts = try #require(data["parts"] as? [[String: Any]])
        #expect(parts.map { "\($0["start"] ?? "") \($0["end"] ?? "") \($0["logs"] ?? "")" }
            == ["2026-11-01 2026-11-07 1", "2026-11-08 2026-11-14 1", "2026-11-15 2026-11-21 1", "2026-11-22 2026-11-28 1", "2026-11-29 2026-11-30 0"])
        let exercises = try #require(data["exercises"] as? [[String: Any]])
        #expect(exercises.map { "\($0["exercise"] ?? "") \($0["total"] ?? "") \($0["previousTotal"] ?? "")" } == ["squats 65 50", "pushups 12 0", "plank 60 0"])
    }
}
