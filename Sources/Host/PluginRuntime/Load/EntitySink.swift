import CStandFitABI
import Foundation
import HostModel

/// Collects the values an entity query adds during one call.
final class EntitySink {
    private var values: [EntityValue] = []
    private var problems: [HostText.Phrase] = []

    /// Calls `query` with a sink and answers its values, or why there are none.
    static func collect(entity: EntityRecord, pluginID: String, locale: String, entityData: UnsafeMutableRawPointer?,
                        _ query: (UnsafePointer<standfit_entity_sink>) -> Int32) -> Result<[EntityValue], EntityFailure> {
        let collector = EntitySink()
        let status = locale.withCString { locale in
            var sink = standfit_entity_sink(abi: .host(for: standfit_entity_sink.self), locale: locale,
                                            host_data: Unmanaged.passUnretained(collector).toOpaque(),
                                            entity_data: entityData, add: addValue)
            return withUnsafePointer(to: &sink) { query($0) }
        }
        let named = ["title": entity.title.lowercased(), "plugin": pluginID, "entity": entity.id]
        guard status == STANDFIT_OK else {
            return .failure(EntityFailure(HostText.Phrase("plugin.entity.queryFailed", named.merging(["status": "\(status)"]) { $1 })))
        }
        if let problem = collector.problems.first {
            return .failure(EntityFailure(HostText.Phrase("plugin.entity.badValue", named, parts: ["problem": problem])))
        }
        return .success(collector.values)
    }

    fileprivate func add(_ value: UnsafePointer<standfit_entity_value>?) -> Int32 {
        switch EntityValueDescriptor.read(value) {
        case .success(let value):
            values.append(value)
            return STANDFIT_OK
        case .failure(let problem):
            problems.append(problem.words)
            return STANDFIT_ERR_INVALID_ARGUMENT
        }
    }
}

/// `standfit_entity_sink.add`.
private let addValue: @convention(c) (UnsafePointer<standfit_entity_sink>?, UnsafePointer<standfit_entity_value>?) -> Int32 = { sink, value in
    guard let hostData = sink?.pointee.host_data else { return STANDFIT_ERR_INVALID_ARGUMENT }
    return Unmanaged<EntitySink>.fromOpaque(hostData).takeUnretainedValue().add(value)
}

/// Reads a `standfit_entity_value`, checking every field.
enum EntityValueDescriptor {
    static func read(_ pointer: UnsafePointer<standfit_entity_value>?) -> Result<EntityValue, DescriptorProblem> {
        guard let pointer else { return .failure(DescriptorProblem("plugin.entity.valueNull")) }
        return read(UnsafeRawPointer(pointer))
    }

    /// Reads one value at `raw`, whose header says how large it is.
    static func read(_ raw: UnsafeRawPointer) -> Result<EntityValue, DescriptorProblem> {
        let header = raw.load(as: standfit_abi_header.self)
        if let problem = header.abiProblem(minimumSize: MemoryLayout<standfit_entity_value>.size) {
            return .failure(DescriptorProblem("plugin.entity.valueABI", parts: ["problem": problem]))
        }
        let value = raw.load(as: standfit_entity_value.self)
        guard let id = CText.string(value.id), !id.isEmpty else {
            return .failure(DescriptorProblem("plugin.entity.valueID", parts: ["given": CText.shown(value.id)]))
        }
        guard let title = CText.string(value.title), !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .failure(DescriptorProblem("plugin.entity.valueNoTitle", ["value": id]))
        }
        let synonyms = (CText.string(value.synonyms) ?? "").split(separator: "|")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var defaults: [String: JSONValue] = [:]
        if let json = CText.string(value.defaults_json) {
            guard case .object(let object)? = JSONValue(jsonText: json) else {
                return .failure(DescriptorProblem("plugin.entity.valueDefaults", ["value": id]))
            }
            defaults = object
        }
        return .success(EntityValue(id: id, title: title, synonyms: synonyms, defaults: defaults))
    }
}
