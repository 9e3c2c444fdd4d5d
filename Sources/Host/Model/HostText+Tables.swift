// The host's words, one `.strings` table per language (`HostText`). Keep the keys of every
// table the same: a test compares them.

extension HostText {
    static let sources: [String: String] = ["en": english, "nl": dutch]
}
