import Foundation
import Testing
import TestSupport
import HostModel

/// `config.json`: every key, its bounds, and the sentence a bad value gets.
@Suite("Settings", .timeLimit(.minutes(10)))
struct HostConfigTests {
    func load(_ json: String) throws(HostError) -> HostConfig {
        let directory = makeTemporaryDirectory()
        try? Data(json.utf8).write(to: directory.appendingPathComponent("config.json"))
        return try HostConfig.load(from: directory)
    }

    @Test("defaults: 4 items, 5 s to scan a plugin, 10 s per handler in a worker, any plugin may load")
    func defaults() throws {
        let config = try HostConfig.load(from: makeTemporaryDirectory())
        #expect(config.menuLimit == 4)
        #expect(config.scanTimeout == 5)
        #expect(config.handlerTimeout == 10)
        #expect(config.requireTrusted == false)
        #expect(config.sandbox)
        #expect(config.server == .auto)
        #expect(config.serverIdleTimeout == 900)
        #expect(config.serverWorkers == 8)
        #expect(config.workerIdleTimeout == 300)
        #expect(config.suggestionQuietHours == QuietHours(start: 22 * 60, end: 8 * 60))
        #expect(config.suggestionsPerDay == 3)
    }

    @Test("speechModels: a language's model directory and dictionary, by the language's base tag; anything else is refused")
    func speechModels() throws {
        let config = try load(#"{"speechModels": {"nl_NL": {"acousticModel": "/m/nl", "dictionary": "/m/nl.dict"}}}"#)
        #expect(config.speechModels == ["nl": SpeechModel(acousticModel: "/m/nl", dictionary: "/m/nl.dict")])
        #expect(SpeechModel.model(for: "nl_BE", configured: config.speechModels) == SpeechModel(acousticModel: "/m/nl", dictionary: "/m/nl.dict"))
        #expect(SpeechModel.model(for: "en_GB", configured: config.speechModels) == .english)
        #expect(SpeechModel.model(for: "de", configured: config.speechModels) == nil)
        for bad in [#"{"nl": {"acousticModel": "/m"}}"#, #"{"nl": {"acousticModel": "/m", "dictionary": 3}}"#,
                    #"{"nl": {"acousticModel": "/m", "dictionary": "/d", "extra": "/x"}}"#, #"["nl"]"#] {
            #expect(throws: HostError.self, "\(bad)") { try load(#"{"speechModels": "# + bad + "}") }
        }
    }

    @Test("suggestionQuietHours: a span of the 24-hour clock, across midnight or not, null (or an empty span) for none; suggestionsPerDay from 0 to 24")
    func suggestionRules() throws {
        let night = try load(#"{"suggestionQuietHours": "21:30-07:00", "suggestionsPerDay": 0}"#)
        #expect(night.suggestionQuietHours?.text == "21:30-07:00" && night.suggestionsPerDay == 0)
        let hours = try #require(night.suggestionQuietHours)
        #expect(hours.contains(21 * 60 + 30) && hours.contains(0) && hours.contains(6 * 60 + 59))
        #expect(!hours.contains(7 * 60) && !hours.contains(21 * 60 + 29) && !hours.contains(12 * 60))
        let lunch = try #require(try load(#"{"suggestionQuietHours": "12:00-13:00"}"#).suggestionQuietHours)
        #expect(lunch.contains(12 * 60) && !lunch.contains(13 * 60) && !lunch.contains(11 * 60 + 59))
        #expect(try load(#"{"suggestionQuietHours": null}"#).suggestionQuietHours == nil)
        #expect(try load(#"{"suggestionQuietHours": "08:00-08:00"}"#).suggestionQuietHours == nil)
        #expect(try load(#"{"suggestionQuietHours": "22:00-24:00"}"#).suggestionQuietHours == QuietHours(start: 22 * 60, end: 0))
        for bad in [#""late""#, #""25:00-07:00""#, #""22:00""#, #""9:00-10:00""#, "22", #""22:60-07:00""#] {
            #expect(throws: HostError.self, "\(bad)") { try load(#"{"suggestionQuietHours": "# + bad + "}") }
        }
        for bad in ["-1", "25", "2.5", #""3""#] {
            #expect(throws: HostError.self, "\(bad)") { try load(#"{"suggestionsPerDay": "# + bad + "}") }
        }
    }

    @Test("every key is read, whole or fractional seconds")
    func everyKey() throws {
        let config = try load(#"{"menuLimit": 6, "scanTimeout": 0.5, "handlerTimeout": 30, "requireTrusted": true, "sandbox": false, "server": "manual", "serverIdleTimeout": 2.5, "serverWorkers": 2, "workerIdleTimeout": 30}"#)
        #expect(!config.sandbox)
        #expect(config.server == .manual)
        #expect(config.serverIdleTimeout == 2.5)
        #expect(config.serverWorkers == 2)
        #expect(config.workerIdleTimeout == 30)
        #expect(config.menuLimit == 6)
        #expect(config.scanTimeout == 0.5)
        #expect(config.handlerTimeout == 30)
        #expect(config.requireTrusted)
    }

    @Test("bad values are refused with the key, the range and the value", arguments: [
        (#"{"scanTimeout": 0}"#, "scanTimeout in PATH must be a number of seconds above 0 and at most 3600, got 0."),
        (#"{"handlerTimeout": "ten"}"#, #"handlerTimeout in PATH must be a number of seconds above 0 and at most 3600, got "ten"."#),
        (#"{"requireTrusted": "yes"}"#, #"requireTrusted in PATH must be true or false, got "yes"."#),
        (#"{"sandbox": 0}"#, "sandbox in PATH must be true or false, got 0."),
        (#"{"server": "on"}"#, #"server in PATH must be "off", "manual" or "auto", got "on"."#),
        (#"{"serverIdleTimeout": 0}"#, "serverIdleTimeout in PATH must be a number of seconds from 1 to 86400, got 0."),
        (#"{"workerIdleTimeout": "5"}"#, "workerIdleTimeout in PATH must be a number of seconds from 1 to 86400, got \"5\"."),
        (#"{"serverWorkers": 0}"#, "serverWorkers in PATH must be a whole number from 1 to 64, got 0."),
    ])
    func badValues(json: String, message: String) {
        let directory = makeTemporaryDirectory()
        let file = directory.appendingPathComponent("config.json")
        try? Data(json.utf8).write(to: file)
        #expect(throws: HostError.self) { try HostConfig.load(from: directory) }
        do {
            _ = try HostConfig.load(from: directory)
        } catch {
            #expect(error.message == message.replacingOccurrences(of: "PATH", with: file.path))
            #expect(error.code == .configInvalid)
        }
    }

    @Test("an unknown key is ignored, not fatal: the other settings hold, and the warning names the setting it probably meant, in English and Dutch")
    func unknownKeys() throws {
        let config = try load(#"{"handlerTimout": 3, "menuLimit": 2, "colour": "blue"}"#)
        #expect(config.menuLimit == 2 && config.handlerTimeout == 10)
        #expect(config.unknownKeys == ["colour", "handlerTimout"])
        let keys = "menuLimit, scanTimeout, handlerTimeout, requireTrusted, sandbox, server, serverIdleTimeout, serverWorkers, workerIdleTimeout, suggestionQuietHours, suggestionsPerDay, speechModels"
        #expect(config.unknownKeyWarnings(path: "/c/config.json", language: "en") == [
            "Unknown setting 'colour' in /c/config.json is ignored; the settings are \(keys).",
            "Unknown setting 'handlerTimout' in /c/config.json is ignored (did you mean 'handlerTimeout'?); the settings are \(keys).",
        ])
        #expect(config.unknownKeyWarnings(path: "/c/config.json", language: "nl").last
            == "Onbekende instelling 'handlerTimout' in /c/config.json wordt genegeerd (bedoel je 'handlerTimeout'?); de instellingen zijn \(keys).")
    }

    @Test("STANDFIT_SERVER wins over config.json, in any case; an unknown value leaves the file's")
    func serverModeFromEnvironment() throws {
        let config = try load(#"{"server": "manual"}"#)
        #expect(config.serverMode(environment: [:]) == .manual)
        #expect(config.serverMode(environment: ["STANDFIT_SERVER": "OFF"]) == .off)
        #expect(config.serverMode(environment: ["STANDFIT_SERVER": "auto"]) == .auto)
        #expect(config.serverMode(environment: ["STANDFIT_SERVER": "sometimes"]) == .manual)
    }
}
