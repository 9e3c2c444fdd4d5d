#!/usr/bin/env python3
"""The peer: standfit-host's dispatch written as a small Python host on pluggy.

pluggy is the plugin framework of pytest, tox and datasette. Plugins are Python modules that
implement the `standfit_actions` hook (and optionally `standfit_items`); the host collects
every action, resolves the type as standfit-host does (exact, then a unique last component),
binds name=value arguments and calls the handler.

    host.py run TYPE [name=value ...]    exit 0 handled, 2 unknown type, 3 invalid input
    host.py list                         the static items, then the dynamic items
    host.py generate DIR COUNT           writes COUNT no-op plugin modules into DIR

Plugins are found in the directories of PEER_PLUGIN_PATH (colon-separated), by file name.
bench/run times this beside standfit-host with the same number of plugins.
"""
import importlib.util
import os
import sys

import pluggy

hookspec = pluggy.HookspecMarker("standfit")
hookimpl = pluggy.HookimplMarker("standfit")


class ShortcutSpec:
    @hookspec
    def standfit_actions(self):
        """Answer a list of actions: dicts with type, title, parameters and handler."""

    @hookspec
    def standfit_items(self):
        """Answer a list of dynamic items: dicts with type, title and userInfo."""


def plugin_manager():
    manager = pluggy.PluginManager("standfit")
    manager.add_hookspecs(ShortcutSpec)
    for directory in filter(None, os.environ.get("PEER_PLUGIN_PATH", "").split(":")):
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".py"):
                continue
            spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(directory, name))
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            manager.register(module, name=name[:-3])
    return manager


def registry(manager):
    actions = {}
    for answer in reversed(manager.hook.standfit_actions()):  # pluggy answers last-registered first
        for action in answer:
            actions.setdefault(action["type"], action)  # the first in load order keeps a type
    return actions


def run(manager, requested, arguments):
    actions = registry(manager)
    action = actions.get(requested)
    if action is None:
        matches = [t for t in actions if t.rsplit(".", 1)[-1].lower() == requested.lower()]
        if len(matches) != 1:
            print(f"Unknown shortcut type '{requested}'.", file=sys.stderr)
            return 2
        action = actions[matches[0]]
    values = {}
    for argument in arguments:
        name, equals, value = argument.partition("=")
        kind = action["parameters"].get(name)
        if not equals or kind is None:
            print(f"{action['type']} has no parameter '{name}'.", file=sys.stderr)
            return 3
        try:
            values[name] = kind(value)
        except ValueError:
            print(f"{name}: expected {kind.__name__}, got \"{value}\"", file=sys.stderr)
            return 3
    message = action["handler"](**values)
    print(message or f"Ran {action['title']}.")
    return 0


def list_items(manager):
    for action in registry(manager).values():
        print(f"{action['title']}  {action['type']}")
    for answer in reversed(manager.hook.standfit_items()):
        for item in answer:
            print(f"{item['title']}  {item['type']}")
    return 0


PLUGIN_TEMPLATE = '''"""A no-op peer plugin: bench.noop.{index}."""
import pluggy

hookimpl = pluggy.HookimplMarker("standfit")


def noop():
    return None


@hookimpl
def standfit_actions():
    return [{{"type": "bench.noop.{index}", "title": "No-op {index}", "parameters": {{}}, "handler": noop}}]
'''


def generate(directory, count):
    os.makedirs(directory, exist_ok=True)
    for index in range(count):
        with open(os.path.join(directory, f"noop{index:03d}.py"), "w") as plugin:
            plugin.write(PLUGIN_TEMPLATE.format(index=index))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "run":
        return run(plugin_manager(), argv[1], argv[2:])
    if argv == ["list"]:
        return list_items(plugin_manager())
    if len(argv) == 3 and argv[0] == "generate":
        return generate(argv[1], int(argv[2]))
    print(__doc__.strip().splitlines()[0], file=sys.stderr)
    print("usage: host.py run TYPE [name=value ...] | list | generate DIR COUNT", file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
