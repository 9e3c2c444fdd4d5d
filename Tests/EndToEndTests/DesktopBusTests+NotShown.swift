import Foundation
import Testing
import TestSupport

/// No silent success (issue 51): a `--notify` run whose outcome nobody was shown says so and
/// does not exit 0; a reminder that could not ask fails.
extension DesktopBusTests {
    static let notShownTail = "the action ran (its outcome is above), and a notification server on the session bus (GNOME Shell, Plasma, dunst, xfce4-notifyd) would show it.\n"

    @Test("run --notify with no notification server on the bus, or no bus at all: the outcome on stdout, a sentence on stderr saying it was not shown, exit 69; a run that failed keeps its own status",
          .needs(.dbusDaemon, .sqlite3))
    func notifyWithNobodyToShow() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        #expect(sandbox.run("run", "--notify", "logexercise", "exercise=squats", "count=20") == ProcessResult(status: 69,
            stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n",
            stderr: "standfit-host: The outcome was not shown as a notification: no notification server took it (The name org.freedesktop.Notifications was not provided by any .service files); " + Self.notShownTail))
        // It ran: logged once.
        #expect(Self.logged(sandbox) == "squats|20\n")
        // Invalid input stays 3, and says both, without claiming it ran.
        let invalid = sandbox.run("run", "--notify", "logexercise", "exercise=squats", "count=-5")
        #expect(invalid == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: count: expected a number from 1 to 3600, got -5.
            standfit-host: The outcome was not shown as a notification: no notification server took it (The name org.freedesktop.Notifications was not provided by any .service files); it is above.

            """), "\(invalid)")
        var busless = sandbox
        busless.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(sandbox.root.path)/no-bus"
        #expect(busless.run("run", "--notify", "viewstreak") == ProcessResult(status: 69,
            stdout: "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\n",
            stderr: "standfit-host: The outcome was not shown as a notification: the session bus at unix:path=\(sandbox.root.path)/no-bus could not be joined (--verbose says why); " + Self.notShownTail))
        // In the session's language.
        #expect(busless.run("run", "--notify", "viewstreak", "--locale", "nl").stderr
            == "standfit-host: De uitkomst is niet als melding getoond: de sessiebus op unix:path=\(sandbox.root.path)/no-bus kon niet worden bereikt (--verbose zegt waarom); de actie is uitgevoerd (de uitkomst staat hierboven), en een meldingenserver op de sessiebus (GNOME Shell, Plasma, dunst, xfce4-notifyd) zou hem tonen.\n")
    }

    @Test("a reminder that fires with no notification server to ask on fails (69) in a sentence naming its question; with one, asking is its answer (0)",
          .needs(.dbusDaemon, .python3, .pythonGI))
    func reminderWithNobodyToAsk() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        #expect(sandbox.run("run", "--notify", "--scheduled", "--remind", "--", "com.standfit.logexercise") == ProcessResult(status: 69, stdout: "",
            stderr: "standfit-host: error: The reminder could not ask 'Which exercise?': no notification server took it (The name org.freedesktop.Notifications was not provided by any .service files); it asks again when its timer fires next, or run 'standfit-host run com.standfit.logexercise' in a terminal now.\n"))
        let (asking, askingBus, record) = try Self.sandboxWithNotifications()
        defer { askingBus.stop() }
        #expect(asking.run("run", "--notify", "--scheduled", "--remind", "--", "com.standfit.logexercise") == ProcessResult(status: 0, stdout: "Which exercise?\n", stderr: ""))
        #expect(eventually { Self.shown(record).count == 1 })
    }
}
