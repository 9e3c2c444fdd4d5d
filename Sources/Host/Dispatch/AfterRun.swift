import Foundation
import HostModel

/// What follows a run, as a policy over the outcome: the side effects are hooks the composition
/// registers (the host's state, the plugins' providers, the desktop file), so the policy is
/// tested with fakes and no plugin loaded.
///
/// - A handled run is recorded as a donation with the values it ran with, except those of
///   parameters that are no suggestion material (`standfit.parameter-traits/1`); a routine is one
///   donation, not one per step; a fallback's run, a declined, failed, unknown, invalid or dry
///   run is none. The donations a handled run (or a step) withdrew are forgotten first.
/// - The dynamic providers of the plugins that handled something are asked again, each once.
/// - When that changed the stored items and a desktop file is installed, it is rewritten.
public struct AfterRun {
    /// Records one donation.
    public var donate: (Donation) -> Void
    /// Records a scheduled run (a timer's), which is no donation: what a suggestion asks of
    /// "already done today".
    public var recordScheduled: (Donation) -> Void
    /// Forgets the donations plugin `pluginID` named `effects`: a run undid what they did.
    public var withdraw: (_ pluginID: String, _ effects: [String]) -> Void
    /// Asks the providers of these plugins again and stores their items; true when the stored
    /// items changed.
    public var refresh: (_ pluginIDs: [String]) -> Bool
    /// Whether a desktop file is installed, to be kept current.
    public var desktopInstalled: () -> Bool
    /// Rewrites the installed desktop file from the current menu.
    public var rewriteDesktop: () -> Void

    public init(donate: @escaping (Donation) -> Void,
                withdraw: @escaping (_ pluginID: String, _ effects: [String]) -> Void,
                refresh: @escaping (_ pluginIDs: [String]) -> Bool,
                desktopInstalled: @escaping () -> Bool, rewriteDesktop: @escaping () -> Void,
                recordScheduled: @escaping (Donation) -> Void = { _ in }) {
        self.donate = donate
        self.recordScheduled = recordScheduled
        self.withdraw = withdraw
        self.refresh = refresh
        self.desktopInstalled = desktopInstalled
        self.rewriteDesktop = rewriteDesktop
    }

    /// Applies the policy to `outcome`, a run made at `date`; a scheduled run donates nothing
    /// (what it undid is still withdrawn), and is recorded as scheduled instead.
    public func apply(to outcome: Outcome, at date: Date, scheduled: Bool = false) {
        for record in AfterRun.records(of: outcome, at: date) {
            switch record {
            case .withdraw(let pluginID, let effects): withdraw(pluginID, effects)
            case .donate(let donation): if scheduled { recordScheduled(donation) } else { donate(donation) }
            }
        }
        let handledBy = ([outcome] + (outcome.steps ?? [])).filter { $0.status == .handled }.compactMap(\.plugin)
        guard !handledBy.isEmpty else { return }
        let plugins = handledBy.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if refresh(plugins) { itemsChanged() }
    }

    /// The stored dynamic items changed (a refresh, `dynamic set|clear`): keeps an installed
    /// desktop file current.
    public func itemsChanged() {
        if desktopInstalled() { rewriteDesktop() }
    }

    /// What a run leaves in the donations.
    public enum Record: Equatable {
        /// Plugin `pluginID`'s donations named `effects` no longer count: their effect was undone.
        case withdraw(pluginID: String, effects: [String])
        case donate(Donation)
    }

    /// What `outcome` records, in the order it happened: each handled step's (a routine's), then
    /// its own when it was handled; a run's withdrawals before its own donation, so that a run
    /// that undoes something and names its donation as the undone one did still counts.
    public static func records(of outcome: Outcome, at date: Date) -> [Record] {
        // A routine is one habit: its run is donated once, as the routine; what its steps undid
        // is withdrawn all the same.
        var records = (outcome.steps ?? []).flatMap { AfterRun.records(of: $0, at: date) }.filter {
            if case .donate = $0 { false } else { true }
        }
        guard outcome.status == .handled else { return records }
        if let plugin = outcome.plugin, let effects = outcome.withdrawnDonations, !effects.isEmpty {
            records.append(.withdraw(pluginID: plugin, effects: effects))
        }
        // A fallback that ran for an unknown type is no habit to learn.
        guard outcome.fallback == nil else { return records }
        var parameters: [String: String] = [:], titles: [String: String] = [:]
        for parameter in outcome.resolved ?? [] where parameter.suggestible {
            guard let value = parameter.value else { continue }
            parameters[parameter.name] = value
            if let title = parameter.title { titles[parameter.name] = title }
        }
        records.append(.donate(Donation(type: outcome.type, parameters: parameters, titles: titles, date: date,
                                        plugin: outcome.plugin, effect: outcome.donationID)))
        return records
    }
}
