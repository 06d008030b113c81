"""Synthetic photo generator: deck artwork, backgrounds, scene composition, camera effects."""
