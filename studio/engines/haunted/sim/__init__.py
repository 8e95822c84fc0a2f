"""Batch simulation of Haunted Tiles rounds (numba), fairness by simulation, rollout play.

``kernels`` plays rounds on arrays between simple policies, ``plain`` is the same on
``rules.step`` (the reference the tests compare against), ``batch`` is the API over both, and
``fairness`` measures a map's home/away balance with it.
"""
