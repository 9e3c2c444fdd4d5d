import CStandFitABI
import Foundation
import HostModel

/// Runs a plugin's C handler for one `Invocation`: builds the `standfit_invocation` context,
/// calls through libffi and collects what the handler set.
struct HandlerCall {
    let handler: FFIHandler

    func perform(_ invocation: Invocation) -> HandlerReply {
        let collector = ReplyCollector()
        let userInfo = JSONValue.object(invocation.userInfo).jsonText
        var provided: UInt32 = 0
        for (index, argument) in invocation.arguments.enumerated() where argument != nil {
            provided |= 1 << UInt32(index)
        }
        let status = invocation.requestedType.withCString { type in
            userInfo.withCString { userInfo in
                invocation.locale.withCString { locale in
                    var context = standfit_invocation(
                        abi: .host(for: standfit_invocation.self),
                        type: type, user_info_json: userInfo, provided: provided, locale: locale,
                        host_data: Unmanaged.passUnretained(collector).toOpaque(),
                        set_message: setMessage, set_data_json: setDataJSON)
                    return withUnsafePointer(to: &context) { context in
                        handler.call(context: context, arguments: invocation.arguments)
                    }
                }
            }
        }
        return HandlerReply(status: status, message: collector.message, data: collector.data,
                            fault: collector.fault)
    }
}

/// What the handler hands back during its call, through the context's functions.
final class ReplyCollector {
    var message: String?
    var data: JSONValue?
    var fault: String?

    static func from(_ context: UnsafePointer<standfit_invocation>?) -> ReplyCollector? {
        guard let hostData = context?.pointee.host_data else { return nil }
        return Unmanaged<ReplyCollector>.fromOpaque(hostData).takeUnretainedValue()
    }
}

/// `standfit_invocation.set_message`.
private let setMessage: @convention(c) (UnsafePointer<standfit_invocation>?, UnsafePointer<CChar>?) -> Int32 = { context, text in
    guard let collector = ReplyCollector.from(context), let text else { return STANDFIT_ERR_INVALID_ARGUMENT }
    guard let message = String(validatingCString: text) else {
        collector.fault = "set a message that is not valid UTF-8"
        return STANDFIT_ERR_INVALID_ARGUMENT
    }
    collector.message = message
    return STANDFIT_OK
}

/// `standfit_invocation.set_data_json`.
private let setDataJSON: @convention(c) (UnsafePointer<standfit_invocation>?, UnsafePointer<CChar>?) -> Int32 = { context, text in
    guard let collector = ReplyCollector.from(context), let text else { return STANDFIT_ERR_INVALID_ARGUMENT }
    guard let json = String(validatingCString: text), let value = JSONValue(jsonText: json) else {
        collector.fault = String(validatingCString: text).map({ JSONDepth.exceeds($0.utf8) }) == true
            ? "attached JSON data nested deeper than \(JSONDepth.limit) levels (the most the host reads)"
            : "attached data that is not valid JSON"
        return STANDFIT_ERR_INVALID_ARGUMENT
    }
    collector.data = value
    return STANDFIT_OK
}

extension standfit_abi_header {
    /// The header of a table of type `T` as this host writes it.
    static func host<T>(for _: T.Type) -> standfit_abi_header {
        standfit_abi_header(abi_major: UInt32(STANDFIT_ABI_MAJOR), abi_minor: UInt32(STANDFIT_ABI_MINOR),
                            struct_size: UInt32(MemoryLayout<T>.size))
    }

    /// Why a plugin's table cannot be read by this host, or nil when it can.
    func problem(minimumSize: Int) -> String? {
        if abi_major != UInt32(STANDFIT_ABI_MAJOR) {
            return "was built for ABI \(abi_major).x; this host speaks \(STANDFIT_ABI_MAJOR).x; rebuild it against standfit_plugin.h \(STANDFIT_ABI_MAJOR).\(STANDFIT_ABI_MINOR)"
        }
        if abi_minor > UInt32(STANDFIT_ABI_MINOR) {
            return "was built for ABI \(abi_major).\(abi_minor), newer than this host's \(STANDFIT_ABI_MAJOR).\(STANDFIT_ABI_MINOR); update standfit-host or rebuild the plugin against ABI \(STANDFIT_ABI_MAJOR).\(STANDFIT_ABI_MINOR)"
        }
        if Int(struct_size) < minimumSize {
            return "declares a table of \(struct_size) bytes where ABI \(STANDFIT_ABI_MAJOR).\(STANDFIT_ABI_MINOR) needs at least \(minimumSize); rebuild it against standfit_plugin.h"
        }
        return nil
    }
}
