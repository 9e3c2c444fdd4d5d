import Foundation
import HostModel

/// A user shortcut made of steps, one JSON file in `$XDG_CONFIG_HOME/standfit/shortcuts/`:
///
/// ```json
/// {"type": "user.morning", "title": "Morning routine",
///  "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "stretching", "count": 1}},
///            {"type": "com.standfit.viewstreak"}]}
/// ```
///
/// Steps run in order and the routine stops at the first that is not handled, unless that step
/// says `"continueOnFailure": true`. `"phrases"` are what `say` understands it by: a list for
/// every language (`["log my workout"]`) or lists by language (`{"en": […], "nl": […]}`); a
/// routine has no parameters, so its phrases have no `{placeholder}`.
public struct Routine: Sendable, Equatable {
    public struct Step: Sendable, Equatable, Decodable {
        public var type: String
        public var parameters: [String: JSONValue]
        public var continueOnFailure: Bool

        private enum CodingKeys: String, CodingKey { case type, parameters, continueOnFailure }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            parameters = try container.decodeIfPresent([String: JSONValue].self, forKey: .parameters) ?? [:]
            continueOnFailure = try container.decodeIfPresent(Bool.self, forKey: .continueOnFailure) ?? false
        }

        /// The parameters as `name=value` arguments.
        package var arguments: [NamedArgument] {
            parameters.keys.sorted().map { name in
                NamedArgument(name: name, value: parameters[name]!.stringValue ?? parameters[name]!.jsonText)
            }
        }
    }

    public var type: String
    public var title: String
    public var subtitle: String?
    public var icon: String?
    public var steps: [Step]
    /// What `say` understands it by.
    public var phrases: [Phrase] = []
    /// The file it was read from.
    public var file: String

    /// The routine as `say` matches it: an action of no plugin, with no parameters.
    public var action: RegisteredAction {
        RegisteredAction(type: type, title: title, subtitle: subtitle, icon: icon, pluginID: "", phrases: phrases)
    }

    /// How the menu shows it.
    public var item: ShortcutItem {
        ShortcutItem(type: type, title: title, subtitle: subtitle, icon: icon ?? "list.bullet",
                     source: .routine, origin: file)
    }
}

/// Reads the routines and checks each step against the actions there are, so that a step
/// naming an unknown type or a bad parameter is reported when the routines are read, with the
/// file and the step's number, and that routine is left out.
public enum RoutineLoader {
    private struct File: Decodable {
        var type: String
        var title: String
        var subtitle: String?
        var icon: String?
        var steps: [Routine.Step]
        var phrases: Phrases?
    }

    /// `"phrases"`: a list for every language, or lists by language.
    private struct Phrases: Decodable {
        var phrases: [Phrase]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let every = try? container.decode([String].self) {
                phrases = every.map { Phrase(language: nil, template: $0) }
            } else {
                let byLanguage = try container.decode([String: [String]].self)
                phrases = byLanguage.keys.sorted().flatMap { language in
                    byLanguage[language]!.map { Phrase(language: language, template: $0) }
                }
            }
        }
    }

    /// The routines in `directory` that can run, and a sentence for each one that cannot.
    public static func load(directory: URL, registry: ActionRegistry) -> (routines: [Routine], problems: [String]) {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        var routines: [Routine] = []
        var problems: [String] = []
        for name in files {
            let path = directory.appendingPathComponent(name).path
            do {
                let file = try JSONDecoder().decode(File.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
                routines.append(Routine(type: file.type, title: file.title, subtitle: file.subtitle, icon: file.icon,
                                        steps: file.steps, phrases: file.phrases?.phrases ?? [], file: path))
            } catch let error as DecodingError {
                problems.append("Shortcut \(path) is not a routine (\(describe(error))); write it as {\"type\": \"user.name\", \"title\": \"…\", \"steps\": [{\"type\": \"…\"}]}.")
            } catch {
                problems.append("Shortcut \(path) cannot be read (\(error.localizedDescription)); check its permissions.")
            }
        }
        var accepted: [Routine] = []
        for routine in routines {
            if let problem = check(routine, registry: registry, routines: routines, accepted: accepted) {
                problems.append(problem)
            } else {
                accepted.append(routine)
            }
        }
        // A routine whose step is a routine that was left out cannot run either.
        var changed = true
        while changed {
            changed = false
            for routine in accepted {
                if let (index, step) = routine.steps.enumerated().first(where: { _, step in
                    routines.contains { $0.type == step.type } && !accepted.contains { $0.type == step.type }
                }) {
                    problems.append("Shortcut \(routine.file), step \(index + 1): routine '\(step.type)' was left out (see above), so '\(routine.type)' is left out too.")
                    accepted.removeAll { $0.type == routine.type }
                    changed = true
                    break
                }
            }
        }
        return (accepted, problems)
    }

    private static func check(_ routine: Routine, registry: ActionRegistry, routines: [Routine],
                              accepted: [Routine]) -> String? {
        let file = routine.file
        guard TypeName.isValid(routine.type), !routine.type.hasSuffix(".*") else {
            return "Shortcut \(file) has type '\(routine.type)', which is not a type such as user.morning; fix its \"type\"."
        }
        if let action = registry.handler(for: routine.type) {
            return "Shortcut \(file) has type '\(routine.type)', which plugin '\(action.pluginID)' already handles; give the routine its own type such as user.\(Suggester.lastComponent(of: routine.type))."
        }
        if let other = accepted.first(where: { $0.type == routine.type }) {
            return "Shortcut \(file) has type '\(routine.type)', which \(other.file) already uses; give one of them another type."
        }
        guard !routine.title.trimmingCharacters(in: .whitespaces).isEmpty else {
            return "Shortcut \(file) has an empty title; give it one to show in menus."
        }
        guard !routine.steps.isEmpty else {
            return "Shortcut \(file) has no steps; add at least one {\"type\": \"…\"}."
        }
        for phrase in routine.phrases {
            if phrase.parts.isEmpty {
                return "Shortcut \(file) has an empty phrase; remove it, or write the words people say, such as \"log my workout\"."
            }
            if case .placeholder(let name)? = phrase.parts.first(where: { if case .placeholder = $0 { true } else { false } }) {
                return "Shortcut \(file) has the phrase \"\(phrase.template)\" with placeholder {\(name)}, but a routine has no parameters; write the words without it."
            }
        }
        for (index, step) in routine.steps.enumerated() {
            let at = "Shortcut \(file), step \(index + 1)"
            if routines.contains(where: { $0.type == step.type }) {
                if calls(step.type, routine.type, routines: routines, seen: []) {
                    return "\(at): routine '\(step.type)' leads back to '\(routine.type)', which would never end; remove the loop."
                }
                guard step.parameters.isEmpty else {
                    return "\(at): routine '\(step.type)' takes no parameters; remove them."
                }
                continue
            }
            guard let action = registry.action(exactly: step.type) ?? registry.namespaceHandler(for: step.type) else {
                let suggestions = Suggester(candidates: registry.actions.map { .init(type: $0.type, title: $0.title) })
                    .suggestions(for: step.type)
                let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: " or "))?)"
                return "\(at) names unknown shortcut type '\(step.type)'\(hint); write a full type from 'standfit-host list --all'."
            }
            for name in step.parameters.keys.sorted() {
                guard let parameter = action.parameters.first(where: { $0.name == name }) else {
                    let names = action.parameters.map(\.name)
                    let takes = names.isEmpty ? "it takes none" : "it takes \(names.joined(separator: ", "))"
                    return "\(at): \(step.type) has no parameter '\(name)'; \(takes)."
                }
                let value = step.parameters[name]!
                guard ArgumentCoercion.coerce(value, to: parameter.kind) != nil
                        || (value.stringValue.flatMap { ArgumentCoercion.coerce($0, to: parameter.kind) } != nil) else {
                    return "\(at): \(name) expects \(ArgumentCoercion.expectation(of: parameter.kind)), got \(value.jsonText); fix the value."
                }
                if case .choices(let values)? = parameter.domain, let text = value.stringValue,
                   !values.contains(where: { $0.id == text || $0.isNamed(by: text) }) {
                    return "\(at): \(name) is \"\(text)\", which is not one of \(values.map(\.id).joined(separator: ", ")); fix the value."
                }
            }
        }
        return nil
    }

    /// True when routine `from` reaches routine `target` through its steps.
    private static func calls(_ from: String, _ target: String, routines: [Routine], seen: Set<String>) -> Bool {
        if from == target { return true }
        guard !seen.contains(from), let routine = routines.first(where: { $0.type == from }) else { return false }
        return routine.steps.contains { calls($0.type, target, routines: routines, seen: seen.union([from])) }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "\(path(context.codingPath)) is not valid"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { key in key.intValue.map { "[\($0 + 1)]" } ?? ".\(key.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}
