import Foundation
import GRDB
import HostModel

// Trusted plugins.
extension HostState {
    /// Real path → pinned SHA-256 of every plugin the user trusted.
    public func pins() throws(HostError) -> [String: String] {
        try read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT realPath, sha256 FROM trustedPlugin").map { ($0["realPath"], $0["sha256"]) },
                       uniquingKeysWith: { first, _ in first })
        }
    }

    /// Pins `realPath` to `sha256` at `date`, replacing an earlier pin.
    public func pin(_ realPath: String, sha256: String, at date: Date) throws(HostError) {
        try write(HostText.Phrase("state.trust", ["path": realPath]), durable: true) { db in
            try db.execute(sql: "INSERT OR REPLACE INTO trustedPlugin (realPath, sha256, trustedAt) VALUES (?, ?, ?)",
                           arguments: [realPath, sha256, date.timeIntervalSince1970])
        }
    }

    /// Removes the pin of `realPath`; false when there was none.
    public func unpin(_ realPath: String) throws(HostError) -> Bool {
        var removed = false
        try write(HostText.Phrase("state.distrust", ["path": realPath]), durable: true) { db in
            try db.execute(sql: "DELETE FROM trustedPlugin WHERE realPath = ?", arguments: [realPath])
            removed = db.changesCount > 0
        }
        return removed
    }
}
