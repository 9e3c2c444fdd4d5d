import HostModel
import HostIntents

/// The phrases the session's actions and routines are said with: what `say` (HostSentences) and
/// the desktop's search (HostDesktop) match sentences with.
extension HostSession {
    /// What `say` and KRunner match sentences with: the plugins' actions and the routines, each
    /// app known by its plugin's name ("… in StandFit").
    package var phraseMatcher: PhraseMatcher {
        let plugins = plugins
        let applications = Dictionary(plugins.plugins.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var matcher = PhraseMatcher(actions: plugins.registry.actions + routines.map(\.action), applications: applications,
                                    language: language, entity: { plugins.entity($1, of: $0) }, query: plugins.calls.query)
        let untrusted = Set(plugins.plugins.filter { !$0.isTrusted }.map(\.id))
        matcher.isTrusted = { !untrusted.contains($0) }
        return matcher
    }
}
