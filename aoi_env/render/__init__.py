"""Renderers: plain/ANSI text (``text``) and SVG (``svg``)."""
