// The host's words, one `.strings` table per language (`HostText`), each in parts: the
// commands' words, the errors' sentences and the plugins' checks. Keep the keys of every
// table the same: a test compares them.

extension HostText {
    static let sources: [String: String] = [
        "en": [english, englishErrors, englishPlugins, englishHelp].joined(separator: "\n"),
        "nl": [dutch, dutchErrors, dutchPlugins, dutchHelp].joined(separator: "\n"),
    ]
}
