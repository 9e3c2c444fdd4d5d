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
/// routine has no parameters, so its phrases have no `{placeholder}`. `"title"` and
/// `"subtitle"` are text, or text by language (`{"en": "Morning routine", "nl": "Ochtendroutine"}`):
/// the run's language's is shown (else English's, else the first by tag), and `say` knows the
/// routine by each.
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
    /// The title in the run's language.
    public var title: String
    public var subtitle: String?
    public var icon: String?
    public var steps: [Step]
    /// Its titles by language, when the file gives them so (`title` is one of them).
    public var titles: [String: String] = [:]
    /// What `say` understands it by.
    public var phrases: [Phrase] = []
    /// The file it was read from.
    public var file: String

    /// The routine as `say` matches it: an action of no plugin, with no parameters, understood
    /// by its phrases and by its title ("evening stretch" runs "Evening stretch"), in any language.
    public var action: RegisteredAction {
        var byTitle: [Phrase] = []
        for title in [title] + titles.keys.sorted().map({ titles[$0]! }) {
            guard !title.contains("{"), !(phrases + byTitle).contains(where: { $0.template.lowercased() == title.lowercased() })
            else { continue }
            byTitle.append(Phrase(language: nil, template: title))
        }
        return RegisteredAction(type: type, title: title, subtitle: subtitle, icon: icon, pluginID: "",
                                phrases: phrases + byTitle)
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
        var title: Localized
        var subtitle: Localized?
        var icon: String?
        var steps: [Routine.Step]
        var phrases: Phrases?
    }

    /// `"title"`, `"subtitle"`: text, or text by language.
    private struct Localized: Decodable {
        var byLanguage: [String: String]
        var every: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let every = try? container.decode(String.self) {
                self.every = every
                byLanguage = [:]
            } else {
                byLanguage = try container.decode([String: String].self)
            }
        }

        /// The text for `language`: its own tag's (`nl_BE`, `nl-BE`), its base language's (`nl`),
        /// English's, else the first by tag; "" when there is none.
        func text(for language: String) -> String {
            if let every { return every }
            let keys = byLanguage.keys.sorted()
            let folded = { (tag: String) in tag.lowercased().replacingOccurrences(of: "-", with: "_") }
            let base = LanguagePreference.base(of: language)
            let key = keys.first { folded($0) == folded(language) } ?? keys.first { folded($0) == base }
                ?? keys.first { LanguagePreference.base(of: $0) == base } ?? keys.first { folded($0) == "en" } ?? keys.first
            return key.flatMap { byLanguage[$0] } ?? ""
        }
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
    public static func load(directory: URL, registry: ActionRegistry, language: String = "en") -> (routines: [Routine], problems: [String]) {
        let text = HostText(language: language)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        var routines: [Routine] = []
        var problems: [String] = []
        for name in files {
            let path = directory.appendingPathComponent(name).path
            do {
                let file = try JSONDecoder().decode(File.self, from: try UserFile.read(URL(fileURLWithPath: path), limit: UserFile.settingsLimit))
                routines.append(Routine(type: file.type, title: file.title.text(for: language),
                                        subtitle: file.subtitle.map { $0.text(for: language) }, icon: file.icon,
                                        steps: file.steps, titles: file.title.byLanguage,
                                        phrases: file.phrases?.phrases ?? [], file: path))
            } catch let error as DecodingError {
                problems.append(text("routine.notRoutine", ["path": path, "why": describe(error, text)]))
            } catch {
                problems.append(text(HostText.Phrase("routine.unreadable", ["path": path], parts: ["cause": UserFile.why(error)])))
            }
        }
        var accepted: [Routine] = []
        for routine in routines {
            if let problem = check(routine, registry: registry, routines: routines, accepted: accepted, text: text) {
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
                    problems.append(text("routine.leftOut", ["path": routine.file, "index": "\(index + 1)", "step": step.type, "type": routine.type]))
                    accepted.removeAll { $0.type == routine.type }
                    changed = true
                    break
                }
            }
        }
        return (accepted, problems)
    }

    private static func check(_ routine: Routine, registry: ActionRegistry, routines: [Routine],
                              accepted: [Routine], text: HostText) -> String? {
        let file = routine.file
        guard TypeName.isValid(routine.type), !routine.type.hasSuffix(".*") else {
            return text("routine.badType", ["path": file, "type": routine.type])
        }
        if let action = registry.handler(for: routine.type) {
            return text("routine.handled", ["path": file, "type": routine.type, "plugin": action.pluginID, "suggested": "user.\(Suggester.lastComponent(of: routine.type))"])
        }
        if let other = accepted.first(where: { $0.type == routine.type }) {
            return text("routine.typeTaken", ["path": file, "type": routine.type, "other": other.file])
        }
        guard !([routine.title] + routine.titles.values).contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            return text("routine.emptyTitle", ["path": file])
        }
        guard !routine.steps.isEmpty else {
            return text("routine.noSteps", ["path": file])
        }
        for phrase in routine.phrases {
            if phrase.parts.isEmpty {
                return text("routine.emptyPhrase", ["path": file])
            }
            if case .placeholder(let name)? = phrase.parts.first(where: { if case .placeholder = $0 { true } else { false } }) {
                return text("routine.phrasePlaceholder", ["path": file, "phrase": phrase.template, "name": name])
            }
        }
        for (index, step) in routine.steps.enumerated() {
            let at = text("routine.at", ["path": file, "index": "\(index + 1)"])
            if routines.contains(where: { $0.type == step.type }) {
                if calls(step.type, routine.type, routines: routines, seen: []) {
                    return text("routine.loop", ["at": at, "step": step.type, "type": routine.type])
                }
                guard step.parameters.isEmpty else {
                    return text("routine.stepParameters", ["at": at, "step": step.type])
                }
                continue
            }
            guard let action = registry.action(exactly: step.type) ?? registry.namespaceHandler(for: step.type) else {
                let suggestions = Suggester(candidates: registry.actions.map { .init(type: $0.type, title: $0.title) })
                    .suggestions(for: step.type)
                let hint = suggestions.isEmpty ? "" : text("routine.didYouMean", ["types": text.list(suggestions, or: true)])
                return text("routine.unknownType", ["at": at, "step": step.type, "hint": hint])
            }
            for name in step.parameters.keys.sorted() {
                guard let parameter = action.parameters.first(where: { $0.name == name }) else {
                    let names = action.parameters.map(\.name)
                    let takes = names.isEmpty ? text("routine.takesNone") : text("routine.takes", ["names": names.joined(separator: ", ")])
                    return text("routine.noParameter", ["at": at, "step": step.type, "name": name, "takes": takes])
                }
                let value = step.parameters[name]!
                guard ArgumentCoercion.coerce(value, to: parameter.kind) != nil
                        || (value.stringValue.flatMap { ArgumentCoercion.coerce($0, to: parameter.kind) } != nil) else {
                    return text("routine.wrongKind", ["at": at, "name": name, "expectation": text.expectation(of: parameter.kind), "value": value.jsonText])
                }
                if case .choices(let values)? = parameter.domain, let textValue = value.stringValue,
                   !values.contains(where: { $0.id == textValue || $0.isNamed(by: textValue) }) {
                    return text("routine.notOneOf", ["at": at, "name": name, "value": textValue, "values": values.map(\.id).joined(separator: ", ")])
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

    private static func describe(_ error: DecodingError, _ text: HostText) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return text("decode.missing", ["key": path(context.codingPath + [key])])
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return text("decode.wrongType", ["key": path(context.codingPath)])
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? text("decode.notJSON") : text("decode.notValid", ["key": path(context.codingPath)])
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { key in key.intValue.map { "[\($0 + 1)]" } ?? ".\(key.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}
