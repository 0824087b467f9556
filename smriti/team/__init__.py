"""Sharing knowledge through the team's repository: the knowledge-file format, share, sync, check,
redaction, the team config and git."""
