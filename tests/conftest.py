"""Settings for every test: computer players think with a tiny budget (fast, still seeded)."""

import os

os.environ.setdefault("ESCAPE_AI_SCALE", "0.02")
