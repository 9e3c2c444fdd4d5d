/// What went wrong with a plugin's call, as the words that follow its name: "crashed with
/// SIGSEGV (segmentation fault)", "timed out after 10 s and was stopped".
struct PluginFault: Error {
    var words: String

    init(_ words: String) {
        self.words = words
    }
}
