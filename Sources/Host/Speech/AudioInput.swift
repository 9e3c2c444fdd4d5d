import Foundation
import HostModel

/// Sound as the recogniser takes it (16 kHz, mono, signed 16-bit), through SoX: any file SoX
/// reads, converted; or the default input (PipeWire, PulseAudio or ALSA, as SoX's `rec` finds
/// it), recorded until a pause.
///
/// Rationale: SoX's command-line tools rather than its library: two fixed pipelines, and
/// recording stops on silence with SoX's own `silence` effect; no audio code of the host's own.
public enum AudioInput {
    /// The most of a file read: a minute of speech is under 12 MB even as 48 kHz stereo WAV.
    public static let fileLimit = 64 << 20
    /// The most of a recording heard, in seconds; the rest of a longer file is not decoded.
    public static let secondsLimit = 60
    /// How long SoX may take over a file.
    public static let decodeSeconds = 30.0

    /// The samples of the audio file at `url`, at most `secondsLimit` of them, its program
    /// killed when `cancel` (the request's cancel descriptor) turns readable.
    ///
    /// Only a regular file is read (not a device, a pipe, a socket or a directory, which could
    /// never end or never answer), no larger than `fileLimit`; it is opened here and handed to
    /// SoX as its input, so what is read is the file this process may open, and SoX is bounded
    /// in time and output.
    public static func samples(of url: URL, environment: [String: String], cancel: Int32? = nil) throws(HostError) -> [Int16] {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw HostError(.audioInvalid, key: "error.audio.read", ["path": url.path, "why": String(cString: strerror(errno))])
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw HostError(.audioInvalid, key: "error.audio.notFile", ["path": url.path])
        }
        guard info.st_size <= fileLimit else {
            throw HostError(.audioInvalid, key: "error.audio.large", ["path": url.path, "size": "\(info.st_size / (1 << 20))", "limit": "\(fileLimit >> 20)"])
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let type = url.pathExtension.isEmpty ? [] : ["-t", url.pathExtension.lowercased()]
        let limits = ExternalProgram.Limits(seconds: decodeSeconds, outputBytes: secondsLimit * bytesPerSecond, cancel: cancel)
        // -D: no dither from SoX, whose noise is random when it resamples (the recogniser's near
        // ties then differed by run); the recogniser adds its own, from a fixed seed, so that a
        // file reads the same every time.
        let result = ExternalProgram.run("sox", ["-q", "-D"] + type + ["-"] + rawOutput + ["trim", "0", String(secondsLimit)], environment: environment,
                                         input: descriptor, limits: limits)
        let (status, data, errors) = (result.status, result.output, String(decoding: result.errors, as: UTF8.self))
        switch result.ending {
        case .notFound:
            throw HostError(.speechUnavailable, key: "error.audio.noSox", ["path": url.path])
        case .notStarted(let why):
            throw HostError(.speechUnavailable, key: "error.audio.soxStart", ["path": url.path, "why": "\(why)"])
        case .deadline:
            throw HostError(.audioInvalid, key: "error.audio.soxSlow", ["path": url.path, "seconds": "\(Int(decodeSeconds))"])
        case .cancelled:
            throw HostError(.audioInvalid, key: "error.audio.cancelled", ["path": url.path])
        case .outputLimit, .exited:
            break
        }
        guard status == 0 || result.ending == .outputLimit else {
            throw HostError(.audioInvalid, key: "error.audio.notAudio", ["path": url.path, "why": soxReason(errors)])
        }
        return samples(data)
    }

    /// Records from the default input until `pause` seconds of quiet after speech, at most
    /// `limit` seconds: SoX's `rec` is stopped then even when it never heard speech (a muted
    /// microphone, where its silence effect would wait for ever), and at once when `cancel`
    /// turns readable.
    public static func record(pause: Double = 1.0, limit: Int = 10, environment: [String: String], cancel: Int32? = nil) throws(HostError) -> [Int16] {
        let effects = ["silence", "1", "0.1", "1%", "1", String(pause), "1%", "trim", "0", String(limit)]
        let limits = ExternalProgram.Limits(seconds: Double(limit) + 1, outputBytes: limit * bytesPerSecond, cancel: cancel)
        let result = ExternalProgram.run("rec", ["-q"] + rawOutput + effects, environment: environment, limits: limits)
        let (status, data, errors) = (result.status, result.output, String(decoding: result.errors, as: UTF8.self))
        switch result.ending {
        case .notFound:
            throw HostError(.speechUnavailable, key: "speech.recMissing")
        case .notStarted(let why):
            throw HostError(.speechUnavailable, key: "speech.recNotStarted", ["why": why])
        case .deadline where data.isEmpty:
            throw HostError(.speechUnavailable, key: "speech.nothingHeard", ["seconds": "\(limit)"])
        case .cancelled:
            throw HostError(.speechUnavailable, key: "speech.listenCancelled")
        case .deadline, .outputLimit:
            return samples(data)
        case .exited:
            break
        }
        guard status == 0 else {
            throw HostError(.speechUnavailable, key: "speech.nothingRecorded", ["said": soxReason(errors)])
        }
        return samples(data)
    }

    /// What SoX said went wrong, without its program name and level: "rec FAIL formats: can't
    /// open input `default': …" reads "can't open input `default': …"; its first line, cut to
    /// 200 characters (SoX may quote a device's whole error).
    static func soxReason(_ errors: String) -> String {
        guard let line = errors.split(separator: "\n").first.map(String.init), !line.isEmpty else { return "no reason given" }
        let said = line.range(of: "FAIL ").map { String(line[$0.upperBound...]) }
            .map { $0.hasPrefix("formats: ") ? String($0.dropFirst("formats: ".count)) : $0 } ?? line
        let trimmed = said.trimmingCharacters(in: .whitespaces)
        return trimmed.count > 200 ? String(trimmed.prefix(199)) + "…" : trimmed
    }

    /// Bytes of SoX's output per second of sound.
    static let bytesPerSecond = 16000 * 2

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
