import Foundation
import Testing
import TestSupport

/// Desktop integrations come and go (issue 32): `--uninstall` removes exactly what `--install`
/// wrote, a later command never writes half an integration back, and `doctor` finds a half
/// installed or stale one and names the command that fixes it.
@Suite("Desktop integrations: uninstall, no half integration, doctor")
struct IntegrationRemovalTests {
    let sandbox = HostSandbox.standFit()

    var entry: URL { sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop") }
    var service: URL { sandbox.dataHome.appendingPathComponent("dbus-1/services/org.standfit.Host.service") }
    var runner: URL { sandbox.dataHome.appendingPathComponent("krunner/dbusplugins/org.standfit.Host.desktop") }

    func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Every file under the sandbox's data home, relative to it.
    func dataFiles() -> [String] {
        let root = sandbox.dataHome.path + "/"
        return (FileManager.default.enumerator(atPath: sandbox.dataHome.path)?.allObjects as? [String] ?? [])
            .filter { !FileManager.default.fileExists(atPath: root + $0, isDirectory: nil) || !isDirectory(root + $0) }
            .sorted()
    }

    func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
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
        #expect(sandbox.run("export", "desktop", "--uninstall")
            == ProcessResult(status: 0, stdout: "Removed \(entry.path).\nRemoved \(service.path).\n", stderr: ""))
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
        #expect(sandbox.run("export", "desktop", "--uninstall") == ProcessResult(status: 0, stdout: "Removed \(entry.path).\n", stderr: ""))
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
        let problems = doctorProblems()
        #expect(problems.status == 1)
        #expect(problems.problems.contains(
            "KRunner's plugin file \(runner.path) is installed without the D-Bus service file \(service.path) that starts its runner; run 'standfit-host export krunner --install' to install both again, or 'standfit-host export krunner --uninstall' to remove it."))
    }
}
