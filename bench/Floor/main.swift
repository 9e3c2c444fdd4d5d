// bench-floor: the reference every whole-process figure in docs/BENCHMARKS.md is divided by.
// A Swift executable built in release mode that does nothing: what starting any Swift process
// on this machine costs (exec, the dynamic loader, the Swift runtime), and nothing more.
