/// `list`: the menu as text and as JSON.
extension Menu {
    /// One object per item with every key present (`null` where absent), so scripts can rely
    /// on the shape: `type`, `title`, `subtitle`, `icon`, `userInfo`, `source`, `available`,
    /// `withinLimit`.
    public struct ItemDocument: Encodable, Equatable {
        public var type: String
        public var title: String
        public var subtitle: String?
        public var icon: String?
        public var userInfo: [String: JSONValue]
        public var source: String
        public var available: Bool
        public var withinLimit: Bool

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(title, forKey: .title)
            try container.encode(subtitle, forKey: .subtitle)
            try container.encode(icon, forKey: .icon)
            try container.encode(userInfo, forKey: .userInfo)
            try container.encode(source, forKey: .source)
            try container.encode(available, forKey: .available)
            try container.encode(withinLimit, forKey: .withinLimit)
        }

        enum CodingKeys: String, CodingKey {
            case type, title, subtitle, icon, userInfo, source, available, withinLimit
        }
    }

    /// The entries `list` shows: the visible ones, or with `all` every one.
    public func listed(all: Bool) -> [Entry] {
        all ? entries : visible
    }

    public func documents(all: Bool) -> [ItemDocument] {
        listed(all: all).map { entry in
            ItemDocument(type: entry.item.type, title: entry.item.title, subtitle: entry.item.subtitle,
                         icon: entry.item.icon, userInfo: entry.item.userInfo,
                         source: entry.item.source.rawValue, available: entry.available,
                         withinLimit: entry.withinLimit)
        }
    }

    /// One line per item: `1. Title — Subtitle  (type)`, then what `--all` adds.
    public func textLines(all: Bool) -> [String] {
        var number = 0
        return listed(all: all).map { entry in
            var line: String
            if entry.available && entry.withinLimit {
                number += 1
                line = "\(number). "
            } else {
                line = "-  "
            }
            line += entry.item.title
            if let subtitle = entry.item.subtitle { line += " — \(subtitle)" }
            line += "  (\(entry.item.type))"
            if !entry.available {
                line += "  unavailable: no plugin handles this type"
            } else if !entry.withinLimit {
                line += "  hidden: beyond the limit of the menu"
            }
            return line
        }
    }
}
