"""Readers: one module per input format."""
