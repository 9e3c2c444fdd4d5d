import Foundation
import HostModel

/// Sound as the recogniser takes it (16 kHz, mono, signed 16-bit), through SoX: any file SoX
/// reads, converted; or the default input (PipeWire, PulseAudio or ALSA, as SoX's `rec` finds
/// it), recorded until a pause.
///
/// Rationale: SoX's command-line tools rather than its library: two fixed pipelines, and
/// recording stops on silence with SoX's own `silence` effect; no audio code of the host's own.
public enum AudioInput {
    /// The samples of the audio file at `url`.
    public static func samples(of url: URL, environment: [String: String]) throws(HostError) -> [Int16] {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw HostError(.audioInvalid, "The audio file \(url.path) cannot be read; check its name and permissions.")
        }
        let result = ExternalProgram.run("sox", [url.path] + rawOutput, environment: environment)
        let (status, data, errors) = (result.status, result.output, String(decoding: result.errors, as: UTF8.self))
        if status == 127 {
            throw HostError(.speechUnavailable, "Reading \(url.path) needs SoX, which is not installed; install it (Debian: apt-get install sox).")
        }
        guard status == 0 else {
            // "/usr/bin/sox FAIL formats: no handler for file extension `txt'": what follows the part.
            let line = errors.split(separator: "\n").first.map(String.init) ?? "no reason given"
            let said = line.range(of: "FAIL ").map { String(line[$0.upperBound...]) }
                .map { $0.hasPrefix("formats: ") ? String($0.dropFirst("formats: ".count)) : $0 } ?? line
            throw HostError(.audioInvalid, "\(url.path) is not audio SoX can read (\(said)); give a WAV, FLAC or Ogg file.")
        }
        return samples(data)
    }

    /// Records from the default input until `pause` seconds of quiet after speech, at most
    /// `limit` seconds.
    public static func record(pause: Double = 1.0, limit: Int = 10, environment: [String: String]) throws(HostError) -> [Int16] {
        let effects = ["silence", "1", "0.1", "1%", "1", String(pause), "1%", "trim", "0", String(limit)]
        let result = ExternalProgram.run("rec", ["-q"] + rawOutput + effects, environment: environment)
        let (status, data, errors) = (result.status, result.output, String(decoding: result.errors, as: UTF8.self))
        if status == 127 {
            throw HostError(.speechUnavailable, "Listening needs SoX's rec, which is not installed; install it (Debian: apt-get install sox, and libsox-fmt-pulse for PipeWire or PulseAudio).")
        }
        guard status == 0 else {
            let said = errors.split(separator: "\n").first.map(String.init) ?? "no reason given"
            throw HostError(.speechUnavailable, "Nothing could be recorded from the default input (\(said)); check that a microphone is connected and not muted, or use 'say --audio FILE'.")
        }
        return samples(data)
    }

    /// SoX's output: raw 16 kHz mono signed 16-bit little-endian on stdout.
    static let rawOutput = ["-t", "raw", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-L", "-"]

    static func samples(_ data: Data) -> [Int16] {
        let count = data.count / 2
        var samples = [Int16](repeating: 0, count: count)
        samples.withUnsafeMutableBytes { buffer in
            _ = data.copyBytes(to: buffer, from: 0..<(count * 2))
        }
        return samples.map { Int16(littleEndian: $0) }
    }

}
