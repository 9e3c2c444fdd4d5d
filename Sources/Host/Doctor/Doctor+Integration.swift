import HostDesktop
import HostModel

extension Doctor {
    /// The sentence, in the run's language, for a problem of an installed desktop integration.
    static func sentence(_ problem: DesktopInstallation.Problem, _ text: HostText) -> String {
        switch problem {
        case .serviceMissing(let entry, let service):
            text("doctor.desktop.serviceMissing", ["entry": entry, "service": service])
        case .entryMissing(let entry):
            text("doctor.desktop.entryMissing", ["entry": entry])
        case .entryStale(let entry, let program):
            text("doctor.desktop.entryStale", ["entry": entry, "program": program])
        case .serviceStale(let service, let program):
            text("doctor.desktop.serviceStale", ["service": service, "program": program])
        case .runnerWithoutService(let runner, let service):
            text("doctor.desktop.runnerWithoutService", ["runner": runner, "service": service])
        }
    }
}
