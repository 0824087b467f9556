"""The agent hook runtime.

Lean on purpose: `smriti hook` imports this package on every prompt, so this file imports nothing.
"""
