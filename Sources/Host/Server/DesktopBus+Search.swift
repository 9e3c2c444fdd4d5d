import CDesktopBus
import Foundation
import HostDesktop

/// The desktop's searches on the bus: KRunner's runner (`org.kde.krunner1`) and GNOME Shell's
/// search provider (`org.gnome.Shell.SearchProvider2`), both answered from the same matches
/// (`DesktopRequests.matches`).
extension DesktopBus {
    func handleSearch(_ event: standfit_bus_event, sender: String) {
        let connection = event.bus
        let strings = (0..<event.count).compactMap { event.values?[$0].map { String(cString: $0) } }
        let name = event.name.map { String(cString: $0) } ?? ""
        switch event.kind {
        case STANDFIT_BUS_RUNNER_MATCH:
            respond(event.call, on: connection) { requests, bus, connection, call in
                let matches = requests.matches(name, krunner: true, on: bus)
                bus.logSearch("KRunner Match '\(name)'", from: sender, matches)
                // Every match can be copied as a command.
                let actions = DesktopSearch.actions(language: "en").map(\.id)
                withCStrings(matches.map(\.id)) { ids in
                    withCStrings(matches.map(\.text)) { texts in
                        withCStrings(matches.map(\.icon)) { icons in
                            withCStrings(matches.map { $0.subtext ?? "" }) { subtexts in
                                withCStrings(actions) { actionIDs in
                                    standfit_bus_reply_matches(connection, call, matches.count, ids, texts, icons,
                                                               matches.map(\.type), matches.map(\.relevance), subtexts,
                                                               matches.map { _ in 1 }, actionIDs, actions.count)
                                }
                            }
                        }
                    }
                }
            }
        case STANDFIT_BUS_RUNNER_RUN:
            let action = strings.first ?? ""
            answer(event.call, on: connection, from: sender, what: "KRunner Run '\(name)'" + (action.isEmpty ? "" : " (\(action))")) {
                $0.run(match: name, action: action, on: $1)
            }
        case STANDFIT_BUS_RUNNER_CONFIG:
            // No trigger words: a query may start with any word an action's phrase, title or
            // entity has ("squats", "streak", "history", "twenty"), and the phrase matcher answers
            // an unrelated one at once; KRunner sends every query of three letters or more.
            respond(event.call, on: connection) { _, _, connection, call in
                standfit_bus_reply_runner_config(connection, call, 3, nil, 0)
            }
        case STANDFIT_BUS_RUNNER_ACTIONS:
            respond(event.call, on: connection) { requests, bus, connection, call in
                let actions = requests.runnerActions(on: bus)
                withCStrings(actions.map(\.id)) { ids in
                    withCStrings(actions.map(\.text)) { texts in
                        withCStrings(actions.map(\.icon)) { icons in
                            standfit_bus_reply_runner_actions(connection, call, actions.count, ids, texts, icons)
                        }
                    }
                }
            }
        case STANDFIT_BUS_SEARCH:
            respond(event.call, on: connection) { requests, bus, connection, call in
                // GNOME's result set: the matches' ids, each remembered for `GetResultMetas`.
                let matches = requests.matches(strings.joined(separator: " "), krunner: false, on: bus)
                bus.logSearch("GNOME search '\(strings.joined(separator: " "))'", from: sender, matches)
                bus.searchResults.remember(matches)
                let ids = matches.map(\.id)
                withCStrings(ids) { standfit_bus_reply_results(connection, call, $0, ids.count) }
            }
        case STANDFIT_BUS_SEARCH_METAS:
            respond(event.call, on: connection) { _, bus, connection, call in
                let metas = bus.searchResults.metas(strings)
                bus.logSearch("GNOME result metas", from: sender, metas)
                withCStrings(metas.map(\.id)) { ids in
                    withCStrings(metas.map(\.text)) { names in
                        // GNOME shows the results under the app already: a description that
                        // would only name it again is left out (a routine's says "Shortcuts").
                        withCStrings(metas.map { $0.subtext == DesktopInstallation.applicationName ? "" : $0.subtext ?? "" }) { descriptions in
                            withCStrings(metas.map(\.icon)) { icons in
                                standfit_bus_reply_metas(connection, call, metas.count, ids, names, descriptions, icons)
                            }
                        }
                    }
                }
            }
        case STANDFIT_BUS_SEARCH_ACTIVATE:
            answer(event.call, on: connection, from: sender, what: "Search result '\(name)'") {
                $0.run(match: name, action: "", on: $1)
            }
        case STANDFIT_BUS_SEARCH_LAUNCH:
            // The app, opened from the search: its picker.
            answer(event.call, on: connection, from: sender, what: "LaunchSearch '\(strings.joined(separator: " "))'") {
                $0.activate(app: nil, on: $1)
            }
        default:
            break
        }
    }
}

extension DesktopBus {
    /// A search and what it found, in the log at debug level only (`serve --verbose`, or
    /// STANDFIT_LOG_LEVEL=debug for a server the bus starts): GNOME Shell sends every search
    /// typed in its overview to every provider, and what a user types there is not this host's
    /// to keep.
    func logSearch(_ what: String, from sender: String, _ matches: [DesktopSearch.Match]) {
        logger.debug("\(what) from \(sender): \(matches.isEmpty ? "no match" : matches.map(\.text).joined(separator: " · "))")
    }
}
