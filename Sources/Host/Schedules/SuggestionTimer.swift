import Foundation

/// The one user timer the host manages for suggestions (`suggestions on`): every quarter of an
/// hour it runs `suggestions offer`, through the thin client and so the user's warm server,
/// which offers the suggestion of the moment as a notification when there is one
/// (`SuggestionOffers` says when). Its two unit files, beside the schedules', are the only
/// record of whether suggestions are on.
public struct SuggestionTimer: Equatable, Sendable {
    /// The units' name: the application id's.
    public static let unitName = "org.standfit.Host.suggestions"
    public static let timerName = unitName + ".timer"
    public static let serviceName = unitName + ".service"
    /// When it fires: every 15 minutes, on the quarter (`SuggestionOffers.window` is 15 minutes
    /// either side of the usual time, so each usual time has a run in reach).
    public static let calendar = "*:0/15"
    /// How long a run without a warm server waits for the notification's answer, at most.
    public static let answerMinutes = 10

    /// The thin client the service runs.
    public var executable: String

    public init(executable: String) {
        self.executable = executable
    }

    /// The command line the service runs.
    public var command: [String] { [executable, "suggestions", "offer"] }

    /// The `.timer` unit. Not persistent: a suggestion missed while the machine was off is no
    /// longer the usual time when it comes back.
    public var timerText: String {
        """
        # Written by 'standfit-host suggestions on'; 'standfit-host suggestions off' removes it.
        [Unit]
        Description=standfit-host: suggestions at their usual time

        [Timer]
        OnCalendar=\(SuggestionTimer.calendar)
        AccuracySec=1min

        [Install]
        WantedBy=timers.target

        """
    }

    /// The `.service` unit: one `suggestions offer`. It may wait for the answer (a run that
    /// found no warm server on the session bus), so its start has room for that.
    public var serviceText: String {
        """
        # Written by 'standfit-host suggestions on'; 'standfit-host suggestions off' removes it.
        [Unit]
        Description=standfit-host: offer the suggestion of the moment as a notification

        [Service]
        Type=oneshot
        ExecStart=\((try? UnitText.commandLine(command)) ?? "")
        TimeoutStartSec=\(SuggestionTimer.answerMinutes + 5)min

        """
    }
}
