import HostIntents
import HostModel
import Testing

/// Which parameters a terminal is asked for: required ones without a value, and an optional one
/// with a prompt that a handler refused to go on without (`asked`, as the dispatcher sets it).
@Suite("Parameters asked on a terminal", .timeLimit(.minutes(10)))
struct ParameterResolverAskTests {
    /// A terminal that answers each question from a list and records what it was asked.
    final class Terminal: Conversation {
        var answers: [String]
        var asked: [String] = []
        var reasons: [String] = []
        init(_ answers: [String]) { self.answers = answers }
        func ask(_ question: String, options: [String], defaultAnswer: String?) -> String? {
            asked.append(question)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        func retry(_ reason: String) { reasons.append(reason) }
    }

    static let id = ParameterSpec(name: "id", kind: .int64, prompt: "Which log (its #)?")

    @Test("an optional parameter with a prompt is not asked for, unless it is among those asked; then the answer binds it, from the prompt")
    func askedOptional() throws {
        let terminal = Terminal(["5"])
        var resolver = ParameterResolver(type: "com.standfit.deletelog", parameters: [Self.id], conversation: terminal)
        let unasked = try resolver.resolve(arguments: [], userInfo: [:]).get()
        #expect(unasked.values == [nil] && terminal.asked.isEmpty)
        resolver.asked = ["id"]
        let answered = try resolver.resolve(arguments: [], userInfo: [:]).get()
        #expect(answered.values == [.int64(5)])
        #expect(answered.parameters.map(\.source) == [.prompt])
        #expect(terminal.asked == ["Which log (its #)?"])
        // Given as an argument, it is not asked for, asked or not.
        #expect(try resolver.resolve(arguments: [NamedArgument(name: "id", value: "7")], userInfo: [:]).get().values == [.int64(7)])
        #expect(terminal.asked.count == 1)
    }

    @Test("without a terminal, nothing is asked, whatever is among those asked")
    func noTerminal() throws {
        var resolver = ParameterResolver(type: "com.standfit.deletelog", parameters: [Self.id])
        resolver.asked = ["id"]
        #expect(try resolver.resolve(arguments: [], userInfo: [:]).get().values == [nil])
    }
}
