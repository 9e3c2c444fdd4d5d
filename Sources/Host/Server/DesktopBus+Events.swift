import CDesktopBus
import Foundation
import HostDesktop
import HostModel
import HostSurfaces

/// The bus thread's events: the desktop's method calls, each handed to a thread of its own
/// (`+Answers`), the answers to the server's own calls, and the notifications' buttons, replies
/// and closing.
extension DesktopBus {
    /// One event from the bus thread; long work goes to a thread of its own.
    func handle(_ event: standfit_bus_event) {
        let connection = event.bus
        let sender = event.sender.map { String(cString: $0) } ?? "?"
        switch event.kind {
        case STANDFIT_BUS_ACTIVATE_ACTION:
            let name = event.name.map { String(cString: $0) } ?? ""
            var parameters: [NamedArgument] = []
            for index in 0..<event.count {
                guard let key = event.keys?[index], let value = event.values?[index] else { continue }
                parameters.append(NamedArgument(name: String(cString: key), value: String(cString: value)))
            }
            let arguments = parameters
            answer(event.call, on: connection, from: sender, what: "ActivateAction '\(name)'") { requests, bus in
                requests.activateAction(name, parameters: arguments, on: bus)
            }
        case STANDFIT_BUS_ACTIVATE:
            let app = event.name.map { String(cString: $0) }
            answer(event.call, on: connection, from: sender, what: "Activate" + (app.map { " (app \($0))" } ?? "")) {
                $0.activate(app: app, on: $1)
            }
        case STANDFIT_BUS_RUNNER_MATCH, STANDFIT_BUS_RUNNER_RUN, STANDFIT_BUS_RUNNER_CONFIG, STANDFIT_BUS_RUNNER_ACTIONS,
             STANDFIT_BUS_SEARCH, STANDFIT_BUS_SEARCH_METAS, STANDFIT_BUS_SEARCH_ACTIVATE, STANDFIT_BUS_SEARCH_LAUNCH:
            handleSearch(event, sender: sender)
        case STANDFIT_BUS_OPEN:
            answer(event.call, on: connection, from: sender, what: "Open") { _, _ in
                .refused(.notSupported, "StandFit opens no files; run one of its quick actions instead ('gapplication list-actions \(DesktopInstallation.applicationID)' lists them).")
            }
        case STANDFIT_BUS_NOTIFIED, STANDFIT_BUS_CAPABILITIES, STANDFIT_BUS_CALLED:
            let values = (0..<event.count).compactMap { event.values?[$0].map { String(cString: $0) } }
            let failure = event.error < 0 ? (event.name.map { String(cString: $0) } ?? "the call failed") : nil
            finishCall(token: event.token, id: event.id, values: values, failure: failure)
        case STANDFIT_BUS_ACTION_INVOKED, STANDFIT_BUS_NOTIFICATION_REPLIED:
            // A button's key, or the text typed into KDE's inline reply.
            let key = event.name.map { String(cString: $0) } ?? ""
            let id = event.id, replied = event.kind == STANDFIT_BUS_NOTIFICATION_REPLIED
            // The reply field's own button only opens the field.
            if !replied && key == DesktopNotification.replyKey { break }
            // A click on a question itself (its "default" action: the bubble, or GNOME's message
            // list, which shows no buttons) asks it again as a new notification, buttons and all
            // (the clicked one closed: that close is no dismissal).
            if !replied && key == DesktopBus.defaultKey, let (entry, others) = calls.withLock({ () -> (Buttons, [UInt32])? in
                // One of a question's choices, shown on its own: a click on it answers.
                guard let entry = pressed[id], entry.choice != nil, let group = entry.group else { return nil }
                pressed.removeValue(forKey: id)
                let others = group.choose(id)
                for other in others { pressed.removeValue(forKey: other) }
                return (entry, others)
            }), let choice = entry.choice {
                logger.info("Notification \(id): '\(choice)' chosen")
                for taken in [id] + others { standfit_bus_close_notification(connection, taken) }
                let activity = activity
                activity.begin()
                Thread.detachNewThread {
                    entry.chosen?(choice)
                    activity.end()
                }
                break
            }
            if !replied && key == DesktopBus.defaultKey {
                // Its buttons move to the question shown again (the server may give it a new
                // id, or close the clicked one first: that close is no dismissal, since the
                // buttons are no longer the clicked id's).
                guard let buttons = calls.withLock({ () -> Buttons? in
                    guard let question = pressed[id]?.question, question.asked < DesktopBus.reaskLimit else { return nil }
                    clicking.insert(id)
                    return pressed.removeValue(forKey: id)
                }), var again = buttons.question else { break }
                again.asked += 1
                let question = again
                logger.info("Notification \(id): clicked; asked again")
                let activity = activity
                activity.begin()
                Thread.detachNewThread { [self] in
                    // A server may close what was clicked (xfce4-notifyd does, whatever `resident`
                    // says): that close comes at once and is no dismissal.
                    Thread.sleep(forTimeInterval: DesktopBus.clickSettle)
                    let closedMeanwhile = calls.withLock { () -> Bool in
                        clicking.remove(id)
                        return closedWhileClicked.remove(id) != nil
                    }
                    // Not shown again (the server or the bus went away): closed unanswered, as a
                    // dismissal is.
                    guard let connection = stopLock.withLock({ self.connection }) else {
                        buttons.closed?()
                        activity.end()
                        return
                    }
                    if !closedMeanwhile { standfit_bus_close_notification(connection, id) }
                    // Where the server's list shows no buttons and takes no typed answer (GNOME
                    // Shell's: a persistent list, no inline reply), each choice comes as a
                    // notification of its own, which a click answers: GNOME banners nothing that
                    // arrives while its list is open, and shows a question's buttons only on its banner.
                    let choices = stride(from: 0, to: question.actions.count - 1, by: 2)
                        .map { (key: question.actions[$0], label: question.actions[$0 + 1]) }.filter { Int($0.key) != nil }
                    let capabilities = notificationCapabilities()
                    if !choices.isEmpty, capabilities.contains("persistence"), !capabilities.contains("inline-reply") {
                        showChoices(choices, of: question, buttons: buttons, on: connection)
                        activity.end()
                        return
                    }
                    // Otherwise shown anew (not in its own place, where GNOME would show no banner).
                    let (token, waiter) = beginCall(chosen: buttons.chosen, answered: buttons.answered, replied: buttons.replied,
                                                    closed: buttons.closed, question: question, unanswered: buttons.unanswered)
                    send(question, token: token, replacing: 0, on: connection)
                    if !wait(waiter, token: token, seconds: 5) || waiter.failure != nil { buttons.closed?() }
                    activity.end()
                }
                break
            }
            // The host's buttons are keyed 1, 2, 3 (`show`): anything else is no button the host
            // gave, and answers nothing.
            if !replied && Int(key) == nil { break }
            let (chosen, late) = calls.withLock { () -> ((@Sendable (String) -> Void)?, DesktopNotification?) in
                guard let buttons = pressed[id], let chosen = replied ? buttons.replied : buttons.chosen else { return (nil, answered[id]) }
                pressed.removeValue(forKey: id)
                // Answered: a press from now on says so instead of running anything again.
                if let late = buttons.answered {
                    answered[id] = late
                    if answered.count > 64, let oldest = answered.keys.min() { answered.removeValue(forKey: oldest) }
                }
                return (chosen, nil)
            }
            let activity = activity
            if let chosen {
                logger.info("Notification \(id): '\(key)' \(replied ? "replied" : "chosen")")
                // The question is answered: it goes from the screen at once (dunst keeps it).
                standfit_bus_close_notification(connection, id)
                activity.begin()
                Thread.detachNewThread {
                    chosen(key)
                    activity.end()
                }
            } else if let late {
                logger.info("Notification \(id): '\(key)' \(replied ? "replied" : "chosen") after it was answered")
                activity.begin()
                Thread.detachNewThread { [self] in
                    show(late)
                    activity.end()
                }
            }
        case STANDFIT_BUS_NOTIFICATION_CLOSED:
            let unanswered = calls.withLock { () -> Buttons? in
                _ = answered.removeValue(forKey: event.id)
                if lastFailure == event.id { lastFailure = nil }
                if clicking.contains(event.id) { closedWhileClicked.insert(event.id) }
                guard let entry = pressed.removeValue(forKey: event.id) else { return nil }
                // One choice of several closed: the question is unanswered only with the last.
                if let group = entry.group, !group.close(event.id) { return nil }
                return entry
            }
            unanswered?.closed?()
            // A question the user dismissed (2), or one the server expired all the same (1): nothing
            // ran, and the user is told so in one line, never left to take it for done. A question
            // whose command waits for its answer (`closed`) tells the user itself, before its own
            // connection ends.
            if let notice = unanswered?.unanswered, unanswered?.closed == nil, event.count == 1 || event.count == 2 {
                logger.info("Notification \(event.id): closed unanswered (\(event.count == 1 ? "expired" : "dismissed"))")
                let activity = activity
                activity.begin()
                Thread.detachNewThread { [self] in
                    show(notice)
                    activity.end()
                }
            }
        case STANDFIT_BUS_REFUSED:
            logger.warning("Refused a call from \(sender): \(event.name.map { String(cString: $0) } ?? "")")
        case STANDFIT_BUS_LOST:
            logger.warning("Lost the session bus (\(event.name.map { String(cString: $0) } ?? "")); the desktop front door is closed.")
            lost()
        default:
            break
        }
    }
}

extension DesktopBus {
    /// Shows each of `question`'s choices as a notification of its own ("Log Exercise" over
    /// "Squats"), whose click (its default action) answers with that choice through `buttons`.
    func showChoices(_ choices: [(key: String, label: String)], of question: Sent, buttons: Buttons, on connection: OpaquePointer) {
        let group = ChoiceGroup()
        // Sent last first: GNOME's list shows the newest on top, so it reads in the question's order.
        for (key, label) in choices.reversed() {
            let sent = Sent(summary: question.summary, body: label, icon: question.icon, actions: [Self.defaultKey, label],
                            urgency: question.urgency, asks: true, resident: true, reply: nil)
            let (token, waiter) = beginCall(chosen: buttons.chosen, answered: buttons.answered, closed: buttons.closed,
                                            unanswered: buttons.unanswered, choice: key, group: group)
            send(sent, token: token, replacing: 0, on: connection)
            _ = wait(waiter, token: token, seconds: 5)
        }
        logger.info("Asked again as \(choices.count) choices: \(choices.map(\.label).joined(separator: " | "))")
    }
}
