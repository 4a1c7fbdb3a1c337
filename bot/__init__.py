"""Escape: the chat bot. `service` is the platform-neutral heart, `store` the only SQL."""
