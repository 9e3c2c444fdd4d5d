import Foundation
import HostModel

/// Asks a person for a missing value: a terminal, in practice.
public protocol Conversation: AnyObject {
    /// Shows `question` (with `options` numbered from 1 when there are any, and `defaultAnswer`
    /// in brackets) and returns the answer line, or nil when input ended.
    func ask(_ question: String, options: [String], defaultAnswer: String?) -> String?
    /// Says why the last answer was not taken, before the question is asked again.
    func retry(_ reason: String)
}

/// Resolves an action's parameters: `name=value` arguments (which win), then the item's
/// userInfo, then prompts, then the defaults a chosen value brings, then declared defaults.
/// A parameter that names an entity or a choice resolves what people typed ("push ups") to the
/// value's id through the entity's queries or the choice list.
public struct ParameterResolver {
    public var type: String
    public var parameters: [ParameterSpec]
    /// The entity a parameter names, when it names one; nil treats such parameters as text.
    public var entity: ((String) -> EntityProvider?)?
    /// Asks an entity a query: `PluginCalls.query`.
    public var query: (_ entity: EntityProvider, _ query: EntityQuery, _ locale: String) -> Result<[EntityValue], EntityFailure>
    public var locale: String
    /// Where answers come from; nil never asks.
    public var conversation: Conversation?
    /// Optional parameters to ask for on a terminal all the same: ones whose handler refused to
    /// go on without them ("which log?"), as it would ask for a required one.
    public var asked: Set<String> = []
    /// What the `name=value` arguments are called in `--dry-run` (phrase words for `say`).
    public var argumentSource: ResolvedParameter.Source

    public init(type: String, parameters: [ParameterSpec], entity: ((String) -> EntityProvider?)? = nil,
                query: @escaping (_ entity: EntityProvider, _ query: EntityQuery, _ locale: String)
                    -> Result<[EntityValue], EntityFailure> = PluginCalls.none.query,
                locale: String = "en", conversation: Conversation? = nil,
                argumentSource: ResolvedParameter.Source = .argument) {
        self.type = type
        self.parameters = parameters
        self.entity = entity
        self.query = query
        self.locale = locale
        self.conversation = conversation
        self.argumentSource = argumentSource
    }

    /// The host's words in the run's language.
    var text: HostText { HostText(language: locale) }

    /// "an integer" ("een geheel getal").
    func expectation(of kind: ParameterKind) -> String {
        text.expectation(of: kind)
    }

    /// What a value of `parameter` must be: its kind, and its range when it has one.
    func expectation(of parameter: ParameterSpec) -> String {
        guard let range = parameter.range else { return expectation(of: parameter.kind) }
        return text(parameter.kind == .int64 ? "expect.range.int64" : "expect.range.double",
                    ["min": ClosedRange.text(range.lowerBound), "max": ClosedRange.text(range.upperBound)])
    }

    /// The refusal of `value`, given as `got`, when it lies outside `parameter`'s range.
    func outOfRange(_ value: ArgumentValue, of parameter: ParameterSpec, got: String) -> Failure? {
        guard !parameter.admits(value) else { return nil }
        return Failure(message: text("error.expected", ["parameter": parameter.name, "expectation": expectation(of: parameter), "got": got]),
                       parameter: parameter.name)
    }

    /// Why resolution failed: one sentence, the parameter, and what it could be.
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
        public var parameter: String?
        /// The parameter had no value and nobody could be asked for one.
        public var needsValue: Bool = false
        /// Values it could take (ids), when it names an entity or a choice.
        public var suggestions: [String]? = nil
        /// An entity query failed: the plugin's fault, not the input's.
        public var isPluginFailure: Bool = false
        /// For a missing value: what a prompt would have asked, and the values (with titles) it
        /// would have offered.
        public var question: String? = nil
        public var offered: [EntityValue]? = nil
    }

    public struct Resolution: Sendable, Equatable {
        /// One per declared parameter, in order; nil where no value bound.
        public var values: [ArgumentValue?]
        public var parameters: [ResolvedParameter]
    }

    public func resolve(arguments: [NamedArgument], userInfo: [String: JSONValue]) -> Result<Resolution, Failure> {
        Result { try resolveThrowing(arguments: arguments, userInfo: userInfo) }.mapError { $0 as! Failure }
    }

    private func resolveThrowing(arguments: [NamedArgument], userInfo: [String: JSONValue]) throws -> Resolution {
        let given = try namedInputs(arguments)
        var values = [ArgumentValue?](repeating: nil, count: parameters.count)
        var resolved = parameters.map { spec in
            var parameter = ResolvedParameter(name: spec.name, kind: spec.kind)
            parameter.suggestible = spec.suggestible
            return parameter
        }
        var broughtDefaults: [String: JSONValue] = [:]
        func take(_ value: EntityValue, at index: Int) {
            values[index] = .string(value.id)
            resolved[index].value = value.id
            resolved[index].title = value.title
            for (name, json) in value.defaults where broughtDefaults[name] == nil { broughtDefaults[name] = json }
        }
        for (index, parameter) in parameters.enumerated() {
            let input: (text: String, source: ResolvedParameter.Source, json: JSONValue?)
            if let text = given[parameter.name] {
                input = (text, argumentSource, nil)
            } else if let json = userInfo[parameter.name] {
                guard parameter.domain == nil || json.stringValue != nil else {
                    throw Failure(message: text("error.expected", ["parameter": parameter.name, "expectation": expectation(of: parameter.kind),
                                                                  "got": text("error.fromUserInfo", ["json": json.jsonText])]),
                                  parameter: parameter.name)
                }
                input = (json.stringValue ?? json.jsonText, .userInfo, json)
            } else {
                continue
            }
            resolved[index].source = input.source
            if let domain = parameter.domain, let choice = try choose(input.text, for: parameter, domain: domain) {
                take(choice, at: index)
                if choice.id != input.text { resolved[index].input = input.text }
                continue
            }
            let coerced = input.json.flatMap { ArgumentCoercion.coerce($0, to: parameter.kind) }
                ?? (input.json == nil ? ArgumentCoercion.coerce(input.text, to: parameter.kind) : nil)
            let got = input.json.map { text("error.fromUserInfo", ["json": $0.jsonText]) } ?? "'\(input.text)'"
            guard let value = coerced else {
                throw Failure(message: text("error.expected", ["parameter": parameter.name, "expectation": expectation(of: parameter.kind), "got": got]),
                              parameter: parameter.name)
            }
            if let refusal = outOfRange(value, of: parameter, got: input.json == nil ? input.text : got) { throw refusal }
            values[index] = value
            resolved[index].value = value.text
        }
        let asking = conversation != nil
            && parameters.indices.contains { values[$0] == nil && parameters[$0].defaultValue == nil
                && (parameters[$0].required || asked.contains(parameters[$0].name)) }
        var missing: [Int] = []
        for (index, parameter) in parameters.enumerated() where values[index] == nil {
            let brought = broughtDefaults[parameter.name].flatMap { ArgumentCoercion.coerce($0, to: parameter.kind) }
            if let brought, let refusal = outOfRange(brought, of: parameter, got: brought.text) { throw refusal }
            let fallback = brought ?? parameter.defaultValue
            if asking, let conversation, parameter.required || parameter.prompt != nil {
                if let answer = try ask(parameter, fallback: fallback, conversation: conversation) {
                    switch answer {
                    case .value(let value):
                        values[index] = value
                        resolved[index].value = value.text
                        resolved[index].source = .prompt
                    case .choice(let choice, let typed):
                        take(choice, at: index)
                        resolved[index].source = .prompt
                        if typed != choice.id { resolved[index].input = typed }
                    case .kept:
                        break
                    }
                    if values[index] != nil { continue }
                }
            }
            if let fallback {
                values[index] = fallback
                resolved[index].value = fallback.text
                resolved[index].source = brought != nil ? .valueDefault : .default
            } else if parameter.required {
                missing.append(index)
            }
        }
        if !missing.isEmpty {
            let names = missing.map { "'\(parameters[$0].name)'" }.joined(separator: ", ")
            let usage = missing.map { "\(parameters[$0].name)=\(text("word.value"))" }.joined(separator: " ")
            let first = parameters[missing[0]]
            let offered = first.domain.flatMap { try? suggestions(for: first, domain: $0) }
            throw Failure(message: text(missing.count == 1 ? "error.missing.one" : "error.missing.many",
                                        ["names": names, "type": type, "usage": usage]),
                          parameter: first.name, needsValue: true, suggestions: offered.map { $0.map(\.id) },
                          question: question(for: first), offered: offered)
        }
        return Resolution(values: values, parameters: resolved)
    }

    /// Checks the `name=value` arguments: each names a declared parameter, once.
    private func namedInputs(_ arguments: [NamedArgument]) throws -> [String: String] {
        let declared = Set(parameters.map(\.name))
        var given: [String: String] = [:]
        for argument in arguments {
            guard declared.contains(argument.name) else { throw unknown(argument.name) }
            guard given[argument.name] == nil else {
                throw Failure(message: text("error.twice", ["name": argument.name]), parameter: argument.name)
            }
            given[argument.name] = argument.value
        }
        return given
    }

    // MARK: Asking

    private enum Answer {
        case value(ArgumentValue)
        case choice(EntityValue, typed: String)
        /// Enter on an optional parameter: it keeps its default, or stays unset.
        case kept
    }

    /// What is asked for `parameter`: its prompt, else its title as a question.
    func question(for parameter: ParameterSpec) -> String {
        let question = parameter.prompt ?? text("prompt.question", ["title": parameter.title ?? parameter.name])
        guard let range = parameter.range else { return question }
        return text("prompt.range", ["question": question, "min": ClosedRange.text(range.lowerBound), "max": ClosedRange.text(range.upperBound)])
    }

    private func ask(_ parameter: ParameterSpec, fallback: ArgumentValue?, conversation: Conversation) throws -> Answer? {
        let question = question(for: parameter)
        if let domain = parameter.domain, case let offered = try suggestions(for: parameter, domain: domain), !offered.isEmpty {
            let fallbackChoice = fallback.flatMap { value in offered.first { $0.id == value.text } }
            guard let (choice, typed) = try pick(parameter, among: offered, question: question, conversation: conversation,
                                                 fallback: fallbackChoice, domain: domain)
            else { return .kept }
            return .choice(choice, typed: typed)
        }
        while true {
            guard let line = conversation.ask(question, options: [], defaultAnswer: fallback?.text) else {
                throw endedInput(parameter)
            }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty {
                if fallback != nil || !parameter.required { return .kept }
                conversation.retry(text("prompt.needsValue", ["title": parameter.title ?? parameter.name]))
                continue
            }
            guard let value = ArgumentCoercion.coerce(answer, to: parameter.kind), parameter.admits(value) else {
                conversation.retry(text("prompt.expected", ["expectation": expectation(of: parameter), "answer": answer]))
                continue
            }
            return .value(value)
        }
    }

    /// Asks which of `values`; an answer is a number from the list or a name. Nil when Enter
    /// kept an optional parameter's default.
    func pick(_ parameter: ParameterSpec, among values: [EntityValue], question: String,
                      conversation: Conversation, fallback: EntityValue? = nil,
                      domain: ParameterDomain? = nil) throws -> (EntityValue, String)? {
        while true {
            guard let line = conversation.ask(question, options: values.map(\.title), defaultAnswer: fallback?.title) else {
                throw endedInput(parameter)
            }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty {
                if let fallback { return (fallback, fallback.id) }
                if !parameter.required { return nil }
                conversation.retry(text("prompt.chooseOne", ["count": "\(values.count)"]))
                continue
            }
            if let number = Int(answer) {
                guard values.indices.contains(number - 1) else {
                    conversation.retry(text("prompt.noSuchNumber", ["number": "\(number)", "count": "\(values.count)"]))
                    continue
                }
                return (values[number - 1], answer)
            }
            let found: Match? = try domain.flatMap { try match(answer, domain: $0) } ?? Match(values.filter { $0.isNamed(by: answer) })
            switch found {
            case .one(let value)?: return (value, answer)
            case .several(let several)?:
                conversation.retry(text("prompt.couldMean", ["answer": answer, "choices": text.list(several.map(\.title), or: true)]))
            case .nothing?, nil:
                conversation.retry(text("prompt.nothingCalled", ["answer": answer, "count": "\(values.count)"]))
            }
        }
    }

    private func endedInput(_ parameter: ParameterSpec) -> Failure {
        Failure(message: text("error.inputEnded", ["name": parameter.name, "type": type]),
                parameter: parameter.name, needsValue: true)
    }

    private func unknown(_ name: String) -> Failure {
        guard !parameters.isEmpty else {
            return Failure(message: text("error.noParameters", ["type": type, "name": name]), parameter: name)
        }
        let names = parameters.map(\.name)
        let near = names.min { Suggester.distance(name, $0, containsBonus: false) < Suggester.distance(name, $1, containsBonus: false) }
        let hint = near.flatMap { Suggester.distance(name, $0, containsBonus: false) <= 2 ? text("error.didYouMeanParameter", ["name": $0]) : nil } ?? ""
        return Failure(message: text("error.unknownParameter", ["name": name, "type": type, "hint": hint, "names": names.joined(separator: ", ")]),
                       parameter: name)
    }
}
