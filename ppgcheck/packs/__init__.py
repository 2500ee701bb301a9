"""A rules pack's files and programs, read safely: confinement, the bounded child, the one
confined clingo parser and the statement graph.  Nothing here knows a report or a ruling."""
