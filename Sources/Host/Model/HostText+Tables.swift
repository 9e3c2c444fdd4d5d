// The host's words, one `.strings` table per language (`HostText`). Keep the keys of every
// table the same: a test compares them.

extension HostText {
    static let sources: [String: String] = ["en": english, "nl": dutch]

    static let english = #"""
    "word.and" = "and";
    "word.or" = "or";
    "word.value" = "VALUE";

    "menu.title" = "Quick actions";
    "menu.keys" = "↑/↓ or 1–{count} to choose · Enter to run · Esc or q to leave";
    "menu.empty" = "No quick actions to show; add items to {path} or install a plugin (see 'standfit-host plugins').";
    "menu.cancelled" = "No quick action was chosen.";
    "picker.question" = "Choose a quick action.";
    "picker.none" = "There are no quick actions.";

    "prompt.question" = "{title}?";
    "prompt.needsValue" = "{title} needs a value.";
    "prompt.expected" = "Expected {expectation}, got \"{answer}\".";
    "prompt.chooseOne" = "Choose one: a number from 1 to {count}, or a name.";
    "prompt.noSuchNumber" = "There is no {number}; choose a number from 1 to {count}, or a name.";
    "prompt.couldMean" = "“{answer}” could mean {choices}; be more precise.";
    "prompt.nothingCalled" = "Nothing is called “{answer}”; choose a number from 1 to {count}, or a name.";
    "prompt.whichOne" = "“{text}” could mean several; which one?";

    "expect.bool" = "true or false";
    "expect.int64" = "an integer";
    "expect.double" = "a number";
    "expect.string" = "text without NUL characters";

    "error.expected" = "{parameter}: expected {expectation}, got {got}";
    "error.fromUserInfo" = "{json} from the item's userInfo";
    "error.missing.one" = "Missing required parameter {names} for {type}; pass {usage}.";
    "error.missing.many" = "Missing required parameters {names} for {type}; pass {usage}.";
    "error.twice" = "Parameter '{name}' is given twice; pass it once.";
    "error.notNamed" = "Argument '{argument}' is not of the form name=value; write each parameter as NAME=VALUE.";
    "error.inputEnded" = "Input ended before '{name}' got a value for {type}; pass {name}=VALUE.";
    "error.noParameters" = "{type} takes no parameters; remove '{name}=…'.";
    "error.unknownParameter" = "Unknown parameter '{name}' for {type}{hint}; it takes {names}.";
    "error.didYouMeanParameter" = " (did you mean '{name}'?)";
    "error.valueCouldMean" = "{parameter}: \"{value}\" could mean {listed}; pass the one you mean.";
    "error.noValueCalled" = "{parameter}: no {noun} is called '{value}'; choose one of {listed}.";
    "error.value" = "value";

    "config.notJSON" = "The settings file {path} is not valid JSON; fix it or remove it to use the defaults.";
    "config.notObject" = "The settings file {path} must hold one JSON object, like {\"menuLimit\": 4}.";
    "config.wholeNumber" = "{key} in {path} must be a whole number from 1 to {max}, got {value}.";
    "config.seconds" = "{key} in {path} must be a number of seconds above 0 and at most 3600, got {value}.";
    "config.idleSeconds" = "{key} in {path} must be a number of seconds from 1 to 86400, got {value}.";
    "config.bool" = "{key} in {path} must be true or false, got {value}.";
    "config.server" = "server in {path} must be \"off\", \"manual\" or \"auto\", got {value}.";
    "config.unknown" = "Unknown setting '{key}' in {path}; the settings are {keys}.";
    "manifest.missing" = "Manifest {path} does not exist; pass --manifest with the path of an Info.plist or manifest.json, or of a directory holding one.";
    "manifest.emptyDirectory" = "Directory {path} holds no Info.plist or manifest.json; pass --manifest with the path of one.";
    "manifest.emptyType" = "{path}: {keyPath} is empty; give the item a type such as com.example.open.";
    "manifest.emptyTitle" = "{path}: {keyPath} is empty; give the item a title to show in menus.";
    "manifest.unresolved" = "{path}: {keyPath} uses $({name}), which is not defined; pass --define {name}=VALUE or set it in the environment.";
    "state.open" = "The host's state {path} cannot be opened ({cause}); check that the directory is writable, or move the file aside to start afresh.";
    "state.read" = "The host's state {path} cannot be read ({cause}); move the file aside to start afresh.";

    "type.unknown" = "Unknown shortcut type '{type}'; run 'standfit-host list --all' to see the types there are.";
    "type.didYouMean" = "Unknown shortcut type '{type}'; did you mean {suggestions}?";
    "type.unhandled" = "No plugin handles shortcut type '{type}', which the menu lists; install the plugin that provides it or remove the item (see 'standfit-host plugins').";
    "type.ambiguous" = "Shortcut type '{name}' is ambiguous: it matches {list}; run one of them by its full type.";

    "outcome.ran" = "Ran {title}.";
    "outcome.declined" = "{title} declined to run.";
    "outcome.refusedSilently" = "Plugin '{plugin}' refused the parameters of {type} without saying why.";
    "outcome.failed" = "Plugin '{plugin}' failed to run {type}: {reason}";
    "outcome.noReason" = "it gave no reason";

    "routine.ran.one" = "{title}: ran 1 step";
    "routine.ran.many" = "{title}: ran {count} steps";
    "routine.wouldRun.one" = "{title}: would run 1 step";
    "routine.wouldRun.many" = "{title}: would run {count} steps";
    "routine.skipped.one" = "; step {steps} did not succeed and was passed over";
    "routine.skipped.many" = "; steps {steps} did not succeed and were passed over";
    "routine.stopped" = "{title} stopped at step {index} of {count} ({type}): {message}";
    "routine.step" = "step {index}: {message}";

    "dryrun.header" = "{title} ({type}) would run with:";
    "dryrun.none" = "no parameters";
    "dryrun.notSet" = "(not set)";
    "dryrun.from" = ", from “{input}”";
    "dryrun.nothingRan" = "Nothing ran (--dry-run).";
    "source.argument" = "argument";
    "source.userInfo" = "userInfo";
    "source.phrase" = "phrase";
    "source.prompt" = "prompt";
    "source.value-default" = "value-default";
    "source.default" = "default";

    "say.whichOne" = "“{sentence}” could mean several things; which one?";
    "say.chooseNumber" = "Choose a number from 1 to {count}.";
    "say.noPhrases" = "No action understands \"{sentence}\", and no plugin declares phrases; run an action by its type with 'standfit-host run'.";
    "say.closest" = "No action understands \"{sentence}\"; the closest phrases are {closest}.";
    "say.ambiguous" = "\"{sentence}\" could mean {choices}; say it more precisely or run one with 'standfit-host run'.";

    "suggest.ran.one" = "ran 1 time (frequency {frequency})";
    "suggest.ran.many" = "ran {count} times (frequency {frequency})";
    "suggest.last" = "last {ago} (recency {recency})";
    "suggest.usual" = "usually around {usual}, now {now} (time of day {timeOfDay})";
    "suggest.minutesAgo" = "{count} min ago";
    "suggest.hoursAgo" = "{count} h ago";
    "suggest.daysAgo" = "{count} days ago";
    "suggest.subtitle" = "Suggested · usually around {time}";
    "suggest.score" = "score {score}";
    "donations.none" = "No runs are recorded yet; every handled run is.";
    "donations.none.type" = "No runs of {type} are recorded.";
    "donations.none.notSuggestible" = "No runs of {type} are recorded: it is not suggestion material, so its runs never are.";
    "donations.runs.one" = "1 run";
    "donations.runs.many" = "{count} runs";
    "donations.forgot" = "Forgot {runs}.";
    "donations.forgot.type" = "Forgot {runs} of {type}.";
    "donations.forgot.notSuggestible" = "Forgot {runs} of {type}; it is not suggestion material, so its runs are not recorded.";
    "suggest.nothing" = "Nothing to suggest yet: suggestions come from the runs you make (see 'standfit-host donations').";
    """#

    static let dutch = #"""
    "word.and" = "en";
    "word.or" = "of";
    "word.value" = "WAARDE";

    "menu.title" = "Snelle acties";
    "menu.keys" = "↑/↓ of 1–{count} om te kiezen · Enter om uit te voeren · Esc of q om te stoppen";
    "menu.empty" = "Er zijn geen snelle acties om te tonen; zet items in {path} of installeer een plug-in (zie 'standfit-host plugins').";
    "menu.cancelled" = "Er is geen snelle actie gekozen.";
    "picker.question" = "Kies een snelle actie.";
    "picker.none" = "Er zijn geen snelle acties.";

    "prompt.question" = "{title}?";
    "prompt.needsValue" = "{title} heeft een waarde nodig.";
    "prompt.expected" = "Verwacht {expectation}, kreeg \"{answer}\".";
    "prompt.chooseOne" = "Kies er één: een nummer van 1 tot en met {count}, of een naam.";
    "prompt.noSuchNumber" = "Er is geen {number}; kies een nummer van 1 tot en met {count}, of een naam.";
    "prompt.couldMean" = "“{answer}” kan {choices} zijn; wees preciezer.";
    "prompt.nothingCalled" = "Er is niets met de naam “{answer}”; kies een nummer van 1 tot en met {count}, of een naam.";
    "prompt.whichOne" = "“{text}” kan meerdere dingen zijn; welke bedoel je?";

    "expect.bool" = "true of false";
    "expect.int64" = "een geheel getal";
    "expect.double" = "een getal";
    "expect.string" = "tekst zonder NUL-tekens";

    "error.expected" = "{parameter}: verwacht {expectation}, kreeg {got}";
    "error.fromUserInfo" = "{json} uit de userInfo van het item";
    "error.missing.one" = "De verplichte parameter {names} van {type} ontbreekt; geef {usage} op.";
    "error.missing.many" = "De verplichte parameters {names} van {type} ontbreken; geef {usage} op.";
    "error.twice" = "Parameter '{name}' is twee keer opgegeven; geef hem één keer op.";
    "error.notNamed" = "Argument '{argument}' heeft niet de vorm naam=waarde; schrijf elke parameter als NAAM=WAARDE.";
    "error.inputEnded" = "De invoer hield op voordat '{name}' een waarde had voor {type}; geef {name}=WAARDE op.";
    "error.noParameters" = "{type} heeft geen parameters; haal '{name}=…' weg.";
    "error.unknownParameter" = "Onbekende parameter '{name}' voor {type}{hint}; het kent {names}.";
    "error.didYouMeanParameter" = " (bedoel je '{name}'?)";
    "error.valueCouldMean" = "{parameter}: \"{value}\" kan {listed} zijn; geef op welke je bedoelt.";
    "error.noValueCalled" = "{parameter}: er is geen {noun} met de naam '{value}'; kies uit {listed}.";
    "error.value" = "waarde";

    "config.notJSON" = "Het instellingenbestand {path} is geen geldige JSON; herstel het, of verwijder het om de standaardwaarden te gebruiken.";
    "config.notObject" = "Het instellingenbestand {path} moet één JSON-object bevatten, zoals {\"menuLimit\": 4}.";
    "config.wholeNumber" = "{key} in {path} moet een geheel getal van 1 tot en met {max} zijn, kreeg {value}.";
    "config.seconds" = "{key} in {path} moet een aantal seconden boven 0 en hooguit 3600 zijn, kreeg {value}.";
    "config.idleSeconds" = "{key} in {path} moet een aantal seconden van 1 tot en met 86400 zijn, kreeg {value}.";
    "config.bool" = "{key} in {path} moet true of false zijn, kreeg {value}.";
    "config.server" = "server in {path} moet \"off\", \"manual\" of \"auto\" zijn, kreeg {value}.";
    "config.unknown" = "Onbekende instelling '{key}' in {path}; de instellingen zijn {keys}.";
    "manifest.missing" = "Manifest {path} bestaat niet; geef met --manifest het pad van een Info.plist of manifest.json, of van een map waar er een in staat.";
    "manifest.emptyDirectory" = "Map {path} bevat geen Info.plist of manifest.json; geef met --manifest het pad van een ervan.";
    "manifest.emptyType" = "{path}: {keyPath} is leeg; geef het item een type zoals com.example.open.";
    "manifest.emptyTitle" = "{path}: {keyPath} is leeg; geef het item een titel om in menu's te tonen.";
    "manifest.unresolved" = "{path}: {keyPath} gebruikt $({name}), dat niet gedefinieerd is; geef --define {name}=WAARDE op of zet het in de omgeving.";
    "state.open" = "De toestand van de host, {path}, kan niet worden geopend ({cause}); controleer of de map beschrijfbaar is, of zet het bestand opzij om opnieuw te beginnen.";
    "state.read" = "De toestand van de host, {path}, kan niet worden gelezen ({cause}); zet het bestand opzij om opnieuw te beginnen.";

    "type.unknown" = "Onbekend type snelle actie '{type}'; 'standfit-host list --all' toont de types die er zijn.";
    "type.didYouMean" = "Onbekend type snelle actie '{type}'; bedoel je {suggestions}?";
    "type.unhandled" = "Het menu toont type snelle actie '{type}', maar geen plug-in voert het uit; installeer de plug-in die het levert of haal het item weg (zie 'standfit-host plugins').";
    "type.ambiguous" = "Type snelle actie '{name}' is niet eenduidig: het past bij {list}; voer er één uit met het volledige type.";

    "outcome.ran" = "{title} uitgevoerd.";
    "outcome.declined" = "{title} wilde niet worden uitgevoerd.";
    "outcome.refusedSilently" = "Plug-in '{plugin}' weigerde de parameters van {type} zonder te zeggen waarom.";
    "outcome.failed" = "Plug-in '{plugin}' kon {type} niet uitvoeren: {reason}";
    "outcome.noReason" = "hij gaf geen reden";

    "routine.ran.one" = "{title}: 1 stap uitgevoerd";
    "routine.ran.many" = "{title}: {count} stappen uitgevoerd";
    "routine.wouldRun.one" = "{title}: zou 1 stap uitvoeren";
    "routine.wouldRun.many" = "{title}: zou {count} stappen uitvoeren";
    "routine.skipped.one" = "; stap {steps} lukte niet, de rest ging door";
    "routine.skipped.many" = "; stappen {steps} lukten niet, de rest ging door";
    "routine.stopped" = "{title} stopte bij stap {index} van {count} ({type}): {message}";
    "routine.step" = "stap {index}: {message}";

    "dryrun.header" = "{title} ({type}) zou worden uitgevoerd met:";
    "dryrun.none" = "geen parameters";
    "dryrun.notSet" = "(niet ingesteld)";
    "dryrun.from" = ", uit “{input}”";
    "dryrun.nothingRan" = "Er is niets uitgevoerd (--dry-run).";
    "source.argument" = "argument";
    "source.userInfo" = "userInfo";
    "source.phrase" = "zin";
    "source.prompt" = "gevraagd";
    "source.value-default" = "standaard van de gekozen waarde";
    "source.default" = "standaard";

    "say.whichOne" = "“{sentence}” kan meerdere dingen betekenen; welke bedoel je?";
    "say.chooseNumber" = "Kies een nummer van 1 tot en met {count}.";
    "say.noPhrases" = "Geen actie begrijpt \"{sentence}\", en geen plug-in geeft zinnen op; voer een actie uit met 'standfit-host run TYPE'.";
    "say.closest" = "Geen actie begrijpt \"{sentence}\"; de zinnen die er het dichtst bij komen zijn {closest}.";
    "say.ambiguous" = "\"{sentence}\" kan {choices} betekenen; zeg het preciezer of voer er één uit met 'standfit-host run'.";

    "suggest.ran.one" = "1 keer uitgevoerd (frequentie {frequency})";
    "suggest.ran.many" = "{count} keer uitgevoerd (frequentie {frequency})";
    "suggest.last" = "laatste keer {ago} (recentheid {recency})";
    "suggest.usual" = "meestal rond {usual}, nu {now} (tijdstip {timeOfDay})";
    "suggest.minutesAgo" = "{count} min geleden";
    "suggest.hoursAgo" = "{count} uur geleden";
    "suggest.daysAgo" = "{count} dagen geleden";
    "suggest.subtitle" = "Voorgesteld · meestal rond {time}";
    "suggest.score" = "score {score}";
    "donations.none" = "Er zijn nog geen uitvoeringen vastgelegd; elke uitgevoerde actie wordt het.";
    "donations.none.type" = "Er zijn geen uitvoeringen van {type} vastgelegd.";
    "donations.none.notSuggestible" = "Er zijn geen uitvoeringen van {type} vastgelegd: het is geen materiaal voor voorstellen, dus dat gebeurt nooit.";
    "donations.runs.one" = "1 uitvoering";
    "donations.runs.many" = "{count} uitvoeringen";
    "donations.forgot" = "{runs} vergeten.";
    "donations.forgot.type" = "{runs} van {type} vergeten.";
    "donations.forgot.notSuggestible" = "{runs} van {type} vergeten; het is geen materiaal voor voorstellen, dus de uitvoeringen worden niet vastgelegd.";
    "suggest.nothing" = "Nog niets om voor te stellen: voorstellen komen uit wat je uitvoert (zie 'standfit-host donations').";
    """#
}
