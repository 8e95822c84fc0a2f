"""AI runners: untrusted AI code runs in sandboxed worker processes, never in the studio.

``make_player(source)`` is the entry point; see ``runner.WorkerPlayer`` for the process model.
"""

from studio.engines.haunted.ai.factory import JS_INSTALL_HINT, make_player
from studio.engines.haunted.ai.runner import WorkerPlayer

__all__ = ["JS_INSTALL_HINT", "WorkerPlayer", "make_player"]
