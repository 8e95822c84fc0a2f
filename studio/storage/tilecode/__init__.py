"""TileCode projects on disk (tilecode.md §4): what the kind plugs into storage (``kind``: the
body ⇄ game conversion, validation, template), reading a body (``body``), the authoring checks
(``check``), the studio's own art (``art``) and replay files (``replay``)."""
