import CLibFFI
import Foundation
@testable import PluginAPI
import Testing

struct Log: ShortcutAction {
    static let type = "com.test.log"
    static let title = "Log"
    static let subtitle = "Log something"

    @Parameter(title: "Exercise") var exercise: String
    @Parameter var count: Int = 10
    @Parameter var strict: Bool = true
    @Parameter("weight_kg") var weight: Double?
    @Parameter var note: String?

    struct Echo: Encodable {
        let exercise: String, count: Int, strict: Bool, weight: Double?, note: String?
    }

    func perform(_ context: ActionContext) throws -> ActionResult {
        if exercise == "fail" { throw PluginAPIError("no such exercise") }
        return .handled("Logged \(count) \(exercise) for \(context.requestedType)",
                        data: Echo(exercise: exercise, count: count, strict: strict, weight: weight, note: note))
    }
}

enum TestPlugin: Plugin {
    static let id = "com.test"
    static let name = "Test"
    static let version = "0.0.1"
    static let actions: [any ShortcutAction.Type] = [Log.self]
    static let staticItems = [ShortcutItem(type: Log.type, title: "Log Squats", userInfo: ["exercise": "squats", "count": 20])]
}

/// A host made of Swift closures that records what the SDK registers.
/// Rationale for nonisolated(unsafe): the ABI calls only on one thread, and the suite is serialized.
enum FakeHost {
    nonisolated(unsafe) static var actions: [UnsafePointer<standfit_action>] = []
    nonisolated(unsafe) static var items: [(type: String, title: String, userInfo: String)] = []
    nonisolated(unsafe) static var message: String?
    nonisolated(unsafe) static var data: String?

    static var table: standfit_host { standfit_host(
        abi: .current(for: standfit_host.self), host_version: nil, host_data: nil,
        log: { _, _, _ in },
        register_action: { _, action in
            if let action { FakeHost.actions.append(action) }
            return STANDFIT_OK
        },
        register_static_item: { _, item in
            guard let item = item?.pointee else { return STANDFIT_ERR_INVALID_ARGUMENT }
            FakeHost.items.append((String(cString: item.type), String(cString: item.title), String(cString: item.user_info_json)))
            return STANDFIT_OK
        },
        register_dynamic_provider: { _, _ in STANDFIT_OK },
        data_directory: { _ in nil },
        get_extension: { _, _ in nil }) }
}

@Suite("PluginAPI SDK", .timeLimit(.minutes(10)), .serialized)
struct PluginAPITests {
    @Test("@Parameter properties become declared parameters in declaration order")
    func reflection() {
        let parameters = PreparedAction.parameters(of: Log.self).map { ($0.name, $0.value.kind, $0.value.isRequired, $0.value.defaultText, $0.value.title) }
        #expect(parameters.map(\.0) == ["exercise", "count", "strict", "weight_kg", "note"])
        #expect(parameters.map(\.1) == [STANDFIT_KIND_STRING, STANDFIT_KIND_INT64, STANDFIT_KIND_BOOL, STANDFIT_KIND_DOUBLE, STANDFIT_KIND_STRING])
        #expect(parameters.map(\.2) == [true, false, false, false, false])
        #expect(parameters.map(\.3) == [nil, "10", "true", nil, nil])
        #expect(parameters.map(\.4) == ["Exercise", nil, nil, nil, nil])
    }

    @Test("export and init write C tables, and the handler is a real C function of the declared signature")
    func exportInitAndCall() throws {
        let entry = try #require(export(TestPlugin.self))
        #expect(export(TestPlugin.self) == entry)
        #expect(String(cString: entry.pointee.id) == "com.test")
        #expect(entry.pointee.abi.abi_major == UInt32(STANDFIT_ABI_MAJOR))
        #expect(entry.pointee.abi.struct_size == UInt32(MemoryLayout<standfit_plugin_entry>.size))
        var host = FakeHost.table
        let status = withUnsafePointer(to: &host) { entry.pointee.`init`($0) }
        #expect(status == STANDFIT_OK)
        #expect(FakeHost.items.map(\.title) == ["Log Squats"])
        #expect(FakeHost.items.first?.userInfo == #"{"count":20,"exercise":"squats"}"#)
        let action = try #require(FakeHost.actions.first?.pointee)
        #expect(String(cString: action.type) == "com.test.log")
        #expect(String(cString: action.subtitle) == "Log something")
        #expect(action.param_count == 5)
        #expect(String(cString: action.params[3].name) == "weight_kg")
        #expect(action.params[1].default_value.map { String(cString: $0) } == "10")

        // Call it as the host does: through libffi, context first, with bit 3 (weight) clear.
        let call = try #require(FFICallForTest(kinds: (0..<Int(action.param_count)).map { action.params[$0].kind }))
        let reply = call.invoke(action.handler, provided: 0b10111, arguments: [
            .string("squats"), .int64(25), .bool(false), .double(0), .string("felt good"),
        ])
        #expect(reply.status == STANDFIT_STATUS_HANDLED)
        #expect(reply.message == "Logged 25 squats for com.test.log")
        #expect(reply.data == #"{"count":25,"exercise":"squats","note":"felt good","strict":false}"#)

        let failure = call.invoke(action.handler, provided: 0b00001, arguments: [.string("fail"), .int64(0), .bool(false), .double(0), .null])
        #expect(failure.status == STANDFIT_STATUS_FAILED)
        #expect(failure.message == "no such exercise")
    }
}

/// Calls a handler through libffi with a fake invocation context, as the host would.
struct FFICallForTest {
    enum Argument { case string(String), int64(Int64), bool(Bool), double(Double), null }

    let kinds: [Int32]
    private let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
    private let types: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    init?(kinds: [Int32]) {
        self.kinds = kinds
        types = .allocate(capacity: kinds.count + 1)
        types[0] = standfit_ffi_type_pointer()
        for (index, kind) in kinds.enumerated() { types[index + 1] = HandlerClosure.ffiType(for: kind) }
        guard ffi_prep_cif(cif, standfit_ffi_default_abi(), UInt32(kinds.count + 1), standfit_ffi_type_sint32(), types) == FFI_OK else {
            return nil
        }
    }

    func invoke(_ handler: standfit_handler_fn, provided: UInt32, arguments: [Argument]) -> (status: Int32, message: String?, data: String?) {
        FakeHost.message = nil
        FakeHost.data = nil
        var context = standfit_invocation(
            abi: .current(for: standfit_invocation.self), type: nil, user_info_json: nil, provided: provided,
            locale: nil, host_data: nil,
            set_message: { _, text in FakeHost.message = text.map { String(cString: $0) }; return STANDFIT_OK },
            set_data_json: { _, text in FakeHost.data = text.map { String(cString: $0) }; return STANDFIT_OK })
        return "com.test.log".withCString { type in
            context.type = type
            let slots = UnsafeMutableRawPointer.allocate(byteCount: 8 * (arguments.count + 1), alignment: 8)
            let values = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: arguments.count + 1)
            var strings: [UnsafeMutablePointer<CChar>] = []
            defer { strings.forEach { free($0) }; slots.deallocate(); values.deallocate() }
            return withUnsafePointer(to: &context) { contextPointer in
                slots.storeBytes(of: contextPointer, as: UnsafePointer<standfit_invocation>.self)
                values[0] = slots
                for (index, argument) in arguments.enumerated() {
                    let slot = slots + 8 * (index + 1)
                    values[index + 1] = slot
                    switch argument {
                    case .string(let text):
                        let copy = strdup(text)!
                        strings.append(copy)
                        slot.storeBytes(of: UnsafePointer(copy), as: UnsafePointer<CChar>.self)
                    case .int64(let value): slot.storeBytes(of: value, as: Int64.self)
                    case .bool(let value): slot.storeBytes(of: value ? 1 : 0, as: UInt8.self)
                    case .double(let value): slot.storeBytes(of: value, as: Double.self)
                    case .null: slot.storeBytes(of: nil, as: UnsafePointer<CChar>?.self)
                    }
                }
                var result: ffi_arg = 0
                ffi_call(cif, handler, &result, values)
                return (Int32(truncatingIfNeeded: result), FakeHost.message, FakeHost.data)
            }
        }
    }
}

struct Timed: ShortcutAction {
    static let type = "com.test.timed"
    static let title = "Timed"
    static let icon = "timer"
    @Parameter(range: 1...180) var minutes: Int = 25
    @Parameter(range: 0.5...2.5) var speed: Double?
    func perform(_ context: ActionContext) throws -> ActionResult {
        minutes == 13 ? .invalidInput("minutes: not 13", parameter: "minutes") : .handled("ok")
    }
}

@Suite("What the compiler checks for plugin authors", .timeLimit(.minutes(10)))
struct AuthorTraps {
    @Test("userInfo takes variables of every JSON kind, without wrapping")
    func userInfoFromVariables() {
        let name = "squats", count = 20, weight = 2.5, cold = true
        let item = ShortcutItem(type: "com.test.log", title: "Log", userInfo: ["exercise": name, "count": count, "weight": weight,
                                                                                "cold": cold, "sets": [10, 10], "raw": UserInfoValue.int(1)])
        #expect(item.userInfo == ["exercise": .string("squats"), "count": .int(20), "weight": .double(2.5), "cold": .bool(true),
                                  "sets": .array([.int(10), .int(10)]), "raw": .int(1)])
        #expect(EntityValue(id: "a", title: "A", defaults: ["count": count]).defaults == ["count": .int(20)])
    }

    @Test("an icon and a subtitle are plain strings: an inferred String is the icon, not a silently unused property")
    func plainStrings() throws {
        // Timed declares no subtitle: the protocol's default, which the descriptor leaves NULL.
        #expect(Timed.subtitle == "")
        let prepared = try PreparedAction(Timed.self)
        // `static let icon = "timer"` is the requirement, so the host is told it.
        #expect(String(cString: try #require(prepared.descriptor.pointee.icon)) == "timer")
        #expect(prepared.descriptor.pointee.subtitle == nil)
    }

    @Test("@Parameter(range:) is the ABI's range in doubles, for Int, Double and their optionals, and the SDK can say a value is outside it")
    func ranges() {
        let parameters = PreparedAction.parameters(of: Timed.self)
        #expect(parameters.map(\.value.range) == [1...180, 0.5...2.5])
        let action = Timed()
        let bound = PreparedAction.parameters(in: action)
        var argument: Int64 = 500
        withUnsafeBytes(of: &argument) { bound[0].value.bind(argument: $0.baseAddress!, provided: true) }
        #expect(bound[0].value.rangeRefusal(name: "minutes") == "minutes: expected a number from 1 to 180, got 500.")
        argument = 180
        withUnsafeBytes(of: &argument) { bound[0].value.bind(argument: $0.baseAddress!, provided: true) }
        #expect(bound[0].value.rangeRefusal(name: "minutes") == nil)
        // An absent optional is never out of range.
        var none = 0.0
        withUnsafeBytes(of: &none) { bound[1].value.bind(argument: $0.baseAddress!, provided: false) }
        #expect(bound[1].value.rangeRefusal(name: "speed") == nil)
    }

    @Test("an invalid input can name its parameter")
    func invalidParameter() throws {
        var argument: Int64 = 13
        let action = Timed()
        withUnsafeBytes(of: &argument) { PreparedAction.parameters(in: action)[0].value.bind(argument: $0.baseAddress!, provided: true) }
        let result = try action.perform(ActionContext(requestedType: "com.test.timed", userInfoJSON: "{}", locale: "en"))
        #expect(result.status == .invalidInput)
        #expect(result.parameter == "minutes")
    }
}

@Suite("Localized strings", .timeLimit(.minutes(10)))
struct LocalizedStringsTests {
    @Test("placeholders are filled in one pass, exactly as written", arguments: [
        ("Logged {count} {name}", ["count": "20", "name": "squats"], "Logged 20 squats"),
        ("{a}{b}{a}", ["a": "1", "b": "2"], "121"),
        // A value is not searched for placeholders of its own.
        ("Note: {note}", ["note": "{count} left", "count": "3"], "Note: {count} left"),
        // Without a value a placeholder stays; braces that name nothing stay too.
        ("{missing} and {count}", ["count": "3"], "{missing} and 3"),
        ("{{count}} {", ["count": "3"], "{3} {"),
        ("no placeholders", ["count": "3"], "no placeholders"),
        ("{count}", [:], "{count}"),
        ("Dag {naam} — {tijd}", ["naam": "Ådne", "tijd": "09:00"], "Dag Ådne — 09:00"),
    ])
    func fill(template: String, values: [String: String], expected: String) {
        #expect(LocalizedStrings.fill(template, values) == expected)
    }

    @Test("a locale becomes a language: charset and @euro dropped, a script modifier kept as the script", arguments: [
        ("nl-NL.UTF-8@euro", "nl_NL"), ("sr_RS@latin", "sr_Latn"), ("sr@latin", "sr_Latn"), ("C", "en"), ("POSIX", "en"), ("", "en"),
    ])
    func normalize(locale: String, expected: String) {
        #expect(LocalizedStrings.normalize(locale) == expected)
        #expect(LocalizedStrings.lprojNames(LocalizedStrings.normalize(locale)).last == String(expected.prefix { $0 != "_" }))
    }
}
