import PluginAPI

/// One exercise of the catalogue. Its display names live in the plugin's `.strings` tables
/// under `exercise.<id>.one`, `.other` and `.title`; synonyms here are the extra spellings a
/// user may type in any language.
public struct Exercise: Sendable, Hashable, Identifiable {
    /// How a count of this exercise is measured.
    public enum Unit: String, Sendable, Codable {
        case reps
        case seconds
    }

    public var id: String
    public var unit: Unit
    public var defaultCount: Int
    /// An SF Symbol name; the host maps it to a theme icon and a terminal glyph.
    public var icon: String
    /// Other names, matched ignoring case, spaces and punctuation.
    public var synonyms: [String]

    public init(id: String, unit: Unit, defaultCount: Int, icon: String, synonyms: [String] = []) {
        self.id = id
        self.unit = unit
        self.defaultCount = defaultCount
        self.icon = icon
        self.synonyms = synonyms
    }
}

/// The exercises StandFit knows, in the order pickers show them.
public struct ExerciseCatalogue: Sendable {
    public var exercises: [Exercise]
    /// Exercises the user hid: known by id and name (old logs name them) but not offered.
    public var hidden: [Exercise] = []

    public init(exercises: [Exercise]) {
        self.exercises = exercises
    }

    public static let standard = ExerciseCatalogue(exercises: [
        Exercise(id: "squats", unit: .reps, defaultCount: 15, icon: "figure.strengthtraining.functional",
                 synonyms: ["squat", "knee bends", "kniebuigingen", "kniebuiging"]),
        Exercise(id: "pushups", unit: .reps, defaultCount: 10, icon: "figure.strengthtraining.traditional",
                 synonyms: ["push up", "push ups", "pushup", "press ups", "press up", "opdrukken", "opdrukoefeningen"]),
        Exercise(id: "plank", unit: .seconds, defaultCount: 60, icon: "figure.core.training",
                 synonyms: ["planks", "planking"]),
        Exercise(id: "lunges", unit: .reps, defaultCount: 12, icon: "figure.step.training",
                 synonyms: ["lunge", "uitvalspassen", "uitvalspas"]),
        Exercise(id: "calfraises", unit: .reps, defaultCount: 20, icon: "figure.stairs",
                 synonyms: ["calf raise", "heel raises", "kuitheffingen", "kuitheffing"]),
        Exercise(id: "stretching", unit: .seconds, defaultCount: 120, icon: "figure.flexibility",
                 synonyms: ["stretch", "stretches", "rekken", "rekoefeningen"]),
        Exercise(id: "jumpingjacks", unit: .reps, defaultCount: 20, icon: "figure.mixed.cardio",
                 synonyms: ["jumping jack", "star jumps", "sprongspreiden"]),
        Exercise(id: "wallsit", unit: .seconds, defaultCount: 45, icon: "figure.seated.side",
                 synonyms: ["wall sits", "muurzit", "stoeltje"]),
        Exercise(id: "burpees", unit: .reps, defaultCount: 10, icon: "figure.highintensity.intervaltraining",
                 synonyms: ["burpee"]),
        Exercise(id: "situps", unit: .reps, defaultCount: 15, icon: "figure.pilates",
                 synonyms: ["sit up", "sit ups", "situp", "buikspieroefeningen"]),
    ])

    public func exercise(id: String) -> Exercise? {
        exercises.first { $0.id == id } ?? hidden.first { $0.id == id }
    }

    /// The exercise `text` names: its id, a synonym, or one of `names` (the localized names,
    /// by exercise id), ignoring case, spaces and punctuation ("Push-Ups" = "push ups" = "pushups").
    public func match(_ text: String, names: [String: [String]] = [:]) -> Exercise? {
        let key = EntityValue.matchKey(text)
        guard !key.isEmpty else { return nil }
        return (exercises + hidden).first { exercise in
            ([exercise.id] + exercise.synonyms + (names[exercise.id] ?? []))
                .contains { EntityValue.matchKey($0) == key }
        }
    }
}
