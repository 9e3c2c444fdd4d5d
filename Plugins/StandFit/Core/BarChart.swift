import Foundation

/// What View Progress's charts share: a terminal bar per row, counted in logs, one block for
/// `scale` of them, and the legend that says so.
enum BarChart {
    /// How many logs a block stands for, so that the longest bar fits in `width` blocks.
    static func scale(largest: Int, width: Int) -> Int {
        max(1, (largest + width - 1) / width)
    }

    /// "Mon 16  ██ 2": `name` padded to `width`, the bar (· for none), then `tail`.
    static func row(_ name: String, width: Int, logs: Int, scale: Int, tail: String) -> String {
        let blocks = logs == 0 ? 0 : max(1, (logs + scale - 1) / scale)
        let padding = String(repeating: " ", count: max(0, width - name.count))
        let bar = blocks == 0 ? "·" : String(repeating: "█", count: blocks)
        return "\(name)\(padding)  \(bar) \(tail)"
    }

    /// "█ = 1 log" / "█ = 3 logs".
    static func legend(_ text: StandFitText, scale: Int) -> String {
        scale == 1 ? text("progress.legend.one") : text("progress.legend.other", ["count": "\(scale)"])
    }
}

extension StandFitText {
    /// A `yyyy-MM-dd` local date drawn with `pattern` in the user's language (as it is, when it
    /// is no such date).
    func localDate(_ date: String, _ pattern: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
              let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
        else { return date }
        return format(day, pattern)
    }
}
