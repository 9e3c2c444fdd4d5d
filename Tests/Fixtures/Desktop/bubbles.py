#!/usr/bin/python3
"""What a notification server shows, read through AT-SPI as a screen reader reads it.

    bubbles.py APPLICATION read          one line per bubble: "summary | body | [button, ...]"
    bubbles.py APPLICATION press LABEL   presses the button labelled LABEL (exit 1 when none)
    bubbles.py APPLICATION where LABEL   the middle of the button labelled LABEL, "x y" on the screen
                                         (for a click through X, which also gives its window the focus)

APPLICATION is the accessible application's name: xfce4-notifyd, whose every window is a bubble
(summary and body its labels), or plasmashell, whose bubbles are the windows holding a
notification (summary its name, body its text). Buttons are listed as they are laid out, left to
right, leaving out a bubble's header (Plasma's Configure, Minimize and Close, above the summary);
a body's line breaks are written `\\n`. Exit status 2 when the application is not on the
accessibility bus.
"""
import sys

import pyatspi


def application(name):
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == name:
            return app
    return None


def descendants(accessible):
    for child in accessible:
        if child is None:
            continue
        yield child
        yield from descendants(child)


def showing(accessible):
    return accessible.getState().contains(pyatspi.STATE_SHOWING)


def position(accessible):
    extents = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return (extents.y, extents.x)


def one_line(text):
    # Qt writes a line break as U+2028 and GTK as "\n": both are a line here.
    return "\\n".join(line.strip() for line in text.strip().splitlines())


def bubbles(app):
    """Each showing bubble as (summary, body, buttons, frame)."""
    found = []
    for frame in app:
        if frame is None or not showing(frame):
            continue
        nodes = list(descendants(frame))
        buttons = [node for node in nodes if node.getRole() == pyatspi.ROLE_PUSH_BUTTON and showing(node)]
        if app.name == "plasmashell":
            notifications = [node for node in nodes if node.getRole() == pyatspi.ROLE_NOTIFICATION]
            if not notifications:
                continue
            notification = notifications[0]
            summary = notification.name
            texts = [node.queryText().getText(0, -1) for node in descendants(notification)
                     if node.getRole() == pyatspi.ROLE_TEXT and showing(node)]
            body = "\\n".join(one_line(text) for text in texts)
            top = position(notification)[0]
            buttons = [button for button in buttons if position(button)[0] > top]
        else:
            labels = [node.name for node in nodes if node.getRole() == pyatspi.ROLE_LABEL and node.name]
            summary = labels[0] if labels else ""
            body = "\\n".join(one_line(label) for label in labels[1:])
        buttons.sort(key=position)
        found.append((summary, body, [button.name for button in buttons], frame))
    return found


def press(frame, label):
    for node in descendants(frame):
        if node.getRole() == pyatspi.ROLE_PUSH_BUTTON and node.name == label and showing(node):
            action = node.queryAction()
            for index in range(action.nActions):
                if action.getName(index).lower() in ("click", "press"):
                    action.doAction(index)
                    return True
    return False


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    app = application(sys.argv[1])
    if app is None:
        print(f"{sys.argv[1]} is not on the accessibility bus", file=sys.stderr)
        return 2
    shown = bubbles(app) if sys.argv[2] == "read" else [(None, None, None, frame) for frame in app if frame is not None]
    if sys.argv[2] == "read" and len(sys.argv) == 3:
        for summary, body, buttons, _ in shown:
            print(f"{summary} | {body} | [{', '.join(buttons)}]")
        return 0
    if sys.argv[2] == "press" and len(sys.argv) == 4:
        if any(press(frame, sys.argv[3]) for *_, frame in shown):
            return 0
        print(f"no button labelled {sys.argv[3]!r}", file=sys.stderr)
        return 1
    if sys.argv[2] == "where" and len(sys.argv) == 4:
        for *_, frame in shown:
            for node in descendants(frame):
                if node.getRole() == pyatspi.ROLE_PUSH_BUTTON and node.name == sys.argv[3] and showing(node):
                    extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                    print(f"{extents.x + extents.width // 2} {extents.y + extents.height // 2}")
                    return 0
        print(f"no button labelled {sys.argv[3]!r}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main())
