import Foundation
import Testing
import TestSupport

/// Desktop integrations come and go (issue 32): `--uninstall` removes exactly what `--install`
/// wrote, a later command never writes half an integration back, and `doctor` finds a half
/// installed or stale one and names the command that fixes it.
@Suite("Desktop integrations: uninstall, no half integration, doctor", .timeLimit(.minutes(10)))
struct IntegrationRemovalTests {
    let sandbox = HostSandbox.standFit()

    var entry: URL { sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop") }
    var service: URL { sandbox.dataHome.appendingPathComponent("dbus-1/services/org.standfit.Host.service") }
    var runner: URL { sandbox.dataHome.appendingPathComponent("krunner/dbusplugins/org.standfit.Host.desktop") }
    var iconDirectory: URL { sandbox.dataHome.appendingPathComponent("icons/hicolor/scalable/apps") }
    var symbolicDirectory: URL { sandbox.dataHome.appendingPathComponent("icons/hicolor/symbolic/apps") }

    func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Every file under the sandbox's data home, relative to it.
    func dataFiles() -> [String] {
        let root = sandbox.dataHome.path + "/"
        return (FileManager.default.enumerator(atPath: sandbox.dataHome.path)?.allObjects as? [String] ?? [])
            .filter { !isDirectory(root + $0) }
            .sorted()
    }

    func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// What `export desktop --uninstall` says as it removes the entry and the icons under the
    /// data home now, and with `service` the D-Bus service file: asked before it runs.
    func removal(service removesService: Bool) throws -> String {
        let icons = try FileManager.default.contentsOfDirectory(atPath: iconDirectory.path).sorted()
        let symbolic = try FileManager.default.contentsOfDirectory(atPath: symbolicDirectory.path).sorted()
        return (["Removed \(entry.path)."]
            + icons.map { "Removed \(iconDirectory.appendingPathComponent($0).path)." }
            + symbolic.map { "Removed \(symbolicDirectory.appendingPathComponent($0).path)." }
            + (removesService ? ["Removed \(service.path)."] : [])).map { $0 + "\n" }.joined()
    }

    /// The problem lines `doctor` lists ("  - …"), and its exit status.
    func doctorProblems() -> (status: Int32, problems: [String]) {
        let result = sandbox.run("doctor")
        return (result.status, result.stdout.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map { String($0.dropFirst(4)) })
    }

    @Test("export desktop --uninstall removes exactly what --install wrote, record included; a later change writes nothing back")
    func desktopUninstall() throws {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let before = dataFiles()
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(exists(entry) && exists(service))
        let icons = try FileManager.default.contentsOfDirectory(atPath: iconDirectory.path).sorted()
        let symbolic = try FileManager.default.contentsOfDirectory(atPath: symbolicDirectory.path).sorted()
        #expect(icons.count == 14 && symbolic == icons.map { $0.replacingOccurrences(of: ".svg", with: "-symbolic.svg") }.sorted())
        let uninstalled = sandbox.run("export", "desktop", "--uninstall")
        #expect(uninstalled.status == 0)
        #expect(uninstalled.stdout.split(separator: "\n").map(String.init) == ["Removed \(entry.path)."]
            + icons.map { "Removed \(iconDirectory.appendingPathComponent($0).path)." }
            + symbolic.map { "Removed \(symbolicDirectory.appendingPathComponent($0).path)." }
            + ["Removed \(service.path)."])
        #expect(dataFiles() == before)
        // The record went too: a change of the items installs nothing again, and doctor is content.
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=5").status == 0)
        #expect(!exists(entry) && !exists(service))
        #expect(doctorProblems() == (0, []))
        #expect(sandbox.run("export", "desktop", "--uninstall") == ProcessResult(
            status: 0, stdout: "No desktop entries are installed ('export desktop --install' was not run, or they were removed); nothing was removed.\n", stderr: ""))
        #expect(sandbox.run("export", "desktop", "--uninstall", "--install").status == 64)
    }

    @Test("the D-Bus service file stays while the other integration needs it, and goes with the last")
    func sharedService() throws {
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(sandbox.run("export", "krunner", "--install").status == 0)
        #expect(sandbox.run("export", "krunner", "--uninstall") == ProcessResult(status: 0, stdout: "Removed \(runner.path).\n", stderr: ""))
        #expect(exists(service) && exists(entry))
        #expect(sandbox.run("export", "krunner", "--install").status == 0)
        // The entry and the icons go, the service file KRunner's plugin needs stays.
        let removed = try removal(service: false)
        let uninstalled = sandbox.run("export", "desktop", "--uninstall")
        #expect(uninstalled.status == 0)
        #expect(uninstalled.stdout == removed)
        #expect(exists(service) && exists(runner))
        #expect(sandbox.run("export", "krunner", "--uninstall")
            == ProcessResult(status: 0, stdout: "Removed \(runner.path).\nRemoved \(service.path).\n", stderr: ""))
        #expect(!exists(service))
        #expect(sandbox.run("export", "krunner", "--uninstall")
            == ProcessResult(status: 0, stdout: "KRunner's plugin file is not installed; nothing was removed.\n", stderr: ""))
    }

    @Test("files removed by hand stay removed: no command writes the entry back without its service file, and doctor says what to run")
    func noHalfIntegration() throws {
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        try FileManager.default.removeItem(at: service)
        let written = try String(contentsOf: entry, encoding: .utf8)
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        // The items changed (a streak, a last log), but the entry was not rewritten.
        #expect(try String(contentsOf: entry, encoding: .utf8) == written)
        #expect(!exists(service))
        #expect(doctorProblems() == (1, [
            "The desktop entry \(entry.path) is installed without its D-Bus service file \(service.path), so its actions do nothing; run 'standfit-host export desktop --install' to install both again, or 'standfit-host export desktop --uninstall' to remove it.",
        ]))
        // The entry removed as well (the case): nothing comes back.
        try FileManager.default.removeItem(at: entry)
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=5").status == 0)
        #expect(!exists(entry) && !exists(service))
        #expect(doctorProblems() == (1, [
            "The desktop entry \(entry.path) was removed, but its installation is still recorded; run 'standfit-host export desktop --uninstall' to remove the rest, or 'standfit-host export desktop --install' to install it again.",
        ]))
        #expect(sandbox.run("export", "desktop", "--uninstall").status == 0)
        #expect(doctorProblems() == (0, []))
    }

    @Test("with the package's D-Bus service file (it starts this same server through systemd), --install writes none of its own and removes an earlier one; --uninstall leaves the package's")
    func packagedService() throws {
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(exists(service))
        // A system data directory as the package fills it: its service file starts this build's full host.
        let system = sandbox.root.appendingPathComponent("usr-share")
        let packaged = system.appendingPathComponent("dbus-1/services/org.standfit.Host.service")
        try FileManager.default.createDirectory(at: packaged.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[D-BUS Service]\nName=org.standfit.Host\nExec=\(Fixtures.fullHostBinary.path) serve --dbus-activated\nSystemdService=standfit-host.service\n"
            .write(to: packaged, atomically: true, encoding: .utf8)
        var withPackage = sandbox
        withPackage.extraEnvironment["XDG_DATA_DIRS"] = system.path
        #expect(withPackage.run("export", "desktop", "--install") == ProcessResult(status: 0,
            stdout: "Wrote \(entry.path) with 2 actions, and \(packaged.path).\n", stderr: ""))
        #expect(!exists(service))
        #expect(withPackage.run("export", "krunner", "--install") == ProcessResult(status: 0,
            stdout: "Wrote \(runner.path) and \(packaged.path).\n", stderr: ""))
        #expect(!exists(service))
        #expect(withPackage.run("doctor").status == 0)
        // Items change: the entry is kept current, its service being the package's.
        let before = try String(contentsOf: entry, encoding: .utf8)
        #expect(withPackage.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(try String(contentsOf: entry, encoding: .utf8) != before)
        // The entry and the icons go; no service file of its own is there, and the package's stays.
        let removed = try removal(service: false)
        let uninstalled = withPackage.run("export", "desktop", "--uninstall")
        #expect(uninstalled == ProcessResult(status: 0, stdout: removed, stderr: ""))
        #expect(withPackage.run("export", "krunner", "--uninstall").stdout == "Removed \(runner.path).\n")
        #expect(FileManager.default.fileExists(atPath: packaged.path))
    }

    @Test("a service file or an entry that starts a program that is gone is stale, and doctor says to install again")
    func staleIntegration() throws {
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(sandbox.run("export", "krunner", "--install").status == 0)
        #expect(doctorProblems() == (0, []))
        // As a removed build tree leaves them: the programs named are gone.
        let gone = "/nonexistent/build/standfit-host-full"
        try "[D-BUS Service]\nName=org.standfit.Host\nExec='\(gone)' serve --dbus-activated\n".write(to: service, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: runner)
        #expect(doctorProblems() == (1, [
            "The D-Bus service file \(service.path) starts \(gone), which no longer exists (a removed build or prefix), so the desktop cannot start the server; run 'standfit-host export desktop --install' (or 'export krunner --install') with the standfit-host you use now.",
        ]))
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(doctorProblems() == (0, []))
        try FileManager.default.removeItem(at: service)
        #expect(sandbox.run("export", "krunner", "--install").status == 0)
        try FileManager.default.removeItem(at: service)
        #expect(doctorProblems() == (1, [
            "The desktop entry \(entry.path) is installed without its D-Bus service file \(service.path), so its actions do nothing; run 'standfit-host export desktop --install' to install both again, or 'standfit-host export desktop --uninstall' to remove it.",
            "KRunner's plugin file \(runner.path) is installed without the D-Bus service file \(service.path) that starts its runner; run 'standfit-host export krunner --install' to install both again, or 'standfit-host export krunner --uninstall' to remove it.",
        ]))
    }
}

/// The host's own icon set (issue 32): what the desktop shows once it is installed, where
/// `export desktop --install` puts it, and that the package's copy is used rather than copied.
@Suite("The host's own icons", .timeLimit(.minutes(10)))
struct OwnIconsTests {
    let sandbox = HostSandbox.standFit()

    /// The entry `export desktop --install` writes in a fresh StandFit sandbox, in English, with the
    /// host's own icons.
    static let installedEntry = """
        [Desktop Entry]
        Type=Application
        Version=1.4
        Name=StandFit
        Comment=Quick actions: Log Exercise
        Comment[nl]=Snelle acties: Oefening loggen
        Keywords=Log;Exercise;quick;actions;
        Keywords[nl]=Oefening;loggen;snelle;acties;
        Icon=org.standfit.Host
        Exec=\(Fixtures.hostBinary.path) menu --notify
        Terminal=false
        DBusActivatable=true
        Categories=Utility;
        Actions=com-standfit-logexercise;listen;

        [Desktop Action com-standfit-logexercise]
        Name=Log Exercise
        Name[nl]=Oefening loggen
        Icon=org.standfit.Host.log
        Exec=\(Fixtures.hostBinary.path) run --notify -- com.standfit.logexercise

        [Desktop Action listen]
        Name=Listen
        Name[nl]=Luisteren
        Icon=audio-input-microphone
        Exec=\(Fixtures.hostBinary.path) listen --notify

        """

    @Test("export desktop --install from a build tree installs the icons and names them: the app's on its entry, the set's on its actions; the entry validates",
          .needs(.desktopFileValidate))
    func installedIcons() throws {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        let entry = sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop")
        let desktop = try DesktopFile(parsing: String(contentsOf: entry, encoding: .utf8))
        #expect(desktop["Desktop Entry"]?["Icon"] == "org.standfit.Host")
        let ids = try #require(desktop["Desktop Entry"]?["Actions"]).split(separator: ";").map(String.init)
        #expect(ids.compactMap { desktop["Desktop Action \($0)"]?["Icon"] }
            == ["org.standfit.Host.log", "org.standfit.Host.streak", "org.standfit.Host.exercise-squats", "org.standfit.Host.progress",
                // Listen's is the theme's microphone.
                "audio-input-microphone"])
        let validated = runProcess(ExternalTool.desktopFileValidate.url, arguments: [entry.path])
        #expect(validated == ProcessResult(status: 0, stdout: "", stderr: ""))
        // Every name the entry uses is an installed scalable SVG, with its symbolic variant.
        for name in ["org.standfit.Host", "org.standfit.Host.log", "org.standfit.Host.streak", "org.standfit.Host.exercise-squats", "org.standfit.Host.progress"] {
            let scalable = try String(contentsOf: sandbox.dataHome.appendingPathComponent("icons/hicolor/scalable/apps/\(name).svg"), encoding: .utf8)
            let symbolic = try String(contentsOf: sandbox.dataHome.appendingPathComponent("icons/hicolor/symbolic/apps/\(name)-symbolic.svg"), encoding: .utf8)
            // Copies of the package's own.
            let icons = Fixtures.packageRoot.appendingPathComponent("Resources/icons/hicolor")
            #expect(try scalable == String(contentsOf: icons.appendingPathComponent("scalable/apps/\(name).svg"), encoding: .utf8))
            #expect(try symbolic == String(contentsOf: icons.appendingPathComponent("symbolic/apps/\(name)-symbolic.svg"), encoding: .utf8))
        }
        // rofi's rows name them too.
        let rofi = sandbox.run("rofi")
        #expect(rofi.stdout == [
            "\u{0}prompt\u{1F}StandFit\n",
            "\u{0}use-hot-keys\u{1F}true\n",
            "Log Exercise\u{0}icon\u{1F}org.standfit.Host.log\u{1F}info\u{1F}standfit:eyJhcmd1bWVudHMiOnt9LCJ0eXBlIjoiY29tLnN0YW5kZml0LmxvZ2V4ZXJjaXNlIn0\n",
            "View Streak — 𝟷 day\u{0}icon\u{1F}org.standfit.Host.streak\u{1F}info\u{1F}standfit:eyJhcmd1bWVudHMiOnt9LCJ0eXBlIjoiY29tLnN0YW5kZml0LnZpZXdzdHJlYWsifQ\n",
            "Log Squats — 𝟸𝟶 reps\u{0}icon\u{1F}org.standfit.Host.exercise-squats\u{1F}info\u{1F}standfit:eyJhcmd1bWVudHMiOnt9LCJ0eXBlIjoiY29tLnN0YW5kZml0LmxvZ2V4ZXJjaXNlIiwidXNlckluZm8iOnsiY291bnQiOjIwLCJleGVyY2lzZSI6InNxdWF0cyJ9fQ\n",
            "View Progress\u{0}icon\u{1F}org.standfit.Host.progress\u{1F}info\u{1F}standfit:eyJhcmd1bWVudHMiOnt9LCJ0eXBlIjoiY29tLnN0YW5kZml0LnZpZXdwcm9ncmVzcyJ9\n",
        ].joined())
    }

    @Test("icons Scripts/install put in the data home (its ~/.local prefix) are used as they are, and uninstall leaves them")
    func installedIconsInDataHome() throws {
        let icons = sandbox.dataHome.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: sandbox.dataHome, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.packageRoot.appendingPathComponent("Resources/icons"), to: icons)
        let before = try FileManager.default.subpathsOfDirectory(atPath: icons.path).sorted()
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        let entry = try String(contentsOf: sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop"), encoding: .utf8)
        #expect(entry == Self.installedEntry)
        // The entry and its service file go; the icons, which it did not copy, stay.
        let uninstalled = sandbox.run("export", "desktop", "--uninstall")
        #expect(uninstalled == ProcessResult(status: 0, stdout: """
            Removed \(sandbox.dataHome.path)/applications/org.standfit.Host.desktop.
            Removed \(sandbox.dataHome.path)/dbus-1/services/org.standfit.Host.service.

            """, stderr: ""))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: icons.path).sorted() == before)
    }

    @Test("where the package put the icons (a system data directory), --install copies none (and removes an earlier copy) and the entry still uses them; without them, the theme's names")
    func packagedIcons() throws {
        // A data directory as the package fills it: the icons under icons/hicolor.
        let system = sandbox.root.appendingPathComponent("usr-share")
        let source = Fixtures.packageRoot.appendingPathComponent("Resources/icons")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: system.appendingPathComponent("icons"))
        // Installed from the build tree first: the icons are copied under the data home.
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        let copy = sandbox.dataHome.appendingPathComponent("icons/hicolor/scalable/apps/org.standfit.Host.svg")
        #expect(FileManager.default.fileExists(atPath: copy.path))
        // Then the package provides them: installing again removes the copy, which would shadow theirs.
        var packaged = sandbox
        packaged.extraEnvironment["XDG_DATA_DIRS"] = system.path
        #expect(packaged.run("export", "desktop", "--install").status == 0)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: sandbox.dataHome.appendingPathComponent("icons").path)
            .filter { $0.hasSuffix(".svg") } == [])
        // And uninstalling leaves the package's alone.
        #expect(packaged.run("export", "desktop", "--uninstall").stdout == """
            Removed \(sandbox.dataHome.path)/applications/org.standfit.Host.desktop.
            Removed \(sandbox.dataHome.path)/dbus-1/services/org.standfit.Host.service.

            """)
        #expect(FileManager.default.fileExists(atPath: system.appendingPathComponent("icons/hicolor/scalable/apps/org.standfit.Host.svg").path))
        #expect(packaged.run("export", "desktop", "--install").status == 0)
        let entry = try String(contentsOf: sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop"), encoding: .utf8)
        #expect(entry == Self.installedEntry)
        // The entry printed for a session whose desktop has no such icons uses the theme's.
        var bare = sandbox
        bare.extraEnvironment["XDG_DATA_DIRS"] = sandbox.root.appendingPathComponent("nothing").path
        let printed = bare.run("export", "desktop").stdout
        #expect(printed == """
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=StandFit
            Comment=Quick actions: Log Exercise
            Comment[nl]=Snelle acties: Oefening loggen
            Keywords=Log;Exercise;quick;actions;
            Keywords[nl]=Oefening;loggen;snelle;acties;
            Icon=list-add
            Exec=\(Fixtures.hostBinary.path) menu
            Terminal=true
            Categories=Utility;
            Actions=com-standfit-logexercise;

            [Desktop Action com-standfit-logexercise]
            Name=Log Exercise
            Name[nl]=Oefening loggen
            Icon=list-add
            Exec=\(Fixtures.hostBinary.path) run -- com.standfit.logexercise

            """)
    }
}
