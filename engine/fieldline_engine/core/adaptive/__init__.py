"""Adaptive mesh refinement (`adaptiveRefinement`), physics-neutral: docs/adaptive.md."""
