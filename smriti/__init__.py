"""smriti: one memory of everything a team's AI coding agents learned.

This module deliberately imports nothing: the console script's hook path must start in
milliseconds, and every `import smriti.x` runs this file first.
"""
