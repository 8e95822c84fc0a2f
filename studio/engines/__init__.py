"""Pure game engines: no Textual, no Rich, no file or terminal I/O."""
