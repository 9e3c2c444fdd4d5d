#!/usr/bin/python3
"""A notification server for the desktop tests: org.freedesktop.Notifications on the session bus.

Usage: notification-server.py RECORD [--capabilities CAP,CAP] [--press LABEL | --press-twice LABEL] [--reply TEXT]

Each Notify call is appended to RECORD as one JSON line (summary, body, icon, actions as
[key, label] pairs, urgency, desktop-entry), and each CloseNotification as {"closed": id}. RECORD is created empty once the name is owned, so a
test waits for it. With --press LABEL, a notification with a button labelled LABEL gets
ActionInvoked for that button's key, then NotificationClosed, as a user pressing it would. With
--press-twice LABEL, ActionInvoked twice and no NotificationClosed at all, as a server that keeps
an answered notification on screen (and ignores CloseNotification) lets a user press it again.
With --press "(bubble)", the first notification with buttons gets ActionInvoked "default", a
click on the bubble itself; with --press "(bubble-close)", then NotificationClosed (dismissed)
too (the user clicks once).
With --choose LABEL, a notification whose only action is the default one, labelled LABEL (one of
a question's choices shown on its own), gets ActionInvoked "default", a click on it.
With --dismiss, a notification with buttons gets NotificationClosed with reason 2 (dismissed
by the user) once, as a user closing the question without answering would. Each Notify records
its "timeout" and whether it had the hint "resident"; a Notify that replaces one keeps its id.
A dismissal happens once per notification id.
With --reply TEXT, the first notification with the "inline-reply" action (KDE's inline reply) gets
NotificationReplied with TEXT, then NotificationClosed, as a user typing TEXT would; its
placeholder (the hint x-kde-reply-placeholder-text) is recorded as "replyPlaceholder".
"""
import json
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="NotificationReplied"><arg type="u"/><arg type="s"/></signal>
  </interface>
</node>
"""

record = sys.argv[1]
capabilities = ["actions", "body"]
press = None
twice = False
reply = None
dismiss = False
acted = set()
replied = [False]
choose = None
arguments = sys.argv[2:]
while arguments:
    option = arguments.pop(0)
    if option == "--capabilities":
        capabilities = [name for name in arguments.pop(0).split(",") if name]
    elif option == "--press":
        press = arguments.pop(0)
    elif option == "--press-twice":
        press = arguments.pop(0)
        twice = True
    elif option == "--reply":
        reply = arguments.pop(0)
    elif option == "--dismiss":
        dismiss = True
    elif option == "--choose":
        choose = arguments.pop(0)
next_id = [0]
loop = GLib.MainLoop()
connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
PATH = "/org/freedesktop/Notifications"
NAME = "org.freedesktop.Notifications"


def emit(signal, values):
    connection.emit_signal(None, PATH, NAME, signal, values)
    return False


def call(conn, sender, path, interface, method, parameters, invocation):
    if method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (capabilities,)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("test-notifications", "standfit", "1", "1.2")))
    elif method == "CloseNotification":
        with open(record, "a") as out:
            out.write(json.dumps({"closed": parameters.unpack()[0]}) + "\n")
        invocation.return_value(None)
    elif method == "Notify":
        app, replaces, icon, summary, body, actions, hints, timeout = parameters.unpack()
        if replaces:
            number = replaces
        else:
            next_id[0] += 1
            number = next_id[0]
        pairs = [[actions[i], actions[i + 1]] for i in range(0, len(actions) - 1, 2)]
        with open(record, "a") as out:
            out.write(json.dumps({
                "id": number, "app": app, "summary": summary, "body": body, "icon": icon, "actions": pairs,
                "urgency": hints.get("urgency"), "desktopEntry": hints.get("desktop-entry"),
                "timeout": timeout, "resident": bool(hints.get("resident", False)), "replaces": replaces,
                **({"replyPlaceholder": hints["x-kde-reply-placeholder-text"]} if "x-kde-reply-placeholder-text" in hints else {}),
            }) + "\n")
        invocation.return_value(GLib.Variant("(u)", (number,)))
        if reply is not None and not replied[0] and any(key == "inline-reply" for key, _ in pairs):
            replied[0] = True
            GLib.timeout_add(50, emit, "NotificationReplied", GLib.Variant("(us)", (number, reply)))
            GLib.timeout_add(100, emit, "NotificationClosed", GLib.Variant("(uu)", (number, 2)))
            return
        if choose is not None and [tuple(pair) for pair in pairs] == [("default", choose)]:
            # One of a question's choices shown on its own: clicked, as a user picks it in a list.
            GLib.timeout_add(50, emit, "ActionInvoked", GLib.Variant("(us)", (number, "default")))
            return
        if press in ("(bubble)", "(bubble-close)") and pairs and not acted:
            # A click on the bubble itself: the server's "default" action, which no button has;
            # with "(bubble-close)", then closed as dismissed, as dunst closes what was clicked.
            acted.add(number)
            GLib.timeout_add(50, emit, "ActionInvoked", GLib.Variant("(us)", (number, "default")))
            if press == "(bubble-close)":
                GLib.timeout_add(60, emit, "NotificationClosed", GLib.Variant("(uu)", (number, 2)))
            return
        if dismiss and pairs and number not in acted:
            acted.add(number)
            GLib.timeout_add(50, emit, "NotificationClosed", GLib.Variant("(uu)", (number, 2)))
            return
        if press in ("(bubble)", "(bubble-close)"):
            return
        for key, label in pairs:
            if label == press:
                GLib.timeout_add(50, emit, "ActionInvoked", GLib.Variant("(us)", (number, key)))
                if twice:
                    GLib.timeout_add(400, emit, "ActionInvoked", GLib.Variant("(us)", (number, key)))
                else:
                    GLib.timeout_add(100, emit, "NotificationClosed", GLib.Variant("(uu)", (number, 2)))
                break


node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
connection.register_object(PATH, node.interfaces[0], call, None, None)


def acquired(conn, name):
    open(record, "a").close()


Gio.bus_own_name_on_connection(connection, NAME, Gio.BusNameOwnerFlags.NONE, acquired, lambda *a: loop.quit())
loop.run()
