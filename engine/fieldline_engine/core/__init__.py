"""Physics-neutral pieces every analysis family uses (docs/multiphysics.md §4). Imports no family."""
