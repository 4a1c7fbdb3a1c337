"""A table and everything pressed at it: load, apply, commit; the lobby and its seats,
moves and looking, who sees what after a change, the computer players' seats and turns,
the rematch, undo by agreement, the table's language and who may watch or act.

It may import `base` and `pictures`, the store, `render`, `languages` and the engines.
"""
