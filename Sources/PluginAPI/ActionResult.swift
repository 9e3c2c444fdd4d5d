import Foundation

/// What an action reports back: an outcome, the one sentence the user sees, and optional data.
public struct ActionResult {
    /// The outcome, mirroring the ABI's `STANDFIT_STATUS_*` codes.
    public enum Status: Int32, Sendable {
        case handled = 0
        case declined = 1
        case invalidInput = 2
        case failed = 3
    }

    public var status: Status
    /// The dialog: one sentence, shown as the result of the run.
    public var dialog: String
    /// Structured output, encoded as JSON and shown under `data` by `--json`.
    public var data: (any Encodable)?

    /// What this run's donation is called (`standfit.donations/1`): what it did, such as
    /// "log/42", so that a later run that undoes it can withdraw it (`withdrawing`).
    public var donationID: String?
    /// The donations of this plugin whose effect this run undid: they no longer count toward
    /// suggestions once it is handled.
    public var withdrawnDonations: [String] = []
    /// For `.invalidInput`: the parameter it is about, given to `--json` as "parameter".
    public var parameter: String?

    public init(status: Status, dialog: String, data: (any Encodable)? = nil) {
        self.status = status
        self.dialog = dialog
        self.data = data
    }

    /// This result, its run's donation called `id` (as INInteraction's identifier on iOS).
    public func donated(as id: String) -> ActionResult {
        var result = self
        result.donationID = id
        return result
    }

    /// This result, withdrawing the donations called `ids`: the run undid what they did (as
    /// INInteraction.delete(with:) on iOS).
    public func withdrawing(_ ids: String...) -> ActionResult {
        var result = self
        result.withdrawnDonations += ids
        return result
    }

    public static func handled(_ dialog: String, data: (any Encodable)? = nil) -> ActionResult {
        ActionResult(status: .handled, dialog: dialog, data: data)
    }

    public static func declined(_ reason: String) -> ActionResult {
        ActionResult(status: .declined, dialog: reason)
    }

    /// The run's input was unusable. Name the `parameter` it is about (one of the action's),
    /// so that `--json` says which, as it does for the values the host refuses itself.
    public static func invalidInput(_ reason: String, parameter: String? = nil) -> ActionResult {
        var result = ActionResult(status: .invalidInput, dialog: reason)
        result.parameter = parameter
        return result
    }

    public static func failed(_ reason: String) -> ActionResult {
        ActionResult(status: .failed, dialog: reason)
    }

    /// The data as compact JSON text with sorted keys, or nil when there is none.
    func encodedData() throws -> String? {
        guard let data else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Dates cross as ISO 8601 instants, which every JSON reader understands.
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(data), as: UTF8.self)
    }
}
