import Foundation
import Testing
import HostModel
@testable import HostIntents

/// Suggestions that match habits (issue 51): two runs a minute apart are no habit, a habit with
/// two times of day is two suggestions at their own times, and the quiet hours of the
/// notifications are learned from the user's own runs.
@Suite("Suggestions that match habits", .timeLimit(.minutes(10)))
struct SuggestionHabitsTests {
    let zone = TimeZone(identifier: "Europe/Amsterdam")!

    /// 2026-11-22 (plus `day` days) at local `hour`:`minute` in Amsterdam (UTC+1).
    func local(_ hour: Int, _ minute: Int, day: Int = 0) -> Date {
        Date(timeIntervalSince1970: 1_795_302_000 + Double(day * 86_400 + hour * 3_600 + minute * 60))
    }

    /// The group of runs of one action at local (day, hour, minute) times.
    func group(_ times: [(day: Int, hour: Int, minute: Int)], type: String = "com.standfit.logexercise") -> DonationGroup {
        var group = DonationGroup(type: type, parameters: ["exercise": "squats"], titles: [:], runs: 0, lastRun: local(0, 0),
                                  weight: 0, cosSum: 0, sinSum: 0)
        for time in times {
            group.add(date: local(time.hour, time.minute, day: time.day), minute: time.hour * 60 + time.minute, titles: [:])
        }
        return group
    }

    @Test("runs at 07:30 and 19:00 on three days are two times of day, each its own suggestion at its own time, not one at 13:15")
    func twoTimesOfDay() {
        let habit = group([(0, 7, 25), (0, 19, 0), (1, 7, 35), (1, 19, 5), (2, 7, 30), (2, 18, 55)])
        #expect(habit.clusters.map(\.usualMinute) == [7 * 60 + 30, 19 * 60])
        #expect(habit.clusters.map(\.runs) == [3, 3])
        // The average of the two, which nobody runs it at.
        #expect(Suggestions.clock(habit.usualMinute) == "13:15")
        let morning = Suggestions(groups: [habit], now: local(7, 40, day: 3), timeZone: zone).ranked()
        #expect(morning.map(\.usualTime) == ["07:30", "19:00"])
        #expect(morning.map(\.runs) == [3, 3])
        #expect(morning[0].timeOfDay > 0.9 && morning[1].timeOfDay == 0)
        let evening = Suggestions(groups: [habit], now: local(19, 0, day: 3), timeZone: zone).ranked()
        #expect(evening.map(\.usualTime) == ["19:00", "07:30"])
    }

    @Test("one time of day stays one suggestion: across midnight (23:50 and 00:10 are midnight), and with a single run at an odd hour")
    func oneTimeOfDay() {
        let late = group([(0, 23, 50), (1, 0, 10), (1, 23, 55), (2, 0, 5)])
        #expect(late.clusters.count == 1)
        #expect(late.clusters.first?.usualMinute == 0)
        #expect(Suggestions(groups: [late], now: local(12, 0, day: 3), timeZone: zone).ranked().map(\.usualTime) == ["00:00"])
        let outlier = group([(0, 9, 0), (1, 9, 10), (2, 9, 5), (3, 15, 0)])
        #expect(outlier.clusters.map(\.runs) == [3])
        #expect(Suggestions(groups: [outlier], now: local(9, 0, day: 4), timeZone: zone).ranked().map(\.runs) == [4])
        // The odd run does not move the usual time (their mean would be about 10:18).
        #expect(Suggestions(groups: [outlier], now: local(9, 0, day: 4), timeZone: zone).ranked().map(\.usualTime) == ["09:05"])
    }

    @Test("two runs a minute apart are no habit (History looked at twice); the same a day apart are")
    func habitNeedsTwoDays() {
        let twice = group([(0, 17, 29), (0, 17, 30)], type: "com.standfit.history")
        #expect(!twice.spansDays)
        let ranked = Suggestions(groups: [twice], now: local(17, 31), timeZone: zone).ranked()
        #expect(ranked.count == 1 && ranked[0].runs == 2 && !ranked[0].isHabit(runs: 2))
        let days = group([(0, 17, 29), (1, 17, 30)], type: "com.standfit.history")
        #expect(days.spansDays)
        #expect(Suggestions(groups: [days], now: local(17, 31, day: 1), timeZone: zone).ranked()[0].isHabit(runs: 2))
        // Taking the earliest run out leaves the next one as the first.
        var undone = group([(0, 17, 29), (1, 17, 30), (1, 17, 31)])
        undone.remove(date: local(17, 29), minute: 17 * 60 + 29, latest: nil, earliest: local(17, 30, day: 1))
        #expect(undone.firstRun == local(17, 30, day: 1) && !undone.spansDays)
        #expect(undone.slots.runs[35] == 2 && undone.slots.runs.reduce(0, +) == 2)
        // Each time of day needs two days of its own: three mornings are a habit, two runs of
        // one evening are not, though the action's runs span three days.
        let mornings = group([(0, 7, 30), (1, 7, 35), (2, 7, 30), (2, 19, 0), (2, 19, 5)])
        #expect(mornings.spansDays && mornings.clusters.map(\.spansDays) == [true, false])
        let both = Suggestions(groups: [mornings], now: local(19, 10, day: 2), timeZone: zone).ranked()
        #expect(Set(both.map { "\($0.runs) \($0.isHabit(runs: 2))" }) == ["3 true", "2 false"], "\(both)")
        // The evening becomes a habit once it has a second day.
        var evenings = mornings
        evenings.add(date: local(19, 0, day: 3), minute: 19 * 60, titles: [:])
        #expect(evenings.clusters.map(\.spansDays) == [true, true])
    }

    @Test("quiet hours learned from the runs: the longest stretch without any, once there are 10 over 3 days; a 07:30 habit is not in them")
    func learnedQuietHours() throws {
        let early = group([(0, 7, 30), (1, 7, 35), (2, 7, 40), (3, 7, 30)])
        let evening = group([(0, 20, 45), (1, 20, 50), (2, 20, 40), (3, 21, 0), (4, 20, 55)], type: "com.standfit.viewprogress")
        let noon = group([(1, 12, 0), (2, 12, 30)], type: "com.standfit.viewstreak")
        let hours = try #require(Suggestions.learnedQuietHours([early, evening, noon]))
        #expect(hours.text == "21:30-07:30")
        #expect(!hours.contains(7 * 60 + 30) && hours.contains(7 * 60 + 29) && hours.contains(23 * 60) && !hours.contains(21 * 60 + 29))
        // Too few runs, or all on one day: none learned yet.
        #expect(Suggestions.learnedQuietHours([early, noon]) == nil)
        let oneDay = group((0..<12).map { (0, 8 + $0, 0) })
        #expect(Suggestions.learnedQuietHours([oneDay]) == nil)
        // Runs all day long leave no six quiet hours.
        let allDay = group((0..<24).map { ($0 % 4, $0, 15) })
        #expect(Suggestions.learnedQuietHours([allDay]) == nil)
    }

    @Test("stored as text and read back, with each half hour's first and last day (or, as stored before, without); text it did not write is refused")
    func slotsText() throws {
        let habit = group([(0, 7, 25), (0, 19, 0), (1, 7, 35)])
        // Each half hour with its first and last local day (UTC midnight days, to the nearest).
        #expect(habit.slots.text == "14:1:25:20779:20779 15:1:5:20780:20780 38:1:0:20779:20779")
        #expect(DaySlots(text: habit.slots.text) == habit.slots)
        // As stored before v11, without days: read, and counted as runs on several days.
        let older = try #require(DaySlots(text: "14:2:25 38:2:0"))
        #expect(older.text == "14:2:25 38:2:0" && older.clusters().map(\.spansDays) == [true, true])
        #expect(DaySlots(text: "") == DaySlots())
        #expect(DaySlots(text: "48:1:0") == nil && DaySlots(text: "1:1") == nil && DaySlots(text: "a:b:c") == nil && DaySlots(text: "3:-1:0") == nil
                && DaySlots(text: "3:1:0:5") == nil && DaySlots(text: "3:1:0::5") == nil)
    }
}
