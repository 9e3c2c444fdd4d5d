import Foundation
import Testing

/// A program from outside the package that some tests drive as a user's machine would have it:
/// a shell, tmux, a validator.
///
/// A test that needs one says so with `.needs(.zsh)`. Where the program is missing, the test is
/// skipped with a comment naming the Debian package to install, so the README's test command
/// passes on a fresh machine and says what it left out. Under CI (`CI=true`), where `.ci/run`
/// installs every one of them, nothing is skipped: a missing program fails the test at once,
/// naming it, before the test waits for a screen that would never come.
public struct ExternalTool: Sendable, CustomStringConvertible {
    /// The program's absolute path, unchecked: `path` and `url` check that the running test
    /// declared the tool.
    let location: String
    /// The Debian package that installs it.
    public let package: String

    /// Whether `path` is a program (else a file a program reads, such as a Python module).
    public let isProgram: Bool

    public init(_ path: String, package: String, isProgram: Bool = true) {
        location = path
        self.package = package
        self.isProgram = isProgram
    }

    public static let tmux = ExternalTool("/usr/bin/tmux", package: "tmux")
    public static let zsh = ExternalTool("/usr/bin/zsh", package: "zsh")
    public static let fish = ExternalTool("/usr/bin/fish", package: "fish")
    public static let desktopFileValidate = ExternalTool("/usr/bin/desktop-file-validate", package: "desktop-file-utils")
    public static let sqlite3 = ExternalTool("/usr/bin/sqlite3", package: "sqlite3")
    /// Builds the C plugin `plugins new --language c` writes.
    public static let make = ExternalTool("/usr/bin/make", package: "make")
    public static let man = ExternalTool("/usr/bin/man", package: "man-db")
    /// Listens on a socket and starts a program on the first connection, handing it over by the
    /// LISTEN_FDS protocol, as systemd does for a .socket unit.
    /// Runs a program as another user (the refused-peer test connects as nobody).
    public static let setpriv = ExternalTool("/usr/bin/setpriv", package: "util-linux")
    public static let python3 = ExternalTool("/usr/bin/python3", package: "python3")
    public static let systemdSocketActivate = ExternalTool("/usr/bin/systemd-socket-activate", package: "systemd")
    public static let systemdAnalyze = ExternalTool("/usr/bin/systemd-analyze", package: "systemd")
    /// A private session bus per test, which starts the server by D-Bus activation.
    public static let dbusDaemon = ExternalTool("/usr/bin/dbus-daemon", package: "dbus")
    /// GLib's command-line D-Bus clients: `gapplication action`, `gdbus call`.
    public static let gapplication = ExternalTool("/usr/bin/gapplication", package: "libglib2.0-bin")
    public static let gdbus = ExternalTool("/usr/bin/gdbus", package: "libglib2.0-bin")
    /// GLib for Python (the desktop's own launch path, `Gio.DesktopAppInfo.launch_action`, and a
    /// notification server in the test), for Debian's /usr/bin/python3.
    public static let pythonGI = ExternalTool("/usr/lib/python3/dist-packages/gi/__init__.py", package: "python3-gi", isProgram: false)
    /// GNOME's own shell, its overview's search asking the search provider, on a virtual X
    /// display, typed into with xdotool.
    public static let gnomeShell = ExternalTool("/usr/bin/gnome-shell", package: "gnome-shell")
    public static let xvfb = ExternalTool("/usr/bin/Xvfb", package: "xvfb")
    /// Speech (issue 39): a voice to record test sentences with, SoX to read them, and
    /// PocketSphinx with its English model to recognise them.
    public static let espeak = ExternalTool("/usr/bin/espeak-ng", package: "espeak-ng")
    public static let sox = ExternalTool("/usr/bin/sox", package: "sox")
    public static let pocketsphinx = ExternalTool("/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3", package: "libpocketsphinx3", isProgram: false)
    public static let pocketsphinxEnglish = ExternalTool("/usr/share/pocketsphinx/model/en-us/en-us.lm.bin", package: "pocketsphinx-en-us", isProgram: false)
    public static let xdotool = ExternalTool("/usr/bin/xdotool", package: "xdotool")
    /// The launchers of tiling-window-manager users, typed into on a virtual X display.
    public static let rofi = ExternalTool("/usr/bin/rofi", package: "rofi")
    public static let dmenu = ExternalTool("/usr/bin/dmenu", package: "suckless-tools")
    /// The notification server of tiling desktops, and its command-line client.
    public static let dunst = ExternalTool("/usr/bin/dunst", package: "dunst")
    public static let dunstctl = ExternalTool("/usr/bin/dunstctl", package: "dunst")
    /// systemd's D-Bus client, which dunstctl's history runs.
    public static let busctl = ExternalTool("/usr/bin/busctl", package: "systemd")
    /// Xfce's notification server, its settings daemon (where its own timeout is set) and the
    /// accessibility bus it shows its bubbles on, read and pressed through pyatspi as a screen
    /// reader would.
    public static let xfce4Notifyd = ExternalTool("/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd", package: "xfce4-notifyd")
    public static let xfconfd = ExternalTool("/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd", package: "xfconf")
    public static let atSpiBusLauncher = ExternalTool("/usr/libexec/at-spi-bus-launcher", package: "at-spi2-core")
    public static let pyatspi = ExternalTool("/usr/lib/python3/dist-packages/pyatspi/__init__.py", package: "python3-pyatspi", isProgram: false)
    /// KDE Plasma's KRunner (5.27), typed into over its own D-Bus interface on a virtual display.
    public static let krunner = ExternalTool("/usr/bin/krunner", package: "plasma-workspace")
    /// KDE Plasma's shell (plasma-desktop's desktop shell on plasma-workspace's plasmashell), whose
    /// notification server is tested, and the activity manager it will not start without.
    public static let plasmashell = ExternalTool("/usr/bin/plasmashell", package: "plasma-desktop")
    public static let kactivitymanagerd = ExternalTool("/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd", package: "kactivitymanagerd")

    /// Rust's compiler and build tool, where rustup puts them (`~/.cargo/bin`) or Debian does.
    /// The Rust example, the Rust scaffold and the Rust mistake are built with them.
    public static let rustc = ExternalTool(cargoTool("rustc"), package: "rustc")
    public static let cargo = ExternalTool(cargoTool("cargo"), package: "cargo")

    private static func cargoTool(_ name: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        let directories = [environment["CARGO_HOME"].map { "\($0)/bin" }, environment["HOME"].map { "\($0)/.cargo/bin" },
                           "/root/.cargo/bin", "/usr/local/cargo/bin", "/usr/bin"].compactMap { $0 }
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "/usr/bin/\(name)"
    }

    /// The program's path, for the test that runs it: a test that did not declare the tool
    /// (`.needs`, on the test or its suite) records an issue naming it, so that no test runs a
    /// program that a fresh machine may lack without skipping where it is missing.
    public func path(sourceLocation: SourceLocation = #_sourceLocation) -> String {
        ExternalTool.checkDeclared(self, sourceLocation: sourceLocation)
        return location
    }

    public var path: String { path() }
    public var url: URL { URL(fileURLWithPath: path()) }
    public var name: String { (location as NSString).lastPathComponent }
    public var description: String { name }

    /// The comment `.needs` gives its trait where every tool is installed: the tools' paths
    /// (names can be alike: two Python modules are both `__init__.py`).
    static func declaration(_ tools: [ExternalTool]) -> String {
        "needs " + tools.map(\.location).joined(separator: ", ")
    }

    /// Records an issue when the running test (none: a helper thread, a static initializer)
    /// uses `tool` without declaring it with `.needs`.
    static func checkDeclared(_ tool: ExternalTool, sourceLocation: SourceLocation) {
        guard let test = Test.current else { return }
        let declared = test.traits.compactMap { $0 as? ConditionTrait }.flatMap(\.comments).map(\.rawValue)
            .filter { $0.hasPrefix("needs /") }
            .flatMap { $0.dropFirst("needs ".count).components(separatedBy: ", ") }
        guard !declared.contains(tool.location) else { return }
        Issue.record("'\(test.name)' runs \(tool.name) without declaring it: name it in .needs(…) on the test or its suite, or the test fails instead of skipping where \(tool.package) is not installed.",
                     sourceLocation: sourceLocation)
    }

    public var isInstalled: Bool {
        isProgram ? FileManager.default.isExecutableFile(atPath: location) : FileManager.default.fileExists(atPath: location)
    }

    /// Whether this run is CI's, where every test must run.
    public static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// The sentence a skipped test shows.
    static func skipReason(_ tools: [ExternalTool]) -> String {
        let missing = tools.filter { !$0.isInstalled }
        let names = missing.map(\.name).joined(separator: ", ")
        let packages = missing.map(\.package).joined(separator: " ")
        return "needs \(names), which \(missing.count == 1 ? "is" : "are") not installed: apt-get install \(packages)"
    }
}

/// A tool CI must have and does not.
public struct MissingTool: Error, CustomStringConvertible {
    public var description: String
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where every one of `tools` is installed; skips it elsewhere with the
    /// packages to install, except under CI, where a missing tool fails the test, naming it.
    public static func needs(_ tools: ExternalTool...) -> Self {
        // Where all are installed, the comment names them: the tools the test may run
        // (`ExternalTool.path`), which nothing shows.
        let reason = tools.allSatisfy(\.isInstalled) ? ExternalTool.declaration(tools) : ExternalTool.skipReason(tools)
        return .enabled(Comment(rawValue: reason)) {
            let missing = tools.filter { !$0.isInstalled }
            guard !missing.isEmpty else { return true }
            if ExternalTool.isCI {
                throw MissingTool(description: "CI runs every test, and this one \(ExternalTool.skipReason(missing)); add it to .ci/run.")
            }
            return false
        }
    }
}
