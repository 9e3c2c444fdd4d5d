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
        let scale = max(1, (maxLogs + width - 1) / width)
        // The week's first day carries its year too when the week spans New Year.
        let spansYears = progress.weekStart.prefix(4) != progress.weekEnd.prefix(4)
        var lines = [text(isPast ? "progress.header.past" : "progress.header", ["start": label(progress.weekStart, spansYears ? "d MMM yyyy" : "d MMM"),
                                              "end": label(progress.weekEnd, "d MMM yyyy")])]
        let dayLabels = progress.days.map { label($0.date, "EEE d") }
        let dayWidth = dayLabels.map(\.count).max() ?? 0
        for (day, name) in zip(progress.days, dayLabels) {
            lines.append(row(name, width: dayWidth, logs: day.logs, scale: scale, tail: "\(day.logs)"))
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
                lines.append(row(name, width: nameWidth, logs: exercise.logs, scale: scale, tail: tail))
            }
        }
        lines.append("")
        lines.append(scale == 1 ? text("progress.legend.one") : text("progress.legend.other", ["count": "\(scale)"]))
        return lines
    }

    private func row(_ name: String, width: Int, logs: Int, scale: Int, tail: String) -> String {
        let blocks = logs == 0 ? 0 : max(1, (logs + scale - 1) / scale)
        let padding = String(repeating: " ", count: max(0, width - name.count))
        let bar = blocks == 0 ? "·" : String(repeating: "█", count: blocks)
        return "\(name)\(padding)  \(bar) \(tail)"
    }

    /// A `yyyy-MM-dd` local date drawn with `pattern` in the user's language.
    private func label(_ date: String, _ pattern: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
              let day = text.calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
        else { return date }
        return text.format(day, pattern)
    }
}
