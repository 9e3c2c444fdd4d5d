#!/usr/bin/python3
"""KDE's clipboard manager as the desktop tests need it: org.kde.klipper on the session bus,
whose setClipboardContents(s) appends the text to RECORD as one JSON line. RECORD is created
empty once the name is owned, so a test waits for it.

Usage: clipboard.py RECORD
"""
import json
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.kde.klipper.klipper">
    <method name="setClipboardContents"><arg type="s" direction="in"/></method>
    <method name="getClipboardContents"><arg type="s" direction="out"/></method>
  </interface>
</node>
"""

record = sys.argv[1]
contents = [""]
loop = GLib.MainLoop()
connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def call(conn, sender, path, interface, method, parameters, invocation):
    if method == "setClipboardContents":
        contents[0] = parameters.unpack()[0]
        with open(record, "a") as out:
            out.write(json.dumps(contents[0]) + "\n")
        invocation.return_value(None)
    else:
        invocation.return_value(GLib.Variant("(s)", (contents[0],)))


node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
connection.register_object("/klipper", node.interfaces[0], call, None, None)
Gio.bus_own_name_on_connection(connection, "org.kde.klipper", Gio.BusNameOwnerFlags.NONE,
                               lambda conn, name: open(record, "a").close(), lambda *a: loop.quit())
loop.run()
