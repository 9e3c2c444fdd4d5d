// bench-inprocess: what one call of a no-op handler costs inside the host's process.
//
//     bench-inprocess PATH/libnoop0.so [--batches N] [--batch-time-ms MS]
//
// Loads the no-op plugin the whole-process benchmarks use through the host's own loader, then
// times, each as a median over repeated batches (nanoseconds per call):
//   direct      the handler called through a C function pointer, as a C host would;
//   ffi-raw     one ffi_call through a prepared cif (what libffi itself costs);
//   ffi-host    the host's FFIHandler.call: argument slots, then ffi_call;
//   perform     the seam's perform (PluginCalls) for the registered action: builds the standfit_invocation context and
//               collects the reply, then the FFIHandler call;
//   dispatch    Dispatcher.run("bench.noop.0"): resolution, binding, the call and the Outcome.
// Prints one JSON object on stdout (bench/report.py reads it). Pin it to one core with taskset.
import CLibFFI
import CStandFitABI
import Foundation
import Logging
import HostModel
import StandFitHost
@_spi(Benchmarks) import PluginRuntime
import HostDispatch

struct Options {
    var plugin: String
    var batches = 21
    var batchSeconds = 0.05

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        var plugin: String?
        while let argument = rest.popFirst() {
            switch argument {
            case "--batches": batches = Int(rest.popFirst() ?? "") ?? batches
            case "--batch-time-ms": batchSeconds = (Double(rest.popFirst() ?? "") ?? 50) / 1000
            default: plugin = argument
            }
        }
        guard let plugin else {
            FileHandle.standardError.write(Data("usage: bench-inprocess PATH/libnoop0.so [--batches N] [--batch-time-ms MS]\n".utf8))
            exit(64)
        }
        self.plugin = plugin
    }
}

/// Keeps results observable so the optimizer cannot drop the calls being timed.
nonisolated(unsafe) var sink: Int64 = 0

func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Nanoseconds per call of `body`: the median over `batches` batches, each sized to take about
/// `seconds` after a calibration run.
func measure(_ name: String, batches: Int, seconds: Double, _ body: () -> Int32) -> Double {
    var iterations = 1_000
    while true {
        let start = now()
        for _ in 0..<iterations { sink &+= Int64(body()) }
        let elapsed = Double(now() - start) / 1e9
        if elapsed >= seconds / 4 {
            iterations = max(1, Int(Double(iterations) * seconds / elapsed))
            break
        }
        iterations *= 4
    }
    var perCall: [Double] = []
    for _ in 0..<batches {
        let start = now()
        for _ in 0..<iterations { sink &+= Int64(body()) }
        perCall.append(Double(now() - start) / Double(iterations))
    }
    perCall.sort()
    let median = perCall[perCall.count / 2]
    FileHandle.standardError.write(Data("\(name): \(String(format: "%.1f", median)) ns/call (\(batches) batches of \(iterations))\n".utf8))
    return median
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-inprocess: \(message)\n".utf8))
    exit(1)
}

let options = Options(CommandLine.arguments)
let logger = Logger(label: "bench-inprocess") { _ in SwiftLogNoOpLogHandler() }
let home = FileManager.default.temporaryDirectory.appendingPathComponent("bench-inprocess-\(getpid())")
defer { try? FileManager.default.removeItem(at: home) }
let plugins = PluginLoader(searchPath: [URL(fileURLWithPath: options.plugin)],
                           paths: HostPaths(environment: [:], homeDirectory: home.path), logger: logger).load()
guard let action = plugins.registry.action(exactly: "bench.noop.0") else {
    fail("\(options.plugin) registered no bench.noop.0; pass the no-op plugin built with NOOP_INDEX=0.")
}

// The same handler, found by name: the plugin exports it for this comparison.
guard let library = dlopen(options.plugin, RTLD_NOW | RTLD_LOCAL),
      let symbol = dlsym(library, "bench_noop_handler") else {
    fail("cannot find bench_noop_handler in \(options.plugin): \(String(cString: dlerror()))")
}
typealias NoopHandler = @convention(c) (UnsafePointer<standfit_invocation>?) -> Int32
let direct = unsafeBitCast(symbol, to: NoopHandler.self)
let erased = unsafeBitCast(symbol, to: standfit_handler_fn.self)

var context = standfit_invocation()
let batches = options.batches
let seconds = options.batchSeconds

let directNs = withUnsafePointer(to: &context) { context in
    measure("direct", batches: batches, seconds: seconds) { direct(context) }
}

// libffi on its own: a cif prepared once, one ffi_call per iteration.
var argumentTypes: [UnsafeMutablePointer<ffi_type>?] = [standfit_ffi_type_pointer()]
var cif = ffi_cif()
guard ffi_prep_cif(&cif, standfit_ffi_default_abi(), 1, standfit_ffi_type_sint32(), &argumentTypes) == FFI_OK else {
    fail("ffi_prep_cif refused int32_t (const standfit_invocation *)")
}
let ffiRawNs = withUnsafePointer(to: &context) { context in
    var slot: UnsafeRawPointer? = UnsafeRawPointer(context)
    return withUnsafeMutablePointer(to: &slot) { slot in
        var values: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(slot)]
        var result: ffi_arg = 0
        return measure("ffi-raw", batches: batches, seconds: seconds) {
            ffi_call(&cif, erased, &result, &values)
            return Int32(truncatingIfNeeded: result)
        }
    }
}

guard let handler = FFIHandler(function: erased, kinds: []) else { fail("FFIHandler refused the no-op signature") }
let ffiHostNs = withUnsafePointer(to: &context) { context in
    measure("ffi-host", batches: batches, seconds: seconds) { handler.call(context: context, arguments: []) }
}

let invocation = Invocation(requestedType: "bench.noop.0", locale: "en")
let performNs = measure("perform", batches: batches, seconds: seconds) { plugins.calls.perform(action, invocation).status }

let dispatcher = Dispatcher(registry: plugins.registry, items: plugins.staticItems, locale: "en", calls: plugins.calls)
let dispatchNs = measure("dispatch", batches: batches, seconds: seconds) {
    dispatcher.run("bench.noop.0", arguments: []).status == .handled ? 1 : 0
}

let results: [String: Double] = [
    "direct_ns": directNs, "ffi_raw_ns": ffiRawNs, "ffi_host_ns": ffiHostNs,
    "perform_ns": performNs, "dispatch_ns": dispatchNs,
    "ffi_overhead_ns": ffiHostNs - directNs, "dispatches_per_second": 1e9 / dispatchNs,
]
let json = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
if sink == .min { print("unreachable") }
