import CLibFFI
import Foundation

/// A C function, made at run time with libffi, that runs a Swift action.
///
/// Rationale: the ABI's handlers are plain C functions with the declared parameters, and the
/// host calls them through libffi from that declaration. A Swift action has no such function
/// until one is made for it; a libffi closure is exactly that, so the host needs no Swift path.
final class HandlerClosure {
    /// The callable C function pointer, type-erased as the ABI stores it.
    let function: standfit_handler_fn

    init(kinds: [Int32], actionType: any ShortcutAction.Type) throws {
        let argumentCount = kinds.count + 1
        let argumentTypes = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: argumentCount)
        argumentTypes[0] = standfit_ffi_type_pointer()
        for (index, kind) in kinds.enumerated() {
            argumentTypes[index + 1] = HandlerClosure.ffiType(for: kind)
        }
        let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        guard ffi_prep_cif(cif, standfit_ffi_default_abi(), UInt32(argumentCount),
                           standfit_ffi_type_sint32(), argumentTypes) == FFI_OK else {
            throw PluginAPIError("libffi could not describe the handler of '\(actionType.type)'.")
        }
        var code: UnsafeMutableRawPointer?
        guard let closure = ffi_closure_alloc(MemoryLayout<ffi_closure>.size, &code), let code else {
            throw PluginAPIError("libffi could not allocate a handler for '\(actionType.type)'.")
        }
        let box = Unmanaged.passRetained(ActionInvoker(actionType: actionType)).toOpaque()
        guard ffi_prep_closure_loc(closure.assumingMemoryBound(to: ffi_closure.self), cif,
                                   invokeTrampoline, box, code) == FFI_OK else {
            throw PluginAPIError("libffi could not prepare the handler of '\(actionType.type)'.")
        }
        function = unsafeBitCast(code, to: standfit_handler_fn.self)
    }

    static func ffiType(for kind: Int32) -> UnsafeMutablePointer<ffi_type> {
        switch kind {
        case STANDFIT_KIND_BOOL: standfit_ffi_type_uint8()
        case STANDFIT_KIND_INT64: standfit_ffi_type_sint64()
        case STANDFIT_KIND_DOUBLE: standfit_ffi_type_double()
        default: standfit_ffi_type_pointer()
        }
    }
}

/// What libffi calls when the host calls the handler: unpacks the C arguments into a fresh
/// action, performs it and writes the status where libffi reads the return value.
private let invokeTrampoline: @convention(c) (
    UnsafeMutablePointer<ffi_cif>?, UnsafeMutableRawPointer?,
    UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutableRawPointer?
) -> Void = { _, result, arguments, userData in
    guard let result, let arguments, let userData else { return }
    let invoker = Unmanaged<ActionInvoker>.fromOpaque(userData).takeUnretainedValue()
    let status = invoker.invoke(arguments: arguments)
    // libffi reads integer returns narrower than a register through a full ffi_arg.
    result.storeBytes(of: ffi_sarg(status), as: ffi_sarg.self)
}

/// Runs one action type for one call.
final class ActionInvoker {
    let actionType: any ShortcutAction.Type

    init(actionType: any ShortcutAction.Type) {
        self.actionType = actionType
    }

    func invoke(arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32 {
        guard let contextSlot = arguments[0],
              let context = contextSlot.load(as: UnsafePointer<standfit_invocation>?.self)
        else { return STANDFIT_STATUS_FAILED }
        let action = actionType.init()
        let provided = context.pointee.provided
        var outOfRange: ActionResult?
        for (index, parameter) in PreparedAction.parameters(in: action).enumerated() {
            guard let slot = arguments[index + 1] else { return STANDFIT_STATUS_FAILED }
            parameter.value.bind(argument: slot, provided: provided & (1 << UInt32(index)) != 0)
            // The host checks ranges before the call; an older host without
            // standfit.parameter-checks/1 does not, so the SDK does it for it.
            if outOfRange == nil, let refusal = parameter.value.rangeRefusal(name: parameter.name) {
                outOfRange = .invalidInput(refusal, parameter: parameter.name)
            }
        }
        let actionContext = ActionContext(context)
        let result: ActionResult
        if let outOfRange {
            result = outOfRange
        } else {
            do {
                result = try action.perform(actionContext)
            } catch {
                result = .failed("\(error)")
            }
        }
        result.dialog.withCString { _ = context.pointee.set_message(context, $0) }
        do {
            if actionContext.showsData, let json = try result.encodedData() {
                json.withCString { _ = context.pointee.set_data_json(context, $0) }
            }
        } catch {
            let reason = "The result data of '\(actionType.type)' could not be encoded: \(error)"
            reason.withCString { _ = context.pointee.set_message(context, $0) }
            return STANDFIT_STATUS_FAILED
        }
        if result.status == .invalidInput, let parameter = result.parameter,
           let checks = SDKState.host?.hostExtension(STANDFIT_EXT_PARAMETER_CHECKS, as: standfit_parameter_checks_ext.self) {
            parameter.withCString { _ = checks.pointee.set_invalid_parameter(context, $0) }
        }
        // A host without standfit.donations/1 keeps every donation until it ages out.
        if result.donationID != nil || !result.withdrawnDonations.isEmpty,
           let donations = SDKState.host?.hostExtension(STANDFIT_EXT_DONATIONS, as: standfit_donations_ext.self) {
            result.donationID?.withCString { _ = donations.pointee.set_donation_id(context, $0) }
            for id in result.withdrawnDonations {
                id.withCString { _ = donations.pointee.withdraw_donations(context, $0) }
            }
        }
        return result.status.rawValue
    }
}

extension ActionContext {
    init(_ context: UnsafePointer<standfit_invocation>) {
        let invocation = context.pointee
        self.init(
            requestedType: invocation.type.map { String(cString: $0) } ?? "",
            userInfoJSON: invocation.user_info_json.map { String(cString: $0) } ?? "{}",
            locale: invocation.locale.map { String(cString: $0) } ?? "en",
            showsData: ActionContext.showsData(context))
    }

    /// Whether the host shows the data of this call (`standfit.reply/1`); true when it cannot say.
    static func showsData(_ context: UnsafePointer<standfit_invocation>) -> Bool {
        guard let reply = SDKState.host?.hostExtension(STANDFIT_EXT_REPLY, as: standfit_reply_ext.self),
              let showsData = reply.pointee.shows_data else { return true }
        return showsData(context) != 0
    }
}
