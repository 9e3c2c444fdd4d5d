import CLibFFI
import CStandFitABI
import Foundation
import HostModel

/// A handler's C signature, prepared once for libffi when the action is registered.
///
/// The signature is `int32_t (const standfit_invocation *, <declared kinds>)`. Every argument
/// fits in an 8-byte slot, so one buffer of slots holds a call's arguments.
///
/// Visible to the in-process benchmark (`bench/InProcess`) as SPI, so that it measures the very
/// call the host makes rather than a copy of it.
@_spi(Benchmarks) public final class FFIHandler {
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let function: standfit_handler_fn
    public let kinds: [ParameterKind]

    /// Prepares the call; nil when libffi refuses the signature.
    public init?(function: standfit_handler_fn, kinds: [ParameterKind]) {
        self.function = function
        self.kinds = kinds
        argumentTypes = .allocate(capacity: kinds.count + 1)
        argumentTypes[0] = standfit_ffi_type_pointer()
        for (index, kind) in kinds.enumerated() {
            argumentTypes[index + 1] = switch kind {
            case .bool: standfit_ffi_type_uint8()
            case .int64: standfit_ffi_type_sint64()
            case .double: standfit_ffi_type_double()
            case .string: standfit_ffi_type_pointer()
            }
        }
        cif = .allocate(capacity: 1)
        let status = ffi_prep_cif(cif, standfit_ffi_default_abi(), UInt32(kinds.count + 1),
                                  standfit_ffi_type_sint32(), argumentTypes)
        guard status == FFI_OK else {
            argumentTypes.deallocate()
            cif.deallocate()
            return nil
        }
    }

    deinit {
        argumentTypes.deallocate()
        cif.deallocate()
    }

    /// Calls the handler with `context` and `arguments` (one per kind; nil passes a zero value
    /// with its bit clear in `provided`) and answers the status it returned.
    public func call(context: UnsafePointer<standfit_invocation>, arguments: [ArgumentValue?]) -> Int32 {
        precondition(arguments.count == kinds.count, "the binder supplies one argument per parameter")
        let count = kinds.count + 1
        // The slots and the pointers to them live on the stack: a call allocates nothing but
        // the copies of its string arguments.
        return withUnsafeTemporaryAllocation(byteCount: 8 * count, alignment: 8) { slotBuffer in
            withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: count) { values in
                let slots = slotBuffer.baseAddress!
                var strings: [UnsafeMutablePointer<CChar>] = []
                defer { strings.forEach { free($0) } }
                slots.initializeMemory(as: UInt64.self, repeating: 0, count: count)
                slots.storeBytes(of: context, as: UnsafePointer<standfit_invocation>.self)
                values[0] = slots
                for (index, argument) in arguments.enumerated() {
                    let slot = slots + 8 * (index + 1)
                    values[index + 1] = slot
                    switch argument {
                    case .bool(let value)?: slot.storeBytes(of: value ? 1 : 0, as: UInt8.self)
                    case .int64(let value)?: slot.storeBytes(of: value, as: Int64.self)
                    case .double(let value)?: slot.storeBytes(of: value, as: Double.self)
                    case .string(let value)?:
                        let copy = strdup(value)
                        if let copy { strings.append(copy) }
                        slot.storeBytes(of: UnsafePointer(copy), as: UnsafePointer<CChar>?.self)
                    case nil: break
                    }
                }
                var result: ffi_arg = 0
                ffi_call(cif, function, &result, values.baseAddress)
                // libffi widens integer returns narrower than a register to a full ffi_arg.
                return Int32(truncatingIfNeeded: result)
            }
        }
    }
}
