"""Haunted House: explore your house floor by floor, fend off ghosts with cats and lights."""

from engines.haunted_house.game import HauntedHouse

GAME = HauntedHouse()
