import Foundation
import PluginAPI

/// Undo and redo of the journal's changes (ExerciseStore+Journal), said as what they did.
extension StandFitApp {
    /// What `undo` and `redo` return as data for an import: the file and how many entries.
    public struct ImportStep: Encodable, Sendable {
        public var file: String?
        public var entries: Int
        public var progress: ProgressChange?
    }

    /// Brings back what `undo` took, while nothing was changed since.
    public func redo() throws -> ActionResult {
        guard let step = try store.redoLast(rules: rules) else { return .declined(text("redo.nothing")) }
        return try report(step, undone: false)
    }

    /// A step as its sentence and data: for one entry the entry (as `logexercise` returns it),
    /// for an import the file and count.
    func report(_ step: ExerciseStore.Step, undone: Bool) throws -> ActionResult {
        let change = progressChange(step.progression)
        if step.kind == .import {
            let count = undone ? step.removed.count : step.added.count
            let sentence = text(undone ? "undo.import" : "redo.import", ["entries": entries(count), "file": step.label ?? "?"])
            return .handled(announce(sentence, change?.0), data: ImportStep(file: step.label, entries: count, progress: change?.1))
        }
        // The entry the sentence is about: the one taken out, put back, or as it is now.
        let (key, entry): (String, LogEntry?) = switch (step.kind, undone) {
        case (.log, true): ("undo", step.removed.first)
        case (.log, false): ("redo.log", step.added.first)
        case (.delete, true): ("undo.delete", step.added.first)
        case (.delete, false): ("redo.delete", step.removed.first)
        case (.edit, true): ("undo.edit", step.added.first)
        default: ("redo.edit", step.added.first)
        }
        guard let entry else { throw StandFitError("The journal's \(step.kind.rawValue) change holds no entry; 'standfit-host run history' shows the log as it is.") }
        let exercise = catalogue.exercise(id: entry.exercise)
        let sentence = text.sentence(key, entry: entry, unit: exercise?.unit ?? .reps,
                                     ["id": "\(entry.id ?? 0)", "when": text.when(entry.loggedAt, now: clock.now())])
        let result = ActionResult.handled(announce(sentence, change?.0, note: step.kind == .edit ? entry.note : nil),
                                          data: logged(entry, exercise, change?.1))
        // An undone log is no suggestion material.
        return step.kind == .log && undone ? result.withdrawing(try donationID(of: entry)) : result
    }
}
