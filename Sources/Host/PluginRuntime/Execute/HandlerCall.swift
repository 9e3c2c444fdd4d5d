import CStandFitABI
import Foundation
import HostModel

/// Runs a plugin's C handler for one `Invocation`: builds the `standfit_invocation` context,
/// calls through libffi and collects what the handler set.
struct HandlerCall {
    let handler: FFIHandler
    /// The action's parameters, in order: what `set_invalid_parameter` may name.
    var parameterNames: [String] = []

    func perform(_ invocation: Invocation) -> HandlerReply {
        let collector = ReplyCollector()
        collector.parameterNames = parameterNames
        collector.showsData = invocation.showsData
        let userInfo = JSONValue.object(invocation.userInfo).jsonText
        var provided: UInt32 = 0
        for (index, argument) in invocation.arguments.enumerated() where argument != nil {
            provided |= 1 << UInt32(index)
        }
        let context = ContextSlots.shared.take()
        let status = invocation.requestedType.withCString { type in
            userInfo.withCString { userInfo in
                invocation.locale.withCString { locale in
                    context.initialize(to: standfit_invocation(
                        abi: .host(for: standfit_invocation.self),
                        type: type, user_info_json: userInfo, provided: provided, locale: locale,
                        host_data: Unmanaged.passUnretained(collector).toOpaque(),
                        set_message: setMessage, set_data_json: setDataJSON))
                    defer { ContextSlots.end(context) }
                    return handler.call(context: context, arguments: invocation.arguments)
                }
            }
        }
        if collector.refusedWithdrawals > 0 {
            collector.warnings.append(HostText.Phrase("handlerWarning.withdrewMore", ["limit": "\(ReplyCollector.withdrawalLimit)", "count": "\(collector.refusedWithdrawals)"]))
        }
        // Data no one will see was checked (the run's status does not depend on --json) and is
        // not carried further.
        var reply = HandlerReply(status: status, message: collector.message,
                                 data: invocation.showsData ? collector.data : nil,
                                 fault: collector.fault, donationID: collector.donationID,
                                 withdrawnDonations: collector.withdrawnDonations.isEmpty ? nil : collector.withdrawnDonations,
                                 warnings: collector.warnings.isEmpty ? nil : collector.warnings)
        reply.parameter = collector.invalidParameter
        return reply
    }

    /// The `standfit.reply/1` table.
    static func replyTable() -> UnsafePointer<standfit_reply_ext> {
        let table = UnsafeMutablePointer<standfit_reply_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_reply_ext(
            abi: .host(for: standfit_reply_ext.self),
            shows_data: { context in
                guard let collector = ReplyCollector.from(context) else { return ReplyCollector.refusal(context) }
                return collector.showsData ? 1 : 0
            }))
        return UnsafePointer(table)
    }

    /// The `standfit.donations/1` table: its functions find the call through the context.
    static func donationsTable() -> UnsafePointer<standfit_donations_ext> {
        let table = UnsafeMutablePointer<standfit_donations_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_donations_ext(
            abi: .host(for: standfit_donations_ext.self),
            set_donation_id: { context, id in
                guard let collector = ReplyCollector.from(context) else { return ReplyCollector.refusal(context) }
                guard let id = collector.donationIdentifier(id, calling: "set_donation_id") else { return STANDFIT_ERR_INVALID_ARGUMENT }
                collector.donationID = id
                return STANDFIT_OK
            },
            withdraw_donations: { context, id in
                guard let collector = ReplyCollector.from(context) else { return ReplyCollector.refusal(context) }
                guard let id = collector.donationIdentifier(id, calling: "withdraw_donations") else { return STANDFIT_ERR_INVALID_ARGUMENT }
                if collector.withdrawnDonations.contains(id) { return STANDFIT_OK }
                guard collector.withdrawnDonations.count < ReplyCollector.withdrawalLimit else {
                    collector.refusedWithdrawals += 1
                    return STANDFIT_ERR_INVALID_ARGUMENT
                }
                collector.withdrawnDonations.append(id)
                return STANDFIT_OK
            }))
        return UnsafePointer(table)
    }
}

/// What the handler hands back during its call, through the context's functions.
final class ReplyCollector {
    var message: String?
    var data: JSONText?
    /// Whether the surface shows `data` (`standfit.reply/1`).
    var showsData = true
    var fault: HostText.Phrase?
    /// `standfit.donations/1`: what this run's donation is called, and what it withdraws.
    var donationID: String?
    var withdrawnDonations: [String] = []
    /// Mistakes that cost the run nothing but the plugin's author should hear of.
    var warnings: [HostText.Phrase] = []
    /// Withdrawals past `withdrawalLimit`, reported once.
    var refusedWithdrawals = 0
    /// The action's parameter names, and the one its invalid input is about
    /// (`standfit.parameter-checks/1`).
    var parameterNames: [String] = []
    var invalidParameter: String?

    /// The most donations one call may withdraw.
    static let withdrawalLimit = 64

    /// Whether `id` is 1 to `STANDFIT_DONATION_ID_MAX` bytes with no control character.
    static func isDonationID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= Int(STANDFIT_DONATION_ID_MAX)
            && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// `text` as a donation identifier, or nil (with a warning naming `function`) when it is
    /// NULL, not UTF-8, empty, longer than `STANDFIT_DONATION_ID_MAX` bytes or has a control character.
    func donationIdentifier(_ text: UnsafePointer<CChar>?, calling function: String) -> String? {
        guard let text else {
            warnings.append(HostText.Phrase("handlerWarning.null", ["function": function]))
            return nil
        }
        guard let id = String(validatingCString: text), ReplyCollector.isDonationID(id) else {
            warnings.append(HostText.Phrase("handlerWarning.identifier", ["function": function, "max": "\(STANDFIT_DONATION_ID_MAX)"]))
            return nil
        }
        return id
    }

    /// What a context function answers when its context has no call: STANDFIT_ERR_UNSUPPORTED for
    /// one whose handler returned (a plugin kept `ctx`), STANDFIT_ERR_INVALID_ARGUMENT for NULL.
    static func refusal(_ context: UnsafePointer<standfit_invocation>?) -> Int32 {
        context == nil ? STANDFIT_ERR_INVALID_ARGUMENT : STANDFIT_ERR_UNSUPPORTED
    }

    static func from(_ context: UnsafePointer<standfit_invocation>?) -> ReplyCollector? {
        guard let hostData = context?.pointee.host_data else { return nil }
        return Unmanaged<ReplyCollector>.fromOpaque(hostData).takeUnretainedValue()
    }
}

/// `standfit_invocation.set_message`.
private let setMessage: @convention(c) (UnsafePointer<standfit_invocation>?, UnsafePointer<CChar>?) -> Int32 = { context, text in
    guard let collector = ReplyCollector.from(context) else { return ReplyCollector.refusal(context) }
    guard let text else { return STANDFIT_ERR_INVALID_ARGUMENT }
    guard let message = String(validatingCString: text) else {
        collector.fault = HostText.Phrase("fault.messageUTF8")
        return STANDFIT_ERR_INVALID_ARGUMENT
    }
    collector.message = message
    return STANDFIT_OK
}

/// `standfit_invocation.set_data_json`.
private let setDataJSON: @convention(c) (UnsafePointer<standfit_invocation>?, UnsafePointer<CChar>?) -> Int32 = { context, text in
    guard let collector = ReplyCollector.from(context) else { return ReplyCollector.refusal(context) }
    guard let text else { return STANDFIT_ERR_INVALID_ARGUMENT }
    guard let json = String(validatingCString: text) else {
        collector.fault = HostText.Phrase("fault.dataUTF8")
        return STANDFIT_ERR_INVALID_ARGUMENT
    }
    guard let data = JSONText(validating: json) else {
        collector.fault = HostText.Phrase("fault.data", parts: ["why": JSONText.refusal(of: json) ?? HostText.Phrase("json.invalid")])
        return STANDFIT_ERR_INVALID_ARGUMENT
    }
    collector.data = data
    return STANDFIT_OK
}

extension standfit_abi_header {
    /// The header of a table of type `T` as this host writes it.
    static func host<T>(for _: T.Type) -> standfit_abi_header {
        standfit_abi_header(abi_major: UInt32(STANDFIT_ABI_MAJOR), abi_minor: UInt32(STANDFIT_ABI_MINOR),
                            struct_size: UInt32(MemoryLayout<T>.size))
    }

    /// Why a plugin's table cannot be read by this host, or nil when it can, as the host's words
    /// that follow "Plugin PATH" (`plugin.problem`).
    func abiProblem(minimumSize: Int) -> HostText.Phrase? {
        let host = ["hostMajor": "\(STANDFIT_ABI_MAJOR)", "hostMinor": "\(STANDFIT_ABI_MINOR)"]
        if abi_major != UInt32(STANDFIT_ABI_MAJOR) {
            return HostText.Phrase("plugin.abi.major", host.merging(["major": "\(abi_major)"]) { $1 })
        }
        if abi_minor > UInt32(STANDFIT_ABI_MINOR) {
            return HostText.Phrase("plugin.abi.minor", host.merging(["major": "\(abi_major)", "minor": "\(abi_minor)"]) { $1 })
        }
        if Int(struct_size) < minimumSize {
            return HostText.Phrase("plugin.abi.size", host.merging(["size": "\(struct_size)", "minimum": "\(minimumSize)"]) { $1 })
        }
        return nil
    }
}

extension HandlerReply {
    /// The most warnings the host passes on from one call.
    static let warningLimit = 8

    /// This reply as the host may act on it. A worker's reply is only what the plugin's process
    /// wrote, so the host checks again what the context's functions checked in it: donation
    /// ids (well formed, at most `ReplyCollector.withdrawalLimit` withdrawn) and how many
    /// warnings it says.
    func checked() -> HandlerReply {
        var reply = self
        if let id = reply.donationID, !ReplyCollector.isDonationID(id) { reply.donationID = nil }
        if let withdrawn = reply.withdrawnDonations {
            var seen = Set<String>()
            reply.withdrawnDonations = Array(withdrawn.filter { ReplyCollector.isDonationID($0) && seen.insert($0).inserted }
                .prefix(ReplyCollector.withdrawalLimit))
        }
        if let warnings = reply.warnings, warnings.count > HandlerReply.warningLimit {
            reply.warnings = Array(warnings.prefix(HandlerReply.warningLimit))
                + [HostText.Phrase("handlerWarning.more", ["count": "\(warnings.count - HandlerReply.warningLimit)"])]
        }
        return reply
    }
}

/// Where handler contexts live: a ring of contexts that are never freed, so that a plugin that
/// kept `ctx` and calls it after its handler returned (from a thread of its own, or in a later
/// call) reaches memory that is still a context, whose call has ended: every function of it then
/// answers STANDFIT_ERR_UNSUPPORTED and does nothing, and its strings are empty. A context is
/// used again only 1,024 calls later.
/// Rationale: a context on the stack, as before, left such a call reading whatever the stack
/// held by then; no library keeps C structs alive for a foreign caller.
final class ContextSlots: @unchecked Sendable {
    static let shared = ContextSlots()
    private static let count = 1_024
    private let lock = NSLock()
    private let slots = UnsafeMutablePointer<standfit_invocation>.allocate(capacity: ContextSlots.count)
    private var next = 0

    private init() {
        for index in 0..<ContextSlots.count { ContextSlots.end(slots + index) }
    }

    /// The next context to fill for a call.
    func take() -> UnsafeMutablePointer<standfit_invocation> {
        lock.withLock {
            defer { next = (next + 1) % ContextSlots.count }
            return slots + next
        }
    }

    /// Marks `context`'s call as ended: no collector, empty strings, functions that refuse.
    static func end(_ context: UnsafeMutablePointer<standfit_invocation>) {
        context.initialize(to: standfit_invocation(
            abi: .host(for: standfit_invocation.self), type: empty, user_info_json: emptyObject, provided: 0,
            locale: empty, host_data: nil, set_message: setMessage, set_data_json: setDataJSON))
    }

    nonisolated(unsafe) private static let empty = UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    nonisolated(unsafe) private static let emptyObject = UnsafeRawPointer(("{}" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}
