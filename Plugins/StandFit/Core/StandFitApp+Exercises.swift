import Foundation
import PluginAPI

/// Exercises of the user's own: add one, rename or hide any (`addexercise`, `renameexercise`,
/// `hideexercise`).
extension StandFitApp {
    /// What the three return as data: the exercise as it is now.
    public struct ExerciseReport: Encodable, Sendable {
        public var id: String
        public var name: String
        /// Its names of the user's in single languages, by code; absent when none.
        public var names: [String: String]?
        public var unit: Exercise.Unit
        public var defaultCount: Int
        public var icon: String
        public var hidden: Bool
        public var custom: Bool
    }

    /// The longest name an exercise takes: a menu shows about 25 characters.
    public static let maximumExerciseName = 40

    /// Adds an exercise of the user's own, named `name`, counted in `unit` (reps or seconds),
    /// `count` a log unless one is given, shown with `icon`.
    public func addExercise(name: String, unit: String?, count: Int?, icon: String?) throws -> ActionResult {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = nameRefusal(name, parameter: "name", except: nil) { return refusal }
        let unit = Exercise.Unit(rawValue: unit?.lowercased() ?? "reps") ?? .reps
        let count = count ?? (unit == .seconds ? 60 : 10)
        guard (1...StandFitApp.maximumCount).contains(count) else {
            return .invalidInput(text("error.count", ["value": "\(count)", "max": "\(StandFitApp.maximumCount)"]), parameter: "count")
        }
        let icon = icon?.trimmingCharacters(in: .whitespaces).nilIfEmpty ?? (unit == .seconds ? "timer" : "figure.mixed.cardio")
        let id = Self.slug(name)
        let setting = ExerciseStore.ExerciseSetting(id: id, name: name, unit: unit, defaultCount: count, icon: icon, custom: true)
        guard try store.save(setting, insertOnly: true) else {
            return .invalidInput(text("error.exercise.taken", ["value": name]), parameter: "name")
        }
        return .handled(text("exercise.added.\(unit.rawValue)", ["name": name, "count": "\(count)", "id": id]), data: report(setting))
    }

    /// The languages StandFit speaks: an exercise may have a name of its own in each.
    public static let languages = ["en", "nl"]

    /// Gives exercise `exercise` (any, StandFit's or the user's own) the name `name`: in every
    /// language, or with `language` in that one only (the others keep theirs).
    public func renameExercise(_ exercise: String, name: String, language: String? = nil) throws -> ActionResult {
        guard let found = catalogue.match(exercise, names: text.names(in: catalogue)) else { return unknownExercise(exercise) }
        let language = language?.lowercased()
        if let language, !StandFitApp.languages.contains(language) {
            return .invalidInput(text("error.exercise.language", ["value": language, "known": StandFitApp.languages.joined(separator: ", ")]),
                                 parameter: "language")
        }
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = nameRefusal(name, parameter: "name", except: found.id) { return refusal }
        var setting = try storedSetting(of: found)
        let before = text.title(found.id)
        if let language {
            setting.names[language] = name
            let languageName = text("language.\(language)")
            return try saved(setting, text("exercise.renamed.language", ["before": before, "name": name, "language": languageName]))
        }
        setting.name = name
        setting.names = [:]
        return try saved(setting, text("exercise.renamed", ["before": before, "name": name]))
    }

    private func saved(_ setting: ExerciseStore.ExerciseSetting, _ sentence: String) throws -> ActionResult {
        try store.save(setting)
        return .handled(sentence, data: report(setting))
    }

    /// Hides exercise `exercise` from pickers, suggestions and the menu (its logs stay, and it is
    /// still known by name), or shows it again with `hidden` false.
    public func hideExercise(_ exercise: String, hidden: Bool) throws -> ActionResult {
        guard let found = catalogue.match(exercise, names: text.names(in: catalogue)) else { return unknownExercise(exercise) }
        if hidden, catalogue.exercises.map(\.id) == [found.id] {
            return .invalidInput(text("error.exercise.last", ["name": text.title(found.id)]), parameter: "exercise")
        }
        var setting = try storedSetting(of: found)
        setting.hidden = hidden
        try store.save(setting)
        return .handled(text(hidden ? "exercise.hidden" : "exercise.shown", ["name": text.title(found.id), "id": found.id]),
                        data: report(setting))
    }

    /// The stored setting of `exercise`, or a new one that changes nothing of it.
    private func storedSetting(of exercise: Exercise) throws -> ExerciseStore.ExerciseSetting {
        try store.exerciseSettings().first { $0.id == exercise.id }
            ?? ExerciseStore.ExerciseSetting(id: exercise.id, name: nil, unit: exercise.unit, defaultCount: exercise.defaultCount,
                                             icon: exercise.icon, custom: false)
    }

    private func report(_ setting: ExerciseStore.ExerciseSetting) -> ExerciseReport {
        ExerciseReport(id: setting.id, name: setting.name(in: text.strings.languageCode.lowercased()) ?? text.title(setting.id),
                       names: setting.names.isEmpty ? nil : setting.names, unit: setting.unit,
                       defaultCount: setting.defaultCount, icon: setting.icon, hidden: setting.hidden, custom: setting.custom)
    }

    func unknownExercise(_ value: String) -> ActionResult {
        let known = catalogue.exercises.map(\.id).joined(separator: ", ")
        return .invalidInput(text("error.unknownExercise", ["value": value, "known": known]), parameter: "exercise")
    }

    /// Why `name` cannot name an exercise, or nil: empty, too long, without a letter, or the name
    /// of another exercise than `except`.
    private func nameRefusal(_ name: String, parameter: String, except: String?) -> ActionResult? {
        guard !name.isEmpty, name.count <= StandFitApp.maximumExerciseName, name.contains(where: \.isLetter),
              !name.contains(where: { $0.isNewline }) else {
            return .invalidInput(text("error.exercise.name", ["max": "\(StandFitApp.maximumExerciseName)"]), parameter: parameter)
        }
        if let other = catalogue.match(name, names: text.names(in: catalogue)), other.id != except {
            return .invalidInput(text("error.exercise.named", ["value": name, "other": text.title(other.id)]), parameter: parameter)
        }
        if except == nil, catalogue.exercise(id: Self.slug(name)) != nil {
            return .invalidInput(text("error.exercise.named", ["value": name, "other": text.title(Self.slug(name))]), parameter: parameter)
        }
        return nil
    }

    /// An exercise's id from its name: lower-case letters and digits, words joined by `-`
    /// ("Burpees with a vest" → `burpees-with-a-vest`).
    static func slug(_ name: String) -> String {
        name.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: "-")
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
