import Foundation
import Testing
import HostModel
@testable import HostIntents

/// When a suggestion comes as a notification (`SuggestionOffers`), with the clock and the
/// records made up: quiet hours, the daily cap, the window around the usual time, the runs it
/// needs, once a day, and a run already made today.
@Suite("Suggestions offered as notifications: the rules", .timeLimit(.minutes(10)))
struct SuggestionOffersTests {
    let zone = TimeZone(identifier: "Europe/Amsterdam")!

    /// 2026-11-22 at local `hour`:`minute` in Amsterdam (UTC+1).
    func local(_ hour: Int, _ minute: Int, day: Int = 22) -> Date {
        let seconds: Int = (day - 22) * 86_400 + hour * 3_600 + minute * 60
        return Date(timeIntervalSince1970: 1_795_302_000 + Double(seconds))
    }

    func suggestion(_ type: String = "com.standfit.logexercise", usual: Int, runs: Int = 4, values: [String: String] = ["exercise": "pushups"]) -> Suggestions.Suggestion {
        Suggestions.Suggestion(type: type, parameters: values, titles: [:], score: 1, frequency: 1, recency: 1, timeOfDay: 1, runs: runs,
                               lastRun: local(usual / 60, usual % 60, day: 21), usualTime: Suggestions.clock(Double(usual)), usualMinute: usual,
                               reasons: "")
    }

    func offers(_ ranked: [Suggestions.Suggestion], at now: Date, quiet: QuietHours? = QuietHours(start: 22 * 60, end: 8 * 60), perDay: Int = 3,
                offered: [SuggestionOffer] = [], runs: [Date] = []) -> SuggestionOffers {
        SuggestionOffers(ranked: ranked, now: now, timeZone: zone, quietHours: quiet, perDay: perDay, offeredToday: offered, runsToday: { _ in runs })
    }

    func offered(_ suggestion: Suggestions.Suggestion) -> SuggestionOffer {
        SuggestionOffer(id: 1, type: suggestion.type, parameters: suggestion.parameters, title: "", offeredAt: local(8, 0), day: "2026-11-22", answer: .later)
    }

    @Test("the clock: 1_795_302_000 is midnight of 22 November 2026 in Amsterdam")
    func clock() {
        #expect(LocalMinute.of(local(0, 0), in: zone) == 0)
        #expect(SuggestionOffers.day(of: local(0, 0), in: zone) == "2026-11-22")
        #expect(SuggestionOffers.day(of: local(23, 59), in: zone) == "2026-11-22")
        #expect(SuggestionOffers.startOfDay(of: local(9, 5), in: zone) == local(0, 0))
    }

    @Test("offered within 15 minutes either side of the usual time, not 16; at least 3 runs")
    func window() {
        let pushups = suggestion(usual: 9 * 60 + 5)
        #expect(offers([pushups], at: local(8, 50)).decide() == .offer(pushups))
        #expect(offers([pushups], at: local(9, 20)).decide() == .offer(pushups))
        #expect(offers([pushups], at: local(9, 21)).decide() == .nothing(skipped: []))
        #expect(offers([pushups], at: local(8, 49)).decide() == .nothing(skipped: []))
        #expect(offers([suggestion(usual: 9 * 60 + 5, runs: 2)], at: local(9, 5)).decide() == .nothing(skipped: []))
        // Across midnight.
        let late = suggestion(usual: 23 * 60 + 55)
        #expect(offers([late], at: local(0, 5), quiet: nil).decide() == .offer(late))
    }

    @Test("quiet hours come first, then the daily cap")
    func quietAndCap() {
        let early = suggestion(usual: 7 * 60 + 30)
        #expect(offers([early], at: local(7, 30)).decide() == .quiet(QuietHours(start: 22 * 60, end: 8 * 60)))
        #expect(offers([early], at: local(7, 30), quiet: nil).decide() == .offer(early))
        let other = suggestion(usual: 12 * 60, values: ["exercise": "squats"])
        #expect(offers([early], at: local(7, 30), quiet: nil, perDay: 1, offered: [offered(other)]).decide() == .capReached(1))
        #expect(offers([early], at: local(7, 30), quiet: nil, perDay: 0).decide() == .capReached(0))
    }

    @Test("once a day; not when the action ran today within two hours of its usual time (any values); the next one due instead")
    func onceAndDone() {
        let pushups = suggestion(usual: 9 * 60 + 5), squats = suggestion(usual: 9 * 60, values: ["exercise": "squats"])
        #expect(offers([pushups, squats], at: local(9, 0), offered: [offered(pushups)]).decide() == .offer(squats))
        #expect(offers([pushups], at: local(9, 0), offered: [offered(pushups)]).decide() == .nothing(skipped: [(pushups, .offeredToday)]))
        #expect(offers([pushups], at: local(9, 0), runs: [local(8, 50)]).decide() == .nothing(skipped: [(pushups, .doneToday("08:50"))]))
        #expect(offers([pushups], at: local(9, 0), runs: [local(7, 5)]).decide() == .nothing(skipped: [(pushups, .doneToday("07:05"))]))
        // A run more than two hours from the usual time is another habit: it is offered.
        #expect(offers([pushups], at: local(9, 0), runs: [local(7, 4)]).decide() == .offer(pushups))
    }
}

extension SuggestionOffersTests {
    @Test("a habit with two times of day is offered at each: this morning's offer does not stand for tonight's; a habit of one day is not offered")
    func eachTimeOfDay() {
        let morning = suggestion(usual: 7 * 60 + 30), evening = suggestion(usual: 19 * 60)
        let offeredThisMorning = SuggestionOffer(id: 1, type: morning.type, parameters: morning.parameters, title: "", offeredAt: local(7, 30),
                                                 day: "2026-11-22", answer: .later)
        #expect(offers([evening, morning], at: local(19, 0), offered: [offeredThisMorning]).decide() == .offer(evening))
        #expect(offers([morning, evening], at: local(7, 45), quiet: nil, offered: [offeredThisMorning]).decide()
            == .nothing(skipped: [(morning, .offeredToday)]))
        var oneDay = suggestion(usual: 12 * 60)
        oneDay.spansDays = false
        #expect(offers([oneDay], at: local(12, 0)).decide() == .nothing(skipped: []))
    }
}
