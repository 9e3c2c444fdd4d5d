import Foundation
import HostModel

/// Parameters that name something: an entity asked through its queries, or fixed choices.
extension ParameterResolver {
    /// The value `text` names, or nil to treat it as plain text (an entity nobody can ask).
    func choose(_ text: String, for parameter: ParameterSpec, domain: ParameterDomain) throws -> EntityValue? {
        switch try match(text, domain: domain) {
        case nil:
            return nil
        case .one(let value):
            return value
        case .several(let values):
            if let conversation {
                return try pick(parameter, among: values, question: self.text("prompt.whichOne", ["text": text]),
                                conversation: conversation).map(\.0)
            }
            let listed = self.text.list(values.map { "\($0.title) (\(parameter.name)=\($0.id))" }, or: true)
            throw Failure(message: self.text("error.valueCouldMean", ["parameter": parameter.name, "value": text, "listed": listed]),
                          parameter: parameter.name, suggestions: values.map(\.id))
        case .nothing:
            let offered = try suggestions(for: parameter, domain: domain)
            let listed = offered.prefix(12).map(\.id).joined(separator: ", ")
            let noun = domainTitle(domain)?.lowercased() ?? self.text("error.value")
            throw Failure(message: self.text("error.noValueCalled", ["parameter": parameter.name, "noun": noun, "value": text, "listed": listed]),
                          parameter: parameter.name, suggestions: offered.map(\.id))
        }
    }

    /// What `text` names in `domain`; nil when the domain is an entity nobody can ask here.
    func match(_ text: String, domain: ParameterDomain) throws -> Match? {
        switch domain {
        case .choices(let values):
            if let exact = values.first(where: { $0.id == text }) { return .one(exact) }
            return Match(values.filter { $0.isNamed(by: text) })
        case .entity(let id):
            guard let provider = entity?(id) else { return nil }
            if let exact = try query(provider, .lookup(id: text)).first { return .one(exact) }
            return Match(try query(provider, .match(text: text)))
        }
    }

    /// The values to offer for the parameter `name` when nobody can be asked at a prompt (a
    /// notification's buttons): its choices, or its entity's suggestions; nil for a parameter
    /// without values to choose from, or when the entity's query failed.
    public func offered(for name: String) -> [EntityValue]? {
        guard let parameter = parameters.first(where: { $0.name == name }), let domain = parameter.domain,
              let offered = try? suggestions(for: parameter, domain: domain), !offered.isEmpty else { return nil }
        return offered
    }

    func suggestions(for parameter: ParameterSpec, domain: ParameterDomain) throws -> [EntityValue] {
        switch domain {
        case .choices(let values): return values
        case .entity(let id):
            guard let provider = entity?(id) else { return [] }
            return try query(provider, .suggest)
        }
    }

    func domainTitle(_ domain: ParameterDomain) -> String? {
        if case .entity(let id) = domain { return entity?(id)?.record.title }
        return nil
    }

    func query(_ provider: EntityProvider, _ query: EntityQuery) throws -> [EntityValue] {
        switch self.query(provider, query, locale) {
        case .success(let values): return values
        case .failure(let failure):
            throw Failure(message: text(HostText.Phrase("entityFailure.report", parts: ["failure": failure.sentence])), parameter: nil,
                          isPluginFailure: true)
        }
    }
}

/// What a name matched among an entity's or a choice list's values.
enum Match {
    case one(EntityValue)
    case nothing
    case several([EntityValue])

    init(_ values: [EntityValue]) {
        switch values.count {
        case 0: self = .nothing
        case 1: self = .one(values[0])
        default: self = .several(values)
        }
    }
}
