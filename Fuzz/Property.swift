// Shared by every fuzz target (Fuzz/run compiles it into each).

/// Traps when a property the harness checks does not hold, so libFuzzer saves the input.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("property violated: \(message())") }
}
