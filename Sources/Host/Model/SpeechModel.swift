/// A speech model for one language: the recogniser's acoustic model (a directory) and its
/// pronunciation dictionary.
/// English is Debian's `pocketsphinx-en-us`; another language is a configuration
/// (`speechModels` in config.json), never code.
public struct SpeechModel: Sendable, Equatable {
    public var acousticModel: String
    public var dictionary: String
    public init(acousticModel: String, dictionary: String) {
        self.acousticModel = acousticModel
        self.dictionary = dictionary
    }

    /// Debian's English model (the package pocketsphinx-en-us).
    public static let english = SpeechModel(acousticModel: "/usr/share/pocketsphinx/model/en-us/en-us",
                                            dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict")

    /// The model for `language` ("en_GB" → "en"): the configured one, else English's own.
    public static func model(for language: String, configured: [String: SpeechModel]) -> SpeechModel? {
        let base = LanguagePreference.base(of: language)
        return configured[base] ?? (base == "en" ? english : nil)
    }
}
