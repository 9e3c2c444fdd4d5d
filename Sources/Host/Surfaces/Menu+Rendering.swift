import Foundation
import HostModel
import HostStorage
import HostMenu

/// `list`: the menu as text and as JSON, and `--explain`'s account of each item.
extension Menu {
    /// One object per item with every key present (`null` where absent), so scripts can rely
    /// on the shape: `type`, `title`, `subtitle`, `icon`, `userInfo`, `app` (the app's id: a
    /// plugin's, or `user` for routines), `appName`, `source`, `origin`, `rank`, `available`,
    /// `withinLimit` (within its app's limit), `validUntil` (ISO 8601 UTC, or null for an item
    /// that holds until its provider is asked again); with `--explain` also `pruned` and `shadows`.
    public struct ItemDocument: Encodable, Equatable {
        public var type: String
        public var title: String
        public var subtitle: String?
        public var icon: String?
        public var userInfo: [String: JSONValue]
        public var app: String
        public var appName: String
        public var source: String
        public var origin: String
        public var rank: Int?
        public var available: Bool
        public var withinLimit: Bool
        public var validUntil: Date?
        /// Only with `--explain`.
        public var explanation: Explanation?

        public struct Explanation: Encodable, Equatable {
            public var pruned: String?
            public var shadows: [Shadowed]
        }

        public struct Shadowed: Encodable, Equatable {
            public var type: String
            public var title: String
            public var source: String
            public var origin: String
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(title, forKey: .title)
            try container.encode(subtitle, forKey: .subtitle)
            try container.encode(icon, forKey: .icon)
            try container.encode(userInfo, forKey: .userInfo)
            try container.encode(app, forKey: .app)
            try container.encode(appName, forKey: .appName)
            try container.encode(source, forKey: .source)
            try container.encode(origin, forKey: .origin)
            try container.encode(rank, forKey: .rank)
            try container.encode(available, forKey: .available)
            try container.encode(withinLimit, forKey: .withinLimit)
            try container.encode(validUntil.map { $0.formatted(.iso8601) }, forKey: .validUntil)
            if let explanation {
                try container.encode(explanation.pruned, forKey: .pruned)
                try container.encode(explanation.shadows, forKey: .shadows)
            }
        }

        enum CodingKeys: String, CodingKey {
            case type, title, subtitle, icon, userInfo, app, appName, source, origin, rank, available, withinLimit, validUntil, pruned, shadows
        }
    }

    /// The entries `list` shows: the visible ones, or with `all` every one.
    public func listed(all: Bool) -> [Entry] {
        all ? entries : visible
    }

    public func documents(all: Bool, explain: Bool = false) -> [ItemDocument] {
        listed(all: all || explain).map { entry in
            ItemDocument(
                type: entry.item.type, title: entry.item.title, subtitle: entry.item.subtitle,
                icon: entry.item.icon, userInfo: entry.item.userInfo, app: entry.app.id, appName: entry.app.name,
                source: entry.item.source.rawValue,
                origin: entry.item.origin, rank: entry.rank, available: entry.available,
                withinLimit: entry.withinLimit, validUntil: entry.item.validUntil,
                explanation: explain ? ItemDocument.Explanation(
                    pruned: entry.pruned,
                    shadows: entry.shadowed.map {
                        ItemDocument.Shadowed(type: $0.type, title: $0.title, source: $0.source.rawValue, origin: $0.origin)
                    }) : nil)
        }
    }

    /// One line per item: `1. Title — Subtitle  (type)`, then what `--all` adds; with
    /// `explain`, every item and an indented line saying where it came from and why it is
    /// where it is, and until when it holds (in `timeZone`). Items of several apps come under
    /// a line naming each app (with `explain`, always, with its limit), apps a blank line apart.
    /// `iconNote` says what is wrong with an item's icon, if anything.
    public func textLines(all: Bool, explain: Bool = false, timeZone: TimeZone, language: String = "en",
                          iconNote: (ShortcutItem) -> String? = { _ in nil }) -> [String] {
        let text = HostText(language: language)
        var number = 0
        var lines: [String] = []
        let listed = listed(all: all || explain)
        let grouped = Set(listed.map(\.app)).count > 1 || explain
        var app: MenuApp?
        for entry in listed {
            if grouped && entry.app != app && entry.app != Menu.anyApp {
                if app != nil { lines.append("") }
                lines.append(explain ? text("list.appHeader", ["name": entry.app.name, "id": entry.app.id, "limit": "\(limit)"])
                                     : "\(entry.app.name) (\(entry.app.id))")
            }
            app = entry.app
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
            if let pruned = entry.pruned {
                line += "  " + text("list.pruned", ["why": pruned])
            } else if !entry.withinLimit {
                line += "  " + text("list.cut", ["limit": "\(limit)"])
            }
            lines.append(line)
            if explain {
                var reasons = [Menu.describeOrigin(entry.item, rank: entry.rank, text: text)]
                if let until = entry.item.validUntil {
                    var style = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeZone: timeZone)
                    style = style.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .colon)
                    reasons[0] += ", " + text("list.until", ["time": until.formatted(style)])
                }
                if let note = iconNote(entry.item) { reasons.append(note) }
                for (position, shadowed) in entry.shadowed.enumerated() {
                    let key = position == 0 && entry.rank != nil && shadowed.source == .static ? "list.replaces" : "list.shadows"
                    reasons.append(text(key, ["title": shadowed.title, "origin": Menu.describeOrigin(shadowed, rank: nil, text: text)]))
                }
                lines.append("     " + reasons.joined(separator: "; "))
            }
        }
        return lines
    }

    /// "from the manifest /path", "default item of plugin X", "from plugin X's provider, rank 2",
    /// "from the script list, rank 1".
    static func describeOrigin(_ item: ShortcutItem, rank: Int?, text: HostText) -> String {
        let origin: String = switch item.source {
        case .static where item.origin.hasPrefix("/"): text("list.fromManifest", ["path": item.origin])
        case .static: text("list.defaultItem", ["plugin": item.origin])
        case .dynamic where item.origin == HostState.scriptSource: text("list.fromScript")
        case .dynamic: text("list.fromProvider", ["plugin": item.origin])
        case .suggestion: text("list.suggested")
        case .routine: text("list.routine", ["origin": item.origin])
        }
        guard let rank, item.source == .dynamic else { return origin }
        return origin + ", " + text("list.rank", ["rank": "\(rank)"])
    }
}
