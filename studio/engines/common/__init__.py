"""Pieces shared by the engines."""
