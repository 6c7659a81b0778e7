"""The environment model: path lists, change operations, recorded state, the planner.

Nothing here reads ``os.environ``, runs a subprocess or prints: every function
takes the environment as a mapping and returns new data.
"""
