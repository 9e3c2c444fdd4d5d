import Foundation

/// `viewprogress`'s text: this week per day and per exercise as terminal bar charts, with a
/// legend. Bars count logs; when a day has more than `width` logs, each block stands for more.
public struct ProgressChart {
    public var progress: WeeklyProgress
    public var text: StandFitText
    public var width = 30
    /// A week before this one: its header says which, not "this week".
    public var isPast = false

    public init(progress: WeeklyProgress, text: StandFitText) {
        self.progress = progress
        self.text = text
    }

    public var lines: [String] {
        let maxLogs = max(progress.days.map(\.logs).max() ?? 0, progress.exercises.map(\.logs).max() ?? 0)
        let scale = BarChart.scale(largest: maxLogs, width: width)
        // The week's first day carries its year too when the week spans New Year.
        let spansYears = progress.weekStart.prefix(4) != progress.weekEnd.prefix(4)
        var lines = [text(isPast ? "progress.header.past" : "progress.header", ["start": text.localDate(progress.weekStart, spansYears ? "d MMM yyyy" : "d MMM"),
                                              "end": text.localDate(progress.weekEnd, "d MMM yyyy")])]
        let dayLabels = progress.days.map { text.localDate($0.date, "EEE d") }
        let dayWidth = dayLabels.map(\.count).max() ?? 0
        for (day, name) in zip(progress.days, dayLabels) {
            lines.append(BarChart.row(name, width: dayWidth, logs: day.logs, scale: scale, tail: "\(day.logs)"))
        }
        if progress.exercises.isEmpty {
            lines.append(text(isPast ? "progress.empty.past" : "progress.empty"))
        } else {
            lines.append("")
            lines.append(text("progress.byExercise"))
            let names = progress.exercises.map { text.title($0.exercise) }
            let nameWidth = names.map(\.count).max() ?? 0
            for (exercise, name) in zip(progress.exercises, names) {
                let tail = text("progress.exerciseTotal", [
                    "logs": text("logs.\(exercise.logs == 1 ? "one" : "other")", ["count": "\(exercise.logs)"]),
                    "amount": text.amount(exercise.total, unit: exercise.unit),
                ])
                lines.append(BarChart.row(name, width: nameWidth, logs: exercise.logs, scale: scale, tail: tail))
            }
        }
        lines.append("")
        lines.append(BarChart.legend(text, scale: scale))
        return lines
    }
}
