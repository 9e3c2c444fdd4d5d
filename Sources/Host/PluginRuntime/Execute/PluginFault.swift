import HostModel

/// What went wrong with a plugin's call, as the words that follow its name: "crashed with
/// SIGSEGV (segmentation fault)", "timed out after 10 s and was stopped".
struct PluginFault: Error {
    /// Said in the language of the run that shows it.
    var words: HostText.Phrase

    init(_ key: String, _ values: [String: String] = [:], parts: [String: HostText.Phrase] = [:]) {
        words = HostText.Phrase(key, values, parts: parts)
    }

    init(_ words: HostText.Phrase) {
        self.words = words
    }
}
