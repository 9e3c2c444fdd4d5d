#!/usr/bin/python3
"""What a notification server shows, read through AT-SPI as a screen reader reads it.

    bubbles.py APPLICATION read          one line per bubble: "summary | body | [button, ...]"
    bubbles.py APPLICATION press LABEL   clicks the button labelled LABEL (exit 1 when none)

APPLICATION is the accessible application's name (xfce4-notifyd). Lines are printed in the
order AT-SPI lists the bubbles; a bubble's labels are its summary then its body lines.
Exit status 2 when the application is not on the accessibility bus.
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


def bubble_line(frame):
    labels, buttons = [], []
    for node in descendants(frame):
        role = node.getRole()
        if role == pyatspi.ROLE_LABEL and node.name:
            labels.append(node.name)
        elif role == pyatspi.ROLE_PUSH_BUTTON:
            buttons.append(node.name)
    summary = labels[0] if labels else ""
    body = "\\n".join(label.replace("\n", "\\n") for label in labels[1:])
    return f"{summary} | {body} | [{', '.join(buttons)}]"


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    app = application(sys.argv[1])
    if app is None:
        print(f"{sys.argv[1]} is not on the accessibility bus", file=sys.stderr)
        return 2
    frames = [child for child in app if child is not None and child.getRole() in (pyatspi.ROLE_FRAME, pyatspi.ROLE_WINDOW)
              and child.getState().contains(pyatspi.STATE_SHOWING)]
    if sys.argv[2] == "read":
        for frame in frames:
            print(bubble_line(frame))
        return 0
    if sys.argv[2] == "press" and len(sys.argv) == 4:
        for frame in frames:
            for node in descendants(frame):
                if node.getRole() == pyatspi.ROLE_PUSH_BUTTON and node.name == sys.argv[3]:
                    action = node.queryAction()
                    for index in range(action.nActions):
                        if action.getName(index) == "click":
                            action.doAction(index)
                            return 0
        print(f"no button labelled {sys.argv[3]!r}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main())
