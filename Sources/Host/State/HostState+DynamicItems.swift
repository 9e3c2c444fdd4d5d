import Foundation
import GRDB
import HostModel

// Dynamic items.
extension HostState {
    /// What items in `language` are stored under: the language alone (`nl_NL`, `nl-BE` and
    /// `nl` are all `nl`), so that a menu shows one language whichever way the user's locale
    /// names it. The host speaks no regional variant, so nothing of its own is lost.
    public static func languageKey(_ language: String) -> String {
        LanguagePreference.base(of: language)
    }

    /// Replaces everything `source` offers in `language` with `items`, in one transaction.
    public func replaceItems(source: String, language: String, pluginVersion: String?,
                             items: [ShortcutItem], at date: Date) throws(HostError) {
        let language = HostState.languageKey(language)
        // The script list (`dynamic set`) is the user's; a provider's answer is a cache.
        try write(HostText.Phrase("state.storeItems", ["source": source]), durable: source == HostState.scriptSource) { db in
            try db.execute(sql: "DELETE FROM dynamicSource WHERE source = ? AND language = ?",
                           arguments: [source, language])
            try db.execute(sql: "INSERT INTO dynamicSource (source, language, pluginVersion, updatedAt) VALUES (?, ?, ?, ?)",
                           arguments: [source, language, pluginVersion, date.timeIntervalSince1970])
            // One prepared statement for every item: a provider may answer a thousand.
            let insert = try db.cachedStatement(sql: """
                INSERT INTO dynamicItem (source, language, rank, type, title, subtitle, icon, userInfo, validUntil)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (index, item) in items.enumerated() {
                try insert.execute(arguments: [source, language, index + 1, item.type, item.title, item.subtitle,
                                               item.icon, JSONValue.object(item.userInfo).jsonText,
                                               item.validUntil?.timeIntervalSince1970])
            }
        }
    }

    /// Forgets `source` in every language (a provider that went away, `dynamic clear`).
    public func removeSource(_ source: String) throws(HostError) {
        try write(HostText.Phrase("state.removeItems", ["source": source]), durable: source == HostState.scriptSource) { db in
            try db.execute(sql: "DELETE FROM dynamicSource WHERE source = ?", arguments: [source])
        }
    }

    /// Removes `source`'s items that have expired at `now`, in every language; how many.
    public func removeItems(of source: String, expiredAt now: Date) throws(HostError) -> Int {
        var removed = 0
        try write(HostText.Phrase("state.dropItems", ["source": source])) { db in
            try db.execute(sql: "DELETE FROM dynamicItem WHERE source = ? AND validUntil <= ?",
                           arguments: [source, now.timeIntervalSince1970])
            removed = db.changesCount
        }
        return removed
    }

    /// Languages `source` has stored items in (as `languageKey` names them).
    public func languages(of source: String) throws(HostError) -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT language FROM dynamicSource WHERE source = ? ORDER BY language",
                                arguments: [source])
        }
    }

    /// Each source's stored items for `language`: the rows in that language, or else the
    /// source's most recent answer in another one (better a title in English than none).
    public func dynamicSources(language: String) throws(HostError) -> [DynamicSource] {
        let language = HostState.languageKey(language)
        // Asked before the read: a commit after this changes the version, so what is kept is
        // never older than the version it is kept with.
        let version = storedItems?.version()
        if let version, let kept = storedItems?.sources(language: language, version: version) { return kept }
        let sources = try readDynamicSources(language: language)
        if let version { storedItems?.keep(sources, language: language, version: version) }
        return sources
    }

    private func readDynamicSources(language: String) throws(HostError) -> [DynamicSource] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT source, language, pluginVersion FROM dynamicSource
                ORDER BY source, language = ? DESC, language = '' DESC, updatedAt DESC
                """, arguments: [language])
            var chosen: [DynamicSource] = []
            for row in rows {
                let source: String = row["source"]
                if chosen.last?.source == source { continue }
                let rowLanguage: String = row["language"]
                let items = try Row.fetchAll(db, sql: """
                    SELECT * FROM dynamicItem WHERE source = ? AND language = ? ORDER BY rank
                    """, arguments: [source, rowLanguage]).map { item in
                    ShortcutItem(type: item["type"], title: item["title"], subtitle: item["subtitle"],
                                 icon: item["icon"], userInfo: userInfo(item["userInfo"]),
                                 source: .dynamic, origin: source,
                                 validUntil: (item["validUntil"] as Double?).map(Date.init(timeIntervalSince1970:)))
                }
                chosen.append(DynamicSource(source: source, pluginVersion: row["pluginVersion"], items: items, language: rowLanguage))
            }
            return chosen
        }
    }
}
