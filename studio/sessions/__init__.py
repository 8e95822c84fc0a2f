"""Use cases that a command and a screen both need, where they involve files or processes and so
cannot sit in the pure engines (screens.md, "the layers"). Never imports Textual or Rich."""
