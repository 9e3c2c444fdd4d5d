import HostModel

/// A desktop notification (`org.freedesktop.Notifications.Notify`): how an action launched from
/// the desktop answers, since there is no terminal to print to.
public struct DesktopNotification: Sendable, Equatable {
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    /// An action button: the key `ActionInvoked` names, and the label people read.
    public struct Button: Sendable, Equatable {
        public var key: String
        public var label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    public var summary: String
    public var body: String
    /// An icon-theme name.
    public var icon: String
    public var buttons: [Button]
    public var urgency: Urgency
    /// What a press after the first says (a server that keeps the notification after it was
    /// answered and closed): the first choice ran, and how to choose again.
    public var answered: String?
    /// Where the server takes a typed reply (KDE's inline reply): the placeholder of its field.
    /// A reply answers the question as `say` would ("20 squats").
    public var reply: String?
    /// The label of the button that opens the reply field.
    public var replyLabel = "Reply"
    /// A failure: shown at normal urgency (a critical one stays red until dismissed), and in
    /// the place of the failure shown before it, so that errors never stack.
    public var isFailure = false
    /// What a question says when it is closed without an answer ("Not run: no answer."): shown
    /// as a notification of its own, so that nobody takes a dismissed question for done.
    public var unanswered: String?

    /// The key of the inline-reply action, and the label of its button.
    public static let replyKey = "inline-reply"

    public init(summary: String, body: String, icon: String, buttons: [Button] = [], urgency: Urgency = .normal) {
        self.summary = summary
        self.body = body
        self.icon = icon
        self.buttons = buttons
        self.urgency = urgency
    }

    /// A failure: `title` (the action, or the app) over one sentence, at normal urgency, in the
    /// place of the failure before it.
    public static func failure(title: String, message: String, icon: String) -> DesktopNotification {
        var failure = DesktopNotification(summary: title, body: message, icon: icon)
        failure.isFailure = true
        return failure
    }

    /// The most buttons a notification gets. GNOME Shell shows three; servers that show more
    /// would crowd the bubble.
    public static let buttonLimit = 3

    /// What running `title` (an item, with its `icon`) from the desktop came to: the item's
    /// title over the outcome's message. A missing value with values to offer asks the question
    /// a prompt would have asked, with the first offered values (most recent first) as buttons,
    /// `buttons` of them at most (0 where the server shows no actions: the values are named in
    /// the body instead); the key of each is the value's id. Failures are `failure`s.
    public static func outcome(_ outcome: Outcome, title: String, icon: String?, buttons: Int,
                               language: String = "en", icons: OwnIcons = .none) -> DesktopNotification {
        let icon = icons.themeName(for: icon) ?? icons.fallback
        // A routine says each step's outcome, then its own ("Morning routine: ran 2 steps.").
        let message = ((outcome.steps ?? []).map(\.message).filter { !$0.isEmpty } + [outcome.message]).joined(separator: "\n")
        switch outcome.status {
        case .handled, .dryRun, .declined:
            return DesktopNotification(summary: title, body: message, icon: icon)
        case .invalidInput where outcome.needsValue != nil && !(outcome.offered ?? []).isEmpty:
            let offered = outcome.offered ?? []
            let question = outcome.question ?? outcome.message
            if buttons > 0 {
                var asking = DesktopNotification(summary: title, body: question, icon: icon,
                                                 buttons: offered.prefix(buttons).map { Button(key: $0.id, label: $0.title) })
                let text = HostText(language: language)
                asking.answered = text("notify.answered")
                asking.unanswered = text("notify.unanswered")
                asking.reply = text("notify.reply", ["example": offered[0].title.lowercased()])
                asking.replyLabel = text("notify.replyButton")
                return asking
            }
            return DesktopNotification(summary: title, body: "\(question) \(offered.map(\.title).joined(separator: ", "))",
                                       icon: icon)
        case .invalidInput, .unknownType, .pluginFailed:
            return .failure(title: title, message: message, icon: icon)
        }
    }

    /// A suggestion offered at its usual time (`suggestions offer`): "Log 10 Push-Ups?" over
    /// when it usually runs, with three buttons keyed by `SuggestionOffer.Answer`: run it
    /// (labelled with the title's verb, "Log", as the action names itself), "Not now", and "Stop
    /// suggesting this". Without buttons (a server that shows none) the body says that it is the
    /// menu's suggestion now.
    public static func suggestion(title: String, usualTime: String, icon: String?, buttons: Bool,
                                  language: String = "en", icons: OwnIcons = .none) -> DesktopNotification {
        let text = HostText(language: language)
        let icon = icons.themeName(for: icon) ?? icons.fallback
        let summary = text("offer.summary", ["title": title])
        guard buttons else {
            return DesktopNotification(summary: summary, body: text("offer.bodyNoButtons", ["time": usualTime]), icon: icon)
        }
        let words = title.split(separator: " ")
        let verb = words.count > 1 ? String(words[0]) : text("offer.run")
        var offer = DesktopNotification(summary: summary, body: text("offer.body", ["time": usualTime]), icon: icon, buttons: [
            Button(key: SuggestionOffer.Answer.run.rawValue, label: verb),
            Button(key: SuggestionOffer.Answer.later.rawValue, label: text("offer.later")),
            Button(key: SuggestionOffer.Answer.mute.rawValue, label: text("offer.mute")),
        ])
        offer.unanswered = text("notify.unanswered")
        return offer
    }

    /// `body` for a server that reads markup in bodies (`body-markup`): `&`, `<` and `>` as
    /// entities, so that a note "<i>relax</i>" is shown as typed, never as italics or a link.
    public static func markupEscaped(_ body: String) -> String {
        body.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The key of the picker's button that shows its next page: this prefix and the page.
    public static let morePrefix = "standfit-more:"

    /// The quick-actions picker (the application activated without an action), page `page`:
    /// `actions` as buttons keyed by their desktop action keys and named as the desktop file
    /// names them (title — subtitle), `buttons` of them at most; when more are left, the last
    /// button shows the next page ("More (3)…", keyed `morePrefix` and the page), so every
    /// action can be reached. With no buttons, every name is in the body, and how to run one.
    /// With buttons it also takes a typed sentence (`reply`), such as `example`.
    public static func picker(actions: [(key: String, item: ShortcutItem)], applicationName: String, icon: String?,
                              language: String, buttons: Int, page: Int = 0, example: String? = nil,
                              icons: OwnIcons = .none) -> DesktopNotification {
        let icon = icons.themeName(for: icon) ?? icons.fallback
        let text = HostText(language: language)
        let question = text("picker.question")
        guard !actions.isEmpty else {
            let none = text("picker.none")
            return DesktopNotification(summary: applicationName, body: none, icon: icon)
        }
        if buttons > 0 {
            // Each page but the last keeps its last button for "more".
            let perPage = actions.count > buttons ? max(1, buttons - 1) : buttons
            let shown = actions.dropFirst(page * perPage).prefix(perPage)
            var keys = shown.map { Button(key: $0.key, label: name(of: $0.item)) }
            let left = actions.count - page * perPage - shown.count
            if left > 0 { keys.append(Button(key: "\(morePrefix)\(page + 1)", label: text("picker.more", ["count": "\(left)"]))) }
            var picker = DesktopNotification(summary: applicationName, body: question, icon: icon, buttons: keys)
            picker.answered = text("notify.answered")
            picker.unanswered = text("notify.unanswered")
            picker.reply = example.map { text("picker.reply", ["example": $0]) } ?? text("picker.replyPlain")
            picker.replyLabel = text("notify.replyButton")
            return picker
        }
        return DesktopNotification(summary: applicationName,
                                   body: text("picker.typed", ["question": question, "names": actions.map { name(of: $0.item) }.joined(separator: ", ")]),
                                   icon: icon)
    }

    /// An item's name as the desktop file has it: the title, and the subtitle after a dash.
    public static func name(of item: ShortcutItem) -> String {
        guard let subtitle = item.subtitle, !subtitle.isEmpty else { return item.title }
        return "\(item.title) — \(subtitle)"
    }
}
