"""``studio serve --ssh``: the studio over SSH without administering sshd.

Each SSH session gets its own studio process in its own pseudo-terminal (``pty_process``), so a
crashing or hostile session never touches another one or the server; the server (``server``)
only authenticates, bridges bytes and enforces the policy, and ``flow`` holds a session's studio
while its client does not read. ``hostkey`` keeps the server's key; ``environment`` is what a
session starts with, ``child`` its first code, and ``jail`` the Landlock that ``child`` applies.
Nothing here imports Textual or Rich: the server stays small and the UI lives in the children.
"""
