// bench-floor-static: bench-floor linked with -static-executable, as the thin client is: what
// starting a Swift process costs without the dynamic loader and shared libraries, the floor the
// warm path's client is compared with (docs/BENCHMARKS.md, section 8).
