import CStandFitABI
import HostModel

/// Collects the items a dynamic provider adds during one `provide` call.
final class ItemSink {
    private let pluginID: String
    private var items: [ShortcutItem] = []
    private var problems: [String] = []

    private init(pluginID: String) {
        self.pluginID = pluginID
    }

    /// Calls `provide` and answers its items, or why there are none.
    static func collect(from provide: @convention(c) (UnsafePointer<standfit_item_sink>?) -> Int32,
                        pluginID: String, locale: String) -> Result<[ShortcutItem], ProviderFailure> {
        let collector = ItemSink(pluginID: pluginID)
        let status = locale.withCString { locale in
            var sink = standfit_item_sink(abi: .host(for: standfit_item_sink.self), locale: locale,
                                          host_data: Unmanaged.passUnretained(collector).toOpaque(),
                                          add: addItem)
            return withUnsafePointer(to: &sink) { provide($0) }
        }
        guard status == STANDFIT_OK else {
            return .failure(ProviderFailure(message: "The dynamic provider of plugin '\(pluginID)' failed with status \(status); its previous items are kept."))
        }
        if let problem = collector.problems.first {
            return .failure(ProviderFailure(message: "The dynamic provider of plugin '\(pluginID)' gave a bad item (\(problem)); its previous items are kept."))
        }
        return .success(collector.items)
    }

    fileprivate func add(_ item: UnsafePointer<standfit_item>?) -> Int32 {
        switch ItemDescriptor.read(item, source: .dynamic, origin: pluginID) {
        case .success(let item):
            items.append(item)
            return STANDFIT_OK
        case .failure(let problem):
            problems.append(problem.message)
            return STANDFIT_ERR_INVALID_ARGUMENT
        }
    }
}

/// `standfit_item_sink.add`.
private let addItem: @convention(c) (UnsafePointer<standfit_item_sink>?, UnsafePointer<standfit_item>?) -> Int32 = { sink, item in
    guard let hostData = sink?.pointee.host_data else { return STANDFIT_ERR_INVALID_ARGUMENT }
    return Unmanaged<ItemSink>.fromOpaque(hostData).takeUnretainedValue().add(item)
}
