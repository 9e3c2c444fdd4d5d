#!/usr/bin/python3
"""The user's service manager as the desktop tests need it: org.freedesktop.systemd1 on the
session bus, whose Manager's Environment property is the session's activation environment (as
systemd --user keeps it for dbus-update-activation-environment --systemd). RECORD is created
empty once the name is owned, so a test waits for it.

Usage: service-manager.py RECORD NAME=VALUE...
"""
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.systemd1.Manager">
    <property name="Environment" type="as" access="read"/>
  </interface>
</node>
"""

record = sys.argv[1]
environment = sys.argv[2:]
loop = GLib.MainLoop()
connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def get_property(conn, sender, path, interface, name):
    return GLib.Variant("as", environment)


node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
connection.register_object("/org/freedesktop/systemd1", node.interfaces[0], None, get_property, None)
Gio.bus_own_name_on_connection(connection, "org.freedesktop.systemd1", Gio.BusNameOwnerFlags.NONE,
                               lambda conn, name: open(record, "a").close(), lambda *a: loop.quit())
loop.run()
