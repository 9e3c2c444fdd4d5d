import Foundation
import StandFitCore
import Testing

/// Goals in StandFit's model: how a period stands against them, and the achievements that
/// follow them in the replay and in the stored states.
@Suite("StandFit goals", .timeLimit(.minutes(10)))
struct GoalTests {
    let fixture = StandFitFixture()

    func entries(_ logs: [(String, String, Int)]) -> [(at: Date, exercise: String, count: Int)] {
        logs.map { (fixture.local($0.0), $0.1, $0.2) }
    }

    @Test("a daily goal counts the days it stood at their end, each against its own count; the day under way counts once met; a goal in total counts reps only, over its whole week")
    func standing() {
        let squats = [Goal(exercise: "squats", per: .day, count: 20, since: fixture.local("2026-11-16 08:00"),
                           until: fixture.local("2026-11-19 12:00")),
                      Goal(exercise: "squats", per: .day, count: 30, since: fixture.local("2026-11-19 12:00"))]
        let total = Goal(exercise: nil, per: .week, count: 100, since: fixture.local("2026-11-18 08:00"))
        let logs = entries([("2026-11-15 10:00", "squats", 40), ("2026-11-16 10:00", "squats", 20), ("2026-11-17 10:00", "squats", 10),
                            ("2026-11-18 10:00", "squats", 25), ("2026-11-19 10:00", "squats", 25), ("2026-11-20 10:00", "squats", 10),
                            ("2026-11-20 11:00", "pushups", 15), ("2026-11-20 12:00", "plank", 60)])
        let week = DateInterval(start: fixture.local("2026-11-16 00:00"), end: fixture.local("2026-11-23 00:00"))
        let standing = GoalProgress.standing(squats + [total], in: week, now: fixture.local("2026-11-20 18:00"), entries: logs,
                                             calendar: fixture.calendar, isTimed: { $0 == "plank" })
        // 16 and 18 met 20; 17 missed; 19 missed 30 (the goal at its end); 20 under way, not met.
        #expect(standing == [
            GoalProgress(exercise: "squats", per: .day, count: 30, unit: .reps, periods: 4, met: 2, current: 10),
            // The English week of 15–21 November, Sunday's 40 squats included; the plank's seconds are not reps.
            GoalProgress(exercise: nil, per: .week, count: 100, unit: .reps, periods: 1, met: 1, current: 40 + 20 + 10 + 25 + 25 + 10 + 15),
        ])
        // Met today, the day under way counts; removed before a day's end, the goal is not measured on it.
        let met = GoalProgress.standing(squats, in: week, now: fixture.local("2026-11-20 18:00"),
                                        entries: logs + entries([("2026-11-20 17:00", "squats", 20)]), calendar: fixture.calendar,
                                        isTimed: { _ in false })
        #expect(met.map { [$0.periods, $0.met, $0.current ?? -1] } == [[5, 3, 30]])
        let removed = [Goal(exercise: "squats", per: .day, count: 20, since: fixture.local("2026-11-16 08:00"), until: fixture.local("2026-11-18 12:00"))]
        #expect(GoalProgress.standing(removed, in: week, now: fixture.local("2026-11-20 18:00"), entries: logs, calendar: fixture.calendar,
                                      isTimed: { _ in false }).map { [$0.periods, $0.met] } == [[2, 1]])
        #expect(GoalProgress.standing([], in: week, now: fixture.local("2026-11-20 18:00"), entries: logs, calendar: fixture.calendar,
                                      isTimed: { _ in false }).isEmpty)
    }

    @Test("the goals' achievements: a day's goal met by the entry that filled it, daily goals met 7 days in a row, days before a goal was set never count; listed only with goals; the stored states agree with a replay")
    func achievements() throws {
        let since = fixture.local("2026-11-01 00:00")
        let goals = [Goal(exercise: "squats", per: .day, count: 20, since: since)]
        var logs = [LogEntry(id: 1, exercise: "squats", count: 30, loggedAt: fixture.local("2026-10-31 10:00"))]
        for day in 1...7 {
            logs.append(LogEntry(id: Int64(2 * day), exercise: "squats", count: 10, loggedAt: fixture.local("2026-11-0\(day) 09:00")))
            logs.append(LogEntry(id: Int64(2 * day + 1), exercise: "squats", count: 10, loggedAt: fixture.local("2026-11-0\(day) 18:00")))
        }
        let rules = ExerciseStore.Rules(calendar: fixture.calendar, catalogue: .standard, goals: goals)
        let replay = Progression(entries: logs, rules: rules)
        let earned = Dictionary(uniqueKeysWithValues: replay.achievements.map { ($0.id, $0) })
        #expect(earned["goal-met"]?.earnedAt == fixture.local("2026-11-01 18:00") && earned["goal-met"]?.earnedBy == 3)
        #expect(earned["goal-days-7"]?.earnedAt == fixture.local("2026-11-07 18:00") && earned["goal-days-7"]?.earnedBy == 15)
        // A missed day breaks the run.
        let missed = Progression(entries: logs.filter { $0.id != 9 }, rules: rules)
        #expect(missed.achievements.first { $0.id == "goal-days-7" }.map { [$0.progress, $0.earned ? 1 : 0] } == [3, 0])
        // Without goals the two are not listed.
        let plain = Progression(entries: logs, calendar: fixture.calendar, catalogue: .standard)
        #expect(!plain.achievements.contains { $0.id.hasPrefix("goal-") })
        #expect(replay.totalXP == plain.totalXP)

        // Through the store: a goal set after the logs earns what the log already meets that day.
        let app = try fixture.app(at: "2026-11-07 20:00")
        for entry in logs { _ = try app.store.log(LogEntry(exercise: entry.exercise, count: entry.count, loggedAt: entry.loggedAt), rules: app.rules) }
        let set = try app.setGoal(exercise: "squats", count: 20, per: nil)
        #expect(set.dialog == "Goal set: 20 squats a day.\nAchievement unlocked: A day's goal met\n· 20 squats a day: 20 today ✓")
        let stored = try app.store.progression(app.rules)
        let replayed = Progression(entries: try app.store.entries(in: DateInterval(start: .distantPast, end: .distantFuture)),
                                   rules: app.rules(goals: try app.store.goals()))
        #expect(stored.achievements == replayed.achievements && stored.totalXP == replayed.totalXP)
        #expect(stored.achievements.first { $0.id == "goal-days-7" }?.progress == 1)
    }
}
