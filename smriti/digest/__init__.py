"""Categorization and distillation without an LLM: the rules, their vocabularies (data files, in
`data/`) and the glue that stores their results."""
