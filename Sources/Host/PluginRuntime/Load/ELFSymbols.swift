import Foundation

/// What `plugins check` reads from a plugin file's section table: the symbols it exports and the
/// names of its sections.
///
/// Rationale: a 64-bit little-endian ELF file's section headers and dynamic symbols are fixed
/// records (elf(5)) that a few dozen lines read; libelf would make every host process load a
/// library for the one command that needs this, and no Swift package for it is available here.
struct ELFSymbols {
    /// The functions and data the file exports (defined, global or weak, default or protected
    /// visibility), in the order of its dynamic symbol table.
    var exported: [String] = []
    /// Its section names (".text", ".rustc", …).
    var sections: [String] = []
    /// What the compilers and linker wrote into `.comment` ("clang version …"), one per line.
    var comment = ""
    /// The Swift compiler named in its debug information ("6.3.1" of "Swift version 6.3.1
    /// (…)"), when it has any.
    var swiftCompiler: String?

    /// The symbols the linker adds to every shared object, which no build setting removes.
    static let linkerSymbols: Set<String> = ["_init", "_fini", "_edata", "_end", "__bss_start"]

    /// Reads the file at `path`; nil when it is not a 64-bit little-endian ELF file with a
    /// section table it can read.
    init?(path: String) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
              data.count >= 64, data.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), data[4] == 2, data[5] == 1 else { return nil }
        let bytes = [UInt8](data)
        func integer(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, width <= 8, offset + width <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        func string(_ offset: Int) -> String? {
            guard offset >= 0, offset < bytes.count, let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            return String(decoding: bytes[offset..<end], as: UTF8.self)
        }
        guard let sectionTable = integer(0x28, 8), let entrySize = integer(0x3A, 2), entrySize >= 64,
              let count = integer(0x3C, 2), let namesIndex = integer(0x3E, 2), count <= 65_280 else { return nil }
        struct Section { var name, type, offset, size, link, entrySize: Int }
        var table: [Section] = []
        for index in 0..<count {
            let base = sectionTable + index * entrySize
            guard let name = integer(base, 4), let type = integer(base + 4, 4), let offset = integer(base + 24, 8),
                  let size = integer(base + 32, 8), let link = integer(base + 40, 4),
                  let size2 = integer(base + 56, 8) else { return nil }
            table.append(Section(name: name, type: type, offset: offset, size: size, link: link, entrySize: size2))
        }
        if table.indices.contains(namesIndex) {
            let names = table[namesIndex].offset
            sections = table.compactMap { string(names + $0.name) }
        }
        func contents(_ name: String) -> ArraySlice<UInt8>? {
            guard sections.count == table.count, let index = sections.firstIndex(of: name) else { return nil }
            let section = table[index]
            guard section.offset >= 0, section.size >= 0, section.offset + section.size <= bytes.count else { return nil }
            return bytes[section.offset..<(section.offset + section.size)]
        }
        if let text = contents(".comment") {
            comment = text.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        }
        // DW_AT_producer of a Swift compile unit: "Swift version 6.3.1 (swift-6.3.1-RELEASE)".
        let marker = Array("Swift version ".utf8)
        for name in [".debug_str", ".debug_line_str"] {
            guard swiftCompiler == nil, let text = contents(name) else { continue }
            for piece in text.split(separator: 0) where piece.starts(with: marker) {
                let version = piece.dropFirst(marker.count).prefix { $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                if !version.isEmpty {
                    swiftCompiler = String(decoding: version, as: UTF8.self)
                    break
                }
            }
        }
        // SHT_DYNSYM: 24-byte records, names in the section `link` names.
        guard let symbols = table.first(where: { $0.type == 11 }), table.indices.contains(symbols.link) else { return }
        let names = table[symbols.link].offset
        let step = max(symbols.entrySize, 24)
        for start in stride(from: symbols.offset, to: symbols.offset + symbols.size, by: step) {
            guard let nameOffset = integer(start, 4), let info = integer(start + 4, 1), let other = integer(start + 5, 1),
                  let section = integer(start + 6, 2) else { break }
            let binding = info >> 4, kind = info & 0xF, visibility = other & 3
            // Defined; global, weak or unique; default or protected; a function, an object,
            // thread-local data or an indirect function.
            guard section != 0, [1, 2, 10].contains(binding), visibility == 0 || visibility == 3,
                  [1, 2, 6, 10].contains(kind), let name = string(names + nameOffset), !name.isEmpty else { continue }
            exported.append(name)
        }
    }
}
