"""Delivering the service's plans, written once over each front end's `Transport`."""

from bot.delivery.deliverer import Delivered, Delivery
from bot.delivery.transport import Asked, Sent, Transient, Transport, Unreachable

__all__ = ["Asked", "Delivered", "Delivery", "Sent", "Transient", "Transport", "Unreachable"]
