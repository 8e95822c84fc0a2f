"""Behaviour-tree projects on disk (btree.md §4.4): what the kind plugs into storage
(``kind``: body validation, summary, template), the body ⇄ authored tree conversion (``body``),
the project as the editor holds it (``project``), trrbt game files with their includes
(``trrbt``) and a played game's replay beside its project (``replay``)."""
