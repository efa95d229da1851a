"""Linear static structural analysis (docs/structural.md): isotropic linear elasticity per body, supports and
loads on picked faces, stresses, reactions."""
