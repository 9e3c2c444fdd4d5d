import HostModel

/// A freedesktop `.desktop` file for the host: the application entry and one
/// `[Desktop Action …]` group per quick action, the Linux twin of the home-screen long press.
///
/// The fields hold plain values (an argv, a title with newlines, any icon name); `text` does
/// all the escaping and quoting, so no value can add a key, a group or a field code, and the
/// result passes `desktop-file-validate` without errors or warnings.
public struct DesktopEntry: Hashable, Sendable {
    /// One entry in `Actions=`: what the launcher's app-icon menu shows and runs.
    public struct Action: Hashable, Sendable {
        /// The action identifier. One that is not valid or repeats an earlier one is written
        /// as `DesktopEntry.actionID(for:taken:)` derives it.
        public var id: String
        public var name: String
        /// The name in other languages, by locale (`nl`, `pt_BR`): `Name[nl]=` keys.
        public var localizedNames: [String: String]
        public var icon: String?
        public var exec: [String]

        public init(id: String, name: String, localizedNames: [String: String] = [:], icon: String? = nil, exec: [String]) {
            self.id = id
            self.name = name
            self.localizedNames = localizedNames
            self.icon = icon
            self.exec = exec
        }
    }

    public var name: String
    public var comment: String?
    /// The comment in other languages, by locale: `Comment[nl]=` keys.
    public var localizedComments: [String: String] = [:]
    /// Words a launcher's search finds the entry by (`Keywords=`), and by locale (`Keywords[nl]=`).
    public var keywords: [String] = []
    public var localizedKeywords: [String: [String]] = [:]
    /// An icon theme name or an absolute path to an icon file.
    public var icon: String?
    /// The command line as argv: the program, then its arguments, unquoted.
    public var exec: [String]
    public var terminal: Bool
    /// Registered categories (`Utility`) or `X-` extensions. A name that could split or end the
    /// list is dropped; whether a name is registered is the caller's business (desktop-file-validate
    /// rejects unregistered ones and hints when no main category is present).
    public var categories: [String]
    public var actions: [Action]
    /// `DBusActivatable=true`: desktops launch the entry and its actions through
    /// `org.freedesktop.Application` on the bus name the file is named after, and Exec lines
    /// are the fallback where that is not honoured.
    public var dbusActivatable: Bool

    public init(name: String, comment: String? = nil, icon: String? = nil, exec: [String],
                terminal: Bool = false, categories: [String] = [], actions: [Action] = [],
                dbusActivatable: Bool = false) {
        self.name = name
        self.comment = comment
        self.icon = icon
        self.exec = exec
        self.terminal = terminal
        self.categories = categories
        self.actions = actions
        self.dbusActivatable = dbusActivatable
    }

    /// The specification version the file declares.
    ///
    /// Rationale: the file uses nothing newer than 1.1 (`Actions`), and desktop-file-utils 0.26
    /// (Debian 12's, the one installed here) rejects `Version=1.5` with the error "is not a known
    /// version". 1.4 is the newest version it accepts, and later validators accept it too.
    public static let specificationVersion = "1.4"

    /// The file's contents: UTF-8 text, LF line ends, a blank line between groups.
    public var text: String {
        let name = Self.localeStringValue(name)
        var lines = [
            "[Desktop Entry]",
            "Type=Application",
            "Version=\(Self.specificationVersion)",
            "Name=\(name)",
        ]
        // desktop-file-validate warns when Comment "looks the same as" Name (ignoring case).
        if let comment = comment.map(Self.localeStringValue), !comment.isEmpty,
           comment.lowercased() != name.lowercased() {
            lines.append("Comment=\(comment)")
            for (locale, text) in localizedComments.sorted(by: { $0.key < $1.key }) where Self.isValidLocale(locale) {
                let text = Self.localeStringValue(text)
                if !text.isEmpty, text != comment, text.lowercased() != name.lowercased() { lines.append("Comment[\(locale)]=\(text)") }
            }
        }
        if let words = Self.keywordsValue(keywords) {
            lines.append("Keywords=\(words)")
            for (locale, list) in localizedKeywords.sorted(by: { $0.key < $1.key }) where Self.isValidLocale(locale) {
                if let localized = Self.keywordsValue(list), localized != words { lines.append("Keywords[\(locale)]=\(localized)") }
            }
        }
        if let icon = Self.iconValue(icon) { lines.append("Icon=\(icon)") }
        lines.append("Exec=\(Self.execLine(exec))")
        lines.append("Terminal=\(terminal)")
        if dbusActivatable { lines.append("DBusActivatable=true") }
        let categories = Self.categoriesValue(categories)
        if !categories.isEmpty { lines.append("Categories=\(categories)") }

        var ids: [String] = []
        var used = Set<String>()
        var groups: [[String]] = []
        for action in actions {
            let id = Self.isValidActionID(action.id) && !used.contains(action.id)
                ? action.id : Self.actionID(for: action.id, taken: used)
            ids.append(id)
            used.insert(id)
            var group = ["[Desktop Action \(id)]", "Name=\(Self.localeStringValue(action.name))"]
            for (locale, name) in action.localizedNames.sorted(by: { $0.key < $1.key }) where Self.isValidLocale(locale) {
                group.append("Name[\(locale)]=\(Self.localeStringValue(name))")
            }
            if let icon = Self.iconValue(action.icon) { group.append("Icon=\(icon)") }
            group.append("Exec=\(Self.execLine(action.exec))")
            groups.append(group)
        }
        // Valid action identifiers need no escaping inside a list value.
        if !ids.isEmpty { lines.append("Actions=" + ids.map { $0 + ";" }.joined()) }
        return ([lines] + groups).map { $0.joined(separator: "\n") + "\n" }.joined(separator: "\n")
    }
}
