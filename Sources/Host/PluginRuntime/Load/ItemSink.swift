import CStandFitABI
import Foundation
import HostModel

/// Collects the items a dynamic provider adds during one `provide` call.
final class ItemSink {
    private let pluginID: String
    private var items: [ShortcutItem] = []
    private var problems: [HostText.Phrase] = []

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
            return .failure(ProviderFailure(HostText.Phrase("plugin.item.providerFailed", ["plugin": pluginID, "status": "\(status)"])))
        }
        if let problem = collector.problems.first {
            return .failure(ProviderFailure(HostText.Phrase("plugin.item.badItem", ["plugin": pluginID], parts: ["problem": problem])))
        }
        return .success(collector.items)
    }

    fileprivate func add(_ item: UnsafePointer<standfit_item>?, validUntil: Date? = nil) -> Int32 {
        switch ItemDescriptor.read(item, source: .dynamic, origin: pluginID) {
        case .success(var item):
            item.validUntil = validUntil
            items.append(item)
            return STANDFIT_OK
        case .failure(let problem):
            problems.append(problem.words)
            return STANDFIT_ERR_INVALID_ARGUMENT
        }
    }
}

extension ItemSink {
    /// The `standfit.item-lifetime/1` table.
    static func lifetimeTable() -> UnsafePointer<standfit_item_lifetime_ext> {
        let table = UnsafeMutablePointer<standfit_item_lifetime_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_item_lifetime_ext(abi: .host(for: standfit_item_lifetime_ext.self), add_until: addItemUntil))
        return UnsafePointer(table)
    }

    /// The collector `sink` was made for.
    fileprivate static func from(_ sink: UnsafePointer<standfit_item_sink>?) -> ItemSink? {
        guard let hostData = sink?.pointee.host_data else { return nil }
        return Unmanaged<ItemSink>.fromOpaque(hostData).takeUnretainedValue()
    }
}

/// `standfit_item_sink.add`.
private let addItem: @convention(c) (UnsafePointer<standfit_item_sink>?, UnsafePointer<standfit_item>?) -> Int32 = { sink, item in
    ItemSink.from(sink)?.add(item) ?? STANDFIT_ERR_INVALID_ARGUMENT
}

/// `standfit_item_lifetime_ext.add_until`.
private let addItemUntil: @convention(c) (UnsafePointer<standfit_item_sink>?, UnsafePointer<standfit_item>?, Int64) -> Int32 = { sink, item, until in
    ItemSink.from(sink)?.add(item, validUntil: Date(timeIntervalSince1970: TimeInterval(until))) ?? STANDFIT_ERR_INVALID_ARGUMENT
}
