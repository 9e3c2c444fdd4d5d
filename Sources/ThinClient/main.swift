// The command users type. It starts in about a millisecond (no Foundation, linked statically)
// and hands the command to the user's warm server (docs/ARCHITECTURE.md, "The warm instance");
// when no server of this build answers, or STANDFIT_SERVER=off, it becomes the full host
// (exec), which runs the command cold and starts a server for the next one.
import WarmWire
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
let client = WarmPlace.runningExecutable(fallback: arguments.first ?? "standfit-host")
guard let fullHost = WarmPlace.fullHost(besideClient: client) else {
    let paths = WarmPlace.fullHostCandidates(besideClient: client)
    let message = "standfit-host: the full host is missing (neither \(paths.joined(separator: " nor ")) can be run); install standfit-host again with Scripts/install.\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(5)
}

// A "full host" that is this very client (a copy of the client installed under the full host's
// name) would exec itself for ever: said instead.
var own = stat(), found = stat()
if stat(client, &own) == 0, stat(fullHost, &found) == 0, own.st_dev == found.st_dev, own.st_ino == found.st_ino {
    let message = "standfit-host: \(fullHost) is this client again, not the full host; install standfit-host again with Scripts/install.\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(5)
}

/// This process's environment, as `NAME=value` strings.
func environmentStrings() -> [String] {
    var strings: [String] = []
    var cursor = environ
    while let entry = cursor.pointee {
        strings.append(String(cString: entry))
        cursor += 1
    }
    return strings
}

func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Becomes the full host with `line` (its argv); when it cannot, says so in English (the
/// full host is what would have said it in the user's language) and exits with `status`.
/// `why` follows "cannot start the full host" in that sentence.
func execFullHost(_ line: [String], why: String = "", status: Int32 = 5) -> Never {
    let argv = line.map { strdup($0) } + [nil]
    execv(fullHost, argv)
    // A full host being written this very moment (an install or upgrade, or a copy another
    // process's fork still holds open for writing) is busy for a moment: tried again, a second
    // at most, before it is called broken.
    var failure = errno, tries = 0
    while failure == ETXTBSY && tries < 100 {
        tries += 1
        usleep(10_000)
        execv(fullHost, argv)
        failure = errno
    }
    let message = "standfit-host: cannot start the full host \(fullHost) (\(String(cString: strerror(failure))))\(why); install standfit-host again with Scripts/install.\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

func runCold() -> Never {
    execFullHost(arguments)
}

let mode = variable(WarmWire.modeVariable)?.lowercased()

/// Says `notice` through the full host, in the user's language (the client has no tables),
/// and ends with its status.
func say(_ notice: ClientNotice) -> Never {
    execFullHost([fullHost] + notice.arguments(for: Array(arguments.dropFirst())), why: " to say why the command did not run", status: notice.status)
}

/// `STANDFIT_SERVER=required`: a command no server serves fails rather than run cold.
func unavailable(_ why: ClientNotice.Reason) -> Never {
    guard mode == "required" else { runCold() }
    say(ClientNotice(why))
}

if mode == "off" { runCold() }
// Shell completions run in the client's own process (swift-argument-parser reads the asking
// shell from the process's environment): the server would only say so.
if arguments.dropFirst().first == "---completion" { runCold() }
guard let place = WarmPlace(fullHost: fullHost, environment: variable) else {
    unavailable(.noSocketDirectory)
}
var directory = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
guard getcwd(&directory, directory.count) != nil else { unavailable(.noWorkingDirectory) }
let workingDirectory = String(decoding: directory.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
let mask = umask(0o022)
umask(mask)
let request = WarmRequest(arguments: Array(arguments.dropFirst()), environment: environmentStrings(),
                          workingDirectory: workingDirectory, umask: UInt32(mask))
let acceptTimeout = WarmClient.acceptTimeout(from: variable(WarmClient.acceptTimeoutVariable)) ?? WarmClient.acceptTimeout
switch WarmClient.forward(request, to: place, acceptTimeout: acceptTimeout) {
case .exited(let status): exit(status)
case .runCold: runCold()
case .unavailable(let why): unavailable(why)
case .lost(let why): say(ClientNotice(why))
}
