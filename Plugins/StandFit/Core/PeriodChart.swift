import Foundation

/// `viewprogress period=month|year`'s text: the period per week or per month as a terminal bar
/// chart, then each exercise with its reps or seconds and the change against the period before.
/// Bars count logs; when a part has more than `width` logs, each block stands for more.
public struct PeriodChart {
    public var progress: PeriodProgress
    public var text: StandFitText
    public var width = 30
    /// A period before this one: an empty one says which, not "yet".
    public var isPast = false

    public init(progress: PeriodProgress, text: StandFitText) {
        self.progress = progress
        self.text = text
    }

    public var lines: [String] {
        let maxLogs = max(progress.parts.map(\.logs).max() ?? 0, progress.exercises.map(\.logs).max() ?? 0)
        let scale = BarChart.scale(largest: maxLogs, width: width)
        let isYear = progress.period == .year
        let month = text.localDate(progress.start, "LLLL yyyy")
        let name = isYear ? String(progress.start.prefix(4)) : month.prefix(1).uppercased() + month.dropFirst()
        var lines = [text(isYear ? "progress.year.header" : "progress.month.header", ["period": name])]
        let partLabels = progress.parts.map { part in
            // A part of one day (a month's last week cut at its edge) is that day alone.
            isYear ? text.localDate(part.start, "LLL") : part.start == part.end ? text.localDate(part.start, "d MMM")
                : text("progress.range", ["start": text.localDate(part.start, "d MMM"), "end": text.localDate(part.end, "d MMM")])
        }
        let partWidth = partLabels.map(\.count).max() ?? 0
        for (part, name) in zip(progress.parts, partLabels) {
            lines.append(BarChart.row(name, width: partWidth, logs: part.logs, scale: scale, tail: "\(part.logs)"))
        }
        guard !progress.exercises.isEmpty else {
            lines.append(isPast ? text("progress.period.empty.past", ["period": isYear ? name : month])
                         : text(isYear ? "progress.year.empty" : "progress.month.empty"))
            return lines
        }
        lines.append("")
        lines.append(text("progress.against", ["previous": previousName]))
        let names = progress.exercises.map { text.title($0.exercise) }
        let nameWidth = names.map(\.count).max() ?? 0
        for (exercise, name) in zip(progress.exercises, names) {
            let tail = text("progress.exerciseTrend", [
                "logs": text("logs.\(exercise.logs == 1 ? "one" : "other")", ["count": "\(exercise.logs)"]),
                "amount": text.amount(exercise.total, unit: exercise.unit),
                "trend": trend(exercise),
            ])
            lines.append(BarChart.row(name, width: nameWidth, logs: exercise.logs, scale: scale, tail: tail))
        }
        lines.append("")
        lines.append(BarChart.legend(text, scale: scale))
        return lines
    }

    /// The period before, as the chart names it: "October 2026", "2025".
    private var previousName: String {
        let parts = progress.start.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return "" }
        if progress.period == .year { return "\(parts[0] - 1)" }
        let month = parts[1] == 1 ? (parts[0] - 1, 12) : (parts[0], parts[1] - 1)
        return text.localDate(String(format: "%04d-%02d-01", month.0, month.1), "LLLL yyyy")
    }

    /// "+20 %", "−5 %", "±0 %", or "new" when the period before had none.
    private func trend(_ exercise: PeriodProgress.ExerciseTotal) -> String {
        guard exercise.previousTotal > 0 else { return text("progress.trend.new") }
        let change = Int((Double(exercise.total - exercise.previousTotal) * 100 / Double(exercise.previousTotal)).rounded())
        return text("progress.trend", ["change": change > 0 ? "+\(change)" : change < 0 ? "−\(-change)" : "±0"])
    }
}
