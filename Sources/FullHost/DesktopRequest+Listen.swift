import Foundation
import HostDesktop
import HostModel
import HostServer
import HostSurfaces
import StandFitHost

extension DesktopRequest {
    /// `ActivateAction("listen")`, the installed entry's Listen action: `listen --notify` with the
    /// installed file's options, as a request of the desktop's (its question and outcome as
    /// notifications on the bus the request came on). Answered at once, before it records: a
    /// caller waits for a method's reply far less long than listening and the question take.
    static func listen(bus: DesktopBus) -> Answer {
        let logger = bus.logger
        bus.detach {
            let served = serve(on: bus) { () -> Int32 in
                let options = HostOptions(request: .current, link: .current, executable: Executable.url, warm: Executable.warm)
                let installed: [String]
                do throws(HostError) {
                    installed = try DesktopInstallation.installedArguments(options)
                } catch {
                    bus.show(.failure(title: DesktopInstallation.applicationName, message: DesktopRequest.sentence(error), icon: DesktopInstallation.listenIcon))
                    return StandFitHostCommand.report(error)
                }
                switch StandFitHostCommand.parse(["listen", "--notify"] + installed) {
                case .success(let command): return StandFitHostCommand.execute(command)
                case .failure(let error): return StandFitHostCommand.report(error)
                }
            }
            guard let served else {
                logger.error("Listen: the server could not make a request (out of descriptors or threads); press Listen again.")
                return
            }
            let said = (served.errors + served.output).trimmingCharacters(in: .whitespacesAndNewlines)
            logger.info("Listen: exit status \(served.result)\(said.isEmpty ? "" : ": " + said.replacingOccurrences(of: "\n", with: "\\n"))")
        }
        return .done("listening")
    }
}
