import CSpeech
import Foundation
import HostModel

/// PocketSphinx with the host's grammar (`standfit_speech.h`): what a recording says, read as
/// the nearest of the plugins' phrases.
public final class Recognizer {
    private let handle: OpaquePointer

    /// A recogniser for `model` searching `grammar`; the sentence that says why not (the
    /// library or the model missing) otherwise.
    public init(model: SpeechModel, grammar: SpeechGrammar) throws(HostError) {
        var why = [CChar](repeating: 0, count: 512)
        guard standfit_speech_available(&why, why.count) != 0 else {
            throw HostError(.speechUnavailable, "Speech needs PocketSphinx, which is not installed here (\(Recognizer.text(why))); install it (Debian: apt-get install pocketsphinx pocketsphinx-en-us).")
        }
        for path in [model.acousticModel, model.dictionary] where !FileManager.default.fileExists(atPath: path) {
            throw HostError(.speechUnavailable, "The speech model's \(path) is not there; install the language's model (Debian, English: apt-get install pocketsphinx-en-us) or name it in speechModels in config.json.")
        }
        guard let handle = standfit_speech_open(model.acousticModel, model.dictionary, grammar.text, &why, why.count) else {
            throw HostError(.speechUnavailable, "The recogniser could not start: \(Recognizer.text(why)); check the model named in speechModels in config.json, or reinstall pocketsphinx-en-us.")
        }
        self.handle = handle
    }

    deinit {
        standfit_speech_close(handle)
    }

    /// What `samples` (16 kHz, mono, signed 16-bit) say, as the grammar's words: the phrase
    /// nearest to the sound (the grammar always finds its nearest), empty when nothing was
    /// heard.
    public func read(_ samples: [Int16]) throws(HostError) -> String {
        var heard = [CChar](repeating: 0, count: 1_024)
        let status = samples.withUnsafeBufferPointer { buffer in
            standfit_speech_recognize(handle, buffer.baseAddress, buffer.count, &heard, heard.count)
        }
        guard status == 0 else { throw HostError(.audioInvalid, "The recogniser could not read the audio; try again, or record it again.") }
        return Recognizer.text(heard)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The words `model`'s dictionary knows (its first column, alternative pronunciations
    /// "word(2)" as the word).
    public static func words(of model: SpeechModel) throws(HostError) -> Set<String> {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: model.dictionary))
        } catch {
            throw HostError(.speechUnavailable, "The speech model's dictionary \(model.dictionary) cannot be read (\(error.localizedDescription)); install the language's model (Debian, English: apt-get install pocketsphinx-en-us).", cause: error)
        }
        var words = Set<String>()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let end = line.firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "(") }) else { continue }
            words.insert(String(decoding: line[line.startIndex..<end], as: UTF8.self))
        }
        return words
    }
}
