"""Pictures and the CPU workers that draw them (and search for the computer players).

Owns the worker pool, the drawing jobs it runs and each table's pictures drawn once per
version, language and seat. It may import `base`, `render` and the engines.
"""
