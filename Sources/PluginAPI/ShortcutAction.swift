/// One shortcut type and its typed handler, declared with ordinary Swift types.
///
/// ```swift
/// struct Greet: ShortcutAction {
///     static let type = "com.example.greet"
///     static let title = "Greet"
///     @Parameter(title: "Name") var name: String
///     @Parameter var times: Int = 1
///     func perform(_ context: ActionContext) throws -> ActionResult {
///         .handled(Array(repeating: "Hello, \(name)!", count: times).joined(separator: " "))
///     }
/// }
/// ```
///
/// Parameters are the `@Parameter` properties, in declaration order; their Swift types give
/// their kinds (`Bool`, `Int`, `Double`, `String`, or an optional of one). A property with an
/// initial value has that default; a non-optional one without is required.
public protocol ShortcutAction: SendableMetatype {
    /// The reverse-DNS type, or a namespace such as `"com.example.*"`.
    static var type: String { get }
    /// Shown in menus.
    static var title: String { get }
    /// Shown under the title; empty for none.
    static var subtitle: String { get }
    /// An SF Symbol, `UIApplicationShortcutIconType` or freedesktop icon name
    /// (docs/PLUGIN_GUIDE.md lists them); empty for none. Plain `String`s, so that
    /// `static let icon = "timer"` is the icon: an optional here would leave an inferred
    /// `String` silently unused.
    static var icon: String { get }
    /// Sentences that run the action, with `{parameter}` placeholders, per language
    /// ("log {count} {exercise}"); `standfit-host say` understands them.
    static var phrases: [Phrase] { get }
    /// False for an action whose runs are never suggestion material (undo, delete, edit): the
    /// host does not donate them and never suggests them. Default true.
    static var isSuggestible: Bool { get }
    /// True when the host should have the user confirm a run on a terminal before it happens
    /// (deleting: what only an undo brings back); elsewhere it runs as asked
    /// (`standfit.action-traits/2`'s `STANDFIT_TRAIT_CONFIRM`).
    static var confirmsBeforeRunning: Bool { get }

    /// Creates the action with its parameters unset; the SDK fills them before `perform`.
    init()

    /// Runs the action. A thrown error is reported as a failure with the error's description.
    func perform(_ context: ActionContext) throws -> ActionResult
}

extension ShortcutAction {
    public static var subtitle: String { "" }
    public static var icon: String { "" }
    public static var phrases: [Phrase] { [] }
    public static var isSuggestible: Bool { true }
    public static var confirmsBeforeRunning: Bool { false }
}
