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

func runCold() -> Never {
    let argv = arguments.map { strdup($0) } + [nil]
    execv(fullHost, argv)
    let message = "standfit-host: cannot start the full host \(fullHost) (\(String(cString: strerror(errno)))); install standfit-host again with Scripts/install.\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(5)
}

if variable(WarmWire.modeVariable) == "off" { runCold() }
guard let place = WarmPlace(fullHost: fullHost, environment: variable) else { runCold() }
var directory = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
guard getcwd(&directory, directory.count) != nil else { runCold() }
let workingDirectory = String(decoding: directory.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
let mask = umask(0o022)
umask(mask)
let request = WarmRequest(arguments: Array(arguments.dropFirst()), environment: environmentStrings(),
                          workingDirectory: workingDirectory, umask: UInt32(mask))
switch WarmClient.forward(request, to: place) {
case .exited(let status): exit(status)
case .runCold: runCold()
}
