"""What the server itself writes to a client's terminal: set up for a shared view, and put back
when a session ends without the studio doing it."""

RESTORE_TERMINAL = (
    b"\x18"  # CAN: ends an escape sequence the studio's last bytes may have left half-sent
    b"\x1b[<u"  # the kitty keyboard protocol off (before leaving the alternate screen)
    b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"  # mouse reports off
    b"\x1b[?2004l\x1b[?1004l\x1b[?2048l\x1b[?7h"  # bracketed paste, focus, resize reports
    b"\x1b[0m\x1b[?1049l\x1b[?25h"  # plain text, the normal screen, the cursor shown
)
"""What the studio writes when it leaves the terminal, for the server to write when the studio
cannot: it was ended by the server stopping, or killed. Without it the client's terminal stayed
in the alternate screen, with mouse reports on and no cursor."""

VIEWER_SETUP = b"\x1b[?1049h\x1b[?25l\x1b[0m\x1b[H\x1b[2J"
"""A spectator joining a shared view: the alternate screen, no cursor, cleared (the shared
studio's own set-up went to nobody, see ``studio.ssh.broadcast``)."""
