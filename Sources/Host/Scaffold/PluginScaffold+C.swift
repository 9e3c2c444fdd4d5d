import Foundation
import HostModel

/// The C skeleton of `plugins new`.
extension PluginScaffold {
    var cFiles: [File] {
        [
            File(path: "\(baseName).c", contents: """
                /* \(id): a standfit-host plugin in C. docs/PLUGIN_GUIDE.md of standfit-host is the guide. */
                #include <stdio.h>

                #include "standfit_plugin.h"

                /* Each action is declared once: its parameters as rows P(KIND, name, required, default,
                   title). The macro makes the parameter table and the handler's prototype from them, so
                   the compiler checks the handler against what the host will pass it. */
                #define GREET(P)                                  \\
                    P(STRING, name, false, "world", "Name")       \\
                    P(INT64, times, false, "1", "Times")
                STANDFIT_DECLARE_HANDLER(greet, GREET)

                static int32_t greet(const standfit_invocation *ctx, const char *name, int64_t times) {
                    char message[512];
                    size_t used = 0;
                    for (int64_t i = 0; i < times && used < sizeof message; i++) {
                        int written = snprintf(message + used, sizeof message - used, "%sHello, %s!", i ? " " : "", name);
                        if (written < 0) return STANDFIT_STATUS_FAILED;
                        used += (size_t)written;
                    }
                    ctx->set_message(ctx, message); /* copied by the host */
                    return STANDFIT_STATUS_HANDLED;
                }

                static const standfit_action actions[] = {
                    STANDFIT_ACTION(greet, "\(actionType)", "Greet", NULL, "hand.wave"),
                };

                /* An extension table this plugin can read, or NULL: the host may be older. */
                static const void *extension(const standfit_host *host, const char *id, size_t size) {
                    const standfit_abi_header *header = host->get_extension(host, id);
                    if (!header || header->abi_major != STANDFIT_ABI_MAJOR || header->struct_size < size) return NULL;
                    return header;
                }

                static int32_t init(const standfit_host *host) {
                    /* Return the status of a registration the host refuses: it then says which and why. */
                    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
                        int32_t status = host->register_action(host, &actions[i]);
                        if (status != STANDFIT_OK) return status;
                    }
                    const standfit_parameter_checks_ext *checks =
                        extension(host, STANDFIT_EXT_PARAMETER_CHECKS, sizeof *checks);
                    if (checks) {
                        int32_t status = checks->set_parameter_range(host, "\(actionType)", "times", 1, 10);
                        if (status != STANDFIT_OK) return status;
                    }
                    static const standfit_item item = {
                        STANDFIT_HEADER(standfit_item), "\(actionType)", "Greet Ada", NULL, "hand.wave", "{\\"name\\": \\"Ada\\"}",
                    };
                    return host->register_static_item(host, &item);
                }

                static const standfit_plugin_entry entry = {
                    STANDFIT_HEADER(standfit_plugin_entry), "\(id)", "\(typeName)", "0.1.0", init, NULL,
                };

                /* The one exported function; everything else is hidden (-fvisibility=hidden). */
                STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }

                """),
            File(path: "Makefile", contents: """
                # Builds lib\(baseName).so, a standfit-host plugin.
                #   make            build it
                #   make check      standfit-host plugins check --strict
                #   make install    copy it where standfit-host looks for plugins
                SDK ?= \(sdk.path)
                STANDFIT_HOST ?= standfit-host
                CC ?= cc
                CFLAGS ?= -O2 -g
                PLUGIN := lib\(baseName).so
                PLUGINS := $(if $(XDG_DATA_HOME),$(XDG_DATA_HOME),$(HOME)/.local/share)/standfit/plugins

                all: $(PLUGIN)

                # Export only the entry function (-fvisibility=hidden; STANDFIT_EXPORT marks the entry).
                $(PLUGIN): \(baseName).c
                \t$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \\
                \t\t-I $(SDK)/Sources/CStandFitABI/include -o $@ $<

                check: $(PLUGIN)
                \t$(STANDFIT_HOST) plugins check --strict ./$(PLUGIN)

                # Plugins and their directories must not be group- or world-writable.
                install: $(PLUGIN)
                \tinstall -d -m 755 $(PLUGINS)
                \tinstall -m 644 $(PLUGIN) $(PLUGINS)/

                clean:
                \trm -f $(PLUGIN)

                .PHONY: all check install clean

                """),
            readme,
            File(path: ".gitignore", contents: "*.so\n"),
        ]
    }

    // MARK: Swift
}
