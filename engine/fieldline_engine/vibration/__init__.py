"""Vibration (docs/vibration.md): natural frequencies and mode shapes (modal), and the steady-state response
to harmonic loads (harmonic), on the elasticity operator shared with structural (core/elasticity/)."""
