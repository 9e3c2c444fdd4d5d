import ArgumentParser
import Foundation
import HostDesktop
import HostDispatch
import HostIntents
import HostModel
import HostSchedules
import HostStorage
import HostServer
import HostSurfaces
import Logging
import StandFitHost

extension SuggestionsCommand {
    /// `suggestions offer`: what the timer runs. It offers the suggestion of the moment as a
    /// notification, when `SuggestionOffers` finds one, and records it; the buttons run it,
    /// put it off until tomorrow, or mute it.
    struct Offer: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "offer",
            abstract: Usage.words("help.suggestions.offer"),
            discussion: Usage.words("help.suggestions.offer.discussion")
        ) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Flag(help: Usage.help("help.suggestions.offer.dryRun"))
        var dryRun = false

        struct Document: Encodable {
            var offered: Bool
            var title: String?
            var type: String?
            var parameters: [String: JSONValue]?
            var message: String
        }

        func run() throws {
            let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
            let clock = Suggestions.clock(Double(LocalMinute.of(session.now, in: session.request.timeZone)))
            let text = HostText(language: session.language)
            // One offer decided and recorded at a time: two timers (or a timer and a hand) at the
            // same moment would each find the same suggestion not yet offered and show it twice.
            // Waited for, so it is never nil; a lock that could not be taken decides nothing.
            guard let turn = try UserLock.take("offer", in: session, wait: true) else {
                throw HostError(.io, key: "offer.noLock", ["directory": session.paths.cacheDirectory.path])
            }
            var turnHeld = true
            defer { if turnHeld { close(turn) } }
            let suggestion: Suggestions.Suggestion
            switch try session.offerDecision() {
            case .offer(let chosen):
                suggestion = chosen
            case .quiet(let hours):
                let learned = try session.quietHours().learned
                return say(text(learned ? "offer.quietLearned" : "offer.quiet", ["clock": clock, "hours": hours.text]))
            case .capReached(let count):
                return say(text(count == 1 ? "offer.cap.one" : "offer.cap.many", ["count": "\(count)"]))
            case .nothing(let skipped):
                guard let (first, why) = skipped.first else {
                    return say(text("offer.nothingDue", ["clock": clock]))
                }
                let title = first.title(for: session.plugins.registry.handler(for: first.type), language: session.language)
                return switch why {
                case .offeredToday: say(text("offer.offeredToday", ["clock": clock, "title": title]))
                case .doneToday(let time): say(text("offer.doneToday", ["clock": clock, "title": title, "time": time]))
                }
            }
            let action = session.plugins.registry.handler(for: suggestion.type)
            let title = suggestion.title(for: action, language: session.language)
            let values = session.typedValues(suggestion.parameters, of: suggestion.type)
            let offered = text("offer.offered", ["title": title, "time": suggestion.usualTime])
            if dryRun { return say(text("offer.wouldOffer", ["title": title, "time": suggestion.usualTime]), title: title, suggestion: suggestion, values: values) }

            let address = DesktopBus.sessionAddress(in: session.request.environment)
            let warm = WarmServer.current?.bus.flatMap { bus in address.flatMap { DesktopBus.isSameBus(bus.address, $0) } == true ? bus : nil }
            guard let bus = warm ?? DesktopBus.start(logger: global.logger, address: address) else {
                throw HostError(.desktopUnavailable, key: "offer.noBus", ["title": title])
            }
            let notification = DesktopNotification.suggestion(title: title, usualTime: suggestion.usualTime, icon: action?.icon,
                                                              buttons: bus.buttonLimit() >= 3, language: session.language, icons: session.icons)
            let state = session.state, logger = global.logger, now = session.now
            let record = OfferRecord(state: state, logger: logger)
            let day = SuggestionOffers.day(of: now, in: session.request.timeZone)
            // Recorded before it is shown, so that a press (on another thread) finds it.
            let id = try state.recordOffer(type: suggestion.type, parameters: suggestion.parameters, title: title, at: now, day: day)
            close(turn)
            turnHeld = false
            let mute = SuggestionMute(type: suggestion.type, parameters: suggestion.parameters, title: title, mutedAt: now)
            let type = suggestion.type
            if let warm {
                // The server answers the buttons: a press runs the action as a desktop click does.
                let shown = warm.show(notification, chosen: { key in
                    record.answer(key, offer: id, mute: mute) {
                        _ = DesktopRequest.activateAction(.type(type, userInfo: values), parameters: [], bus: warm)
                    }
                })
                guard shown != nil else { try notShown(record, id: id, title: title) }
                return say(offered, title: title, suggestion: suggestion, values: values)
            }
            // A connection of this command's own: it waits for the answer, and acts on it here.
            defer { bus.stop() }
            guard let answer = NotificationAnswer.ask(notification, on: bus) else { try notShown(record, id: id, title: title) }
            say(offered, title: title, suggestion: suggestion, values: values)
            Console.current.flush()
            guard !notification.buttons.isEmpty else { return }
            guard let pressed = answer.wait(seconds: SuggestionTimer.answerMinutes * 60) else {
                logger.info("Suggestion \(id) unanswered; taken from the screen.")
                return
            }
            guard let key = pressed else {
                // Closed without an answer: nothing ran, and the user is told so.
                if let unanswered = notification.unanswered {
                    bus.show(DesktopNotification(summary: notification.summary, body: unanswered, icon: notification.icon))
                }
                return
            }
            record.answer(key, offer: id, mute: mute) {
                let outcome = session.run(type, named: [], userInfo: values, options: Dispatcher.RunOptions(showsData: false))
                bus.show(CommandNotification.pressed(outcome, session: session))
            }
        }

        /// No notification server showed it: the offer is forgotten, and the command fails.
        private func notShown(_ record: OfferRecord, id: Int64, title: String) throws -> Never {
            record.forget(id)
            throw HostError(.desktopUnavailable, key: "offer.noServer", ["title": title])
        }

        private func say(_ message: String, title: String? = nil, suggestion: Suggestions.Suggestion? = nil,
                         values: [String: JSONValue]? = nil) {
            if global.json {
                Output.printJSON(Document(offered: title != nil && !dryRun, title: title, type: suggestion?.type,
                                          parameters: values, message: message))
            } else {
                Output.show(message)
            }
        }
    }

    /// What a press on a suggestion's notification records.
    struct OfferRecord: Sendable {
        let state: HostState
        let logger: Logger

        /// Records `key` (a `SuggestionOffer.Answer`) as offer `id`'s answer; "Stop suggesting
        /// this" mutes `mute`, and the run button calls `run`.
        func answer(_ key: String, offer id: Int64, mute: SuggestionMute, run: () -> Void) {
            guard let answer = SuggestionOffer.Answer(rawValue: key) else { return }
            do throws(HostError) {
                try state.answerOffer(id, answer)
                if answer == .mute {
                    try state.mute(type: mute.type, parameters: mute.parameters, title: mute.title, at: mute.mutedAt)
                }
            } catch {
                logger.warning("\(error.message)")
            }
            logger.info("Suggestion \(id) (\(mute.title)): '\(answer.rawValue)'")
            if answer == .run { run() }
        }

        /// Forgets offer `id`: it was never shown.
        func forget(_ id: Int64) {
            do throws(HostError) {
                try state.forgetOffer(id)
            } catch {
                logger.warning("\(error.message)")
            }
        }
    }
}
