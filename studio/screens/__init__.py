"""Screens: thin views over engine state; one module per screen."""
