import CSpeech
import Foundation
import HostModel

/// PocketSphinx with the host's grammar (`standfit_speech.h`): what a recording says, read as
/// the nearest of the plugins' phrases.
public final class Recognizer {
    private let handle: OpaquePointer
    private let grammar: SpeechGrammar

    /// What was heard, and whether the recogniser is sure of it.
    public struct Reading: Sendable, Equatable {
        /// The grammar's words ("log fifty two squat"); empty when nothing was heard.
        public var text: String
        /// How much better, per 10 ms frame, the reading fits the sound than the best sentence
        /// of the grammar without it (`SpeechGrammar.rival`): nil when that grammar could not
        /// read the sound at all or there is none.
        public var margin: Double?

        public init(text: String, margin: Double?) {
            self.text = text
            self.margin = margin
        }

        /// The margin at which a reading may run unconfirmed (`--yes`). Measured on the
        /// project's espeak-ng recordings (docs/BENCHMARKS.md, "Speech": every number 1–100,
        /// 20 requests for something else and 27 phrases, at two speeds): no misreading and no
        /// request for something else reached 2.8 ("order a pizza" read as "log burpees");
        /// right readings reach up to 21, most numbers stay below 3.
        public static let sureMargin = 8.0

        /// Whether it may run without being confirmed: the recogniser's nearest other sentence
        /// fits the sound clearly worse. A reading whose rival could not be read is not sure
        /// (the sound may be something no sentence fits).
        public var isSure: Bool { (margin ?? -.infinity) >= Reading.sureMargin }
    }

    /// A recogniser for `model` searching `grammar`; the sentence that says why not (the
    /// library or the model missing) otherwise.
    public init(model: SpeechModel, grammar: SpeechGrammar) throws(HostError) {
        var why = [CChar](repeating: 0, count: 512)
        guard standfit_speech_available(&why, why.count) != 0 else {
            throw HostError(.speechUnavailable, key: "error.speech.noRecognizer", ["why": Recognizer.text(why)])
        }
        for path in [model.acousticModel, model.dictionary] where !FileManager.default.fileExists(atPath: path) {
            throw HostError(.speechUnavailable, key: "error.speech.noModel", ["path": path])
        }
        guard let handle = standfit_speech_open(model.acousticModel, model.dictionary, grammar.text, &why, why.count) else {
            throw HostError(.speechUnavailable, key: "error.speech.start", ["why": Recognizer.text(why)])
        }
        self.handle = handle
        self.grammar = grammar
    }

    deinit {
        standfit_speech_close(handle)
    }

    /// What `samples` say and how sure the recogniser is of it: read again with each grammar
    /// that cannot say it in one respect (`SpeechGrammar.rivals`: its number, its exercise, its
    /// sentence), the scores of the paths compared per frame; the smallest margin counts. A
    /// rival that cannot read the sound at all (or fails) leaves the reading unsure.
    public func reading(_ samples: [Int16]) throws(HostError) -> Reading {
        let samples = Recognizer.dithered(samples)
        let heard = try decode(samples, rival: nil)
        let rivals = grammar.rivals(of: heard.text)
        guard !heard.text.isEmpty, heard.frames > 0, !rivals.isEmpty else { return Reading(text: heard.text, margin: nil) }
        var margin = Double.infinity
        for rival in rivals {
            guard let other = try? decode(samples, rival: rival), !other.text.isEmpty else { return Reading(text: heard.text, margin: nil) }
            margin = min(margin, Double(Int64(heard.score) - Int64(other.score)) / Double(heard.frames))
        }
        return Reading(text: heard.text, margin: margin)
    }

    /// `samples` with a quarter of them raised by one step, the same ones every time: the
    /// noise the recogniser's features need where synthesised or gated audio has runs of exact
    /// zeros, as PocketSphinx's own `-dither` adds. Rationale: added here from a fixed seed,
    /// so that every reading of one recording (the first and its rivals, and any server
    /// thread's) sees the same samples; the library's dither draws from one process-wide
    /// generator that each reading would move on (and threads would share unlocked).
    static func dithered(_ samples: [Int16]) -> [Int16] {
        var state: UInt64 = 0x5DEECE66D
        return samples.map { sample in
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return z % 4 == 0 && sample < Int16.max ? sample + 1 : sample
        }
    }

    private func decode(_ samples: [Int16], rival: SpeechGrammar?) throws(HostError) -> (text: String, score: Int32, frames: Int32) {
        var heard = [CChar](repeating: 0, count: 1_024)
        var score: Int32 = 0, frames: Int32 = 0
        let status = samples.withUnsafeBufferPointer { buffer in
            standfit_speech_recognize(handle, rival?.text, buffer.baseAddress, buffer.count, &heard, heard.count, &score, &frames)
        }
        guard status == 0 else { throw HostError(.audioInvalid, key: "error.speech.read") }
        return (Recognizer.text(heard), score, frames)
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
            throw HostError(.speechUnavailable, key: "error.speech.dictionary", ["path": model.dictionary, "why": error.localizedDescription], cause: error)
        }
        var words = Set<String>()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let end = line.firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "(") }) else { continue }
            words.insert(String(decoding: line[line.startIndex..<end], as: UTF8.self))
        }
        return words
    }
}
